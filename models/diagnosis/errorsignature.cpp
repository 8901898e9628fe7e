#include "errorsignature.h"

#include <QRegularExpression>

namespace {

struct Rule
{
    QRegularExpression pattern;
    QString placeholder;
};

const QList<Rule> &rules()
{
    using Re = QRegularExpression;
    static const QList<Rule> rules = {
        {Re(u"\\d{4}-\\d{2}-\\d{2}[T ]\\d{2}:\\d{2}(:\\d{2}([.,]\\d+)?)?(Z|[+-]\\d{2}:?\\d{2})?"_qs),
            u"<time>"_qs},
        {Re(u"\\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\\b"_qs),
            u"<uuid>"_qs},
        {Re(u"'[^']*'"_qs), u"'<str>'"_qs},
        {Re(u"\"[^\"]*\""_qs), u"\"<str>\""_qs},
        {Re(u"\\b0[xX][0-9a-fA-F]+\\b"_qs), u"<hex>"_qs},
        {Re(u"\\b(?=[0-9a-fA-F]*[0-9])(?=[0-9a-fA-F]*[a-fA-F])[0-9a-fA-F]{8,}\\b"_qs), u"<hex>"_qs},
        {Re(u"(?<![A-Za-z0-9_<])-?\\d+(\\.\\d+)?"_qs), u"<n>"_qs},
    };
    return rules;
}

} // namespace

namespace ErrorSignature {

QString of(const QString &message)
{
    QString text = message.left(ReadLength).simplified();
    for (const Rule &rule : rules())
        text.replace(rule.pattern, rule.placeholder);
    if (text.size() > MaxLength)
        text = text.left(MaxLength - 1) + QChar(0x2026);
    return text;
}

} // namespace ErrorSignature
