#include "outboxstore.h"

#include "sqltransaction.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QUuid>

namespace {

// A PENDING row is claimable when it is due and unclaimed, or its lease has expired.
const QString claimable = QStringLiteral(
    "status = 'PENDING' AND ((claim_token IS NULL AND next_attempt_at <= :now1)"
    " OR (claim_token IS NOT NULL AND lease_until <= :now2))");

QString newToken()
{
    return QUuid::createUuid().toString(QUuid::WithoutBraces);
}

} // namespace

OutboxStore::OutboxStore(const QSqlDatabase &db)
    : m_db(db)
    , m_postgres(db.driverName() == QLatin1String("QPSQL"))
    , m_random(QRandomGenerator::securelySeeded())
{
}

bool OutboxStore::recordError(const QSqlQuery &query)
{
    m_lastError = query.lastError().text().simplified();
    return false;
}

bool OutboxStore::insertEvent(const NewEvent &event)
{
    QSqlQuery query(m_db);
    query.prepare(QStringLiteral(
        "INSERT INTO delivery_outbox (event_id, aggregate_type, aggregate_id, event_type, payload,"
        " status, failures, next_attempt_at, created_at)"
        " VALUES (:id, :aggregate_type, :aggregate_id, :event_type, :payload, 'PENDING', 0, :due, :created)"));
    query.bindValue(QStringLiteral(":id"), event.eventId);
    query.bindValue(QStringLiteral(":aggregate_type"), event.aggregateType);
    query.bindValue(QStringLiteral(":aggregate_id"), event.aggregateId);
    query.bindValue(QStringLiteral(":event_type"), event.eventType);
    query.bindValue(QStringLiteral(":payload"), event.payload);
    query.bindValue(QStringLiteral(":due"), event.createdAt);
    query.bindValue(QStringLiteral(":created"), event.createdAt);
    return query.exec() || recordError(query);
}

QString OutboxStore::refusalFor(const QString &eventId, qint64 now)
{
    QSqlQuery query(m_db);
    query.prepare(QStringLiteral("SELECT status, claim_token, lease_until, next_attempt_at"
                                 " FROM delivery_outbox WHERE event_id = :id"));
    query.bindValue(QStringLiteral(":id"), eventId);
    if (!query.exec())
        return recordError(query), Refusal::DatabaseError;
    if (!query.next())
        return Refusal::NotFound;
    const QString status = query.value(0).toString();
    if (status == QLatin1String("DELIVERED"))
        return Refusal::Delivered;
    if (status == QLatin1String("DEAD"))
        return Refusal::Dead;
    if (!query.value(1).isNull() && query.value(2).toLongLong() > now)
        return Refusal::InFlight;
    return Refusal::NotDue;
}

ClaimResult OutboxStore::claim(const QString &eventId, const QString &worker, qint64 now)
{
    ClaimResult result;
    SqlTransaction transaction(m_db);
    if (!transaction.isActive()) {
        m_lastError = transaction.errorText();
        result.reason = Refusal::DatabaseError;
        return result;
    }
    QSqlQuery query(m_db);
    query.prepare(QStringLiteral("SELECT claim_token, payload FROM delivery_outbox WHERE event_id = :id AND ")
                  + claimable + (m_postgres ? QStringLiteral(" FOR UPDATE") : QString()));
    query.bindValue(QStringLiteral(":id"), eventId);
    query.bindValue(QStringLiteral(":now1"), now);
    query.bindValue(QStringLiteral(":now2"), now);
    if (!query.exec()) {
        recordError(query);
        result.reason = Refusal::DatabaseError;
        return result;
    }
    if (!query.next()) {
        query.finish();
        result.reason = refusalFor(eventId, now);
        return result;
    }
    result.claim.eventId = eventId;
    result.claim.payload = query.value(1).toString();
    const bool expiredLease = !query.value(0).isNull();
    query.finish();
    if (!claimLockedRow(&result.claim, worker, now, expiredLease) || !transaction.commit()) {
        if (m_lastError.isEmpty())
            m_lastError = transaction.errorText();
        result.reason = Refusal::DatabaseError;
        return result;
    }
    result.ok = true;
    return result;
}

