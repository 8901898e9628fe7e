// The health of an outbox at one moment, as a plain value: counts per derived state,
// histograms and throughput. Computed by HealthQuery (off the GUI thread), shown by the
// aggregate models and printed by `outboxctl check` in the JSON shape of the design contract.
#pragma once

#include "cdcslot.h"
#include "healththresholds.h"

#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <optional>

struct HealthCounts
{
    // PENDING rows by derived state at `now`.
    qint64 due = 0;
    qint64 scheduled = 0;
    qint64 inFlight = 0;
    qint64 leaseExpired = 0;
    qint64 delivered = 0;
    qint64 dead = 0;
    // Closed by an operator without delivery (schema version 2): terminal, never claimed, kept
    // apart from DEAD.
    qint64 resolved = 0;

    qint64 pending() const { return due + scheduled + inFlight + leaseExpired; }

    friend bool operator==(const HealthCounts &, const HealthCounts &) = default;
};

// PENDING rows whose age (now - created_at) is at most `upperBoundMs` and above the previous
// bucket's bound; no bound = beyond the last one.
struct AgeBucket
{
    std::optional<qint64> upperBoundMs;
    qint64 count = 0;

    friend bool operator==(const AgeBucket &, const AgeBucket &) = default;
};

// PENDING and DEAD rows with this many failures, kept apart so a chart can show DEAD.
struct FailuresBucket
{
    qint64 failures = 0;
    qint64 pending = 0;
    qint64 dead = 0;

    qint64 total() const { return pending + dead; }

    friend bool operator==(const FailuresBucket &, const FailuresBucket &) = default;
};

// PENDING rows whose created_at is no plausible time: before 1970 (negative), or later than
// `now` by more than HealthSnapshot::FutureToleranceMs. They have no age: they are left out of
// the age histogram and the oldest age, and reported instead.
struct ImplausibleTimes
{
    qint64 createdBefore1970 = 0;
    qint64 createdInFuture = 0;

    bool any() const { return createdBefore1970 > 0 || createdInFuture > 0; }
    // "1 PENDING row has created_at before 1970; 3 PENDING rows have created_at in the future",
    // or empty.
    QString sentence() const;

    friend bool operator==(const ImplausibleTimes &, const ImplausibleTimes &) = default;
};

struct CategoryCount
{
    QString category;
    qint64 count = 0;

    friend bool operator==(const CategoryCount &, const CategoryCount &) = default;
};

// Attempts that finished in the minute starting at `minuteStart`.
struct ThroughputMinute
{
    qint64 minuteStart = 0;
    qint64 delivered = 0;
    qint64 failed = 0; // outcome RETRY or DEAD

    friend bool operator==(const ThroughputMinute &, const ThroughputMinute &) = default;
};

// Created -> delivered latency (delivered_at - created_at) of the events delivered in a span of
// time, by nearest rank: the p-th percentile is the latency at rank ceil(p/100 * count) in
// ascending order, an exact value that occurred (PostgreSQL's percentile_disc, and the same on
// SQLite). Percentiles are none when nothing was delivered in the span.
struct DeliveryLatency
{
    qint64 count = 0;
    std::optional<qint64> p50Ms;
    std::optional<qint64> p95Ms;
    std::optional<qint64> p99Ms;

    // The 1-based rank of the p-th percentile among `count` sorted values.
    static qint64 nearestRank(int percent, qint64 count) { return (percent * count + 99) / 100; }

    friend bool operator==(const DeliveryLatency &, const DeliveryLatency &) = default;
};

struct HealthSnapshot
{
    static constexpr qint64 MinuteMs = 60000;
    static constexpr int ThroughputMinutes = 60;
    static constexpr qint64 LatencyWindowMs = 60 * MinuteMs;
    // How far a created_at may lie ahead of `now` (clocks of different hosts) and still count as
    // just created.
    static constexpr qint64 FutureToleranceMs = 5 * MinuteMs;
    // The attempts histogram lists every failure count up to here, zeros included; beyond, only
    // the counts that occur.
    static constexpr qint64 DenseFailures = 100;

    // The upper bounds of the age histogram, in ms; one more bucket holds everything beyond.
    static const QList<qint64> &ageBoundsMs();
    // The error categories the tool writes (TRANSIENT, PERMANENT), always listed in
    // errorCategories; any other value another writer stored follows them by name.
    static const QStringList &knownErrorCategories();

