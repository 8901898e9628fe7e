// Computes a HealthSnapshot with a handful of aggregate queries, cheap on a table of millions
// of rows: the small states (PENDING, DEAD) are read from their partial covering indexes, the
// throughput from an index range over the last hour, and only bucket counts cross the wire
// (`payload` is never read). DELIVERED, the one big state, is counted exactly on SQLite and on
// small PostgreSQL and MySQL tables; on a large one it is the catalogue's row estimate minus
// the exact small states, listed in HealthSnapshot::estimated (MySQL: InnoDB's sampled row
// count, docs/architecture.md says how far off it can be). The delivery latency of the last
// hour is ranked from the DELIVERED rows' index range (LatencyQuery).
//
// Transactions: every statement of one snapshot is prepared and run inside one read-only
// transaction (ReadOnlyTransaction: START TRANSACTION READ ONLY on PostgreSQL, PRAGMA
// query_only on SQLite), so a profile's SQL cannot write whatever the session defaults say.
// On PostgreSQL it is READ COMMITTED and takes no transaction ID: each statement reads its own
// snapshot and none is held between them, so the dashboard holds no xmin horizon that vacuum
// waits for; the statement timeout of the connection bounds each one. The cost is that a row
// changing state between two statements a few milliseconds apart may be counted in both or
// neither for that one snapshot; the next refresh is right again. On SQLite the statements
// share the one read transaction, which in WAL mode blocks no writer.
// With a profile, the snapshot fails (one line: how many rows, which values) when the status
// expression yields anything but PENDING, DELIVERED or DEAD, rather than counting those rows
// nowhere.
// Call it from a worker thread with its own connection (HealthWorker).
#pragma once

#include "healthsnapshot.h"
#include "outboxprofile.h"

#include <QSqlDatabase>
#include <QStringList>
#include <optional>

class CdcSlotTracker;
class ThroughputCache;

namespace HealthQuery {

// Above this many rows in delivery_outbox (by the catalogue), PostgreSQL and MySQL estimate
// DELIVERED: an exact count of a big state would scan the table, which costs about 15 ms per
// 100,000 rows on PostgreSQL and several times that on InnoDB.
constexpr qint64 DefaultEstimateAboveRows = 100000;

struct Options
{
    qint64 estimateAboveRows = DefaultEstimateAboveRows;
    // When set, every statement run is appended with its bound values written in (benchmarks
    // time the same SQL through psql and sqlite3).
    QStringList *trace = nullptr;
    // The schema read: null or native = delivery_outbox as today. Another profile's source()
    // takes its place; DELIVERED is then counted exactly, the throughput (attempt history) is
    // not read, and what the profile lacks is listed in HealthSnapshot::notAvailable.
    const OutboxProfile *profile = nullptr;
    // When set, the throughput's settled minutes come from it and only the rest of the hour is
    // read (a worker keeps one per connection); null reads the whole hour.
    ThroughputCache *throughputCache = nullptr;
    // Read the delivery latency of the last hour (LatencyQuery); off only to measure its cost
    // (tests/bench/snapshotbench), and then the snapshot's latency is empty.
    bool readLatency = true;
    // Read only what HealthGrade judges and a fleet row shows: the PENDING counts by derived
    // state, the oldest pending age, the implausible created_at, DEAD (two one-row statements,
    // readSummary). The snapshot is then HealthSnapshot::isSummary: no histograms, resolved,
    // delivered, throughput or latency, and no schema version.
    bool summaryOnly = false;
    // The replication slot that relays the outbox by change data capture (docs/cdc.md): when
    // set, HealthSnapshot::cdc reads it in the same read-only transaction, and the snapshot
    // fails with one line on an engine without replication slots. A missing slot is a reading
    // that says so, not a failure.
    QString cdcSlot;
    // When set, adds the WAL rate, the idle time and the estimates between snapshots (a worker
    // keeps one per connection); null leaves what one read tells.
    CdcSlotTracker *cdcTracker = nullptr;

    // The defaults, with estimateAboveRows from OUTBOX_ESTIMATE_ABOVE_ROWS when that holds a
    // whole number (0 = always estimate on PostgreSQL and MySQL).
    static Options fromEnvironment();
};

// The snapshot at time `now` (call it on a connection with no transaction open). On failure
// returns nothing and sets *error to one line.
std::optional<HealthSnapshot> compute(const QSqlDatabase &db, qint64 now, QString *error,
    const Options &options = Options::fromEnvironment());

} // namespace HealthQuery
