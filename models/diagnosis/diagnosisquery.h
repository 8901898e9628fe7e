// The diagnosis engine: given a database (native or read through a profile) and a `now`, the
// findings of the fixed rules (DiagnosisCode; docs/user-guide.md, Diagnosis). Every statement reads only
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
#include <algorithm>
#include <optional>

namespace DiagnosisQuery {

// What a caller that diagnoses the same outbox again and again (the window's diagnosis
// worker) keeps between runs: the last blocked_aggregate reading. It is the one rule whose
// cost grows with every unfinished event (a pass over all of them: about 130 ms at 10M events
// with 300,000 unfinished, more than the whole health snapshot), so a reading is reused while
// it is younger than ReuseFactor times its own cost and never longer than MaxAgeMs: a small
// outbox reads it every time, a 10M one about every two minutes. A reused finding says how
// old it is (summary, and `read_ms_ago` in its evidence).
struct BlockedMemo
{
    static constexpr qint64 ReuseFactor = 1000;
    static constexpr qint64 MaxAgeMs = 5 * 60 * 1000;

    qint64 readAt = -1; // the `now` of the reading; -1: none
    qint64 costMs = 0;
    qint64 aggregates = 0;
    qint64 waiting = 0;
    qint64 byDead = 0;

    bool reusableAt(qint64 now) const
    {
        return readAt >= 0 && now >= readAt
            && now - readAt < std::min(MaxAgeMs, costMs * ReuseFactor);
    }
};

// The diagnosis at `now` (a connection with no transaction open). `profile` null or native:
// the native schema. On failure returns nothing and sets *error to one line. With `trace`,
// every statement run is appended with its values written in (for benchmarks and plan tests).
// With `memo`, blocked_aggregate reuses the reading in it while BlockedMemo allows and stores a
// new one otherwise; without, every rule reads the database (outboxctl diagnose).
std::optional<DiagnosisResult> run(const QSqlDatabase &db, qint64 now, QString *error,
    const OutboxProfile *profile = nullptr, const DiagnosisThresholds &thresholds = {},
    QStringList *trace = nullptr, BlockedMemo *memo = nullptr);

} // namespace DiagnosisQuery
