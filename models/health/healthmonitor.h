// The GUI side of the health snapshot: owns the worker thread, asks for a snapshot every
// interval (2 s by default, five times slower while the window is hidden) and re-emits the
// newest result. Results of requests older than the newest one delivered are dropped, so a
// slow answer never overwrites a fresher one.
//
// It also heals: after a failed snapshot it retries with capped exponential backoff (0.5 s,
// 1 s, 2 s … never longer than the refresh interval; after an authentication failure from the
// interval up to five minutes, as retrying cannot mend it and may lock the account), and says
// meanwhile that the figures are stale and why. A request with no answer within one refresh
// interval (a network drop) marks them stale too. The interval adapts to what the snapshot alone
// costs the database (adaptiveIntervalMs(), costBasisMs()): the event table, the history and the
// diagnosis that follow a snapshot each keep their own cadence, so a slow payload search on the
// table never slows the tiles, the charts or the alerts.
//
// The snapshot is the window's change detector: the reads that follow it (the event table, the
// history, the diagnosis, the replay log) run only when figuresChanged() says the outbox
// changed, so an open window on a quiet outbox reads one snapshot per interval and redraws
// nothing.
#pragma once

#include "dbconnection.h"
#include "healthsnapshot.h"
#include "requestids.h"
#include "workerthread.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <functional>

struct FailureCause;
class HealthWorker;
class OutboxProfile;

class HealthMonitor : public QObject
{
    Q_OBJECT
public:
    using Clock = std::function<qint64()>;
    static constexpr int DefaultIntervalMs = 2000;
    static constexpr int SlowedFactor = 5;
    static constexpr int FirstRetryMs = 500;
    // The adaptive interval keeps the database busy with snapshots at most 1/CostFactor of
    // the time (0.8 s a minute; the diagnosis and the event table space their own reads by the
    // same rule, each on its own cost), up to MaxAdaptiveIntervalMs: a healthy outbox, whose
    // snapshot costs a few milliseconds at any size, keeps the user's interval; one with a few
    // hundred thousand PENDING rows refreshes less often (a 10M outbox on MariaDB, 250-400 ms a
    // snapshot: every 20-30 s). The ceiling is where freshness wins over the budget: only a
    // snapshot that costs more than 0.8 s makes a window busier than that (docs/user-guide.md,
    // Refresh interval).
    static constexpr int CostFactor = 75;
    static constexpr int MaxAdaptiveIntervalMs = 60000;
    // The reads that follow a snapshot run at least this often on a quiet outbox: a change no
    // figure shows (an error text rewritten in place) or a finding that only time brings (a
    // stalled relay) shows within a minute.
    static constexpr int QuietFollowUpMs = 60000;

    // Starts paused: call resume() to refresh periodically, or refreshNow() once.
    explicit HealthMonitor(const DatabaseUrl &url, QObject *parent = nullptr);
    HealthMonitor(const DatabaseUrl &url, const OpenOptions &options, QObject *parent = nullptr);
    ~HealthMonitor() override;

    // The time a request is computed at; wall-clock ms since the epoch unless a simulation
    // sets its logical clock.
    void setClock(Clock clock);
    // Counts a story tells instead of the database's (the outage storm: run to its end ahead,
    // then told on its logical clock): applied to each snapshot; none returned, the database's.
    void setToldCounts(std::function<std::optional<HealthCounts>()> told);
    // The schema the worker reads (another library's table through its profile); takes effect
    // before the next request.
    void setProfile(const OutboxProfile &profile);
    // The profile chosen as `outboxctl --db URL` chooses it, on the worker each time it
    // connects; profileDetected says which.
    void detectProfile();
    // Reads only the figures HealthGrade judges (HealthSnapshot::isSummary), for a fleet row:
    // two one-row statements instead of a window's whole snapshot.
    void setSummaryOnly();
    // The replication slot each snapshot reads (HealthSnapshot::cdc), with its WAL rate and
    // idle time tracked on the worker; empty: none. Takes effect before the next request.
    void setCdcSlot(const QString &slot);
    void setInterval(int ms); // the user's interval: the adaptive one never goes below it
    int interval() const { return m_interval; }
    void setAdaptive(bool adaptive);
    bool isAdaptive() const { return m_adaptive; }
    // The interval after adapting to the last refresh's cost (interval() when not adaptive).
    int adaptedInterval() const;
    int effectiveInterval() const
    {
        return m_slowed ? adaptedInterval() * SlowedFactor : adaptedInterval();
    }
    // For a hidden window: refresh SlowedFactor times less often. Back to normal, it reads at
    // once if the last figures are older than the interval it now keeps (and it is not paused).
    void setSlowed(bool slowed);
    bool isSlowed() const { return m_slowed; }
    bool isPaused() const { return !m_timer.isActive(); }

    // cost × CostFactor, at least userMs, at most MaxAdaptiveIntervalMs (or userMs if longer).
    static int adaptiveIntervalMs(qint64 costMs, int userMs);
    // The wait before retry number `failures` (1 = after the first failure): FirstRetryMs,
    // doubling, at most capMs.
    static int retryDelayMs(int failures, int capMs);

