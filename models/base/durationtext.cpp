#include "durationtext.h"

#include <QList>
#include <utility>

std::optional<qint64> DurationText::parseMs(const QString &text)
{
    const QString t = text.trimmed().toLower();
    if (t.isEmpty())
        return std::nullopt;
    const QList<std::pair<QString, qint64>> units
        = {{QStringLiteral("ms"), 1}, {QStringLiteral("s"), 1000}, {QStringLiteral("m"), 60000},
            {QStringLiteral("h"), 3600000}, {QStringLiteral("d"), 86400000}};
    for (const auto &[suffix, factor] : units) {
        if (t.endsWith(suffix)) {
            bool ok = false;
            const double value = t.chopped(suffix.size()).toDouble(&ok);
            // Beyond 2^53 ms (285,000 years) a double no longer holds whole milliseconds.
            if (ok && value >= 0 && value * double(factor) <= double(1LL << 53))
                return qint64(value * double(factor));
            if (suffix == QLatin1String("ms"))
                continue;
            return std::nullopt;
        }
    }
    bool ok = false;
    const qint64 ms = t.toLongLong(&ok);
    return ok && ms >= 0 ? std::optional<qint64>(ms) : std::nullopt;
}

QString DurationText::format(qint64 ms)
{
    if (ms == 0)
        return QStringLiteral("0");
    const QList<std::pair<QString, qint64>> units = {{QStringLiteral("d"), 86400000},
        {QStringLiteral("h"), 3600000}, {QStringLiteral("m"), 60000}, {QStringLiteral("s"), 1000}};
    for (const auto &[suffix, factor] : units) {
        if (ms % factor == 0)
            return QString::number(ms / factor) + suffix;
    }
    return QString::number(ms) + QStringLiteral("ms");
}
