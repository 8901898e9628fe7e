#include "outboxstore.h"

#include "enginestatements.h"
#include "failurecause.h"
#include "queryerror.h"
#include "sqldialect.h"
#include "sqltransaction.h"

#include <QUuid>

namespace {

// A PENDING row is claimable when it is due and unclaimed, or its lease has expired.
// clang-format off
const QString claimable = QStringLiteral(
    "status = 'PENDING'"
    " AND (   (claim_token IS NULL AND next_attempt_at <= :now1)"
    "      OR (claim_token IS NOT NULL AND lease_until <= :now2))");
// clang-format on

// A SELECT of delivery_outbox's rows that meet `where`, locked as `lock` says.
EngineStatements::Select outboxRows(
    const QString &columns, const QString &where, EngineStatements::RowLock lock)
{
    EngineStatements::Select select;
    select.columns = columns;
    select.table = QStringLiteral("delivery_outbox");
    select.where = where;
    select.lock = lock;
    return select;
}

QString newToken()
{
    return QUuid::createUuid().toString(QUuid::WithoutBraces);
}

QVariant nullIfEmpty(const QString &text)
{
    return text.isEmpty() ? QVariant() : QVariant(text);
}

// A DEAD row keeps its last due time: it is never claimed again, and replay sets a new one.
QVariant dueAfterFailure(const FailResult &result)
{
    return result.status == QLatin1String("DEAD") ? QVariant(QMetaType(QMetaType::LongLong))
                                                  : QVariant(result.nextAttemptAt);
}

// A transaction the server rolled back for a lock conflict with another relay (an InnoDB
// deadlock, a lock wait timeout: FailureCause::isLockConflict) changed nothing: claimDue(),
// ackMany() and fail() run it again, up to this many times in all.
constexpr int LockConflictTries = 4;

bool lockConflict(const QString &lastError)
{
    return !lastError.isEmpty() && FailureCause::isLockConflict(lastError);
}

} // namespace

OutboxStore::OutboxStore(const QSqlDatabase &db)
    : m_db(db)
    , m_dialect(&SqlDialect::of(db))
    , m_random(QRandomGenerator::securelySeeded())
    , m_statements(db)
{ }

bool OutboxStore::recordError(const QSqlQuery &query)
{
    m_lastError = QueryError::text(query);
    return false;
}

bool OutboxStore::insertEvent(const NewEvent &event)
{
    // clang-format off
    QSqlQuery &insert = prepared(QStringLiteral(
        "INSERT INTO delivery_outbox (event_id, aggregate_type, aggregate_id, event_type, payload,"
        "                             status, failures, next_attempt_at, created_at)"
        " VALUES (:id, :aggregate_type, :aggregate_id, :event_type, :payload,"
        "         'PENDING', 0, :due, :created)"));
    // clang-format on
    insert.bindValue(QStringLiteral(":id"), event.eventId);
    insert.bindValue(QStringLiteral(":aggregate_type"), event.aggregateType);
    insert.bindValue(QStringLiteral(":aggregate_id"), event.aggregateId);
    insert.bindValue(QStringLiteral(":event_type"), event.eventType);
    insert.bindValue(QStringLiteral(":payload"), event.payload);
    insert.bindValue(QStringLiteral(":due"), event.createdAt);
    insert.bindValue(QStringLiteral(":created"), event.createdAt);
    return insert.exec() || recordError(insert);
}

