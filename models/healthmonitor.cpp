#include "healthmonitor.h"

#include "healthworker.h"

#include <QDateTime>

HealthMonitor::HealthMonitor(const DatabaseUrl &url, QObject *parent)
    : HealthMonitor(url, HealthWorker::defaultOpenOptions(), parent)
{ }

HealthMonitor::HealthMonitor(const DatabaseUrl &url, const OpenOptions &options, QObject *parent)
    : QObject(parent)
    , m_clock([] { return QDateTime::currentMSecsSinceEpoch(); })
{
    qRegisterMetaType<HealthSnapshot>();
    m_timer.setInterval(effectiveInterval());
    connect(&m_timer, &QTimer::timeout, this, &HealthMonitor::refreshIfIdle);
    startWorker(url, options);
}

HealthMonitor::~HealthMonitor()
{
    m_timer.stop();
    m_thread.quit();
    m_thread.wait(); // for the query in progress, if any: bounded by the statement timeout
}

void HealthMonitor::startWorker(const DatabaseUrl &url, const OpenOptions &options)
{
    m_worker = new HealthWorker(url, options);
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &HealthWorker::snapshotReady, this, &HealthMonitor::acceptSnapshot);
    connect(m_worker, &HealthWorker::failed, this, &HealthMonitor::acceptFailure);
    m_thread.setObjectName(u"outbox-health"_qs);
    m_thread.start();
}

void HealthMonitor::setProfile(const OutboxProfile &profile)
{
    HealthWorker *worker = m_worker;
    QMetaObject::invokeMethod(
        worker, [worker, profile] { worker->setProfile(profile); }, Qt::QueuedConnection);
}

void HealthMonitor::setClock(Clock clock)
{
    m_clock = std::move(clock);
}

void HealthMonitor::setInterval(int ms)
{
    m_interval = qMax(1, ms);
    m_timer.setInterval(effectiveInterval());
}

void HealthMonitor::setSlowed(bool slowed)
{
    m_slowed = slowed;
    m_timer.setInterval(effectiveInterval());
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
}

void HealthMonitor::refreshNow()
{
    Q_ASSERT(QThread::currentThread() == thread());
    const quint64 id = ++m_lastIssued;
    const qint64 now = m_clock();
    HealthWorker *worker = m_worker;
    QMetaObject::invokeMethod(
        worker, [worker, id, now] { worker->request(id, now); }, Qt::QueuedConnection);
}

// A timer tick while the previous query still runs is skipped rather than queued behind it.
void HealthMonitor::refreshIfIdle()
{
    if (m_lastAnswered >= m_lastIssued)
        refreshNow();
}

bool HealthMonitor::isCurrent(quint64 requestId)
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (requestId == 0 || requestId > m_lastIssued)
        return false;
    m_lastAnswered = qMax(m_lastAnswered, requestId);
    if (requestId <= m_newestDelivered)
        return false;
    m_newestDelivered = requestId;
    return true;
}

void HealthMonitor::acceptSnapshot(quint64 requestId, const HealthSnapshot &snapshot)
{
    if (!isCurrent(requestId))
        return;
    m_snapshot = snapshot;
    m_hasSnapshot = true;
    emit snapshotChanged(m_snapshot);
}

void HealthMonitor::acceptFailure(quint64 requestId, const QString &error)
{
    if (isCurrent(requestId))
        emit errorOccurred(error);
}
