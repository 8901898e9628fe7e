#include "thresholdwords.h"

#include "bytetext.h"
#include "numbertext.h"
#include "timeformat.h"

namespace {

const TileLimits *tileOf(const TileThresholds &tiles, const QString &threshold)
{
    if (threshold == QLatin1String("max_dead"))
        return &tiles.dead;
    if (threshold == QLatin1String("max_lease_expired"))
        return &tiles.leaseExpired;
    if (threshold == QLatin1String("max_due"))
        return &tiles.due;
    if (threshold == QLatin1String("max_oldest_pending_ms"))
        return &tiles.oldestPendingMs;
    if (threshold == QLatin1String("max_cdc_lag_bytes"))
        return &tiles.cdcLagBytes;
    if (threshold == QLatin1String("max_cdc_inactive_ms"))
        return &tiles.cdcInactiveMs;
    return nullptr;
}

} // namespace

namespace ThresholdWords {

QString value(qint64 value, Unit unit)
{
    switch (unit) {
    case Unit::Age:
        return TimeFormat::ageInTwoUnits(value);
    case Unit::LogicalAge:
        return TimeFormat::units(value);
    case Unit::Bytes:
        return ByteText::format(value);
    case Unit::Count:
        break;
    }
    return NumberText::count(value);
}

QString redFrom(const TileLimits &limits, Unit unit)
{
    return QStringLiteral("red from %1").arg(value(limits.red, unit));
}

QString limits(const TileLimits &limits, Unit unit)
{
    return QStringLiteral("amber from %1, ").arg(value(limits.amber, unit)) + redFrom(limits, unit);
}

QString figureName(const QString &threshold)
{
    if (threshold == QLatin1String("max_dead"))
        return QStringLiteral("DEAD");
    if (threshold == QLatin1String("max_lease_expired"))
        return QStringLiteral("lease expired");
    if (threshold == QLatin1String("max_due"))
        return QStringLiteral("due");
    if (threshold == QLatin1String("max_oldest_pending_ms"))
        return QStringLiteral("oldest pending");
    if (threshold == QLatin1String("max_cdc_lag_bytes"))
        return QStringLiteral("CDC lag");
    if (threshold == QLatin1String("max_cdc_inactive_ms"))
        return QStringLiteral("slot inactive");
    return threshold;
}

bool isAge(const QString &threshold)
{
    return threshold == QLatin1String("max_oldest_pending_ms")
        || threshold == QLatin1String("max_cdc_inactive_ms");
}

bool isBytes(const QString &threshold)
{
    return threshold == QLatin1String("max_cdc_lag_bytes");
}

QString violation(
    const HealthViolation &violation, const TileThresholds &tiles, bool tile, const QString &option)
{
    const Unit unit = isAge(violation.threshold) ? Unit::Age
        : isBytes(violation.threshold)           ? Unit::Bytes
                                                 : Unit::Count;
    const QString figure = QStringLiteral("%1 is %2")
                               .arg(figureName(violation.threshold), value(violation.value, unit));
    const TileLimits *limits = tileOf(tiles, violation.threshold);
    // A tile's limit is the first red value; HealthThresholds::fromTiles judges one below it.
    if (tile && limits && limits->red - 1 == violation.limit)
        return figure + QStringLiteral(", ") + redFrom(*limits, unit);
    return figure + QStringLiteral(", above %1 (--%2)").arg(value(violation.limit, unit), option);
}

} // namespace ThresholdWords
