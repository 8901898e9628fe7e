#include "numbertext.h"

#include <QLocale>

namespace NumberText {

QString count(qint64 value)
{
    QLocale locale;
    locale.setNumberOptions(locale.numberOptions() & ~QLocale::OmitGroupSeparator);
    return locale.toString(value);
}

QString counted(qint64 value, const QString &one, const QString &many)
{
    return count(value) + u' ' + (value == 1 ? one : many);
}

} // namespace NumberText
