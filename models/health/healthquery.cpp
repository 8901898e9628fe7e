#include "healthquery.h"

#include "cdcslot.h"
#include "enginestatements.h"
#include "floordiv.h"
#include "indexhint.h"
#include "latencyquery.h"
#include "queryerror.h"
#include "readonlytransaction.h"
#include "saturating.h"
#include "sqldialect.h"
#include "throughputcache.h"

#include <QElapsedTimer>
#include <QMap>
#include <QSqlQuery>
#include <QVariant>
#include <cmath>

namespace {

using Bindings = QList<std::pair<QString, qint64>>;

// The statement with its values in place of the placeholders (all of them numbers).
QString withValues(QString sql, Bindings values)
{
    std::sort(values.begin(), values.end(),
        [](const auto &a, const auto &b) { return a.first.size() > b.first.size(); });
    for (const auto &[name, value] : values)
        sql.replace(name, QString::number(value));
    return sql;
}

// Runs the statements of one snapshot, reporting the driver's own words on failure (on
// SQLite a missing table surfaces at prepare time).
class Reader
{
public:
    Reader(const QSqlDatabase &db, ReadOnlyTransaction &transaction,
        const HealthQuery::Options &options, QString *error)
        : m_db(db)
        , m_transaction(transaction)
        , m_options(options)
        , m_error(error)
        , m_native(!options.profile || options.profile->isNative())
        , m_dialect(SqlDialect::of(db))
        , m_source(OutboxProfile::sourceOf(options.profile, db))
    { }

    const SqlDialect &dialect() const { return m_dialect; }
    const OutboxProfile *profile() const { return m_options.profile; }
    // The native schema, or another one read through its profile's source.
    bool isNative() const { return m_native; }
    // What the statements read FROM: delivery_outbox, or the profile's derived table.
    const QString &source() const { return m_source; }
    // The same, reading the native schema's `index` where the dialect has to name it
    // (SqlDialect::indexHint); a profile's table, which has no such index, as it is.
    QString sourceUsing(const QString &index) const
    {
        return m_native && m_source == u"delivery_outbox"_qs
            ? IndexHint::source(m_db, m_source, index)
            : m_source;
    }
    const HealthQuery::Options &options() const { return m_options; }

    // Runs the statement in the snapshot's read-only transaction, which owns *query (and
    // frees it only after the transaction has ended); false with the error set.
    bool run(QSqlQuery **query, const QString &sql, const Bindings &values = {})
    {
        *query = m_transaction.prepare(sql);
        if (!*query) {
            *m_error = m_transaction.errorText();
            IndexHint::forget(m_db);
            return false;
        }
        for (const auto &[name, value] : values)
            (*query)->bindValue(name, value);
        if (m_options.trace)
            m_options.trace->append(withValues(sql, values));
        return (*query)->exec() || fail(**query);
    }

private:
    bool fail(const QSqlQuery &query)
    {
        *m_error = QueryError::text(query);
        IndexHint::forget(m_db);
        return false;
    }

