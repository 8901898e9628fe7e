#include "historymonitor.h"

#include "healthmonitor.h"
#include "historyworker.h"

HistoryMonitor::HistoryMonitor(
    HealthMonitor *health, const DatabaseUrl &url, const OpenOptions &options, QObject *parent)
    : QObject(parent)
    , m_worker(u"outbox-history"_qs, new HistoryWorker(url, options))
{
    qRegisterMetaType<DeliveryHistory>();
    m_worker.start();
    HistoryWorker *worker = m_worker.worker();
    connect(worker, &HistoryWorker::historyReady, this, &HistoryMonitor::acceptHistory);
    connect(worker, &HistoryWorker::failed, this, &HistoryMonitor::acceptFailure);
    // Read again when the outbox changed (a new minute changes the snapshot's throughput too),
    // or to read on into the older buckets of an incomplete reading.
    connect(health, &HealthMonitor::snapshotChanged, this,
        [this, health](const HealthSnapshot &snapshot) {
            if (health->figuresChanged() || (m_hasHistory && !m_history.complete))
                request(snapshot.now);
        });
}

HistoryMonitor::~HistoryMonitor()
{
    m_worker.stop(); // for the statement in progress, if any: bounded by the statement timeout
}

void HistoryMonitor::setProfile(const OutboxProfile &profile)
{
    m_worker.post([profile](HistoryWorker *worker) { worker->setProfile(profile); });
}

void HistoryMonitor::setRange(HistoryRange range)
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (range == m_range)
        return;
    m_range = range;
    // An answer for the old range still on its way is dropped (acceptHistory); the new range is
    // asked for now, queued behind it on the worker's thread.
    if (m_seenNow && m_wanted)
        issue(m_lastNow);
    else if (m_seenNow)
        m_missed = true;
}

void HistoryMonitor::setWanted(bool wanted)
{
    Q_ASSERT(QThread::currentThread() == thread());
    m_wanted = wanted;
    if (wanted && m_missed) {
        m_missed = false;
        request(m_lastNow);
    }
}

void HistoryMonitor::request(qint64 now)
{
    Q_ASSERT(QThread::currentThread() == thread());
    m_lastNow = now;
    m_seenNow = true;
    if (!m_wanted) {
        m_missed = true;
        return;
    }
    if (isRunning()) {
        m_pending = true;
        return;
    }
    issue(now);
}

void HistoryMonitor::issue(qint64 now)
{
    if (!m_worker.worker())
        return;
    m_pending = false;
    const quint64 id = m_requests.next();
    const HistoryRange range = m_range;
    m_worker.post([id, range, now](HistoryWorker *worker) { worker->request(id, range, now); });
}

bool HistoryMonitor::accept(quint64 requestId)
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (!m_requests.acceptNewer(requestId))
        return false; // older than an answer already taken, or never asked
    if (m_pending && !isRunning())
        issue(m_lastNow);
    return true;
}

void HistoryMonitor::acceptHistory(quint64 requestId, const DeliveryHistory &history)
{
    if (!accept(requestId) || history.range != m_range)
        return;
    m_history = history;
    m_hasHistory = true;
    emit historyChanged(m_history);
}

void HistoryMonitor::acceptFailure(quint64 requestId, const QString &error)
{
    if (!accept(requestId))
        return;
    emit failed(error);
}