QString OutboxStore::refusalFor(const QString &eventId, qint64 now)
{
    // clang-format off
    QSqlQuery &select = prepared(QStringLiteral(
        "SELECT status, claim_token, lease_until, next_attempt_at"
        " FROM delivery_outbox WHERE event_id = :id"));
    // clang-format on
    select.bindValue(QStringLiteral(":id"), eventId);
    if (!select.exec())
        return recordError(select), Refusal::DatabaseError;
    QString reason = Refusal::NotDue;
    if (!select.next())
        reason = Refusal::NotFound;
    else if (select.value(0).toString() == QLatin1String("DELIVERED"))
        reason = Refusal::Delivered;
    else if (select.value(0).toString() == QLatin1String("DEAD"))
        reason = Refusal::Dead;
    else if (!select.value(1).isNull() && select.value(2).toLongLong() > now)
        reason = Refusal::InFlight;
    select.finish();
    return reason;
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
    QSqlQuery &select = prepared(
        m_dialect->statements().selectSql(outboxRows(QStringLiteral("claim_token, payload"),
            QStringLiteral("event_id = :id AND ") + claimable, EngineStatements::RowLock::Update)));
    select.bindValue(QStringLiteral(":id"), eventId);
    select.bindValue(QStringLiteral(":now1"), now);
    select.bindValue(QStringLiteral(":now2"), now);
    if (!select.exec()) {
        recordError(select);
        result.reason = Refusal::DatabaseError;
        return result;
    }
    if (!select.next()) {
        select.finish();
        result.reason = refusalFor(eventId, now);
        return result;
    }
    result.claim.eventId = eventId;
    result.claim.payload = select.value(1).toString();
    const bool expiredLease = !select.value(0).isNull();
    select.finish();
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
    // One statement that locks, skips what others hold and claims, where the engine has one.
    const QString batch = m_dialect->statements().claimBatchSql(claimable);
    QList<Claim> claims;
    for (int tries = 1; tries <= LockConflictTries; ++tries) {
        m_lastError.clear();
        claims = batch.isEmpty() ? claimDueInSteps(worker, now, limit)
                                 : claimDueInOne(batch, worker, now, limit);
        if (!lockConflict(m_lastError))
            break;
    }
    return claims;
}

QList<Claim> OutboxStore::claimDueInOne(
    const QString &statement, const QString &worker, qint64 now, int limit)
{
    QSqlQuery &batch = prepared(statement);
    batch.bindValue(QStringLiteral(":now1"), now);
    batch.bindValue(QStringLiteral(":now2"), now);
    batch.bindValue(QStringLiteral(":now3"), now);
    batch.bindValue(QStringLiteral(":now4"), now);
    batch.bindValue(QStringLiteral(":limit"), limit);
    batch.bindValue(QStringLiteral(":lease"), now + m_lease);
    batch.bindValue(QStringLiteral(":worker"), worker);
    if (!batch.exec()) {
        recordError(batch);
        return {};
    }
    QList<Claim> claims;
    while (batch.next()) {
        Claim claim;
        claim.eventId = batch.value(0).toString();
        claim.token = batch.value(1).toString();
        claim.payload = batch.value(2).toString();
        claim.tookOverExpiredLease = batch.value(3).toBool();
        claim.attemptNo = batch.value(4).toInt();
        claim.worker = worker;
        claim.claimedAt = now;
        claim.leaseUntil = now + m_lease;
        claims << claim;
    }
    batch.finish();
    return claims;
}