    QSqlDatabase m_db;
    ReadOnlyTransaction &m_transaction;
    const HealthQuery::Options &m_options;
    QString *m_error;
    bool m_native = true;
    const SqlDialect &m_dialect;
    QString m_source;
};

// The age buckets of rows whose created_at is no time at all: before 1970, or later than now
// by more than the tolerance. They are counted apart, never given an age.
constexpr int Before1970 = -1;
constexpr int InFuture = -2;

struct SmallStates
{
    QMap<qint64, FailuresBucket> byFailures;
    QMap<QString, qint64> categories;
};

// A row falls in the first age bucket whose bound is at least its age: age <= bound, that is
// created_at >= now - bound, so the cut-offs are bound values and the column stays bare (no
// arithmetic on a stored value, which could overflow). Implausible times come first.
QString ageBucketExpression(Bindings *values, qint64 now)
{
    const QList<qint64> &bounds = HealthSnapshot::ageBoundsMs();
    QString sql
        = QStringLiteral("CASE WHEN created_at < 0 THEN %1 WHEN created_at > :future THEN %2")
              .arg(Before1970)
              .arg(InFuture);
    values->append({u":future"_qs, Saturating::add(now, HealthSnapshot::FutureToleranceMs)});
    for (qsizetype i = 0; i < bounds.size(); ++i) {
        sql += QStringLiteral(" WHEN created_at >= :cutoff%1 THEN %1").arg(i);
        values->append({QStringLiteral(":cutoff%1").arg(i), Saturating::sub(now, bounds.at(i))});
    }
    return sql + QStringLiteral(" ELSE %1 END").arg(bounds.size());
}

// Every PENDING figure in one pass over the PENDING index: the rows grouped by age bucket,
// failures and error category (a few dozen groups), each group split by derived state.
bool readPending(Reader &reader, HealthSnapshot *snapshot, SmallStates *small)
{
    Bindings values;
    // clang-format off
    const QString sql = u"SELECT "_qs + ageBucketExpression(&values, snapshot->now)
        + u", failures, last_error_category,"
          " COUNT(CASE WHEN claim_token IS NULL AND next_attempt_at <= :now1 THEN 1 END),"
          " COUNT(CASE WHEN claim_token IS NULL AND next_attempt_at > :now2 THEN 1 END),"
          " COUNT(CASE WHEN claim_token IS NOT NULL AND lease_until > :now3 THEN 1 END),"
          " COUNT(CASE WHEN claim_token IS NOT NULL AND lease_until <= :now4 THEN 1 END),"
          " MIN(created_at)"
          " FROM "_qs + reader.sourceUsing(u"delivery_outbox_pending"_qs)
        + u" WHERE status = 'PENDING'"
          " GROUP BY 1, 2, 3"_qs;
    // clang-format on
    for (const QString &name : {u":now1"_qs, u":now2"_qs, u":now3"_qs, u":now4"_qs})
        values.append({name, snapshot->now});
    QSqlQuery *prepared = nullptr;
    if (!reader.run(&prepared, sql, values))
        return false;
    QSqlQuery &query = *prepared;

    std::optional<qint64> oldest;
    while (query.next()) {
        const qint64 due = query.value(3).toLongLong(), scheduled = query.value(4).toLongLong();
        const qint64 inFlight = query.value(5).toLongLong();
        const qint64 expired = query.value(6).toLongLong();
        const qint64 rows = due + scheduled + inFlight + expired;
        snapshot->counts.due += due;
        snapshot->counts.scheduled += scheduled;
        snapshot->counts.inFlight += inFlight;
        snapshot->counts.leaseExpired += expired;
        const int bucket = query.value(0).toInt();
        if (bucket >= 0 && bucket < snapshot->ageHistogram.size())
            snapshot->ageHistogram[bucket].count += rows;
        if (query.value(1).toLongLong() >= 0)
            small->byFailures[query.value(1).toLongLong()].pending += rows;
        if (!query.value(2).isNull())
            small->categories[query.value(2).toString()] += rows;
        if (bucket == Before1970)
            snapshot->implausible.createdBefore1970 += rows;
        if (bucket == InFuture)
            snapshot->implausible.createdInFuture += rows;
        if (bucket < 0 || query.value(7).isNull())
            continue; // no time at all, or a schema without created_at
        const qint64 created = query.value(7).toLongLong();
        oldest = oldest ? std::min(*oldest, created) : created;
    }
    // 0 <= oldest <= now + tolerance, so this cannot overflow; a row created a little after
    // now (clocks a few seconds apart) is as young as can be, not of negative age.
    if (oldest)
        snapshot->oldestPendingAgeMs = std::max<qint64>(0, Saturating::sub(snapshot->now, *oldest));
    return true;
}

qint64 singleNumber(QSqlQuery &query);

// The summary's PENDING figures in one row, from the PENDING index: the counts by derived
// state, the oldest plausible created_at and how many are implausible (as readPending tells
// them, without the groups: implausible rows only among those counted in a state, which a
// profile's row with no next_attempt_at, or claimed without a lease, is not).
bool readPendingSummary(Reader &reader, HealthSnapshot *snapshot)
{
    const QString inAState = u"(claim_token IS NULL AND next_attempt_at IS NOT NULL)"
                             " OR (claim_token IS NOT NULL AND lease_until IS NOT NULL)"_qs;
    const qint64 future = Saturating::add(snapshot->now, HealthSnapshot::FutureToleranceMs);
    QSqlQuery *prepared = nullptr;
    // clang-format off
    if (!reader.run(&prepared,
            u"SELECT COUNT(CASE WHEN claim_token IS NULL AND next_attempt_at <= :now1 THEN 1 END),"
            "        COUNT(CASE WHEN claim_token IS NULL AND next_attempt_at > :now2 THEN 1 END),"
            "        COUNT(CASE WHEN claim_token IS NOT NULL AND lease_until > :now3 THEN 1 END),"
            "        COUNT(CASE WHEN claim_token IS NOT NULL AND lease_until <= :now4 THEN 1 END),"
            "        MIN(CASE WHEN created_at >= 0 AND created_at <= :future1 THEN created_at END),"
            "        COUNT(CASE WHEN created_at < 0 AND (%1) THEN 1 END),"
            "        COUNT(CASE WHEN created_at > :future2 AND (%1) THEN 1 END)"
            " FROM %2 WHERE status = 'PENDING'"_qs.arg(
                inAState, reader.sourceUsing(u"delivery_outbox_pending"_qs)),
            {{u":now1"_qs, snapshot->now}, {u":now2"_qs, snapshot->now},
                {u":now3"_qs, snapshot->now}, {u":now4"_qs, snapshot->now},
                {u":future1"_qs, future}, {u":future2"_qs, future}}))
        return false;
    // clang-format on
    QSqlQuery &query = *prepared;
    if (!query.next())
        return true;
    snapshot->counts.due = query.value(0).toLongLong();
    snapshot->counts.scheduled = query.value(1).toLongLong();
    snapshot->counts.inFlight = query.value(2).toLongLong();
    snapshot->counts.leaseExpired = query.value(3).toLongLong();
    if (!query.value(4).isNull())
        snapshot->oldestPendingAgeMs
            = std::max<qint64>(0, Saturating::sub(snapshot->now, query.value(4).toLongLong()));
    snapshot->implausible.createdBefore1970 = query.value(5).toLongLong();
    snapshot->implausible.createdInFuture = query.value(6).toLongLong();
    return true;
}

bool readDeadSummary(Reader &reader, HealthSnapshot *snapshot)
{
    QSqlQuery *prepared = nullptr;
    if (!reader.run(&prepared,
            u"SELECT COUNT(*) FROM "_qs + reader.source() + u" WHERE status = 'DEAD'"_qs))
        return false;
    snapshot->counts.dead = singleNumber(*prepared);
    return true;
}

// DEAD rows by failures and error category, from the DEAD index.
bool readDead(Reader &reader, HealthSnapshot *snapshot, SmallStates *small)
{
    QSqlQuery *prepared = nullptr;
    // clang-format off
    if (!reader.run(&prepared,
            u"SELECT failures, last_error_category, COUNT(*) FROM "_qs + reader.source()
            + u" WHERE status = 'DEAD'"
              " GROUP BY failures, last_error_category"_qs))
        return false;
    // clang-format on
    QSqlQuery &query = *prepared;
    while (query.next()) {
        const qint64 count = query.value(2).toLongLong();
        snapshot->counts.dead += count;
        if (query.value(0).toLongLong() >= 0)
            small->byFailures[query.value(0).toLongLong()].dead += count;
        if (!query.value(1).isNull())
            small->categories[query.value(1).toString()] += count;
    }
    return true;
}

// The native schema's version and, from version 2, its RESOLVED rows (from their partial
// index), in one statement: a version 1 database records no version, so returns no row and
// counts nothing (it could only count by reading the whole table).
bool readVersionAndResolved(Reader &reader, HealthSnapshot *snapshot)
{
    QSqlQuery *prepared = nullptr;
    // clang-format off
    if (!reader.run(&prepared,
            u"SELECT value,"
            "        (SELECT COUNT(*) FROM delivery_outbox WHERE status = 'RESOLVED')"
            " FROM outbox_meta WHERE \"key\" = 'schema_version'"_qs))
        return false;
    // clang-format on
    snapshot->schemaVersion = 1;
    if (prepared->next()) {
        snapshot->schemaVersion = prepared->value(0).toString().trimmed().toInt();
        snapshot->counts.resolved = prepared->value(1).toLongLong();
    }
    return true;
}

void fillAttemptsAndCategories(const SmallStates &small, HealthSnapshot *snapshot)
{
    // Zeros fill the gaps up to DenseFailures; beyond, only counts that occur are listed, so a
    // stored failures of 2^62 is one bucket, not 2^62 of them.
    const qint64 maxFailures = small.byFailures.isEmpty() ? -1 : small.byFailures.lastKey();
    for (qint64 failures = 0; failures <= std::min(maxFailures, HealthSnapshot::DenseFailures);
         ++failures) {
        FailuresBucket bucket = small.byFailures.value(failures);
        bucket.failures = failures;
        snapshot->attemptsHistogram.append(bucket);
    }
    for (auto it = small.byFailures.upperBound(HealthSnapshot::DenseFailures);
         it != small.byFailures.cend(); ++it) {
        FailuresBucket bucket = it.value();
        bucket.failures = it.key();
        snapshot->attemptsHistogram.append(bucket);
    }
    QMap<QString, qint64> categories = small.categories;
    for (const QString &known : HealthSnapshot::knownErrorCategories())
        snapshot->errorCategories.append({known, categories.take(known)});
    for (auto it = categories.cbegin(); it != categories.cend(); ++it)
        snapshot->errorCategories.append({it.key(), it.value()});
}

qint64 singleNumber(QSqlQuery &query)
{
    return query.next() ? query.value(0).toLongLong() : 0;
}

// The planner's own row estimate: the density of the last VACUUM or ANALYZE times the pages
// the table has now, so that it follows growth since. None before the first ANALYZE.
// A DELETE frees no pages, so after a purge or any mass DELETE that figure stays as high as
// before until autovacuum comes round. The cumulative statistics' live row count follows every
// committed insert and delete within a second or so; it is taken instead when its entry can be
// trusted to cover the table: it has seen a VACUUM or ANALYZE (a statistics reset, as after a
// crash, clears those times), or it has counted at least half the estimated rows going in.
// MySQL's InnoDB has no pages here: its row count is taken as it is (catalogueRowEstimateSql).
std::optional<double> catalogueRows(Reader &reader, bool *ok)
{
    QSqlQuery *prepared = nullptr;
    *ok = reader.run(&prepared, reader.dialect().catalogueRowEstimateSql(u"delivery_outbox"_qs));
    if (!*ok || !prepared->next() || prepared->value(0).toDouble() < 0)
        return std::nullopt;
    const QSqlQuery &query = *prepared;
    const double tuples = query.value(0).toDouble();
    const double pages = query.value(1).toDouble();
    const double pagesNow = query.value(2).toDouble();
    std::optional<double> rows;
    if (pages > 0)
        rows = tuples / pages * pagesNow;
    else if (pagesNow == 0)
        rows = tuples;
    const double live = query.value(3).toDouble();
    const bool tracked
        = query.value(5).toBool() || (rows && query.value(4).toDouble() >= *rows / 2);
    if (rows && tracked)
        return live;
    return rows;
}

// DELIVERED is the one big state. SQLite counts every row through its smallest index (no
// table pages) and subtracts the small states, read in the same transaction: exact. PostgreSQL
// and MySQL count exactly up to the threshold and estimate above it.
bool readDelivered(Reader &reader, HealthSnapshot *snapshot)
{
    const qint64 small
        = snapshot->counts.pending() + snapshot->counts.dead + snapshot->counts.resolved;
    QSqlQuery *query = nullptr;
    if (!reader.isNative()) {
        // Another schema: no catalogue estimate of a derived table, so an exact count.
        if (!reader.run(&query,
                u"SELECT COUNT(*) FROM "_qs + reader.source() + u" WHERE status = 'DELIVERED'"_qs))
            return false;
        snapshot->counts.delivered = singleNumber(*query);
        return true;
    }
    if (!reader.dialect().can().catalogueRowEstimates) {
        if (!reader.run(&query, u"SELECT COUNT(*) FROM delivery_outbox"_qs))
            return false;
        snapshot->counts.delivered = std::max<qint64>(0, singleNumber(*query) - small);
        return true;
    }
    bool ok = false;
    const std::optional<double> rows = catalogueRows(reader, &ok);
    if (!ok)
        return false;
    if (rows && *rows > double(reader.options().estimateAboveRows)) {
        snapshot->counts.delivered = std::max<qint64>(0, std::llround(*rows) - small);
        snapshot->estimated << u"delivered"_qs;
        return true;
    }
    if (!reader.run(&query, u"SELECT COUNT(*) FROM delivery_outbox WHERE status = 'DELIVERED'"_qs))
        return false;
    snapshot->counts.delivered = singleNumber(*query);
    return true;
}

// Finished attempts per minute: the 60 whole minutes ending with the one that holds `now`,
// attempts finished after `now` left out. DELIVERED counts as delivered, RETRY and DEAD as
// failed; LEASE_EXPIRED is neither (the worker never reported back). With a ThroughputCache
// only the minutes it does not hold are read.
bool readThroughput(Reader &reader, HealthSnapshot *snapshot)
{
    const qint64 minute = HealthSnapshot::MinuteMs;
    const qint64 first
        = (floorDiv(snapshot->now, minute) - (HealthSnapshot::ThroughputMinutes - 1)) * minute;
    ThroughputCache *cache = reader.options().throughputCache;
    const qint64 from = cache ? cache->readFrom(first, snapshot->now) : first;
    // Only minutes inside the window are read, so finished_at - first stays within the hour.
    // Each row's minute is its offset's start in ms, divided here: MySQL's `/` gives a decimal.
    QSqlQuery *prepared = nullptr;
    // clang-format off
    if (!reader.run(&prepared,
            u"SELECT (finished_at - :first) - (finished_at - :first2) % 60000,"
            "        COUNT(CASE WHEN outcome = 'DELIVERED' THEN 1 END),"
            "        COUNT(CASE WHEN outcome <> 'DELIVERED' THEN 1 END)"
            " FROM delivery_attempt"
            " WHERE outcome IN ('DELIVERED', 'RETRY', 'DEAD')"
            "   AND finished_at >= :from AND finished_at <= :now"
            " GROUP BY 1"_qs,
            {{u":first"_qs, first}, {u":first2"_qs, first}, {u":from"_qs, from},
                {u":now"_qs, snapshot->now}}))
        return false;
    // clang-format on
    QSqlQuery &query = *prepared;

    for (int i = 0; i < HealthSnapshot::ThroughputMinutes; ++i) {
        const qint64 start = first + i * minute;
        snapshot->throughput.append(
            start < from ? cache->minute(start) : ThroughputMinute {start, 0, 0});
    }
    while (query.next()) {
        const qint64 index = query.value(0).toLongLong() / minute;
        if (index < 0 || index >= snapshot->throughput.size())
            continue;
        snapshot->throughput[index].delivered = query.value(1).toLongLong();
        snapshot->throughput[index].failed = query.value(2).toLongLong();
    }
    if (cache)
        cache->store(snapshot->throughput, from, snapshot->now);
    return true;
}

bool canTellLatency(const HealthQuery::Options &options)
{
    using Column = OutboxProfile::Column;
    const OutboxProfile *profile = options.profile;
    return !profile
        || (profile->isAvailable(Column::CreatedAt) && profile->isAvailable(Column::DeliveredAt));
}

// The latency of the events delivered in the last hour, (now - 1 h, now]; on the native
// schema only from its index (otherwise listed as not available: `outboxctl init` adds it).
bool readLatency(Reader &reader, HealthSnapshot *snapshot)
{
    if (!reader.options().readLatency || !canTellLatency(reader.options()))
        return true;
    if (reader.isNative()) {
        QSqlQuery *probe = nullptr;
        if (!reader.run(&probe, LatencyQuery::indexProbeSql(reader.dialect())))
            return false;
        if (!probe->next() || probe->value(0).toInt() == 0) {
            snapshot->notAvailable << u"delivery_latency_ms"_qs;
            return true;
        }
    }
    const qint64 after
        = LatencyQuery::afterBound(Saturating::sub(snapshot->now, HealthSnapshot::LatencyWindowMs));
    QSqlQuery *prepared = nullptr;
    if (!reader.run(&prepared, LatencyQuery::sql(reader.source(), reader.dialect()),
            {{u":after"_qs, after}, {u":until"_qs, snapshot->now}}))
        return false;
    snapshot->latency = LatencyQuery::fromRows(*prepared);
    return true;
}

// A profile's RESOLVED rows (a status expression that yields RESOLVED: hasResolved()).
bool readProfileResolved(Reader &reader, const OutboxProfile &profile, HealthSnapshot *snapshot)
{
    if (!profile.hasResolved())
        return true;
    QSqlQuery *prepared = nullptr;
    if (!reader.run(&prepared,
            u"SELECT COUNT(*) FROM "_qs + reader.source() + u" WHERE status = 'RESOLVED'"_qs))
        return false;
    snapshot->resolvedMapped = true;
    snapshot->counts.resolved = singleNumber(*prepared);
    return true;
}

// A profile's status expression must yield PENDING, DELIVERED or DEAD (or RESOLVED, when its
// `statuses` list it) for every row; a row
// yielding anything else (the library's raw states, NULL) would be counted nowhere, and the
// snapshot would say zero where there are rows. Reads the rows the other states do not cover:
// how many, and the three commonest values.
bool checkStatuses(Reader &reader, const OutboxProfile &profile, QString *error)
{
    QSqlQuery *prepared = nullptr;
    // clang-format off
    if (!reader.run(&prepared,
            reader.dialect().statements().limitedSql(
                u"SELECT status, COUNT(*), SUM(COUNT(*)) OVER () FROM "_qs + reader.source()
                    + u" WHERE status IS NULL OR status NOT IN ('PENDING', 'DELIVERED', 'DEAD'"_qs
                    + (profile.hasResolved() ? u", 'RESOLVED'"_qs : QString())
                    + u") GROUP BY status ORDER BY COUNT(*) DESC, status"_qs,
                u"3"_qs)))
        return false;
    QSqlQuery &query = *prepared;
    // clang-format on
    qint64 rows = 0;
    QStringList values;
    while (query.next()) {
        rows = query.value(2).toLongLong();
        values << (query.value(0).isNull() ? u"NULL"_qs
                                           : u"'"_qs + query.value(0).toString() + u"'"_qs);
    }
    if (rows == 0)
        return true;
    const QString location = QStringLiteral("%1:%2")
                                 .arg(profile.origin())
                                 .arg(profile.lineOfField(u"status"_qs, reader.dialect().engine()));
    const QString states = profile.hasResolved() ? u"PENDING, DELIVERED, DEAD or RESOLVED"_qs
                                                 : u"PENDING, DELIVERED or DEAD"_qs;
    *error
        = QString(u"%1: %2 %3 a status other than "_qs + states
            + u" (%4 %5): the status expression (%6) must map every row to one of them"_qs)
              .arg(profile.name())
              .arg(rows)
              .arg(rows == 1 ? u"row has"_qs : u"rows have"_qs,
                  values.size() == 1 ? u"value"_qs : u"values"_qs, values.join(u", "_qs), location);
    return false;
}

// The snapshot's keys a profile's schema cannot tell: its counts, then the figures that need
// created_at, failures, an error category or the attempt history.
QStringList notAvailableFor(const OutboxProfile &profile)
{
    using Column = OutboxProfile::Column;
    QStringList keys = profile.notAvailableCounts();
    if (!profile.isAvailable(Column::CreatedAt))
        keys << u"oldest_pending_age_ms"_qs << u"age_histogram"_qs;
    if (!profile.isAvailable(Column::Failures))
        keys << u"attempts_histogram"_qs;
    if (!profile.isAvailable(Column::LastErrorCategory))
        keys << u"error_categories"_qs;
    if (!profile.hasAttemptHistory())
        keys << u"throughput_per_minute"_qs;
    if (!profile.isAvailable(Column::CreatedAt) || !profile.isAvailable(Column::DeliveredAt))
        keys << u"delivery_latency_ms"_qs;
    return keys;
}

// The snapshot's statements are small aggregates over partial indexes: on PostgreSQL they run
// in this backend alone and are never JIT-compiled. Parallel workers and JIT pay off for long
// queries; here their start-up costs more than the scan, and on a busy server the workers
// take cores from the relay (measured at 10M events: the DEAD figures 238 ms with two workers
// on a loaded two-core server, 30 ms without). For this transaction only.
bool limitPlanner(Reader &reader)
{
    const QString limits = reader.dialect().plannerLimitsSql(SqlDialect::Scope::Transaction);
    if (limits.isEmpty())
        return true;
    QSqlQuery *prepared = nullptr;
    const bool ok = reader.run(&prepared, limits);
    // The trace is replayed statement by statement outside a transaction: the same settings
    // for that whole session.
    if (ok && reader.options().trace)
        reader.options().trace->last()
            = reader.dialect().plannerLimitsSql(SqlDialect::Scope::Session);
    return ok;
}

// The attempt limits a profile maps (attempt_limit), for the failures chart's title.
bool readAttemptLimits(Reader &reader, const OutboxProfile *profile, HealthSnapshot *snapshot)
{
    if (!profile || !profile->hasAttemptLimit())
        return true;
    QSqlQuery *prepared = nullptr;
    if (!reader.run(&prepared,
            u"SELECT MIN(attempt_limit), MAX(attempt_limit) FROM "_qs + reader.source()
                + u" WHERE status <> 'DELIVERED'"_qs))
        return false;
    if (prepared->next() && !prepared->value(0).isNull()) {
        snapshot->attemptLimitLowest = prepared->value(0).toLongLong();
        snapshot->attemptLimitHighest = prepared->value(1).toLongLong();
    }
    return true;
}

// Everything a window's snapshot holds.
bool readAll(Reader &reader, HealthSnapshot *snapshot)
{
    SmallStates small;
    if (!readAttemptLimits(reader, reader.profile(), snapshot))
        return false;
    if ((reader.isNative() && !readVersionAndResolved(reader, snapshot))
        || (!reader.isNative() && !readProfileResolved(reader, *reader.profile(), snapshot))
        || !readPending(reader, snapshot, &small) || !readDead(reader, snapshot, &small)
        || !readDelivered(reader, snapshot)
        || (reader.isNative() && !readThroughput(reader, snapshot))
        || !readLatency(reader, snapshot))
        return false;
    fillAttemptsAndCategories(small, snapshot);
    return true;
}

// Only the grade's figures (Options::summaryOnly).
bool readSummary(Reader &reader, HealthSnapshot *snapshot)
{
    snapshot->isSummary = true;
    return readPendingSummary(reader, snapshot) && readDeadSummary(reader, snapshot);
}

// The replication slot, when one is configured, in the snapshot's transaction.
bool readCdcSlot(const QSqlDatabase &db, ReadOnlyTransaction &transaction,
    const HealthQuery::Options &options, HealthSnapshot *snapshot, QString *error)
{
    if (options.cdcSlot.isEmpty())
        return true;
    snapshot->cdc = CdcSlotQuery::read(db, transaction, options.cdcSlot, snapshot->now, error);
    if (!snapshot->cdc)
        return false;
    if (options.cdcTracker)
        options.cdcTracker->update(&*snapshot->cdc, snapshot->now);
    return true;
}

void startEmpty(HealthSnapshot *snapshot)
{
    for (const qint64 bound : HealthSnapshot::ageBoundsMs())
        snapshot->ageHistogram.append({bound, 0});
    snapshot->ageHistogram.append({std::nullopt, 0});
}

} // namespace