    qint64 now = 0;
    HealthCounts counts;
    // The native schema's version (Schema::version); 0 for another schema read through a
    // profile. Below Schema::CurrentVersion, Schema::outdatedMessage() says what to run; the
    // JSON has "resolved" among its counts only from version 2 (hasResolved()).
    int schemaVersion = 0;
    // A profile whose status expression yields RESOLVED (OutboxProfile::hasResolved): its
    // RESOLVED rows are counted as the native schema's are.
    bool resolvedMapped = false;
    // Whether counts.resolved is told: the native schema from version 2, or resolvedMapped.
    bool hasResolved() const { return schemaVersion >= 2 || resolvedMapped; }
    // Names of counts (JSON keys, e.g. "delivered") that are estimates rather than exact.
    QStringList estimated;
    // JSON keys the schema cannot tell (a profile without leases, claims, failures, ...): counts
    // ("in_flight", "dead"), then "oldest_pending_age_ms", "age_histogram",
    // "attempts_histogram", "error_categories", "throughput_per_minute",
    // "delivery_latency_ms". Shown as not
    // available, never as zero; empty on the native schema.
    QStringList notAvailable;
    std::optional<qint64> oldestPendingAgeMs; // none when nothing is PENDING
    // The lowest and highest attempt limit of the events not delivered, where a profile maps
    // the event's own (attempt_limit); none otherwise (AttemptLimit::range reads them).
    std::optional<qint64> attemptLimitLowest, attemptLimitHighest;
    QList<AgeBucket> ageHistogram; // one per bound, then the one beyond
    // failures 0..max present (at most DenseFailures), zeros included; then any larger ones
    QList<FailuresBucket> attemptsHistogram;
    QList<CategoryCount> errorCategories; // TRANSIENT, PERMANENT, then any other, by name
    QList<ThroughputMinute> throughput; // oldest minute first
    // Events delivered in the last hour (delivered_at in (now - 1 h, now], created_at not
    // before 1970) and their latency; "delivery_latency_ms" in notAvailable when the schema has
    // no created_at or delivered_at.
    DeliveryLatency latency;
    qint64 queryMs = 0; // how long computing the snapshot took
    ImplausibleTimes implausible;
    // Only the grade's figures were read (HealthQuery::Options::summaryOnly, the fleet view):
    // counts of PENDING by derived state and DEAD, oldestPendingAgeMs, implausible; the rest
    // is zero or empty.
    bool isSummary = false;
    // The replication slot that relays the outbox by change data capture, read in the same
    // snapshot; set only when a slot is configured (HealthQuery::Options::cdcSlot).
    std::optional<CdcSlotReading> cdc;

    bool isEstimated(const QString &countName) const { return estimated.contains(countName); }
    bool isAvailable(const QString &key) const { return !notAvailable.contains(key); }
    qint64 deliveredLastHour() const;
    qint64 failedLastHour() const;
    // Whether `other` holds the same figures: everything but `now`, queryMs and the oldest
    // age, which move with the clock alone; of the slot, whether it exists and is active,
    // its lag, retained WAL and WAL status. Unchanged figures mean the outbox did not change as
    // far as the window shows it: HealthMonitor::figuresChanged() skips the reads that follow.
    bool sameFigures(const HealthSnapshot &other) const;

    // One line in the JSON shape of the `outboxctl check` contract, keys in a stable order,
    // with "healthy" and "violations" judged against `thresholds`. Only when some PENDING rows
    // have an implausible created_at, one more key ends it:
    // "implausible_created_at":{"before_1970":N,"in_future":M}.
    // "delivery_latency_ms" follows "throughput_per_minute": {"p50":..,"p95":..,"p99":..,
    // "count":N} with null percentiles when count is 0, and null when the schema cannot tell.
    // With a replication slot (cdc), "cdc" comes last: {"slot","exists","active","active_pid",
    // "inactive_for_ms","lag_bytes","retained_bytes","wal_status","safe_wal_size_bytes",
    // "wal_rate_bytes_per_s","lag_estimate_ms","runway_ms","estimated"} (docs/outboxctl.md).
    QString toJson(const HealthThresholds &thresholds = {}) const;
};

// "<= 1 s", "<= 10 min", "> 1 d": a short label for an age bucket.
QString ageBucketLabel(const AgeBucket &bucket);
// 1000 -> "1 s", 600000 -> "10 min", 1500 -> "1500 ms": the largest unit that divides evenly.
QString formatDurationMs(qint64 ms);

Q_DECLARE_METATYPE(HealthSnapshot)
