#include "outboxrows.h"

#include <QDateTime>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QVariant>

namespace {

QVariant orNull(const QString &text)
{
    return text.isEmpty() ? QVariant() : QVariant(text);
}

template <typename T> QVariant orNull(const std::optional<T> &value)
{
    return value ? QVariant::fromValue(*value) : QVariant();
}

} // namespace

bool insertRow(const QSqlDatabase &db, const OutboxRow &row)
{
    QSqlQuery query(db);
    query.prepare(
        u"INSERT INTO delivery_outbox (event_id, aggregate_type, aggregate_id, event_type,"
        " payload, status, failures, next_attempt_at, claim_token, lease_until, created_at,"
        " delivered_at, last_error_category, last_error) VALUES (:id, 'Order', :aggregate, :type,"
        " '{}', :status, :failures, :due, :token, :lease, :created, :delivered, :category,"
        " :error)"_qs);
    query.bindValue(u":id"_qs, row.id);
    query.bindValue(u":aggregate"_qs, row.aggregate.isEmpty() ? row.id : row.aggregate);
    query.bindValue(u":type"_qs, row.type);
    query.bindValue(u":status"_qs, row.status);
    query.bindValue(u":failures"_qs, row.failures);
    query.bindValue(u":due"_qs, row.nextAttemptAt);
    query.bindValue(u":token"_qs, row.leaseUntil ? QVariant(u"token-"_qs + row.id) : QVariant());
    query.bindValue(u":lease"_qs, orNull(row.leaseUntil));
    query.bindValue(u":created"_qs, row.createdAt);
    query.bindValue(u":delivered"_qs, orNull(row.deliveredAt));
    query.bindValue(u":category"_qs, orNull(row.category));
    query.bindValue(u":error"_qs, orNull(row.error));
    if (!query.exec())
        qWarning("insert %s: %s", qPrintable(row.id), qPrintable(query.lastError().text()));
    return query.numRowsAffected() == 1;
}

bool insertHostileCategories(const QSqlDatabase &db, int count, qint64 now)
{
    QSqlDatabase handle = db;
    if (!handle.transaction())
        return false;
    for (int i = 0; i < count; ++i) {
        OutboxRow row;
        row.id = u"H-"_qs + QString::number(i);
        row.status = u"DEAD"_qs;
        row.createdAt = now - 3600000;
        row.nextAttemptAt = now - 3000000;
        row.failures = 1;
        row.category = QStringLiteral("EVIL-%1 \"}\n\x1b[2K").arg(i);
        row.error = u"made up"_qs;
        if (!insertRow(db, row)) {
            handle.rollback();
            return false;
        }
    }
    return handle.commit();
}

bool insertAttempt(const QSqlDatabase &db, const AttemptRow &attempt)
{
    QSqlQuery query(db);
    query.prepare(
        u"INSERT INTO delivery_attempt (event_id, attempt_no, worker, claim_token, claimed_at,"
        " finished_at, outcome, error_category, error_message) VALUES (:id, :no, :worker,"
        " 'token', :claimed, :finished, :outcome, NULL, :error)"_qs);
    query.bindValue(u":id"_qs, attempt.eventId);
    query.bindValue(u":no"_qs, attempt.attemptNo);
    query.bindValue(u":worker"_qs, attempt.worker);
    query.bindValue(u":claimed"_qs, attempt.claimedAt);
    query.bindValue(u":finished"_qs, orNull(attempt.finishedAt));
    query.bindValue(u":outcome"_qs, orNull(attempt.outcome));
    query.bindValue(u":error"_qs, orNull(attempt.error));
    if (!query.exec())
        qWarning("insert attempt %s: %s", qPrintable(attempt.eventId),
            qPrintable(query.lastError().text()));
    return query.numRowsAffected() == 1;
}

OutboxRow failedRow(const QString &id, const QString &status, const QString &error,
    const QString &category, qint64 now)
{
    constexpr qint64 Minute = 60000;
    OutboxRow row;
    row.id = id;
    row.status = status;
    row.error = error;
    row.category = category;
    row.failures = status == QLatin1String("DEAD") ? 3 : 1;
    row.createdAt = now - 30 * Minute;
    row.nextAttemptAt = status == QLatin1String("PENDING") ? now + 60 * Minute : now - 20 * Minute;
    if (status == QLatin1String("DELIVERED"))
        row.deliveredAt = now - 10 * Minute;
    return row;
}

QStringList everyRow(const QSqlDatabase &db)
{
    QStringList rows;
    const QStringList tables
        = {QStringLiteral("delivery_outbox"), QStringLiteral("delivery_attempt"),
            QStringLiteral("consumer_ledger"), QStringLiteral("consumer_stock"),
            QStringLiteral("replay_log"), QStringLiteral("outbox_meta")};
    for (const QString &table : tables) {
        QSqlQuery query(db);
        if (!query.exec(QStringLiteral("SELECT * FROM ") + table + QStringLiteral(" ORDER BY 1")))
            return {QStringLiteral("cannot read ") + table};
        while (query.next()) {
            QStringList values;
            for (int i = 0; i < query.record().count(); ++i)
                values << (query.value(i).isNull() ? QStringLiteral("NULL")
                                                   : query.value(i).toString());
            rows << table + QStringLiteral(": ") + values.join(u'|');
        }
    }
    return rows;
}

bool insertDeadAndDue(const QSqlDatabase &db, int dead, qint64 deadAgeMs,
    std::optional<qint64> dueAgeMs, const QString &error)
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (int i = 0; i < dead; ++i) {
        OutboxRow row;
        row.id = QStringLiteral("D-") + QString::number(i);
        row.status = QStringLiteral("DEAD");
        row.createdAt = now - deadAgeMs;
        row.nextAttemptAt = now - deadAgeMs + 200000;
        row.failures = 3;
        row.category = QStringLiteral("PERMANENT");
        row.error = error;
        if (!insertRow(db, row))
            return false;
    }
    if (!dueAgeMs)
        return true;
    OutboxRow due;
    due.id = QStringLiteral("P-1");
    due.createdAt = now - *dueAgeMs;
    due.nextAttemptAt = now - *dueAgeMs;
    return insertRow(db, due);
}
