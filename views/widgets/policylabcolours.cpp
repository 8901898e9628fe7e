#include "policylabcolours.h"

#include "themecolours.h"

namespace PolicyLabColours {

QColor of(int index)
{
    return ThemeColours::status(index == 0 ? QStringLiteral("IN FLIGHT") : QStringLiteral("RETRY"));
}

QString label(int index, int count)
{
    return count < 2 ? QString() : QString(QChar(u'A' + index)) + QStringLiteral(": ");
}

} // namespace PolicyLabColours
