#include "latencyquery.h"

#include "enginestatements.h"
#include "sqldialect.h"

#include <QSqlQuery>
#include <QVariant>

namespace LatencyQuery {

QString sql(const QString &source, const SqlDialect &dialect)
{
    return dialect.statements().percentilesSql(u"delivered_at - created_at"_qs,
        source
            + u" WHERE status = 'DELIVERED' AND delivered_at > :after AND delivered_at <= :until"
              "   AND created_at >= 0"_qs,
        {50, 95, 99});
}

QString indexProbeSql(const SqlDialect &dialect)
{
    return dialect.indexExistsSql(u"delivery_outbox_delivered"_qs);
}

qint64 afterBound(qint64 from)
{
    return std::max<qint64>(from, -1);
}

DeliveryLatency fromRows(QSqlQuery &query)
{
    DeliveryLatency latency;
    if (!query.next() || query.value(0).toLongLong() == 0)
        return latency;
    latency.count = query.value(0).toLongLong();
    latency.p50Ms = query.value(1).toLongLong();
    latency.p95Ms = query.value(2).toLongLong();
    latency.p99Ms = query.value(3).toLongLong();
    return latency;
}

} // namespace LatencyQuery