// Without writable CTEs: select the due rows, then claim each by its ID, in one transaction.
// Where the engine locks rows (MySQL, MariaDB) the select locks them and skips rows another
// worker holds (FOR UPDATE SKIP LOCKED), so two relays never claim one row; SQLite's BEGIN
// IMMEDIATE has already write-locked the whole database.
QList<Claim> OutboxStore::claimDueInSteps(const QString &worker, qint64 now, int limit)
{
    SqlTransaction transaction(m_db);
    if (!transaction.isActive()) {
        m_lastError = transaction.errorText();
        return {};
    }
    EngineStatements::Select due = outboxRows(QStringLiteral("event_id, claim_token, payload"),
        claimable, EngineStatements::RowLock::UpdateSkipLocked);
    due.orderBy = QStringLiteral("next_attempt_at");
    due.limit = QStringLiteral(":limit");
    QSqlQuery &select = prepared(m_dialect->statements().selectSql(due));
    select.bindValue(QStringLiteral(":now1"), now);
    select.bindValue(QStringLiteral(":now2"), now);
    select.bindValue(QStringLiteral(":limit"), limit);
    if (!select.exec()) {
        recordError(select);
        return {};
    }
    QList<std::pair<Claim, bool>> candidates;
    while (select.next()) {
        Claim claim;
        claim.eventId = select.value(0).toString();
        claim.payload = select.value(2).toString();
        candidates.append({claim, !select.value(1).isNull()});
    }
    select.finish();
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

// Runs inside the caller's transaction, with the row locked (PostgreSQL, MySQL) or the database
// write-locked (SQLite BEGIN IMMEDIATE).
bool OutboxStore::claimLockedRow(Claim *claim, const QString &worker, qint64 now, bool expiredLease)
{
    claim->token = newToken();
    claim->worker = worker;
    claim->claimedAt = now;
    claim->leaseUntil = now + m_lease;
    claim->tookOverExpiredLease = expiredLease;

    // clang-format off
    QSqlQuery &update = prepared(QStringLiteral(
        "UPDATE delivery_outbox SET claim_token = :token, lease_until = :lease"
        " WHERE event_id = :id"));
    // clang-format on
    update.bindValue(QStringLiteral(":token"), claim->token);
    update.bindValue(QStringLiteral(":lease"), claim->leaseUntil);
    update.bindValue(QStringLiteral(":id"), claim->eventId);
    if (!update.exec())
        return recordError(update);

    if (expiredLease) {
        QSqlQuery &expire = prepared(QStringLiteral(
            "UPDATE delivery_attempt SET outcome = 'LEASE_EXPIRED', finished_at = :now"
            " WHERE event_id = :id AND outcome IS NULL"));
        expire.bindValue(QStringLiteral(":now"), now);
        expire.bindValue(QStringLiteral(":id"), claim->eventId);
        if (!expire.exec())
            return recordError(expire);
    }

    QSqlQuery &next = prepared(QStringLiteral(
        "SELECT COALESCE(MAX(attempt_no), 0) + 1 FROM delivery_attempt WHERE event_id = :id"));
    next.bindValue(QStringLiteral(":id"), claim->eventId);
    if (!next.exec() || !next.next())
        return recordError(next);
    claim->attemptNo = next.value(0).toInt();
    next.finish();

    QSqlQuery &insert = prepared(QStringLiteral(
        "INSERT INTO delivery_attempt (event_id, attempt_no, worker, claim_token, claimed_at)"
        " VALUES (:id, :no, :worker, :token, :now)"));
    insert.bindValue(QStringLiteral(":id"), claim->eventId);
    insert.bindValue(QStringLiteral(":no"), claim->attemptNo);
    insert.bindValue(QStringLiteral(":worker"), worker);
    insert.bindValue(QStringLiteral(":token"), claim->token);
    insert.bindValue(QStringLiteral(":now"), now);
    return insert.exec() || recordError(insert);
}

AckResult OutboxStore::ack(const Claim &claim, qint64 now, const QString &consumerResult)
{
    return ackMany({{claim, consumerResult}}, now).constFirst();
}

QList<AckResult> OutboxStore::ackMany(const QList<std::pair<Claim, QString>> &acks, qint64 now)
{
    if (acks.isEmpty())
        return {};
    QList<AckResult> results(acks.size());
    const QString batch = m_dialect->statements().ackBatchSql();
    QSet<QString> acked;
    bool ok = false;
    for (int tries = 1; tries <= LockConflictTries; ++tries) {
        m_lastError.clear();
        acked.clear();
        ok = batch.isEmpty() ? ackManyInSteps(acks, now, &acked)
                             : ackManyInOne(batch, acks, now, &acked);
        if (ok || !lockConflict(m_lastError))
            break;
    }
    for (qsizetype i = 0; i < acks.size(); ++i) {
        results[i].ok = ok && acked.contains(acks.at(i).first.eventId);
        if (!results[i].ok)
            results[i].reason = ok ? Refusal::Fenced : Refusal::DatabaseError;
    }
    return results;
}

bool OutboxStore::ackManyInOne(const QString &statement,
    const QList<std::pair<Claim, QString>> &acks, qint64 now, QSet<QString> *acked)
{
    QStringList ids, tokens, results;
    for (const auto &[claim, consumerResult] : acks) {
        ids << claim.eventId;
        tokens << claim.token;
        results << (consumerResult.isEmpty() ? QString() : consumerResult);
    }
    const EngineStatements &statements = m_dialect->statements();
    QSqlQuery &batch = prepared(statement);
    batch.bindValue(QStringLiteral(":ids"), statements.textList(ids));
    batch.bindValue(QStringLiteral(":tokens"), statements.textList(tokens));
    batch.bindValue(QStringLiteral(":results"), statements.textList(results));
    batch.bindValue(QStringLiteral(":now1"), now);
    batch.bindValue(QStringLiteral(":now2"), now);
    if (!batch.exec())
        return recordError(batch);
    while (batch.next())
        acked->insert(batch.value(0).toString());
    batch.finish();
    return true;
}

// One fenced UPDATE per claim in one transaction: a stale token matches no row. (On MySQL the
// count is of changed rows, and a matched row always changes: PENDING becomes DELIVERED.)
bool OutboxStore::ackManyInSteps(
    const QList<std::pair<Claim, QString>> &acks, qint64 now, QSet<QString> *acked)
{
    SqlTransaction transaction(m_db);
    if (!transaction.isActive()) {
        m_lastError = transaction.errorText();
        return false;
    }
    // clang-format off
    QSqlQuery &update = prepared(QStringLiteral(
        "UPDATE delivery_outbox"
        " SET status = 'DELIVERED', delivered_at = :now, claim_token = NULL, lease_until = NULL"
        " WHERE event_id = :id AND claim_token = :token AND status = 'PENDING'"));
    QSqlQuery &finish = prepared(QStringLiteral(
        "UPDATE delivery_attempt"
        " SET outcome = 'DELIVERED', finished_at = :now, consumer_result = :result"
        " WHERE event_id = :id AND claim_token = :token AND outcome IS NULL"));
    // clang-format on
    for (const auto &[claim, consumerResult] : acks) {
        update.bindValue(QStringLiteral(":now"), now);
        update.bindValue(QStringLiteral(":id"), claim.eventId);
        update.bindValue(QStringLiteral(":token"), claim.token);
        if (!update.exec())
            return recordError(update);
        if (update.numRowsAffected() != 1)
            continue; // fenced: a stale token changes nothing
        finish.bindValue(QStringLiteral(":now"), now);
        finish.bindValue(QStringLiteral(":result"), nullIfEmpty(consumerResult));
        finish.bindValue(QStringLiteral(":id"), claim.eventId);
        finish.bindValue(QStringLiteral(":token"), claim.token);
        if (!finish.exec())
            return recordError(finish);
        acked->insert(claim.eventId);
    }
    if (!transaction.commit()) {
        m_lastError = transaction.errorText();
        return false;
    }
    return true;
}

FailResult OutboxStore::fail(const Claim &claim, qint64 now, ErrorCategory category,
    const QString &message, const QString &consumerResult)
{
    const auto once = [&] {
        FailResult result;
        m_lastError.clear();
        SqlTransaction transaction(m_db);
        if (!transaction.isActive()) {
            m_lastError = transaction.errorText();
            result.reason = Refusal::DatabaseError;
            return result;
        }
        qint64 createdAt = 0;
        result.reason = lockForFailure(claim, &result.failures, &createdAt);
        if (!result.reason.isEmpty())
            return result;
        scheduleAfterFailure(&result, category, now, createdAt);
        if (!markFailed(claim, result, category, message)
            || !finishFailedAttempt(
                claim, result, now, category, message, consumerResult, &transaction)) {
            result.reason = Refusal::DatabaseError;
            return result;
        }
        result.ok = true;
        return result;
    };
    FailResult result;
    for (int tries = 1; tries <= LockConflictTries; ++tries) {
        result = once();
        if (result.ok || !lockConflict(m_lastError))
            break;
    }
    return result;
}

// The failures so far (plus this one) and created_at of the row `claim` still holds, locked;
// else why not (FENCED, DATABASE_ERROR).
QString OutboxStore::lockForFailure(const Claim &claim, int *failures, qint64 *createdAt)
{
    QSqlQuery &select = prepared(
        m_dialect->statements().selectSql(outboxRows(QStringLiteral("failures, created_at"),
            QStringLiteral("event_id = :id AND claim_token = :token AND status = 'PENDING'"),
            EngineStatements::RowLock::Update)));
    select.bindValue(QStringLiteral(":id"), claim.eventId);
    select.bindValue(QStringLiteral(":token"), claim.token);
    if (!select.exec())
        return recordError(select), Refusal::DatabaseError;
    if (!select.next()) {
        select.finish();
        return Refusal::Fenced;
    }
    *failures = select.value(0).toInt() + 1;
    *createdAt = select.value(1).toLongLong();
    select.finish();
    return {};
}

// DEAD, or PENDING with the retry policy's delay, by the category and the budget.
void OutboxStore::scheduleAfterFailure(
    FailResult *result, ErrorCategory category, qint64 now, qint64 createdAt)
{
    bool dead = category == ErrorCategory::Permanent || result->failures >= m_budget.maxAttempts;
    if (!dead) {
        result->delay = m_policy.delayAfter(result->failures, m_random);
        result->nextAttemptAt = now + result->delay;
        dead = m_budget.maxElapsed > 0 && result->nextAttemptAt > createdAt + m_budget.maxElapsed;
    }
    result->status = dead ? QStringLiteral("DEAD") : QStringLiteral("PENDING");
}

bool OutboxStore::markFailed(
    const Claim &claim, const FailResult &result, ErrorCategory category, const QString &message)
{
    // clang-format off
    QSqlQuery &update = prepared(QStringLiteral(
        "UPDATE delivery_outbox"
        " SET status = :status, failures = :failures,"
        "     next_attempt_at = COALESCE(:due, next_attempt_at),"
        "     claim_token = NULL, lease_until = NULL,"
        "     last_error_category = :category, last_error = :message"
        " WHERE event_id = :id AND claim_token = :token"));
    // clang-format on
    update.bindValue(QStringLiteral(":status"), result.status);
    update.bindValue(QStringLiteral(":failures"), result.failures);
    update.bindValue(QStringLiteral(":due"), dueAfterFailure(result));
    update.bindValue(QStringLiteral(":category"), errorCategoryName(category));
    update.bindValue(QStringLiteral(":message"), message);
    update.bindValue(QStringLiteral(":id"), claim.eventId);
    update.bindValue(QStringLiteral(":token"), claim.token);
    return update.exec() || recordError(update);
}

// Closes the open attempt as DEAD or RETRY, then commits.
bool OutboxStore::finishFailedAttempt(const Claim &claim, const FailResult &result, qint64 now,
    ErrorCategory category, const QString &message, const QString &consumerResult,
    SqlTransaction *transaction)
{
    // clang-format off
    QSqlQuery &finish = prepared(QStringLiteral(
        "UPDATE delivery_attempt"
        " SET outcome = :outcome, finished_at = :now,"
        "     error_category = :category, error_message = :message,"
        "     consumer_result = :result, next_attempt_at = :due"
        " WHERE event_id = :id AND claim_token = :token AND outcome IS NULL"));
    // clang-format on
    finish.bindValue(QStringLiteral(":outcome"),
        result.status == QLatin1String("DEAD") ? QStringLiteral("DEAD") : QStringLiteral("RETRY"));
    finish.bindValue(QStringLiteral(":now"), now);
    finish.bindValue(QStringLiteral(":category"), errorCategoryName(category));
    finish.bindValue(QStringLiteral(":message"), message);
    finish.bindValue(QStringLiteral(":result"), nullIfEmpty(consumerResult));
    finish.bindValue(QStringLiteral(":due"), dueAfterFailure(result));
    finish.bindValue(QStringLiteral(":id"), claim.eventId);
    finish.bindValue(QStringLiteral(":token"), claim.token);
    return (finish.exec() && transaction->commit()) || recordError(finish);
}
