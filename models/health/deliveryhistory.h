// The Charts tab's history: finished attempts and delivery latency per bucket over 1 h, 24 h or
// 7 d (buckets of 1 min, 15 min, 1 h), as a plain value read by HistoryQuery on a worker thread.
#pragma once

#include "healthsnapshot.h"

#include <QList>
#include <QMetaType>
#include <QString>
#include <optional>

enum class HistoryRange { Hour, Day, Week };

// The bucket starting at `start` (ms) and one bucket long: attempts that finished in it
// (DELIVERED; RETRY or DEAD) and the latency of the events delivered in it.
struct HistoryBucket
{
    qint64 start = 0;
    qint64 delivered = 0;
    qint64 failed = 0;
    DeliveryLatency latency;
};

struct DeliveryHistory
{
    HistoryRange range = HistoryRange::Hour;
    qint64 now = 0;
    // Whether the schema can tell the throughput (the native attempt history) and the latency
    // (created_at and delivered_at); what it cannot tell is left at zero and shown as not
    // available.
    bool throughputAvailable = true;
    bool latencyAvailable = true;
    // Oldest first; the last one holds `now`. All bucketCount() of them when `complete`;
    // otherwise only the newest ones read so far (the rest follow in later readings).
    QList<HistoryBucket> buckets;
    bool complete = true;
    qint64 queryMs = 0;

    static qint64 bucketMs(HistoryRange range);
    static int bucketCount(HistoryRange range);
    // The first bucket's start for a history at `now`: buckets are whole multiples of their
    // length, the last one holding `now`.
    static qint64 firstBucketStart(HistoryRange range, qint64 now);
    // The start of the bucket that holds `now`.
    static qint64 lastBucketStart(HistoryRange range, qint64 now);
    // "1h", "24h", "7d": the names settings and --tab use.
    static QString rangeName(HistoryRange range);
    static std::optional<HistoryRange> rangeFromName(const QString &name);
};

Q_DECLARE_METATYPE(DeliveryHistory)
Q_DECLARE_METATYPE(HistoryRange)
