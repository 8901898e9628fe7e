#include "numbertext.h"

#include <QLocale>

namespace NumberText {

QString count(qint64 value)
{
    QLocale locale;
    locale.setNumberOptions(locale.numberOptions() & ~QLocale::OmitGroupSeparator);
    return locale.toString(value);
}

} // namespace NumberText
