// What the dashboard shows while its database is being opened at start-up (off the GUI thread,
// by a ConnectionOpener), and instead of exiting when it cannot be opened: the cause in the
// plain words the window's banner uses (FailureCause::headline), the driver's words behind
// Details, Retry, and Connect… and Open demo one click away. A database that cannot be reached
// is tried again by itself on the banner's backoff (HealthMonitor::retryDelayMs: 0.5 s, 1 s, 2 s,
// then every 2 s; refused credentials from 2 s doubling up to 5 min), counted down on screen.
#pragma once

#include <QDateTime>
#include <QMainWindow>
#include <QTimer>

class DetailsButton;
class QLabel;
class QPushButton;

class StartWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit StartWindow(QWidget *parent = nullptr);

    void setOpening(const QString &database); // "Opening postgresql://…" (no password)
    // `error`: the opener's words (password masked). With `autoRetry`, a database that could
    // not be reached is tried again after the backoff (retryRequested).
    void setFailed(const QString &database, const QString &error, bool autoRetry = true);
    // A retry is under way: the cause stays on screen until it answers.
    void setRetrying();
    QString message() const; // title, cause and retry line
    QString detail() const; // the driver's words behind Details
    QString retryText() const;
    int consecutiveFailures() const { return m_failures; }
    // The wait before the next automatic try; 0 when none is scheduled.
    int retryDelayMs() const { return m_retry.isActive() ? m_retryDelayMs : 0; }
    QPushButton *connectButton() const { return m_connect; }
    QPushButton *retryButton() const { return m_retryButton; }

signals:
    void connectRequested();
    void demoRequested();
    void retryRequested();

protected:
    void hideEvent(QHideEvent *event) override;

private:
    void retryNow();
    void updateRetryText();

    QLabel *m_title = nullptr;
    QLabel *m_message = nullptr;
    QLabel *m_retryLine = nullptr;
    DetailsButton *m_details = nullptr;
    QPushButton *m_retryButton = nullptr;
    QPushButton *m_connect = nullptr;
    QPushButton *m_demo = nullptr;
    QTimer m_retry; // single shot: the next automatic try
    QTimer m_countdown; // once a second while a try is scheduled
    QDateTime m_retryAt;
    int m_retryDelayMs = 0;
    int m_failures = 0; // in a row, since the last setOpening()
};
