#include "bytetext.h"

#include <QRegularExpression>
#include <cmath>
#include <limits>

namespace {

constexpr const char *Units[] = {"KiB", "MiB", "GiB", "TiB"};

} // namespace

std::optional<qint64> ByteText::parse(const QString &text)
{
    static const QRegularExpression shape(
        QStringLiteral("^\\s*(\\d{1,19})\\s*(?:([kmgt])(?:i?b)?|b|bytes?)?\\s*$"),
        QRegularExpression::CaseInsensitiveOption);
    const QRegularExpressionMatch match = shape.match(text);
    if (!match.hasMatch())
        return std::nullopt;
    bool ok = false;
    const qint64 number = match.captured(1).toLongLong(&ok);
    if (!ok)
        return std::nullopt;
    const QString unit = match.captured(2).toLower();
    const int shift = unit.isEmpty() ? 0 : 10 * (QStringLiteral("kmgt").indexOf(unit) + 1);
    if (shift > 0 && number > (std::numeric_limits<qint64>::max() >> shift))
        return std::nullopt;
    return number << shift;
}

QString ByteText::format(qint64 bytes)
{
    if (bytes < 1024 && bytes > -1024)
        return QStringLiteral("%1 %2").arg(bytes).arg(
            bytes == 1 ? QStringLiteral("byte") : QStringLiteral("bytes"));
    double value = static_cast<double>(bytes);
    int unit = -1;
    while (std::abs(value) >= 1024 && unit < 3) {
        value /= 1024;
        ++unit;
    }
    const bool decimal = std::abs(value) < 10 && std::round(value * 10) != std::round(value) * 10;
    return QStringLiteral("%1 %2").arg(
        QString::number(value, 'f', decimal ? 1 : 0), QLatin1String(Units[unit]));
}
