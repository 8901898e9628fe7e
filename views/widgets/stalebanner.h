// The strip over the pages' bottom edge (BannerOverlay) while the health figures are stale: the
// cause in plain words ("Cannot reach the database: the server refuses connections (is it
// running?)"), when the figures shown were current, and "retrying in N s", counted down once a
// second. Hidden while the figures are current.
#pragma once

#include <QFrame>
#include <QTimer>

class HealthMonitor;
class QLabel;

class StaleBanner : public QFrame
{
    Q_OBJECT
public:
    explicit StaleBanner(HealthMonitor *monitor, QWidget *parent = nullptr);

    QString text() const;

private:
    void onStaleChanged(bool stale);
    void updateText();
    QString retryText() const;

    HealthMonitor *m_monitor = nullptr;
    QLabel *m_text = nullptr;
    QTimer m_countdown; // runs only while stale
};
