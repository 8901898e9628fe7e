// The GUI side of the health snapshot: owns the worker thread, asks for a snapshot every
// interval (2 s by default, five times slower while the window is hidden) and re-emits the
// newest result. Results of requests older than the newest one delivered are dropped, so a
// slow answer never overwrites a fresher one.
#pragma once

#include "dbconnection.h"
#include "healthsnapshot.h"

#include <QObject>
#include <QThread>
#include <QTimer>
#include <functional>

class HealthWorker;
class OutboxProfile;

class HealthMonitor : public QObject
{
    Q_OBJECT
public:
    using Clock = std::function<qint64()>;
    static constexpr int DefaultIntervalMs = 2000;
    static constexpr int SlowedFactor = 5;

    // Starts paused: call resume() to refresh periodically, or refreshNow() once.
    explicit HealthMonitor(const DatabaseUrl &url, QObject *parent = nullptr);
    HealthMonitor(const DatabaseUrl &url, const OpenOptions &options, QObject *parent = nullptr);
    ~HealthMonitor() override;

    // The time a request is computed at; wall-clock ms since the epoch unless a simulation
    // sets its logical clock.
    void setClock(Clock clock);
    // The schema the worker reads (another library's table through its profile); takes effect
    // before the next request.
    void setProfile(const OutboxProfile &profile);
    void setInterval(int ms);
    int interval() const { return m_interval; }
    int effectiveInterval() const { return m_slowed ? m_interval * SlowedFactor : m_interval; }
    // For a hidden window: refresh SlowedFactor times less often.
    void setSlowed(bool slowed);
    bool isSlowed() const { return m_slowed; }
    bool isPaused() const { return !m_timer.isActive(); }

    quint64 lastRequestId() const { return m_lastIssued; }
    bool hasSnapshot() const { return m_hasSnapshot; }
    const HealthSnapshot &snapshot() const { return m_snapshot; }

public slots:
    void resume(); // refreshes at once, then every effectiveInterval()
    void pause();
    void refreshNow();

    // The worker's answers (queued). One for a request older than the newest answer already
    // delivered, or for a request never issued, is dropped.
    void acceptSnapshot(quint64 requestId, const HealthSnapshot &snapshot);
    void acceptFailure(quint64 requestId, const QString &error);

signals:
    void snapshotChanged(const HealthSnapshot &snapshot);
    void errorOccurred(const QString &message);

private:
    void startWorker(const DatabaseUrl &url, const OpenOptions &options);
    void refreshIfIdle();
    bool isCurrent(quint64 requestId);

    QThread m_thread;
    HealthWorker *m_worker = nullptr; // lives on m_thread, deleted there when it finishes
    QTimer m_timer;
    Clock m_clock;
    int m_interval = DefaultIntervalMs;
    bool m_slowed = false;
    quint64 m_lastIssued = 0;
    quint64 m_lastAnswered = 0; // newest id with an answer, delivered or dropped
    quint64 m_newestDelivered = 0;
    bool m_hasSnapshot = false;
    HealthSnapshot m_snapshot;
};
