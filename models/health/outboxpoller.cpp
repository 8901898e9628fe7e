#include "outboxpoller.h"

#include "failurecause.h"
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
        m_timer->setSingleShot(true); // restarted when a poll ends: polls never pile up
        // A coarse timer may fire up to 5% early: a precise one keeps every interval whole, so
        // an outbox is never read twice within one interval.
        m_timer->setTimerType(Qt::PreciseTimer);
        m_timer->setInterval(int(m_intervalMs));
        connect(m_timer, &QTimer::timeout, this, &OutboxPoller::poll);
    }
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
    metrics.db = m_entry.url.toStorableString();
    metrics.snapshot = read(&error);
    metrics.snapshotSeconds = double(timer.nsecsElapsed()) / 1e9;
    metrics.snapshotsTaken = ++m_polls;
    const qint64 waitMs = nextWaitMs(metrics.snapshot ? QString() : error);
    QString why = metrics.snapshot ? QString() : describe(error);
    if (m_authFailures > 0)
        why += QStringLiteral("; authentication failed, next try in %1")
                   .arg(FailureCause::waitText(waitMs));
    emit polled(metrics, why);
    m_timer->start(int(waitMs));
}

// One interval; after authentication failures (which trying every interval cannot mend, and
// which may lock the account) the interval doubled after each one, at most five minutes.
qint64 OutboxPoller::nextWaitMs(const QString &error)
{
    if (error.isEmpty() || !FailureCause::of(error).authentication)
        m_authFailures = 0;
    else
        ++m_authFailures;
    return m_authFailures == 0 ? m_intervalMs
                               : FailureCause::authRetryDelayMs(m_authFailures, m_intervalMs);
}

// One line naming the database (without its password), whatever the error said.
QString OutboxPoller::describe(const QString &error) const
{
    const QString where = m_entry.url.toDisplayString();
    const QString why = DatabaseUrl::maskPasswords(error);
    return why.contains(where) ? why : QStringLiteral("reading %1: %2").arg(where, why);
}

std::optional<HealthSnapshot> OutboxPoller::read(QString *error)
{
    if (!m_connection) {
        m_connection = ProfileConnection::open(
            m_entry.url, HealthWorker::defaultOpenOptions(), m_entry.profile, &m_profile, error);
        if (!m_connection)
            return std::nullopt;
    }
    HealthQuery::Options options = HealthQuery::Options::fromEnvironment();
    options.profile = m_profile ? &*m_profile : nullptr;
    options.throughputCache = &m_throughput;
    // The line's `;cdc-slot=`, else the profile's cdc_slot.
    options.cdcSlot = OutboxProfile::cdcSlotFor(m_entry.cdcSlot.value_or(QString()), m_profile);
    options.cdcTracker = &m_cdcTracker;
    std::optional<HealthSnapshot> snapshot = HealthQuery::compute(
        m_connection->database(), QDateTime::currentMSecsSinceEpoch(), error, options);
    if (!snapshot) {
        m_connection.reset(); // reopen on the next poll: the server may have gone away
        m_throughput.clear(); // and read the whole hour again then
    }
    return snapshot;
}
