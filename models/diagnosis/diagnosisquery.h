// The diagnosis engine: given a database (native or read through a profile) and a `now`, the
// findings of the fixed rules (DiagnosisCode; README, Diagnosis). Every statement reads only
// the small states through their partial indexes (PENDING, DEAD), an index range of the
// attempt history or of created_at, and returns a handful of rows (aggregates, LIMIT): no
// scan of the DELIVERED rows on the native schema. All of them run in one read-only
// transaction.
// Call it from a worker thread with its own connection (as HealthQuery); it returns a value.
#pragma once

#include "diagnosisresult.h"
#include "diagnosisthresholds.h"
#include "outboxprofile.h"

#include <QSqlDatabase>
#include <optional>

namespace DiagnosisQuery {

// The diagnosis at `now` (a connection with no transaction open). `profile` null or native:
// the native schema. On failure returns nothing and sets *error to one line. With `trace`,
// every statement run is appended with its values written in (for benchmarks and plan tests).
std::optional<DiagnosisResult> run(const QSqlDatabase &db, qint64 now, QString *error,
    const OutboxProfile *profile = nullptr, const DiagnosisThresholds &thresholds = {},
    QStringList *trace = nullptr);

} // namespace DiagnosisQuery
