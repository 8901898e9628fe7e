#include "plaintext.h"

#include <QStringList>
#include <algorithm>

namespace PlainText {

namespace {

bool isControl(char32_t code)
{
    return code < 0x20 || (code >= 0x7f && code <= 0x9f);
}

// Shown as a code point: invisible, or changes how the text around it reads.
bool isInvisible(char32_t code)
{
    const QChar::Category category = QChar::category(code);
    return category == QChar::Other_Format || category == QChar::Separator_Line
        || category == QChar::Separator_Paragraph || category == QChar::Other_Surrogate;
}

QString codePoint(char32_t code)
{
    return code > 0xffff ? QStringLiteral("\\U%1").arg(uint(code), 8, 16, QLatin1Char('0'))
                         : QStringLiteral("\\u%1").arg(uint(code), 4, 16, QLatin1Char('0'));
}

QString escapedControl(char32_t code)
{
    if (code == '\n')
        return QStringLiteral("\\n");
    if (code == '\r')
        return QStringLiteral("\\r");
    if (code == '\t')
        return QStringLiteral("\\t");
    return QStringLiteral("\\x%1").arg(uint(code), 2, 16, QLatin1Char('0'));
}

} // namespace

QString escaped(const QString &text)
{
    QString out;
    out.reserve(text.size());
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        char32_t code = c.unicode();
        const bool pair
            = c.isHighSurrogate() && i + 1 < text.size() && text.at(i + 1).isLowSurrogate();
        if (pair)
            code = QChar::surrogateToUcs4(c, text.at(i + 1));
        if (isControl(code))
            out += escapedControl(code);
        else if (isInvisible(code))
            out += codePoint(code);
        else if (pair)
            out += QStringView(text).mid(i, 2);
        else
            out += c;
        i += pair ? 1 : 0;
    }
    return out;
}

QString toolTip(const QString &text)
{
    QStringList lines = text.split(QLatin1Char('\n'));
    for (QString &line : lines)
        line = escaped(line);
    // Without a '<' nothing reads as markup (Qt::mightBeRichText looks for a tag): plain text.
    if (!text.contains(QLatin1Char('<')))
        return lines.join(QLatin1Char('\n'));
    for (QString &line : lines)
        line = line.toHtmlEscaped();
    // pre-wrap: spaces kept as they are, long lines still wrapped to the tooltip's width.
    return QStringLiteral("<p style='white-space:pre-wrap'>") + lines.join(QStringLiteral("<br>"))
        + QStringLiteral("</p>");
}

QString shellQuoted(const QString &text)
{
    static const QString safe = QStringLiteral("_-.,:/@%+=");
    const bool plain = !text.isEmpty() && std::all_of(text.cbegin(), text.cend(), [](QChar c) {
        return (c.unicode() < 0x80 && c.isLetterOrNumber()) || safe.contains(c);
    });
    if (plain)
        return text;
    QString quoted = text;
    quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

} // namespace PlainText
