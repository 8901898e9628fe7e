#include "relay.h"

#include <QThread>

Relay::Relay(const DatabaseUrl &url, const RelayConfig &config, const Clock *clock, QObject *parent)
    : QObject(parent)
    , m_url(url)
    , m_config(config)
    , m_clock(clock)
{
    qRegisterMetaType<RelayStats>();
    qRegisterMetaType<TraceEvent>();
}

Relay::~Relay()
{
    stop();
}

RelayWorker *Relay::addWorker(int index)
{
    auto *worker = new RelayWorker(m_url, m_config, index, m_clock);
    auto thread = std::make_unique<WorkerThread<RelayWorker>>(
        QStringLiteral("relay-worker-%1").arg(index + 1), worker);
    connect(worker, &RelayWorker::statsChanged, this, &Relay::onWorkerStats);
    connect(worker, &RelayWorker::traced, this, &Relay::traced);
    connect(worker, &RelayWorker::stepped, this, &Relay::stepped);
    connect(worker, &RelayWorker::failed, this, &Relay::workerError);
    connect(worker, &RelayWorker::connectionLost, this, &Relay::onConnectionLost);
    connect(worker, &RelayWorker::reconnected, this, &Relay::onReconnected);
    connect(worker, &RelayWorker::reconnectFailed, this,
        [this](int, const QString &error) { m_outageCause = error; });
    thread->start();
    m_workers.push_back(std::move(thread));
    return worker;
}

bool Relay::start(QString *error, bool paused)
{
    Q_ASSERT(QThread::currentThread() == thread());
    ++m_generation;
    m_paused = paused;
    m_stats = QList<RelayStats>(m_config.workers);
    for (int i = 0; i < m_config.workers; ++i) {
        RelayWorker *worker = addWorker(i);
        QMetaObject::invokeMethod(
            worker, "setPaused", Qt::BlockingQueuedConnection, Q_ARG(bool, paused));
        bool ok = false;
        QMetaObject::invokeMethod(
            worker, "start", Qt::BlockingQueuedConnection, Q_RETURN_ARG(bool, ok));
        if (!ok) {
            *error = worker->errorText();
            stop();
            return false;
        }
    }
    return true;
}

void Relay::startAsync(bool paused)
{
    Q_ASSERT(QThread::currentThread() == thread());
    const quint64 generation = ++m_generation;
    m_paused = paused;
    m_stats = QList<RelayStats>(m_config.workers);
    m_startsPending = m_config.workers;
    m_startError.clear();
    for (int i = 0; i < m_config.workers; ++i) {
        // The answer is posted to this relay; deleted first, it is never delivered.
        postToWorker(addWorker(i), [this, paused, generation](RelayWorker *worker) {
            worker->setPaused(paused);
            const bool ok = worker->start();
            const QString error = ok ? QString() : worker->errorText();
            QMetaObject::invokeMethod(
                this, [=, this] { onWorkerStarted(generation, ok, error); }, Qt::QueuedConnection);
        });
    }
}

void Relay::onWorkerStarted(quint64 generation, bool ok, const QString &error)
{
    if (generation != m_generation || m_startsPending == 0)
        return;
    if (!ok && m_startError.isEmpty())
        m_startError = error.isEmpty() ? tr("a relay worker could not start") : error;
    if (--m_startsPending > 0)
        return;
    if (!m_startError.isEmpty()) {
        stop();
        emit started(false, m_startError);
        return;
    }
    emit started(true, {});
}

void Relay::stop()
{
    ++m_generation; // a startAsync still answering is over
    m_startsPending = 0;
    for (size_t i = 0; i < m_workers.size(); ++i) {
        RelayWorker *worker = m_workers[i]->worker();
        QMetaObject::invokeMethod(worker, "stop", Qt::BlockingQueuedConnection);
        m_stats[qsizetype(i)] = worker->stats();
        m_workers[i].reset(); // joins the thread; the worker is deleted on it as it ends
    }
    m_workers.clear();
    m_down.clear();
}

void Relay::setPaused(bool paused)
{
    m_paused = paused;
    for (const auto &thread : m_workers)
        thread->post([paused](RelayWorker *worker) { worker->setPaused(paused); });
}

void Relay::step()
{
    if (!m_workers.empty())
        m_workers.front()->post([](RelayWorker *worker) { worker->stepOnce(); });
}

void Relay::setTracing(bool on)
{
    for (const auto &thread : m_workers)
        thread->post([on](RelayWorker *worker) { worker->setTracing(on); });
}

void Relay::setFaultProfile(const FaultProfile &faults)
{
    m_config.faults = faults;
    for (const auto &thread : m_workers)
        thread->post([faults](RelayWorker *worker) { worker->setFaultProfile(faults); });
}

void Relay::onWorkerStats(int worker, const RelayStats &stats)
{
    if (worker < 0 || worker >= m_stats.size())
        return;
    m_stats[worker] = stats;
    emit statsChanged(this->stats());
}

RelayStats Relay::stats() const
{
    RelayStats total;
    for (const RelayStats &stats : m_stats)
        total += stats;
    return total;
}

void Relay::onConnectionLost(int worker, const QString &cause)
{
    if (m_down.isEmpty()) {
        m_outage.start();
        m_outageCause = cause;
        m_down.insert(worker);
        emit outageStarted(cause);
        return;
    }
    m_down.insert(worker);
}

void Relay::onReconnected(int worker)
{
    if (!m_down.remove(worker) || !m_down.isEmpty())
        return;
    emit outageEnded(m_outage.elapsed());
}

qint64 Relay::outageMs() const
{
    return m_down.isEmpty() ? 0 : m_outage.elapsed();
}
