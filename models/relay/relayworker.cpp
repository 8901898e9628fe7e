#include "relayworker.h"

#include "crashpoint.h"
#include "outboxstore.h"
#include "sqldialect.h"

#include <QSqlQuery>
#include <QThread>
#include <QTimer>
#include <utility>

RelayWorker::RelayWorker(const DatabaseUrl &url, const RelayConfig &config, int index,
    const Clock *clock, QObject *parent)
    : QObject(parent)
    , m_url(url)
    , m_config(config)
    , m_index(index)
    , m_name(QStringLiteral("worker-%1").arg(index + 1))
    , m_clock(clock)
    , m_random(
          config.seed == 0 ? QRandomGenerator::global()->generate() : config.seed + quint32(index))
{ }

RelayWorker::~RelayWorker() = default;

bool RelayWorker::start()
{
    Q_ASSERT(QThread::currentThread() == thread());
    m_startedAt = m_clock->now();
    if (!openConnection(&m_error))
        return false;

    m_pollTimer = new QTimer(this);
    m_pollTimer->setSingleShot(true);
    connect(m_pollTimer, &QTimer::timeout, this, &RelayWorker::poll);
    m_reconnectTimer = new QTimer(this);
    m_reconnectTimer->setSingleShot(true);
    connect(m_reconnectTimer, &QTimer::timeout, this, &RelayWorker::tryReconnect);
    auto *statsTimer = new QTimer(this);
    connect(statsTimer, &QTimer::timeout, this, &RelayWorker::publishStats);
    statsTimer->start(100);
    if (!m_paused)
        m_pollTimer->start(0);
    return true;
}

bool RelayWorker::openConnection(QString *error)
{
    m_connection = DbConnection::open(m_url, {}, error);
    if (!m_connection)
        return false;
    // The relay reports database trouble itself, once per outage: the server's warnings (one
    // per connection as it shuts down) would otherwise go to stderr through libpq.
    m_connection->dialect().setNoticeLevel(
        m_connection->database(), SqlDialect::NoticeLevel::Error, SqlDialect::Scope::Session);
    m_store = std::make_unique<OutboxStore>(m_connection->database());
    m_store->setRetryPolicy(m_config.policy);
    m_store->setBudget(m_config.budget);
    m_store->setLeaseDuration(m_config.leaseMs);
    m_store->setRandomSeed(m_random.generate());
    m_transport = std::make_unique<FakeTransport>(m_connection->database(), m_random.generate());
    setFaultProfile(m_config.faults);
    return true;
}

void RelayWorker::dropConnection()
{
    m_transport.reset();
    m_store.reset();
    m_connection.reset();
}

// Qt's PostgreSQL driver closes a connection whose server went away; statements on it would
// only fail again (and warn), so the worker stops issuing them until it has reconnected.
bool RelayWorker::connectionDead() const
{
    return !m_connection->database().isOpen();
}

// Remembers the first error; the connection is checked at the next poll or step.
void RelayWorker::noteDatabaseError(const QString &error)
{
    if (m_suspectError.isEmpty())
        m_suspectError = error.isEmpty() ? QStringLiteral("database error") : error;
}

// After a database error: is the connection still alive? A cheap probe tells a dead
// connection (outage: reconnect) from an error the next poll may not meet again (reported).
// Runs only between batches (nothing in flight), so no timer still needs the connection.
bool RelayWorker::connectionUsable()
{
    if (m_suspectError.isEmpty())
        return true;
    const QString error = std::exchange(m_suspectError, QString());
    if (!connectionDead() && QSqlQuery(m_connection->database()).exec(QStringLiteral("SELECT 1"))) {
        emit failed(DatabaseUrl::maskPasswords(error));
        return true;
    }
    beginOutage(error);
    return false;
}

void RelayWorker::beginOutage(const QString &cause)
{
    // Claims held by the step mode are abandoned: their leases expire and they are re-claimed.
    m_stepClaimed.clear();
    m_stepDelivered.clear();
    dropConnection();
    emit connectionLost(m_index, DatabaseUrl::maskPasswords(cause));
    m_reconnectDelayMs = m_config.reconnectMinMs;
    m_reconnectTimer->start(int(m_reconnectDelayMs));
}

void RelayWorker::tryReconnect()
{
    if (m_stopped)
        return;
    QString error;
    if (!openConnection(&error)) {
        emit reconnectFailed(m_index, DatabaseUrl::maskPasswords(error));
        m_reconnectDelayMs = std::min(m_reconnectDelayMs * 2, m_config.reconnectMaxMs);
        m_reconnectTimer->start(int(m_reconnectDelayMs));
        return;
    }
    ++m_stats.reconnects;
    m_statsDirty = true;
    emit reconnected(m_index);
    if (!m_paused)
        m_pollTimer->start(0);
}

void RelayWorker::stop()
{
    Q_ASSERT(QThread::currentThread() == thread());
    m_stopped = true;
    if (m_pollTimer)
        m_pollTimer->stop();
    if (m_reconnectTimer)
        m_reconnectTimer->stop();
    m_statsDirty = true;
    publishStats();
    // Work still held is abandoned as a crash would: its lease expires and another run takes over.
    dropConnection();
}

