// Reads the Charts tab's history (DeliveryHistory) one bucket at a time: per bucket, the
// finished attempts from an index range of delivery_attempt_finished and the delivery latency
// from one of delivery_outbox_delivered (LatencyQuery), so every statement stays as small as
// the snapshot's, whatever the range; at 10M events a 7 d range is 168 small reads, not one of
// 10M rows. Buckets that ended SettleMs before `now` are kept in a HistoryCache, so after the
// first reading a refresh reads only the last bucket or two. All statements of one reading
// run in one read-only transaction. Call it from a worker thread with its own connection.
#pragma once

#include "deliveryhistory.h"
#include "outboxprofile.h"

#include <QMap>
#include <QSqlDatabase>
#include <optional>

// The settled buckets of each range, kept between the readings of one connection. Forgotten
// when the connection or the schema read changes, and when time goes backwards (a teaching
// database started over on its logical clock).
class HistoryCache
{
public:
    static constexpr qint64 SettleMs = 2 * HealthSnapshot::MinuteMs;

    // Whether the bucket of `range` starting at `start` ended SettleMs before `now`.
    static bool isSettled(HistoryRange range, qint64 start, qint64 now);
    std::optional<HistoryBucket> settled(HistoryRange range, qint64 start) const;
    void store(HistoryRange range, const HistoryBucket &bucket, qint64 now);
    // Forgets everything when `now` is before the last reading's.
    void noteNow(qint64 now);
    void clear();

private:
    QMap<std::pair<int, qint64>, HistoryBucket> m_settled;
    qint64 m_lastNow = 0;
};

namespace HistoryQuery {

// The history of `range` at `now`; `profile` null or native reads the native schema. With a
// `budgetMs` above 0, buckets are read newest first until that much time has passed: the
// answer then holds the newest ones only (DeliveryHistory::complete false), and with a cache
// the next reading goes on from there. On failure nothing, with *error set to one line.
std::optional<DeliveryHistory> read(const QSqlDatabase &db, HistoryRange range, qint64 now,
    const OutboxProfile *profile, HistoryCache *cache, QString *error, qint64 budgetMs = 0);

} // namespace HistoryQuery
