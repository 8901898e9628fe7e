#include "throughputcache.h"

qint64 ThroughputCache::readFrom(qint64 first, qint64 now) const
{
    if (!m_valid || now < m_fullReadAt || now - m_fullReadAt >= FullReadEveryMs
        || m_settled.isEmpty() || m_settled.firstKey() > first)
        return first;
    // Every minute from `first` up to the last settled one is cached: read from the one after.
    const qint64 next = m_settled.lastKey() + HealthSnapshot::MinuteMs;
    return std::max(first, next);
}

void ThroughputCache::store(const QList<ThroughputMinute> &hour, qint64 from, qint64 now)
{
    if (hour.isEmpty())
        return;
    if (from <= hour.first().minuteStart) {
        m_fullReadAt = now;
        m_valid = true;
    }
    m_settled.clear();
    for (const ThroughputMinute &minute : hour) {
        if (minute.minuteStart + HealthSnapshot::MinuteMs + SettleMs > now)
            break;
        m_settled.insert(minute.minuteStart, minute);
    }
}

void ThroughputCache::clear()
{
    m_settled.clear();
    m_valid = false;
    m_fullReadAt = 0;
}
