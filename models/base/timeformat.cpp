#include "timeformat.h"

#include "saturating.h"

#include <QDateTime>
#include <QList>

namespace TimeFormat {

bool isLogical(qint64 time)
{
    return time < 100000000000LL;
}

QString time(qint64 time)
{
    if (isLogical(time))
        return QStringLiteral("t=%1").arg(time);
    return QDateTime::fromMSecsSinceEpoch(time).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
}

QString age(qint64 ms)
{
    const qint64 a = Saturating::abs(ms);
    if (a < 1000)
        return QStringLiteral("%1 ms").arg(a);
    if (a < 60000)
        return QStringLiteral("%1 s").arg(double(a) / 1000.0, 0, 'f', a < 10000 ? 1 : 0);
    if (a < 3600000)
        return QStringLiteral("%1 min").arg(a / 60000);
    if (a < 86400000)
        return QStringLiteral("%1 h").arg(a / 3600000);
    return QStringLiteral("%1 d").arg(a / 86400000);
}

QString units(qint64 units)
{
    return units == 1 || units == -1 ? QStringLiteral("%1 unit").arg(units)
                                     : QStringLiteral("%1 units").arg(units);
}

QString span(qint64 span, qint64 now)
{
    return isLogical(now) ? units(span) : age(span);
}

QString relative(qint64 time, qint64 now)
{
    const qint64 delta = Saturating::sub(time, now);
    if (isLogical(time))
        return delta == 0 ? QStringLiteral("now")
            : delta > 0   ? QStringLiteral("in ") + units(delta)
                          : units(Saturating::abs(delta)) + QStringLiteral(" ago");
    if (delta == 0)
        return QStringLiteral("now");
    return delta > 0 ? QStringLiteral("in ") + age(delta) : age(delta) + QStringLiteral(" ago");
}

QString ageInTwoUnits(qint64 ms)
{
    const qint64 a = Saturating::abs(ms);
    if (a < 60000)
        return age(a);
    static const QList<std::pair<qint64, const char *>> units
        = {{86400000, "d"}, {3600000, "h"}, {60000, "min"}, {1000, "s"}};
    for (qsizetype i = 0; i + 1 < units.size(); ++i) {
        const auto &[size, name] = units.at(i);
        if (a < size)
            continue;
        const auto &[smaller, smallerName] = units.at(i + 1);
        const QString first = QStringLiteral("%1 %2").arg(a / size).arg(QLatin1String(name));
        if (a % size / smaller == 0)
            return first; // "10 min", not "10 min 0 s"
        return QStringLiteral("%1 %2 %3")
            .arg(first)
            .arg(a % size / smaller)
            .arg(QLatin1String(smallerName));
    }
    return age(a);
}

QString isoLocal(qint64 time)
{
    const QDateTime local = QDateTime::fromMSecsSinceEpoch(time);
    return local.toOffsetFromUtc(local.offsetFromUtc()).toString(Qt::ISODateWithMs);
}

} // namespace TimeFormat
