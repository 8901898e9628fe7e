#include "healthmonitor.h"

#include "failurecause.h"
#include "healthworker.h"

#include <algorithm>

HealthMonitor::HealthMonitor(const DatabaseUrl &url, QObject *parent)
    : HealthMonitor(url, HealthWorker::defaultOpenOptions(), parent)
{ }

HealthMonitor::HealthMonitor(const DatabaseUrl &url, const OpenOptions &options, QObject *parent)
    : QObject(parent)
    , m_worker(u"outbox-health"_qs, new HealthWorker(url, options))
    , m_clock([] { return QDateTime::currentMSecsSinceEpoch(); })
{
    qRegisterMetaType<HealthSnapshot>();
    m_timer.setInterval(effectiveInterval());
    m_retryTimer.setSingleShot(true);
    m_watchdog.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &HealthMonitor::refreshIfIdle);
    connect(&m_retryTimer, &QTimer::timeout, this, &HealthMonitor::refreshNow);
    connect(&m_watchdog, &QTimer::timeout, this, &HealthMonitor::onWatchdog);
    connectWorker();
    m_worker.start();
}

HealthMonitor::~HealthMonitor()
{
    m_timer.stop();
    m_worker.stop(); // for the query in progress, if any: bounded by the statement timeout
}

void HealthMonitor::connectWorker()
{
    HealthWorker *worker = m_worker.worker();
    connect(worker, &HealthWorker::snapshotReady, this, &HealthMonitor::acceptSnapshot);
    connect(worker, &HealthWorker::failed, this, &HealthMonitor::acceptFailure);
    connect(worker, &HealthWorker::profileDetected, this, &HealthMonitor::profileDetected);
}

void HealthMonitor::setProfile(const OutboxProfile &profile)
{
    m_worker.post([profile](HealthWorker *worker) { worker->setProfile(profile); });
}

void HealthMonitor::detectProfile()
{
    m_worker.post([](HealthWorker *worker) { worker->setDetectProfile(); });
}

void HealthMonitor::setSummaryOnly()
{
    m_worker.post([](HealthWorker *worker) { worker->setSummaryOnly(true); });
}

void HealthMonitor::setCdcSlot(const QString &slot)
{
    m_worker.post([slot](HealthWorker *worker) { worker->setCdcSlot(slot); });
}

void HealthMonitor::setClock(Clock clock)
{
    m_clock = std::move(clock);
}

int HealthMonitor::adaptiveIntervalMs(qint64 costMs, int userMs)
{
    const qint64 wanted = std::max<qint64>(0, costMs) * CostFactor;
    const qint64 ceiling = std::max(userMs, MaxAdaptiveIntervalMs);
    return int(std::clamp<qint64>(wanted, userMs, ceiling));
}

int HealthMonitor::retryDelayMs(int failures, int capMs)
{
    qint64 delay = FirstRetryMs;
    for (int i = 1; i < failures && delay < capMs; ++i)
        delay *= 2;
    return int(std::max<qint64>(1, std::min<qint64>(delay, capMs)));
}

qint64 HealthMonitor::costBasisMs() const
{
    // The first snapshot starts cold (plans, caches, the throughput chart's whole hour): it
    // stretches nothing until a second one says what a snapshot costs.
    if (m_pastCostsMs.isEmpty())
        return 0;
    QList<qint64> costs = m_pastCostsMs;
    costs.append(lastCostMs());
    const qint64 recent = std::max(m_pastCostsMs.constLast(), lastCostMs());
    std::sort(costs.begin(), costs.end());
    const qint64 median = costs.at((costs.size() - 1) / 2); // the lower middle of an even count
    return std::min(median, recent);
}

int HealthMonitor::adaptedInterval() const
{
    return m_adaptive ? adaptiveIntervalMs(costBasisMs(), m_interval) : m_interval;
}

void HealthMonitor::setInterval(int ms)
{
    m_interval = qMax(1, ms);
    updateTimerInterval();
}

void HealthMonitor::setAdaptive(bool adaptive)
{
    m_adaptive = adaptive;
    updateTimerInterval();
}

void HealthMonitor::setSlowed(bool slowed)
{
    const bool waking = m_slowed && !slowed;
    m_slowed = slowed;
    updateTimerInterval();
    // Shown again: figures older than the interval now kept are read at once, not a whole
    // interval later (a hidden window of a costly outbox refreshes only every few minutes).
    if (waking && !isPaused() && m_hasSnapshot
        && m_lastGoodAt.msecsTo(QDateTime::currentDateTime()) >= adaptedInterval())
        refreshIfIdle();
}

// Setting a running timer's interval restarts it: only on a change, so the cadence holds.
void HealthMonitor::updateTimerInterval()
{
    const int interval = effectiveInterval();
    if (m_timer.interval() == interval)
        return;
    m_timer.setInterval(interval);
    emit intervalChanged(interval);
}

void HealthMonitor::resume()
{
    Q_ASSERT(QThread::currentThread() == thread());
    m_timer.start(effectiveInterval());
    refreshNow();
}

void HealthMonitor::pause()
{
    m_timer.stop();
    m_retryTimer.stop();
    m_watchdog.stop();
    if (m_nextRetryAt.isValid()) {
        m_nextRetryAt = {};
        emit healthStateChanged();
    }
}

