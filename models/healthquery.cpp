#include "healthquery.h"

#include <QElapsedTimer>
#include <QMap>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace {

// All aggregates of one snapshot read the same committed state: one read-only transaction,
// rolled back at the end since there is nothing to commit. PostgreSQL needs REPEATABLE READ
// for one snapshot across statements; a SQLite read transaction gives it anyway.
class ReadTransaction
{
public:
    explicit ReadTransaction(const QSqlDatabase &db)
        : m_db(db)
    {
        const bool postgres = db.driverName() == QLatin1String("QPSQL");
        m_active = QSqlQuery(m_db).exec(
            postgres ? u"BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"_qs : u"BEGIN"_qs);
    }
    ~ReadTransaction()
    {
        if (m_active)
            QSqlQuery(m_db).exec(u"ROLLBACK"_qs);
    }
    ReadTransaction(const ReadTransaction &) = delete;
    ReadTransaction &operator=(const ReadTransaction &) = delete;

private:
    QSqlDatabase m_db;
    bool m_active = false;
};

// Reports the driver's own words: on SQLite a missing table surfaces at prepare time.
bool prepare(QSqlQuery &query, const QString &sql, QString *error)
{
    if (query.prepare(sql))
        return true;
    *error = query.lastError().text().simplified();
    return false;
}

bool execute(QSqlQuery &query, QString *error)
{
    if (query.exec())
        return true;
    *error = query.lastError().text().simplified();
    return false;
}

qint64 floorDiv(qint64 value, qint64 divisor)
{
    const qint64 quotient = value / divisor;
    return (value % divisor != 0 && value < 0) ? quotient - 1 : quotient;
}

bool readPendingStates(const QSqlDatabase &db, HealthSnapshot *snapshot, QString *error)
{
    QSqlQuery query(db);
    if (!prepare(query,
            u"SELECT COUNT(CASE WHEN claim_token IS NULL AND next_attempt_at <= :now1 THEN 1 END),"
            " COUNT(CASE WHEN claim_token IS NULL AND next_attempt_at > :now2 THEN 1 END),"
            " COUNT(CASE WHEN claim_token IS NOT NULL AND lease_until > :now3 THEN 1 END),"
            " COUNT(CASE WHEN claim_token IS NOT NULL AND lease_until <= :now4 THEN 1 END),"
            " MIN(created_at)"
            " FROM delivery_outbox WHERE status = 'PENDING'"_qs,
            error))
        return false;
    for (const QString &name : {u":now1"_qs, u":now2"_qs, u":now3"_qs, u":now4"_qs})
        query.bindValue(name, snapshot->now);
    if (!execute(query, error))
        return false;
    if (!query.next())
        return true; // an aggregate without GROUP BY always has one row; be lenient anyway
    snapshot->counts.due = query.value(0).toLongLong();
    snapshot->counts.scheduled = query.value(1).toLongLong();
    snapshot->counts.inFlight = query.value(2).toLongLong();
    snapshot->counts.leaseExpired = query.value(3).toLongLong();
    if (!query.value(4).isNull())
        snapshot->oldestPendingAgeMs = snapshot->now - query.value(4).toLongLong();
    return true;
}

// A row falls in the first bucket whose bound is at least its age: age <= bound, that is
// created_at >= now - bound, so the cut-offs are bound values and the column stays bare.
bool readAgeHistogram(const QSqlDatabase &db, HealthSnapshot *snapshot, QString *error)
{
    const QList<qint64> &bounds = HealthSnapshot::ageBoundsMs();
    QString sql = u"SELECT CASE"_qs;
    for (qsizetype i = 0; i < bounds.size(); ++i)
        sql += QStringLiteral(" WHEN created_at >= :cutoff%1 THEN %1").arg(i);
    sql += QStringLiteral(" ELSE %1 END, COUNT(*) FROM delivery_outbox WHERE status = 'PENDING'"
                          " GROUP BY 1")
               .arg(bounds.size());
    QSqlQuery query(db);
    if (!prepare(query, sql, error))
        return false;
    for (qsizetype i = 0; i < bounds.size(); ++i)
        query.bindValue(QStringLiteral(":cutoff%1").arg(i), snapshot->now - bounds.at(i));
    if (!execute(query, error))
        return false;

    snapshot->ageHistogram.clear();
    for (const qint64 bound : bounds)
        snapshot->ageHistogram.append({bound, 0});
    snapshot->ageHistogram.append({std::nullopt, 0});
    while (query.next()) {
        const int bucket = query.value(0).toInt();
        if (bucket >= 0 && bucket < snapshot->ageHistogram.size())
            snapshot->ageHistogram[bucket].count = query.value(1).toLongLong();
    }
    return true;
}

