#include "historyquery.h"

#include "latencyquery.h"
#include "queryerror.h"
#include "readonlytransaction.h"
#include "sqldialect.h"

#include <QElapsedTimer>
#include <QVariant>

std::optional<HistoryBucket> HistoryCache::settled(HistoryRange range, qint64 start) const
{
    const auto it = m_settled.constFind({int(range), start});
    if (it == m_settled.cend())
        return std::nullopt;
    return *it;
}

bool HistoryCache::isSettled(HistoryRange range, qint64 start, qint64 now)
{
    return start + DeliveryHistory::bucketMs(range) <= now - SettleMs;
}

void HistoryCache::store(HistoryRange range, const HistoryBucket &bucket, qint64 now)
{
    if (isSettled(range, bucket.start, now))
        m_settled.insert({int(range), bucket.start}, bucket);
}

void HistoryCache::noteNow(qint64 now)
{
    if (now < m_lastNow)
        clear();
    m_lastNow = now;
    // Buckets that have left every range are of no more use.
    const qint64 oldest = DeliveryHistory::firstBucketStart(HistoryRange::Week, now);
    m_settled.removeIf([oldest](const auto &it) { return it.key().second < oldest; });
}

void HistoryCache::clear()
{
    m_settled.clear();
    m_lastNow = 0;
}

namespace {

// The two statements of a bucket, prepared once per reading.
class BucketReader
{
public:
    BucketReader(ReadOnlyTransaction &transaction, const QString &source, const SqlDialect &dialect,
        bool throughput, bool latency, QString *error)
        : m_error(error)
    {
        // clang-format off
        if (throughput)
            m_throughput = transaction.prepare(
                u"SELECT COUNT(CASE WHEN outcome = 'DELIVERED' THEN 1 END),"
                "        COUNT(CASE WHEN outcome <> 'DELIVERED' THEN 1 END)"
                " FROM delivery_attempt"
                " WHERE outcome IN ('DELIVERED', 'RETRY', 'DEAD')"
                "   AND finished_at >= :start AND finished_at <= :until"_qs);
        // clang-format on
        if (latency)
            m_latency = transaction.prepare(LatencyQuery::sql(source, dialect));
        m_ok = (!throughput || m_throughput) && (!latency || m_latency);
        if (!m_ok)
            *error = transaction.errorText();
    }

    bool isValid() const { return m_ok; }

    // The bucket [start, until]: until is the bucket's last millisecond, or now.
    bool read(HistoryBucket *bucket, qint64 until)
    {
        if (m_throughput) {
            m_throughput->bindValue(u":start"_qs, bucket->start);
            m_throughput->bindValue(u":until"_qs, until);
            if (!m_throughput->exec())
                return fail(*m_throughput);
            if (m_throughput->next()) {
                bucket->delivered = m_throughput->value(0).toLongLong();
                bucket->failed = m_throughput->value(1).toLongLong();
            }
            m_throughput->finish();
        }
        if (m_latency) {
            m_latency->bindValue(u":after"_qs, LatencyQuery::afterBound(bucket->start - 1));
            m_latency->bindValue(u":until"_qs, until);
            if (!m_latency->exec())
                return fail(*m_latency);
            bucket->latency = LatencyQuery::fromRows(*m_latency);
            m_latency->finish();
        }
        return true;
    }

private:
    bool fail(const QSqlQuery &query)
    {
        *m_error = QueryError::text(query);
        return false;
    }

    QSqlQuery *m_throughput = nullptr;
    QSqlQuery *m_latency = nullptr;
    QString *m_error;
    bool m_ok = false;
};

} // namespace

namespace HistoryQuery {

std::optional<DeliveryHistory> read(const QSqlDatabase &db, HistoryRange range, qint64 now,
    const OutboxProfile *profile, HistoryCache *cache, QString *error, qint64 budgetMs)
{
    QElapsedTimer timer;
    timer.start();
    using Column = OutboxProfile::Column;
    const bool native = !profile || profile->isNative();
    DeliveryHistory history;
    history.range = range;
    history.now = now;
    history.throughputAvailable = native;
    history.latencyAvailable = native
        || (profile->isAvailable(Column::CreatedAt) && profile->isAvailable(Column::DeliveredAt));
    const QString source = OutboxProfile::sourceOf(profile, db);
    if (cache)
        cache->noteNow(now);
    ReadOnlyTransaction transaction(db);
    if (!transaction.isActive()) {
        *error = transaction.errorText();
        return std::nullopt;
    }
    const SqlDialect &dialect = SqlDialect::of(db);
    // As for the snapshot (HealthQuery): small statements, no parallel workers, no JIT.
    if (const QString limits = dialect.plannerLimitsSql(SqlDialect::Scope::Transaction);
        !limits.isEmpty()) {
        QSqlQuery *planner = transaction.prepare(limits);
        if (!planner || !planner->exec()) {
            *error = planner ? QueryError::text(*planner) : transaction.errorText();
            return std::nullopt;
        }
        planner->finish();
    }
    if (native && history.latencyAvailable) {
        QSqlQuery *probe = transaction.prepare(LatencyQuery::indexProbeSql(dialect));
        if (!probe || !probe->exec()) {
            *error = probe ? QueryError::text(*probe) : transaction.errorText();
            return std::nullopt;
        }
        history.latencyAvailable = probe->next() && probe->value(0).toInt() != 0;
        probe->finish();
    }
    BucketReader reader(
        transaction, source, dialect, history.throughputAvailable, history.latencyAvailable, error);
    if (!reader.isValid())
        return std::nullopt;
    // Newest first, so that a reading cut short by its budget shows the most recent buckets.
    int settledRead = 0;
    const qint64 size = DeliveryHistory::bucketMs(range);
    const qint64 last = DeliveryHistory::lastBucketStart(range, now);
    for (int i = 0; i < DeliveryHistory::bucketCount(range); ++i) {
        const qint64 start = last - i * size;
        if (const std::optional<HistoryBucket> kept
            = cache ? cache->settled(range, start) : std::nullopt) {
            history.buckets.prepend(*kept);
            continue;
        }
        if (budgetMs > 0 && settledRead > 0 && timer.elapsed() >= budgetMs) {
            history.complete = false; // the rest on the next reading
            continue;
        }
        HistoryBucket bucket;
        bucket.start = start;
        if (!reader.read(&bucket, std::min(start + size - 1, now)))
            return std::nullopt;
        // At least one settled bucket a reading (kept), so that readings always make progress.
        if (HistoryCache::isSettled(range, start, now))
            ++settledRead;
        if (cache)
            cache->store(range, bucket, now);
        history.buckets.prepend(bucket);
    }
    history.queryMs = timer.elapsed();
    return history;
}

} // namespace HistoryQuery
