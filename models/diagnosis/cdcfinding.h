// The diagnosis finding of an outbox relayed by change data capture (docs/cdc.md): what its
// replication slot's reading says is wrong and what to do, in the operator's words ("slot dbz
// inactive for 14 min, 2.1 GiB retained, at the current WAL rate the limit is reached in about
// 3 h (estimate)"). How bad is CdcSlotGrade's one rule: a slot the grade finds amber is a
// warning, red a critical finding, normal none. The window adds it from each snapshot's tracked
// reading (DiagnosisMonitor); outboxctl diagnose reads the slot once (diagnoseSlot()).
#pragma once

#include "cdcslot.h"
#include "diagnosisresult.h"
#include "tilethresholds.h"

#include <QSqlDatabase>
#include <optional>

namespace CdcFinding {

// The finding for `reading`; none when its grade is normal.
std::optional<Finding> of(const CdcSlotReading &reading, const TileThresholds &thresholds = {});
// Replaces the cdc_slot finding of `result` by the one for `reading` (or removes it) and marks
// the code checked; the findings stay worst first. True when the result changed.
bool apply(
    DiagnosisResult *result, const CdcSlotReading &reading, const TileThresholds &thresholds = {});
// Reads `slot` once (its own read-only transaction; the WAL rate is the server's average, the
// idle time known only from PostgreSQL 17) and applies it. False with *error set when it cannot
// be read (another engine than PostgreSQL: CdcSlotQuery::unsupportedText).
bool diagnoseSlot(const QSqlDatabase &db, const QString &slot, qint64 now,
    const TileThresholds &thresholds, DiagnosisResult *result, QString *error);

} // namespace CdcFinding
