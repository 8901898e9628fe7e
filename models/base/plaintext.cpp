#include "plaintext.h"

namespace PlainText {

QString escaped(const QString &text)
{
    QString out;
    out.reserve(text.size());
    for (const QChar c : text) {
        const char16_t code = c.unicode();
        const bool control = code < 0x20 || (code >= 0x7f && code <= 0x9f);
        if (!control)
            out += c;
        else if (code == '\n')
            out += QLatin1String("\\n");
        else if (code == '\r')
            out += QLatin1String("\\r");
        else if (code == '\t')
            out += QLatin1String("\\t");
        else
            out += QStringLiteral("\\x%1").arg(int(code), 2, 16, QLatin1Char('0'));
    }
    return out;
}

} // namespace PlainText
