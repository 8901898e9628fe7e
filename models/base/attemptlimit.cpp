#include "attemptlimit.h"

AttemptLimit AttemptLimit::of(std::optional<int> explicitLimit, std::optional<qint64> fromData)
{
    if (explicitLimit)
        return range(*explicitLimit, *explicitLimit);
    return range(fromData, fromData);
}

AttemptLimit AttemptLimit::range(std::optional<qint64> lowest, std::optional<qint64> highest)
{
    AttemptLimit limit;
    if (lowest && highest && *lowest > 0 && *highest >= *lowest) {
        limit.m_lowest = lowest;
        limit.m_highest = highest;
    }
    return limit;
}

QString AttemptLimit::usage(qint64 spent) const
{
    const QString limit = value() ? QString::number(*value()) : QStringLiteral("limit unknown");
    return QStringLiteral("attempts %1 / %2").arg(spent).arg(limit);
}

QString AttemptLimit::budget() const
{
    if (!isKnown())
        return QStringLiteral("limit unknown");
    if (variesPerEvent())
        return QStringLiteral("budget %1 to %2 per event").arg(*m_lowest).arg(*m_highest);
    return QStringLiteral("budget %1").arg(*m_lowest);
}
