#include "deliveryhistory.h"

#include "floordiv.h"

qint64 DeliveryHistory::bucketMs(HistoryRange range)
{
    switch (range) {
    case HistoryRange::Hour:
        return HealthSnapshot::MinuteMs;
    case HistoryRange::Day:
        return 15 * HealthSnapshot::MinuteMs;
    case HistoryRange::Week:
        break;
    }
    return 60 * HealthSnapshot::MinuteMs;
}

int DeliveryHistory::bucketCount(HistoryRange range)
{
    switch (range) {
    case HistoryRange::Hour:
        return 60;
    case HistoryRange::Day:
        return 96;
    case HistoryRange::Week:
        break;
    }
    return 168;
}

qint64 DeliveryHistory::firstBucketStart(HistoryRange range, qint64 now)
{
    const qint64 size = bucketMs(range);
    return (floorDiv(now, size) - (bucketCount(range) - 1)) * size;
}

qint64 DeliveryHistory::lastBucketStart(HistoryRange range, qint64 now)
{
    return floorDiv(now, bucketMs(range)) * bucketMs(range);
}

QString DeliveryHistory::rangeName(HistoryRange range)
{
    switch (range) {
    case HistoryRange::Hour:
        return u"1h"_qs;
    case HistoryRange::Day:
        return u"24h"_qs;
    case HistoryRange::Week:
        break;
    }
    return u"7d"_qs;
}

std::optional<HistoryRange> DeliveryHistory::rangeFromName(const QString &name)
{
    for (const HistoryRange range : {HistoryRange::Hour, HistoryRange::Day, HistoryRange::Week}) {
        if (rangeName(range) == name)
            return range;
    }
    return std::nullopt;
}