void fillAttemptsAndCategories(const QMap<int, FailuresBucket> &byFailures,
    QMap<QString, qint64> categories, HealthSnapshot *snapshot)
{
    snapshot->attemptsHistogram.clear();
    const int maxFailures = byFailures.isEmpty() ? -1 : byFailures.lastKey();
    for (int failures = 0; failures <= maxFailures; ++failures) {
        FailuresBucket bucket = byFailures.value(failures);
        bucket.failures = failures;
        snapshot->attemptsHistogram.append(bucket);
    }

    snapshot->errorCategories.clear();
    for (const QString &known : {u"TRANSIENT"_qs, u"PERMANENT"_qs})
        snapshot->errorCategories.append({known, categories.take(known)});
    for (auto it = categories.cbegin(); it != categories.cend(); ++it)
        snapshot->errorCategories.append({it.key(), it.value()});
}

// PENDING and DEAD rows grouped by failures and error category: a few dozen groups at most.
// Two branches so that each filters on its own status and can use that status's partial index.
bool readFailuresAndCategories(const QSqlDatabase &db, HealthSnapshot *snapshot, QString *error)
{
    QSqlQuery query(db);
    if (!prepare(query,
            u"SELECT 0, failures, last_error_category, COUNT(*) FROM delivery_outbox"
            " WHERE status = 'PENDING' GROUP BY failures, last_error_category"
            " UNION ALL"
            " SELECT 1, failures, last_error_category, COUNT(*) FROM delivery_outbox"
            " WHERE status = 'DEAD' GROUP BY failures, last_error_category"_qs,
            error))
        return false;
    if (!execute(query, error))
        return false;
    QMap<int, FailuresBucket> byFailures;
    QMap<QString, qint64> categories;
    snapshot->counts.dead = 0;
    while (query.next()) {
        const bool dead = query.value(0).toInt() == 1;
        const int failures = query.value(1).toInt();
        const qint64 count = query.value(3).toLongLong();
        if (dead)
            snapshot->counts.dead += count;
        if (failures >= 0)
            (dead ? byFailures[failures].dead : byFailures[failures].pending) += count;
        if (!query.value(2).isNull())
            categories[query.value(2).toString()] += count;
    }
    fillAttemptsAndCategories(byFailures, categories, snapshot);
    return true;
}

// Exact for now. On a big PostgreSQL table a later change may read the catalogue's estimate
// instead and then list "delivered" in snapshot->estimated.
bool readDeliveredCount(const QSqlDatabase &db, HealthSnapshot *snapshot, QString *error)
{
    QSqlQuery query(db);
    if (!prepare(
            query, u"SELECT COUNT(*) FROM delivery_outbox WHERE status = 'DELIVERED'"_qs, error))
        return false;
    if (!execute(query, error))
        return false;
    snapshot->counts.delivered = query.next() ? query.value(0).toLongLong() : 0;
    return true;
}

// Finished attempts per minute: the 60 whole minutes ending with the one that holds `now`,
// attempts finished after `now` left out. DELIVERED counts as delivered, RETRY and DEAD as
// failed; LEASE_EXPIRED is neither (the worker never reported back).
bool readThroughput(const QSqlDatabase &db, HealthSnapshot *snapshot, QString *error)
{
    const qint64 minute = HealthSnapshot::MinuteMs;
    const qint64 first
        = (floorDiv(snapshot->now, minute) - (HealthSnapshot::ThroughputMinutes - 1)) * minute;
    QSqlQuery query(db);
    if (!prepare(query,
            u"SELECT (finished_at - :first1) / 60000,"
            " COUNT(CASE WHEN outcome = 'DELIVERED' THEN 1 END),"
            " COUNT(CASE WHEN outcome <> 'DELIVERED' THEN 1 END)"
            " FROM delivery_attempt"
            " WHERE outcome IN ('DELIVERED', 'RETRY', 'DEAD')"
            " AND finished_at >= :first2 AND finished_at <= :now"
            " GROUP BY 1"_qs,
            error))
        return false;
    query.bindValue(u":first1"_qs, first);
    query.bindValue(u":first2"_qs, first);
    query.bindValue(u":now"_qs, snapshot->now);
    if (!execute(query, error))
        return false;

    snapshot->throughput.clear();
    for (int i = 0; i < HealthSnapshot::ThroughputMinutes; ++i)
        snapshot->throughput.append({first + i * minute, 0, 0});
    while (query.next()) {
        const qint64 index = query.value(0).toLongLong();
        if (index < 0 || index >= snapshot->throughput.size())
            continue;
        snapshot->throughput[index].delivered = query.value(1).toLongLong();
        snapshot->throughput[index].failed = query.value(2).toLongLong();
    }
    return true;
}

} // namespace

namespace HealthQuery {

std::optional<HealthSnapshot> compute(const QSqlDatabase &db, qint64 now, QString *error)
{
    QString scratch;
    if (!error)
        error = &scratch;
    QElapsedTimer timer;
    timer.start();
    HealthSnapshot snapshot;
    snapshot.now = now;
    {
        const ReadTransaction transaction(db);
        if (!readPendingStates(db, &snapshot, error) || !readAgeHistogram(db, &snapshot, error)
            || !readFailuresAndCategories(db, &snapshot, error)
            || !readDeliveredCount(db, &snapshot, error) || !readThroughput(db, &snapshot, error))
            return std::nullopt;
    }
    snapshot.queryMs = timer.elapsed();
    return snapshot;
}

} // namespace HealthQuery