void RelayWorker::setPaused(bool paused)
{
    m_paused = paused;
    if (!paused && !m_stopped && m_store && m_pollTimer && m_inFlight == 0)
        m_pollTimer->start(0);
}

void RelayWorker::setFaultProfile(const FaultProfile &faults)
{
    FaultProfile absolute = faults;
    if (faults.outageUntil > faults.outageFrom) {
        absolute.outageFrom = m_startedAt + faults.outageFrom;
        absolute.outageUntil = m_startedAt + faults.outageUntil;
    }
    if (m_transport)
        m_transport->setProfile(absolute);
    m_config.faults = faults;
}

qint64 RelayWorker::scaled(qint64 clockMs) const
{
    return qint64(double(clockMs) / std::max(m_clock->speed(), 0.001));
}

void RelayWorker::scheduleNextPoll(qint64 delayMs)
{
    if (!m_stopped && !m_paused)
        m_pollTimer->start(int(std::min<qint64>(delayMs, 60000)));
}

void RelayWorker::poll()
{
    if (m_stopped || m_paused || m_inFlight > 0 || !m_store || !connectionUsable())
        return;
    const QList<Claim> claims = m_store->claimDue(m_name, m_clock->now(), m_config.batch);
    if (claims.isEmpty()) {
        if (!m_store->lastError().isEmpty()) {
            noteDatabaseError(m_store->lastError()); // e.g. a busy database, or a dead server
            if (!connectionUsable())
                return;
        }
        scheduleNextPoll(scaled(m_config.pollIntervalMs));
        return;
    }
    CrashPoint::reached("after-claim");
    m_lastBatchFull = claims.size() >= m_config.batch;
    m_inFlight = int(claims.size());
    for (const Claim &claim : claims)
        beginDelivery(claim);
}

void RelayWorker::noteClaim(const Claim &claim)
{
    ++m_stats.claims;
    if (claim.tookOverExpiredLease)
        ++m_stats.leaseTakeovers;
    m_statsDirty = true;
    if (!m_tracing)
        return;
    TraceEvent event(QStringLiteral("claim"), claim.claimedAt);
    event.set(QStringLiteral("event_id"), claim.eventId).set(QStringLiteral("worker"), m_name);
    event.set(QStringLiteral("ok"), true).set(QStringLiteral("attempt"), claim.attemptNo);
    event.set(QStringLiteral("lease_until"), claim.leaseUntil);
    if (claim.tookOverExpiredLease)
        event.set(QStringLiteral("took_over_expired_lease"), true);
    emit traced(event);
}

void RelayWorker::beginDelivery(const Claim &claim)
{
    noteClaim(claim);
    const qint64 latency = m_config.latencyMaxMs > m_config.latencyMinMs ? m_config.latencyMinMs
            + qint64(m_random.bounded(quint64(m_config.latencyMaxMs - m_config.latencyMinMs + 1)))
                                                                         : m_config.latencyMinMs;
    auto afterLatency = [this, claim] {
        if (m_stopped)
            return;
        const InFlight work = deliver(claim);
        // Only where the consumer committed this time: a failed delivery left nothing to lose.
        if (work.delivery.outcome == Delivery::Outcome::Applied
            || work.delivery.outcome == Delivery::Outcome::ResponseLost)
            CrashPoint::reached("after-consumer-commit");
        if (m_random.generateDouble() < m_config.stallRate) {
            // The worker stalls past its lease; when it resumes its ack may be fenced.
            ++m_stalled;
            QTimer::singleShot(scaled(m_config.leaseMs + m_config.leaseMs / 2), this, [this, work] {
                --m_stalled;
                if (!m_stopped)
                    settle(work);
            });
            return;
        }
        settle(work);
    };
    if (latency > 0)
        QTimer::singleShot(scaled(latency), this, afterLatency);
    else
        afterLatency();
}

RelayWorker::InFlight RelayWorker::deliver(const Claim &claim)
{
    InFlight work {claim, {}};
    if (connectionDead()) { // the consumer shares the connection: nothing reaches it
        work.delivery.error
            = QStringLiteral("consumer unreachable: the database connection is lost");
    } else {
        work.delivery = m_transport->deliver(claim, m_clock->now());
        ++m_stats.transportCalls;
        if (connectionDead()) // the consumer's statement met the outage first: it names the cause
            noteDatabaseError(work.delivery.error);
    }
    if (work.delivery.outcome == Delivery::Outcome::Duplicate)
        ++m_stats.duplicatesSuppressed;
    m_statsDirty = true;
    if (m_tracing) {
        TraceEvent event(QStringLiteral("deliver"), m_clock->now());
        event.set(QStringLiteral("event_id"), claim.eventId).set(QStringLiteral("worker"), m_name);
        event.set(QStringLiteral("attempt"), claim.attemptNo);
        event.set(QStringLiteral("transport_call"), m_stats.transportCalls);
        event.set(QStringLiteral("result"), work.delivery.outcomeName());
        emit traced(event);
    }
    return work;
}

