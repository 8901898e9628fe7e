#include "historymonitor.h"

#include "healthmonitor.h"
#include "historyworker.h"

#include <QThread>

HistoryMonitor::HistoryMonitor(
    HealthMonitor *health, const DatabaseUrl &url, const OpenOptions &options, QObject *parent)
    : QObject(parent)
{
    qRegisterMetaType<DeliveryHistory>();
    auto *worker = new HistoryWorker(url, options);
    m_worker = worker;
    worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, worker, &QObject::deleteLater);
    m_thread.setObjectName(u"outbox-history"_qs);
    m_thread.start();
    connect(worker, &HistoryWorker::historyReady, this, &HistoryMonitor::acceptHistory);
    connect(worker, &HistoryWorker::failed, this, &HistoryMonitor::acceptFailure);
    connect(health, &HealthMonitor::snapshotChanged, this,
        [this](const HealthSnapshot &snapshot) { request(snapshot.now); });
}

HistoryMonitor::~HistoryMonitor()
{
    m_thread.quit();
    m_thread.wait(); // for the statement in progress, if any: bounded by the statement timeout
}

void HistoryMonitor::setProfile(const OutboxProfile &profile)
{
    HistoryWorker *worker = m_worker;
    if (!worker)
        return;
    QMetaObject::invokeMethod(
        worker, [worker, profile] { worker->setProfile(profile); }, Qt::QueuedConnection);
}

void HistoryMonitor::setRange(HistoryRange range)
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (range == m_range)
        return;
    m_range = range;
    // An answer for the old range still on its way is dropped (acceptHistory); the new range is
    // asked for now, queued behind it on the worker's thread.
    if (m_seenNow)
        issue(m_lastNow);
}

void HistoryMonitor::request(qint64 now)
{
    Q_ASSERT(QThread::currentThread() == thread());
    m_lastNow = now;
    m_seenNow = true;
    if (isRunning()) {
        m_pending = true;
        return;
    }
    issue(now);
}

void HistoryMonitor::issue(qint64 now)
{
    HistoryWorker *worker = m_worker;
    if (!worker)
        return;
    m_pending = false;
    const quint64 id = ++m_issued;
    const HistoryRange range = m_range;
    QMetaObject::invokeMethod(
        worker, [worker, id, range, now] { worker->request(id, range, now); },
        Qt::QueuedConnection);
}

bool HistoryMonitor::accept(quint64 requestId)
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (requestId <= m_answered || requestId > m_issued)
        return false; // older than an answer already taken, or never asked
    m_answered = requestId;
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