    // What the last snapshot cost the database (its queryMs). Only the snapshot is charged:
    // the reads that follow it run on other threads and connections (the event table, the
    // detail, the history) or space themselves by their own cost (the diagnosis, on this
    // monitor's thread), so none of them can make the tiles wait; charging them made one
    // unindexed payload search on the table hold the tiles at 60 s for minutes.
    qint64 lastCostMs() const { return m_snapshotCostMs; }
    // What the adaptive interval follows. It stretches on the median cost of this snapshot and
    // the PastCosts before it, so one slow snapshot (the throughput's whole hour, read once a
    // minute) does not stretch it and a lasting change does within three; it comes back down
    // as soon as two snapshots in a row are cheap again (the higher of the last two, when lower
    // than the median), not after the slow ones have aged out of the median.
    // 0 after the first snapshot only: it starts cold, and keeps the user's interval.
    qint64 costBasisMs() const;

    // The thread the snapshot runs on: a follow-up read of a higher layer (the diagnosis) may
    // put its worker there, so it runs after the snapshot and never beside it. The thread ends
    // when the monitor is destroyed (connect its finished() to the worker's deleteLater()).
    QThread *workerThread() { return m_worker.thread(); }

    quint64 lastRequestId() const { return m_requests.newest(); }
    bool hasSnapshot() const { return m_hasSnapshot; }
    const HealthSnapshot &snapshot() const { return m_snapshot; }
    // Whether the reads that follow the newest snapshot should run: its figures differ from the
    // snapshot's before (HealthSnapshot::sameFigures), or it is the first, the first after
    // stale figures, the answer to refreshNow() (F5, an operator's replay, a teaching step, a
    // retry), or the first for QuietFollowUpMs. Valid while snapshotChanged() is delivered.
    bool figuresChanged() const { return m_figuresChanged; }

    // Stale: the last request failed or has had no answer for an interval; the figures shown
    // are those of lastGoodAt() (or none).
    bool isStale() const { return m_stale; }
    // The last good snapshot's time, or the first failure's when there was none.
    QDateTime staleSince() const { return m_staleSince; }
    QDateTime lastGoodAt() const { return m_lastGoodAt; }
    // Why, in plain words (a password never included); lastFailureDetail() has the driver's.
    QString lastFailure() const { return m_lastFailure; }
    QString lastFailureDetail() const { return m_lastFailureDetail; }
    // The sentence every view names the failure by (FailureCause::headline): "Cannot reach the
    // database: the server refuses connections (is it running?)"; empty while current.
    QString failureHeadline() const { return m_failureHeadline; }
    // True when the cause is that the database cannot be reached (refused, dropped, no answer).
    bool isConnectionFailure() const { return m_connectionFailure; }
    // The server refused the credentials: retries back off from the interval, doubling, up to
    // FailureCause::AuthRetryCapMs (five minutes), not capped at the interval.
    bool isAuthenticationFailure() const { return m_authenticationFailure; }
    // When the next retry runs; invalid when none is scheduled (waiting for an answer, paused).
    QDateTime nextRetryAt() const { return m_nextRetryAt; }
    int consecutiveFailures() const { return m_failures; }
    int currentRetryDelayMs() const { return m_retryDelayMs; }
    // True while the newest snapshot request has had no answer yet.
    bool isWaiting() const { return m_requests.isBusy(); }

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
    void staleChanged(bool stale);
    // Any change of the stale state's details: cause, next retry, waiting for an answer.
    void healthStateChanged();
    void intervalChanged(int effectiveMs);
    void profileDetected(const QString &name); // a built-in's name; empty: the native schema

private:
    void connectWorker();
    void refreshIfIdle();
    void request();
    bool followUpDue(quint64 requestId, const HealthSnapshot &snapshot);
    bool isCurrent(quint64 requestId);
    void onWatchdog();
    void markStale(const FailureCause &cause);
    void markCurrent();
    void scheduleRetry();
    void updateTimerInterval();

    WorkerThread<HealthWorker> m_worker;
    QTimer m_timer;
    QTimer m_retryTimer; // single shot, while stale
    QTimer m_watchdog; // single shot, one interval after each request
    Clock m_clock;
    int m_interval = DefaultIntervalMs;
    bool m_adaptive = true;
    bool m_slowed = false;
    static constexpr int PastCosts = 4;
    QList<qint64> m_pastCostsMs; // of the PastCosts snapshots before this one, oldest first
    qint64 m_snapshotCostMs = 0;
    RequestIds m_requests; // an answer older than one delivered is dropped
    bool m_hasSnapshot = false;
    std::function<std::optional<HealthCounts>()> m_toldCounts;
    HealthSnapshot m_snapshot;
    bool m_figuresChanged = false;
    quint64 m_askedId = 0; // the newest request refreshNow() sent, until answered
    QElapsedTimer m_sinceFollowUp; // since the last snapshot with figuresChanged()
    bool m_stale = false;
    bool m_connectionFailure = false;
    bool m_authenticationFailure = false;
    int m_failures = 0;
    int m_retryDelayMs = 0;
    QDateTime m_staleSince;
    QDateTime m_lastGoodAt;
    QDateTime m_nextRetryAt;
    QString m_lastFailure;
    QString m_lastFailureDetail;
    QString m_failureHeadline;
};
