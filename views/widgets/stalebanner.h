// The strip under the pages (BannerOverlay) while the health figures are stale: the
// cause in plain words ("Cannot reach the database: the server refuses connections (is it
// running?)", the sentence the alerts and the status bar use too, HealthMonitor::failureHeadline),
// the driver's words behind Details, when the figures shown were current (or that there are none
// yet), and "retrying in N s", counted down once a second. Hidden while the figures are current.
#pragma once

#include <QFrame>
#include <QTimer>

class DetailsButton;
class HealthMonitor;
class QLabel;

class StaleBanner : public QFrame
{
    Q_OBJECT
public:
    explicit StaleBanner(HealthMonitor *monitor, QWidget *parent = nullptr);

    QString text() const;
    QString detail() const; // the driver's words behind Details

private:
    void onStaleChanged(bool stale);
    void updateText();
    QString retryText() const;

    HealthMonitor *m_monitor = nullptr;
    QLabel *m_text = nullptr;
    DetailsButton *m_details = nullptr;
    QTimer m_countdown; // runs only while stale
};
