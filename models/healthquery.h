// Computes a HealthSnapshot with a handful of aggregate queries: the database counts and
// buckets, only the bucket counts cross the wire, and `payload` is never read. The PENDING
// aggregates filter on `status = 'PENDING'` so that they can use the partial index.
// Slow on a big table: call it from a worker thread with its own connection (HealthWorker).
#pragma once

#include "healthsnapshot.h"

#include <QSqlDatabase>
#include <optional>

namespace HealthQuery {

// The snapshot at time `now`, read in one read-only transaction (call it on a connection with
// no transaction open). On failure returns nothing and sets *error to one line.
std::optional<HealthSnapshot> compute(const QSqlDatabase &db, qint64 now, QString *error);

} // namespace HealthQuery