// Asked for (not a timer's tick): its answer runs the reads that follow, changed or not.
void HealthMonitor::refreshNow()
{
    request();
    m_askedId = m_requests.newest();
}

void HealthMonitor::request()
{
    Q_ASSERT(QThread::currentThread() == thread());
    m_retryTimer.stop();
    m_nextRetryAt = {};
    const quint64 id = m_requests.next();
    const qint64 now = m_clock();
    m_worker.post([id, now](HealthWorker *worker) { worker->request(id, now); });
    if (!m_watchdog.isActive()) // the oldest unanswered request decides
        m_watchdog.start(effectiveInterval());
}

// A timer tick while the previous query still runs is skipped rather than queued behind it;
// while a retry is scheduled, the retry decides when the next request goes.
void HealthMonitor::refreshIfIdle()
{
    if (!isWaiting() && !m_retryTimer.isActive())
        request();
}

bool HealthMonitor::isCurrent(quint64 requestId)
{
    Q_ASSERT(QThread::currentThread() == thread());
    const bool taken = m_requests.acceptNewer(requestId);
    if (!isWaiting())
        m_watchdog.stop();
    return taken;
}

void HealthMonitor::setToldCounts(std::function<std::optional<HealthCounts>()> told)
{
    m_toldCounts = std::move(told);
}

void HealthMonitor::acceptSnapshot(quint64 requestId, const HealthSnapshot &read)
{
    if (!isCurrent(requestId))
        return;
    HealthSnapshot snapshot = read;
    if (const auto told = m_toldCounts ? m_toldCounts() : std::nullopt)
        snapshot.counts = *told;
    if (m_hasSnapshot) { // remember what the snapshot before cost
        m_pastCostsMs.append(lastCostMs());
        while (m_pastCostsMs.size() > PastCosts)
            m_pastCostsMs.removeFirst();
    }
    m_figuresChanged = followUpDue(requestId, snapshot);
    m_snapshot = snapshot;
    m_hasSnapshot = true;
    m_lastGoodAt = QDateTime::currentDateTime();
    m_snapshotCostMs = snapshot.queryMs;
    markCurrent();
    emit snapshotChanged(m_snapshot);
    updateTimerInterval();
}

bool HealthMonitor::followUpDue(quint64 requestId, const HealthSnapshot &snapshot)
{
    const bool asked = m_askedId != 0 && requestId >= m_askedId;
    if (asked)
        m_askedId = 0;
    const bool due = asked || !m_hasSnapshot || m_stale || !snapshot.sameFigures(m_snapshot)
        || !m_sinceFollowUp.isValid() || m_sinceFollowUp.elapsed() >= QuietFollowUpMs;
    if (due)
        m_sinceFollowUp.start();
    return due;
}

void HealthMonitor::acceptFailure(quint64 requestId, const QString &error)
{
    if (!isCurrent(requestId))
        return;
    ++m_failures;
    markStale(FailureCause::of(error));
    scheduleRetry();
    emit errorOccurred(m_lastFailureDetail);
}

// No answer within one interval: the request may hang on a dropped network until the connect
// or TCP timeout ends it. Say so now; the answer, when it comes, decides what follows.
void HealthMonitor::onWatchdog()
{
    if (!isWaiting())
        return;
    markStale(FailureCause::noAnswer(qMax(1, effectiveInterval() / 1000)));
}

void HealthMonitor::markStale(const FailureCause &cause)
{
    m_lastFailure = cause.plain;
    m_lastFailureDetail = cause.detail;
    m_failureHeadline = cause.headline();
    m_connectionFailure = cause.unreachable;
    m_authenticationFailure = cause.authentication;
    if (!m_stale) {
        m_stale = true;
        m_staleSince = m_lastGoodAt.isValid() ? m_lastGoodAt : QDateTime::currentDateTime();
        emit staleChanged(true);
    }
    emit healthStateChanged();
}

void HealthMonitor::markCurrent()
{
    m_failures = 0;
    m_retryDelayMs = 0;
    m_retryTimer.stop();
    m_nextRetryAt = {};
    if (!m_stale)
        return;
    m_stale = false;
    m_staleSince = {};
    m_lastFailure.clear();
    m_lastFailureDetail.clear();
    m_failureHeadline.clear();
    m_connectionFailure = false;
    m_authenticationFailure = false;
    emit staleChanged(false);
    emit healthStateChanged();
}

// Capped at the refresh interval: once the server is back, the next retry comes within one
// interval and its snapshot makes the window current again. Refused credentials are not mended
// by a server coming back: their retries back off further.
void HealthMonitor::scheduleRetry()
{
    m_retryDelayMs = m_authenticationFailure
        ? int(FailureCause::authRetryDelayMs(m_failures, adaptedInterval()))
        : retryDelayMs(m_failures, adaptedInterval());
    if (isPaused())
        return; // the user paused: no retries either; resume() tries at once
    m_retryTimer.start(m_retryDelayMs);
    m_nextRetryAt = QDateTime::currentDateTime().addMSecs(m_retryDelayMs);
    emit healthStateChanged();
}
