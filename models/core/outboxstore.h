// The outbox lifecycle on one database connection: insert, claim (by id or a batch of due
// rows), token-fenced ack and fail, parking DEAD by classification and budget. Every write
// runs in its own short transaction with bound values; no transaction is held open while a
// transport call is in progress.
#pragma once

#include "statementcache.h"

#include "outboxtypes.h"
#include "retrypolicy.h"

#include <QHash>
#include <QList>
#include <QRandomGenerator>
#include <QSet>
#include <QSqlDatabase>
#include <QSqlQuery>

class SqlTransaction;

class SqlDialect;

class OutboxStore
{
public:
    explicit OutboxStore(const QSqlDatabase &db);

    void setRetryPolicy(const RetryPolicy &policy) { m_policy = policy; }
    void setBudget(const RetryBudget &budget) { m_budget = budget; }
    void setLeaseDuration(qint64 lease) { m_lease = lease; }
    void setRandomSeed(quint32 seed) { m_random.seed(seed); }
    const RetryPolicy &retryPolicy() const { return m_policy; }
    const RetryBudget &budget() const { return m_budget; }
    qint64 leaseDuration() const { return m_lease; }

    bool insertEvent(const NewEvent &event);

    // Claims one event if it is PENDING and due, or its lease expired; otherwise says why not.
    ClaimResult claim(const QString &eventId, const QString &worker, qint64 now);
    // Claims up to `limit` claimable events, oldest due first; where the engine locks rows,
    // rows locked by another worker are skipped (EngineStatements::RowLock::UpdateSkipLocked).
    QList<Claim> claimDue(const QString &worker, qint64 now, int limit);

    // Marks the event DELIVERED, only while `claim.token` still holds it.
    AckResult ack(const Claim &claim, qint64 now, const QString &consumerResult = {});
    // Acknowledges several claims at once (one statement where the engine's dialect has one:
    // EngineStatements::ackBatchSql()), each fenced by its
    // own token; results in the order given. The pair's second is the consumer result.
    QList<AckResult> ackMany(const QList<std::pair<Claim, QString>> &acks, qint64 now);
    // Records a failed attempt, only while `claim.token` still holds the event: PERMANENT parks
    // DEAD at once; TRANSIENT schedules the next attempt by the retry policy or parks DEAD when
    // the attempt or elapsed budget is spent.
    FailResult fail(const Claim &claim, qint64 now, ErrorCategory category, const QString &message,
        const QString &consumerResult = {});

    QString lastError() const { return m_lastError; }

private:
    QSqlQuery &prepared(const QString &sql) { return m_statements.prepared(sql); }
    QString refusalFor(const QString &eventId, qint64 now);
    QList<Claim> claimDueInOne(
        const QString &statement, const QString &worker, qint64 now, int limit);
    QList<Claim> claimDueInSteps(const QString &worker, qint64 now, int limit);
    bool ackManyInOne(const QString &statement, const QList<std::pair<Claim, QString>> &acks,
        qint64 now, QSet<QString> *acked);
    bool ackManyInSteps(
        const QList<std::pair<Claim, QString>> &acks, qint64 now, QSet<QString> *acked);
    bool claimLockedRow(Claim *claim, const QString &worker, qint64 now, bool expiredLease);
    bool recordError(const class QSqlQuery &query);
    // fail(), step by step, inside its transaction.
    QString lockForFailure(const Claim &claim, int *failures, qint64 *createdAt);
    void scheduleAfterFailure(
        FailResult *result, ErrorCategory category, qint64 now, qint64 createdAt);
    bool markFailed(const Claim &claim, const FailResult &result, ErrorCategory category,
        const QString &message);
    bool finishFailedAttempt(const Claim &claim, const FailResult &result, qint64 now,
        ErrorCategory category, const QString &message, const QString &consumerResult,
        SqlTransaction *transaction);

    QSqlDatabase m_db;
    const SqlDialect *m_dialect = nullptr;
    RetryPolicy m_policy;
    RetryBudget m_budget;
    qint64 m_lease = 30;
    QRandomGenerator m_random;
    QString m_lastError;
    StatementCache m_statements;
};