namespace HealthQuery {

Options Options::fromEnvironment()
{
    Options options;
    bool ok = false;
    const qint64 threshold = qEnvironmentVariable("OUTBOX_ESTIMATE_ABOVE_ROWS").toLongLong(&ok);
    if (ok && threshold >= 0)
        options.estimateAboveRows = threshold;
    return options;
}

std::optional<HealthSnapshot> compute(
    const QSqlDatabase &db, qint64 now, QString *error, const Options &options)
{
    QString scratch;
    if (!error)
        error = &scratch;
    QElapsedTimer timer;
    timer.start();
    HealthSnapshot snapshot;
    snapshot.now = now;
    startEmpty(&snapshot);
    {
        ReadOnlyTransaction transaction(db);
        if (!transaction.isActive()) {
            *error = transaction.errorText();
            return std::nullopt;
        }
        Reader reader(db, transaction, options, error);
        if (!limitPlanner(reader)
            || (!reader.isNative() && !checkStatuses(reader, *options.profile, error))
            || !(options.summaryOnly ? readSummary(reader, &snapshot) : readAll(reader, &snapshot))
            || !readCdcSlot(db, transaction, options, &snapshot, error))
            return std::nullopt;
        if (!reader.isNative())
            snapshot.notAvailable = notAvailableFor(*options.profile);
    }
    snapshot.queryMs = timer.elapsed();
    return snapshot;
}

} // namespace HealthQuery
