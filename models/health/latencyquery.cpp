#include "latencyquery.h"

#include "sqldialect.h"
#include <QSqlQuery>
#include <QVariant>

namespace {

// The row at rank ceil(p/100 * total), without a division: MySQL's `/` gives a decimal, and its
// `DIV` is not SQL. (position - 1) * 100 < p * total <= position * 100.
QString rankCondition(int percentile)
{
    return QStringLiteral("((position - 1) * 100 < total * %1 AND total * %1 <= position * 100)")
        .arg(percentile);
}

} // namespace

namespace LatencyQuery {

QString sql(const QString &source, bool percentileDisc)
{
    const QString where
        = u" WHERE status = 'DELIVERED' AND delivered_at > :after AND delivered_at <= :until"
          "   AND created_at >= 0"_qs;
    // clang-format off
    if (percentileDisc)
        return u"SELECT COUNT(*),"
               "        percentile_disc(0.5) WITHIN GROUP (ORDER BY delivered_at - created_at),"
               "        percentile_disc(0.95) WITHIN GROUP (ORDER BY delivered_at - created_at),"
               "        percentile_disc(0.99) WITHIN GROUP (ORDER BY delivered_at - created_at)"
               " FROM "_qs + source + where;
    return u"SELECT position, latency, total FROM ("
           " SELECT delivered_at - created_at AS latency,"
           "        ROW_NUMBER() OVER (ORDER BY delivered_at - created_at) AS position,"
           "        COUNT(*) OVER () AS total"
           " FROM "_qs + source + where
        + u") ranked"
           " WHERE "_qs + rankCondition(50) + u" OR "_qs + rankCondition(95) + u" OR "_qs
        + rankCondition(99) + u" LIMIT 3"_qs;
    // clang-format on
}

QString indexProbeSql(const SqlDialect &dialect)
{
    return dialect.indexExistsSql(u"delivery_outbox_delivered"_qs);
}

qint64 afterBound(qint64 from)
{
    return std::max<qint64>(from, -1);
}

DeliveryLatency fromRows(QSqlQuery &query, bool percentileDisc)
{
    DeliveryLatency latency;
    if (percentileDisc) {
        if (!query.next() || query.value(0).toLongLong() == 0)
            return latency;
        latency.count = query.value(0).toLongLong();
        latency.p50Ms = query.value(1).toLongLong();
        latency.p95Ms = query.value(2).toLongLong();
        latency.p99Ms = query.value(3).toLongLong();
        return latency;
    }
    while (query.next()) {
        const qint64 position = query.value(0).toLongLong();
        const qint64 value = query.value(1).toLongLong();
        latency.count = query.value(2).toLongLong();
        // Ranks can coincide (one or two deliveries): each percentile takes its own.
        if (position == DeliveryLatency::nearestRank(50, latency.count))
            latency.p50Ms = value;
        if (position == DeliveryLatency::nearestRank(95, latency.count))
            latency.p95Ms = value;
        if (position == DeliveryLatency::nearestRank(99, latency.count))
            latency.p99Ms = value;
    }
    return latency;
}

} // namespace LatencyQuery