QList<Claim> OutboxStore::claimDue(const QString &worker, qint64 now, int limit)
{
    SqlTransaction transaction(m_db);
    if (!transaction.isActive()) {
        m_lastError = transaction.errorText();
        return {};
    }
    QSqlQuery query(m_db);
    query.prepare(QStringLiteral("SELECT event_id, claim_token, payload FROM delivery_outbox WHERE ")
                  + claimable + QStringLiteral(" ORDER BY next_attempt_at LIMIT :limit")
                  + (m_postgres ? QStringLiteral(" FOR UPDATE SKIP LOCKED") : QString()));
    query.bindValue(QStringLiteral(":now1"), now);
    query.bindValue(QStringLiteral(":now2"), now);
    query.bindValue(QStringLiteral(":limit"), limit);
    if (!query.exec()) {
        recordError(query);
        return {};
    }
    QList<std::pair<Claim, bool>> candidates;
    while (query.next()) {
        Claim claim;
        claim.eventId = query.value(0).toString();
        claim.payload = query.value(2).toString();
        candidates.append({claim, !query.value(1).isNull()});
    }
    query.finish();
    QList<Claim> claims;
    for (auto &[claim, expiredLease] : candidates) {
        if (!claimLockedRow(&claim, worker, now, expiredLease))
            return {};
        claims << claim;
    }
    if (!transaction.commit()) {
        m_lastError = transaction.errorText();
        return {};
    }
    return claims;
}

// Runs inside the caller's transaction, with the row locked (PostgreSQL) or the database
// write-locked (SQLite BEGIN IMMEDIATE).
bool OutboxStore::claimLockedRow(Claim *claim, const QString &worker, qint64 now, bool expiredLease)
{
    claim->token = newToken();
    claim->worker = worker;
    claim->claimedAt = now;
    claim->leaseUntil = now + m_lease;
    claim->tookOverExpiredLease = expiredLease;

    QSqlQuery query(m_db);
    query.prepare(QStringLiteral("UPDATE delivery_outbox SET claim_token = :token, lease_until = :lease"
                                 " WHERE event_id = :id"));
    query.bindValue(QStringLiteral(":token"), claim->token);
    query.bindValue(QStringLiteral(":lease"), claim->leaseUntil);
    query.bindValue(QStringLiteral(":id"), claim->eventId);
    if (!query.exec())
        return recordError(query);

    if (expiredLease) {
        query.prepare(QStringLiteral("UPDATE delivery_attempt SET outcome = 'LEASE_EXPIRED', finished_at = :now"
                                     " WHERE event_id = :id AND outcome IS NULL"));
        query.bindValue(QStringLiteral(":now"), now);
        query.bindValue(QStringLiteral(":id"), claim->eventId);
        if (!query.exec())
            return recordError(query);
    }

    query.prepare(QStringLiteral("SELECT COALESCE(MAX(attempt_no), 0) + 1 FROM delivery_attempt WHERE event_id = :id"));
    query.bindValue(QStringLiteral(":id"), claim->eventId);
    if (!query.exec() || !query.next())
        return recordError(query);
    claim->attemptNo = query.value(0).toInt();
    query.finish();

    query.prepare(QStringLiteral("INSERT INTO delivery_attempt (event_id, attempt_no, worker, claim_token, claimed_at)"
                                 " VALUES (:id, :no, :worker, :token, :now)"));
    query.bindValue(QStringLiteral(":id"), claim->eventId);
    query.bindValue(QStringLiteral(":no"), claim->attemptNo);
    query.bindValue(QStringLiteral(":worker"), worker);
    query.bindValue(QStringLiteral(":token"), claim->token);
    query.bindValue(QStringLiteral(":now"), now);
    return query.exec() || recordError(query);
}

AckResult OutboxStore::ack(const Claim &claim, qint64 now, const QString &consumerResult)
{
    AckResult result;
    SqlTransaction transaction(m_db);
    QSqlQuery query(m_db);
    query.prepare(QStringLiteral("UPDATE delivery_outbox SET status = 'DELIVERED', delivered_at = :now,"
                                 " claim_token = NULL, lease_until = NULL"
                                 " WHERE event_id = :id AND claim_token = :token AND status = 'PENDING'"));
    query.bindValue(QStringLiteral(":now"), now);
    query.bindValue(QStringLiteral(":id"), claim.eventId);
    query.bindValue(QStringLiteral(":token"), claim.token);
    if (!transaction.isActive() || !query.exec()) {
        recordError(query);
        result.reason = Refusal::DatabaseError;
        return result;
    }
    if (query.numRowsAffected() != 1) {
        result.reason = Refusal::Fenced; // the rollback leaves everything as it was
        return result;
    }
    query.prepare(QStringLiteral("UPDATE delivery_attempt SET outcome = 'DELIVERED', finished_at = :now,"
                                 " consumer_result = :result"
                                 " WHERE event_id = :id AND claim_token = :token AND outcome IS NULL"));
    query.bindValue(QStringLiteral(":now"), now);
    query.bindValue(QStringLiteral(":result"), consumerResult.isEmpty() ? QVariant() : QVariant(consumerResult));
    query.bindValue(QStringLiteral(":id"), claim.eventId);
    query.bindValue(QStringLiteral(":token"), claim.token);
    if (!query.exec() || !transaction.commit()) {
        recordError(query);
        result.reason = Refusal::DatabaseError;
        return result;
    }
    result.ok = true;
    return result;
}

