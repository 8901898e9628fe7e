#include "englishplurals.h"

QString EnglishPlurals::translate(
    const char *context, const char *sourceText, const char *disambiguation, int n) const
{
    Q_UNUSED(context);
    Q_UNUSED(disambiguation);
    if (n < 0 || !sourceText)
        return {}; // not a plural: the source text as it is
    QString text = QString::fromUtf8(sourceText);
    if (!text.contains(QLatin1String("(s)")))
        return {};
    return text.replace(QLatin1String("(s)"), n == 1 ? QString() : QStringLiteral("s"));
}
