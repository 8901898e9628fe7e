#include "profiletimezone.h"

#include <QDateTime>

namespace {

constexpr int YearsBack = 20;
constexpr int YearsAhead = 10;

QDateTime utcAt(qint64 epochMs)
{
    return QDateTime::fromMSecsSinceEpoch(epochMs, QTimeZone::utc());
}

} // namespace

std::optional<ProfileTimeZone> ProfileTimeZone::fromName(const QString &name, QString *error)
{
    ProfileTimeZone zone;
    zone.m_name = name.trimmed();
    zone.m_loadedAt = QDateTime::currentMSecsSinceEpoch();
    if (zone.m_name.compare(QLatin1String("utc"), Qt::CaseInsensitive) == 0)
        return zone;
    zone.m_zone = zone.m_name == QLatin1String("local") ? QTimeZone::systemTimeZone()
                                                        : QTimeZone(zone.m_name.toUtf8());
    if (!zone.m_zone.isValid()) {
        *error = QStringLiteral("unknown time zone '%1': write utc, local, or an IANA name such"
                                " as Europe/Berlin (from this machine's time-zone data, e.g."
                                " /usr/share/zoneinfo)")
                     .arg(zone.m_name);
        return std::nullopt;
    }
    zone.m_utc = false;
    return zone;
}

QString ProfileTimeZone::toEpochSql(const QString &wallMs) const
{
    if (m_utc)
        return wallMs;
    const QDateTime from = utcAt(m_loadedAt).addYears(-YearsBack);
    const QTimeZone::OffsetDataList transitions
        = m_zone.transitions(from, utcAt(m_loadedAt).addYears(YearsAhead));
    const qint64 before = qint64(m_zone.offsetFromUtc(from)) * 1000;
    if (transitions.isEmpty())
        return QStringLiteral("((%1) - %2)").arg(wallMs).arg(before);
    // Newest first: recent rows stop at the first WHEN. A transition's wall-clock boundary is
    // its instant in the offset that follows it (a skipped hour reads in the old offset, a
    // repeated one as its second pass).
    QString sql = QStringLiteral("((%1) - CASE").arg(wallMs);
    for (auto it = transitions.crbegin(); it != transitions.crend(); ++it) {
        const qint64 offset = qint64(it->offsetFromUtc) * 1000;
        sql += QStringLiteral(" WHEN (%1) >= %2 THEN %3")
                   .arg(wallMs)
                   .arg(it->atUtc.toMSecsSinceEpoch() + offset)
                   .arg(offset);
    }
    return sql + QStringLiteral(" ELSE %1 END)").arg(before);
}

qint64 ProfileTimeZone::toWallClock(qint64 epochMs) const
{
    if (m_utc)
        return epochMs;
    return epochMs + qint64(m_zone.offsetFromUtc(utcAt(epochMs))) * 1000;
}