FailResult OutboxStore::fail(const Claim &claim, qint64 now, ErrorCategory category,
                             const QString &message, const QString &consumerResult)
{
    FailResult result;
    SqlTransaction transaction(m_db);
    QSqlQuery query(m_db);
    query.prepare(QStringLiteral("SELECT failures, created_at FROM delivery_outbox"
                                 " WHERE event_id = :id AND claim_token = :token AND status = 'PENDING'")
                  + (m_postgres ? QStringLiteral(" FOR UPDATE") : QString()));
    query.bindValue(QStringLiteral(":id"), claim.eventId);
    query.bindValue(QStringLiteral(":token"), claim.token);
    if (!transaction.isActive() || !query.exec()) {
        recordError(query);
        result.reason = Refusal::DatabaseError;
        return result;
    }
    if (!query.next()) {
        result.reason = Refusal::Fenced;
        return result;
    }
    result.failures = query.value(0).toInt() + 1;
    const qint64 createdAt = query.value(1).toLongLong();
    query.finish();

    bool dead = category == ErrorCategory::Permanent || result.failures >= m_budget.maxAttempts;
    if (!dead) {
        result.delay = m_policy.delayAfter(result.failures, m_random);
        result.nextAttemptAt = now + result.delay;
        dead = m_budget.maxElapsed > 0 && result.nextAttemptAt > createdAt + m_budget.maxElapsed;
    }
    result.status = dead ? QStringLiteral("DEAD") : QStringLiteral("PENDING");

    query.prepare(QStringLiteral("UPDATE delivery_outbox SET status = :status, failures = :failures,")
                  + (dead ? QString() : QStringLiteral(" next_attempt_at = :due,"))
                  + QStringLiteral(" claim_token = NULL, lease_until = NULL,"
                                   " last_error_category = :category, last_error = :message"
                                   " WHERE event_id = :id AND claim_token = :token"));
    query.bindValue(QStringLiteral(":status"), result.status);
    query.bindValue(QStringLiteral(":failures"), result.failures);
    if (!dead)
        query.bindValue(QStringLiteral(":due"), result.nextAttemptAt);
    query.bindValue(QStringLiteral(":category"), errorCategoryName(category));
    query.bindValue(QStringLiteral(":message"), message);
    query.bindValue(QStringLiteral(":id"), claim.eventId);
    query.bindValue(QStringLiteral(":token"), claim.token);
    if (!query.exec()) {
        recordError(query);
        result.reason = Refusal::DatabaseError;
        return result;
    }

    query.prepare(QStringLiteral("UPDATE delivery_attempt SET outcome = :outcome, finished_at = :now,"
                                 " error_category = :category, error_message = :message,"
                                 " consumer_result = :result, next_attempt_at = :due"
                                 " WHERE event_id = :id AND claim_token = :token AND outcome IS NULL"));
    query.bindValue(QStringLiteral(":outcome"), dead ? QStringLiteral("DEAD") : QStringLiteral("RETRY"));
    query.bindValue(QStringLiteral(":now"), now);
    query.bindValue(QStringLiteral(":category"), errorCategoryName(category));
    query.bindValue(QStringLiteral(":message"), message);
    query.bindValue(QStringLiteral(":result"), consumerResult.isEmpty() ? QVariant() : QVariant(consumerResult));
    query.bindValue(QStringLiteral(":due"), dead ? QVariant() : QVariant(result.nextAttemptAt));
    query.bindValue(QStringLiteral(":id"), claim.eventId);
    query.bindValue(QStringLiteral(":token"), claim.token);
    if (!query.exec() || !transaction.commit()) {
        recordError(query);
        result.reason = Refusal::DatabaseError;
        return result;
    }
    result.ok = true;
    return result;
}
