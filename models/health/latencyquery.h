// Created -> delivered latency percentiles of the events delivered in a span of time, exact by
// nearest rank (the latency at rank ceil(p/100 * count)) and the same on every engine: one
// statement per engine, its dialect's (EngineStatements::percentilesSql). PostgreSQL: its
// ordered-set aggregate percentile_disc, which is that definition (one sort of the span's
// latencies, shared by the three percentiles; at 1M events ten times cheaper than ranking with
// window functions). SQLite, which has no percentile function: the span's latencies ranked once
// (ROW_NUMBER over delivered_at - created_at) and only the rows at the three ranks folded into
// the one row. MariaDB has PERCENTILE_DISC only as a window function and MySQL none, so they
// rank too. On the native schema the span is a range of the partial index
// delivery_outbox_delivered (delivered_at, with created_at alongside), so neither the table's
// pages nor payload are read; the cost grows with the deliveries in the span, not the table.
// Rows created before 1970 have no latency and are left out. Without that index (an older
// database) the native schema's latency is not read (indexProbeSql). HealthQuery reads the
// last hour with it; the Charts tab's history reads one bucket at a time.
#pragma once

#include "healthsnapshot.h"

#include <QString>

class QSqlQuery;
class SqlDialect;

namespace LatencyQuery {

// The statement over `source` (delivery_outbox or a profile's source), with placeholders
// :after and :until: delivered_at > :after AND delivered_at <= :until, in `dialect`'s words.
QString sql(const QString &source, const SqlDialect &dialect);
// One row, one column: non-zero when the native schema's index delivery_outbox_delivered
// exists. Without it (a database created before it, not yet given `outboxctl init` again) the
// latency is not read at all: ranking it would scan every DELIVERED row of the table.
QString indexProbeSql(const SqlDialect &dialect);
// :after for a span starting at `from`: never below -1, so that delivered_at - created_at of
// the rows read (both at least 0) cannot overflow.
qint64 afterBound(qint64 from);
// The latency from the executed statement's one row.
DeliveryLatency fromRows(QSqlQuery &query);

} // namespace LatencyQuery