void RelayWorker::settle(const InFlight &work)
{
    if (work.delivery.succeeded())
        m_pendingAcks << work; // acknowledged together when the batch is through
    else
        reportFailure(work);
    m_statsDirty = true;
    finishOne();
}

void RelayWorker::reportFailure(const InFlight &work)
{
    const qint64 now = m_clock->now();
    FailResult result;
    result.reason = Refusal::DatabaseError;
    if (!connectionDead())
        result = m_store->fail(work.claim, now, work.delivery.category(), work.delivery.error);
    if (!result.ok && result.reason == Refusal::Fenced) {
        ++m_stats.fencedAcks;
    } else if (!result.ok) {
        ++m_stats.ackErrors;
        noteDatabaseError(
            m_store->lastError().isEmpty() ? work.delivery.error : m_store->lastError());
    } else if (result.status == QLatin1String("DEAD"))
        ++m_stats.parked;
    else
        ++m_stats.retried;
    if (!m_tracing)
        return;
    TraceEvent event(QStringLiteral("fail"), now);
    event.set(QStringLiteral("event_id"), work.claim.eventId).set(QStringLiteral("worker"), m_name);
    event.set(QStringLiteral("ok"), result.ok);
    event.set(QStringLiteral("category"), errorCategoryName(work.delivery.category()));
    event.set(QStringLiteral("error"), work.delivery.error);
    if (result.ok) {
        event.set(QStringLiteral("failures"), result.failures)
            .set(QStringLiteral("status"), result.status);
        event.set(QStringLiteral("next_attempt_at"),
            result.status == QLatin1String("DEAD") ? QJsonValue(QJsonValue::Null)
                                                   : QJsonValue(result.nextAttemptAt));
    } else {
        event.set(QStringLiteral("reason"), result.reason);
    }
    emit traced(event);
}

void RelayWorker::flushAcks()
{
    if (m_pendingAcks.isEmpty())
        return;
    const qint64 now = m_clock->now();
    QList<std::pair<Claim, QString>> acks;
    for (const InFlight &work : std::as_const(m_pendingAcks))
        acks.append({work.claim, work.delivery.consumerResult()});
    QList<AckResult> results(acks.size(), AckResult {false, Refusal::DatabaseError});
    const bool reachable = !connectionDead();
    if (reachable)
        results = m_store->ackMany(acks, now);
    for (qsizetype i = 0; i < results.size(); ++i) {
        const AckResult &result = results.at(i);
        if (result.ok)
            ++m_stats.acked;
        else if (result.reason == Refusal::Fenced)
            ++m_stats.fencedAcks;
        else
            ++m_stats.ackErrors;
        if (!m_tracing)
            continue;
        TraceEvent event(QStringLiteral("ack"), now);
        event.set(QStringLiteral("event_id"), acks.at(i).first.eventId)
            .set(QStringLiteral("worker"), m_name);
        event.set(QStringLiteral("ok"), result.ok);
        if (!result.ok)
            event.set(QStringLiteral("reason"), result.reason);
        emit traced(event);
    }
    if (!reachable || !m_store->lastError().isEmpty())
        noteDatabaseError(reachable ? m_store->lastError() : QString());
    m_pendingAcks.clear();
    m_statsDirty = true;
}

void RelayWorker::finishOne()
{
    if (m_inFlight > 1)
        CrashPoint::reached("mid-batch");
    if (m_inFlight > 0)
        --m_inFlight;
    if (m_inFlight - m_stalled == 0)
        flushAcks();
    if (m_inFlight == 0)
        scheduleNextPoll(m_lastBatchFull ? 0 : scaled(m_config.pollIntervalMs));
}

void RelayWorker::publishStats()
{
    if (!m_statsDirty)
        return;
    m_statsDirty = false;
    emit statsChanged(m_index, m_stats);
}

void RelayWorker::stepOnce()
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (!m_store || m_stopped || (m_inFlight == 0 && !connectionUsable())) {
        emit stepped(Phase::Idle);
        return;
    }
    if (!m_stepDelivered.isEmpty()) {
        const InFlight work = m_stepDelivered.takeFirst();
        ++m_inFlight; // settle() counts it down again
        settle(work);
        emit stepped(Phase::Settled);
        return;
    }
    if (!m_stepClaimed.isEmpty()) {
        m_stepDelivered << deliver(m_stepClaimed.takeFirst());
        emit stepped(Phase::Delivered);
        return;
    }
    const QList<Claim> claims = m_store->claimDue(m_name, m_clock->now(), 1);
    if (claims.isEmpty()) {
        if (!m_store->lastError().isEmpty())
            noteDatabaseError(m_store->lastError()); // checked at the next step
        emit stepped(Phase::Idle);
        return;
    }
    noteClaim(claims.constFirst());
    m_stepClaimed << claims.constFirst();
    emit stepped(Phase::Claimed);
}
