// The settled minutes of the throughput chart, kept between the snapshots of one connection, so
// that a refresh reads only the last few minutes of delivery_attempt instead of the whole hour
// (at 10M events about 100,000 index entries an hour, most of a snapshot's cost).
//
// A minute is settled once it ended SettleMs before `now`: attempts are stamped finished_at by
// the relay's clock when they end, so a later write lands in a settled minute only from a relay
// whose clock lags by minutes. Every FullReadEveryMs the whole hour is read again anyway, so a
// late write, a purge or a wiped teaching database shows within that time. Owned by the worker
// that owns the connection; clear() it when the connection or the schema read changes.
#pragma once

#include "healthsnapshot.h"

#include <QMap>

class ThroughputCache
{
public:
    static constexpr qint64 SettleMs = 2 * HealthSnapshot::MinuteMs;
    static constexpr qint64 FullReadEveryMs = 60000;

    // The start of the first minute a snapshot at `now` whose hour begins at `first` must read:
    // `first` itself (the whole hour) when the cache cannot vouch for the minutes before.
    qint64 readFrom(qint64 first, qint64 now) const;
    // The cached counts of the minute starting at `minuteStart` (readFrom() said it is there).
    ThroughputMinute minute(qint64 minuteStart) const
    {
        return m_settled.value(minuteStart, ThroughputMinute {minuteStart, 0, 0});
    }
    // Keeps the settled minutes of `hour` (a snapshot's throughput at `now`, read from `from`).
    void store(const QList<ThroughputMinute> &hour, qint64 from, qint64 now);
    void clear();

private:
    QMap<qint64, ThroughputMinute> m_settled; // by minute start, contiguous
    qint64 m_fullReadAt = 0;
    bool m_valid = false;
};
