#include "outboxpoller.h"

#include "healthquery.h"
#include "healthworker.h"
#include "profileconnection.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QThread>
#include <QTimer>

OutboxPoller::OutboxPoller(const FleetEntry &entry, qint64 intervalMs, QObject *parent)
    : QObject(parent)
    , m_entry(entry)
    , m_intervalMs(intervalMs)
{ }

// Runs on the poller's thread (deleted there after its event loop), where the connection was
// opened.
OutboxPoller::~OutboxPoller() = default;

void OutboxPoller::start()
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (!m_timer) {
        m_timer = new QTimer(this);
        m_timer->setInterval(int(m_intervalMs));
        connect(m_timer, &QTimer::timeout, this, &OutboxPoller::poll);
    }
    m_timer->start();
    poll();
}

void OutboxPoller::poll()
{
    Q_ASSERT(QThread::currentThread() == thread());
    QElapsedTimer timer;
    timer.start();
    QString error;
    OutboxMetrics metrics;
    metrics.outbox = m_entry.name;
    if (!m_connection)
        m_connection = ProfileConnection::open(
            m_entry.url, HealthWorker::defaultOpenOptions(), m_entry.profile, &m_profile, &error);
    if (m_connection) {
        HealthQuery::Options options = HealthQuery::Options::fromEnvironment();
        options.profile = m_profile ? &*m_profile : nullptr;
        metrics.snapshot = HealthQuery::compute(
            m_connection->database(), QDateTime::currentMSecsSinceEpoch(), &error, options);
        if (!metrics.snapshot)
            m_connection.reset(); // reopen on the next poll: the server may have gone away
    }
    metrics.snapshotSeconds = double(timer.nsecsElapsed()) / 1e9;
    metrics.snapshotsTaken = ++m_polls;
    emit polled(metrics,
        metrics.snapshot
            ? QString()
            : QStringLiteral("reading %1: %2")
                  .arg(m_entry.url.toDisplayString(), DatabaseUrl::maskPasswords(error)));
}
