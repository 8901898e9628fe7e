#include "sqltext.h"

#include "sqldialect.h"

#include <QList>
#include <algorithm>

namespace {

using Dialect = SqlText::Reading;

bool isIdentifierChar(QChar c)
{
    return c.isLetterOrNumber() || c == u'_' || c == u'$';
}

// Where a quoted run that opens at `start` with `quote` ends (one past its closing quote),
// a doubled quote standing for itself; `backslash` lets \x escape any character.
qsizetype skipQuoted(const QString &sql, qsizetype start, QChar quote, bool backslash)
{
    qsizetype i = start + 1;
    while (i < sql.size()) {
        const QChar c = sql.at(i);
        if (backslash && c == u'\\') {
            i += 2;
            continue;
        }
        if (c == quote) {
            if (i + 1 < sql.size() && sql.at(i + 1) == quote) {
                i += 2;
                continue;
            }
            return i + 1;
        }
        ++i;
    }
    return sql.size();
}

// A dollar quote's opening tag at `start` ("$$" or "$name$"), or an empty string.
QString dollarTag(const QString &sql, qsizetype start)
{
    if (start > 0 && isIdentifierChar(sql.at(start - 1)))
        return {}; // $ inside a name, or a positional parameter like $1
    qsizetype i = start + 1;
    while (i < sql.size() && (sql.at(i).isLetterOrNumber() || sql.at(i) == u'_'))
        ++i;
    if (i >= sql.size() || sql.at(i) != u'$')
        return {};
    const QString tag = sql.mid(start, i - start + 1);
    if (tag.size() > 2 && tag.at(1).isDigit())
        return {};
    return tag;
}

qsizetype skipBlockComment(const QString &sql, qsizetype start, bool nested)
{
    int depth = 0;
    qsizetype i = start;
    while (i + 1 < sql.size()) {
        if (sql.at(i) == u'/' && sql.at(i + 1) == u'*' && (nested || depth == 0)) {
            ++depth;
            i += 2;
        } else if (sql.at(i) == u'*' && sql.at(i + 1) == u'/') {
            if (--depth == 0)
                return i + 2;
            i += 2;
        } else {
            ++i;
        }
    }
    return sql.size();
}

// One past the blanks and comments at `i`.
qsizetype skipBlanksAndComments(const QString &sql, qsizetype i, const Dialect &dialect)
{
    while (i < sql.size()) {
        if (sql.at(i).isSpace()) {
            ++i;
        } else if (sql.mid(i, 2) == QLatin1String("--")) {
            const qsizetype end = sql.indexOf(u'\n', i);
            i = end < 0 ? sql.size() : end + 1;
        } else if (sql.mid(i, 2) == QLatin1String("/*")) {
            i = skipBlockComment(sql, i, dialect.nestedComments);
        } else {
            break;
        }
    }
    return i;
}

// One past the token at `i` when it is a string, identifier, dollar body or comment; `i`
// itself when it is anything else.
qsizetype skipQuotedOrComment(const QString &sql, qsizetype i, const Dialect &dialect)
{
    const QChar c = sql.at(i);
    if (c == u'\'') {
        const bool escaped = dialect.escapeStrings && i > 0
            && (sql.at(i - 1) == u'E' || sql.at(i - 1) == u'e')
            && (i < 2 || !isIdentifierChar(sql.at(i - 2)));
        return skipQuoted(sql, i, c, escaped || dialect.backslashInPlainStrings);
    }
    if (c == u'"' || (dialect.bracketIdentifiers && c == u'`'))
        return skipQuoted(sql, i, c, false);
    if (dialect.bracketIdentifiers && c == u'[') {
        const qsizetype end = sql.indexOf(u']', i + 1);
        return end < 0 ? sql.size() : end + 1;
    }
    if (c == u'$' && dialect.dollarQuotes) {
        const QString tag = dollarTag(sql, i);
        if (!tag.isEmpty()) {
            const qsizetype end = sql.indexOf(tag, i + tag.size());
            return end < 0 ? sql.size() : end + tag.size();
        }
    }
    if (sql.mid(i, 2) == QLatin1String("--") || sql.mid(i, 2) == QLatin1String("/*"))
        return skipBlanksAndComments(sql, i, dialect);
    return i;
}

qsizetype secondStatementAt(const QString &sql, const Dialect &dialect)
{
    qsizetype i = 0;
    while (i < sql.size()) {
        const qsizetype next = skipQuotedOrComment(sql, i, dialect);
        if (next != i) {
            i = next;
            continue;
        }
        if (sql.at(i) == u';') {
            qsizetype after = i + 1;
            while (after < sql.size()) {
                after = skipBlanksAndComments(sql, after, dialect);
                if (after < sql.size() && sql.at(after) == u';')
                    ++after; // ";;" is still nothing more
                else
                    break;
            }
            if (after < sql.size())
                return i;
        }
        ++i;
    }
    return -1;
}

} // namespace

namespace SqlText {

qsizetype secondStatementAt(const QString &sql, std::optional<Engine> engine)
{
    QList<Dialect> readings;
    for (const SqlDialect *dialect : SqlDialect::all()) {
        if (!engine || dialect->engine() == *engine)
            readings += dialect->readings();
    }
    qsizetype first = -1;
    for (const Dialect &dialect : std::as_const(readings)) {
        const qsizetype at = ::secondStatementAt(sql, dialect);
        if (at >= 0)
            first = first < 0 ? at : std::min(first, at);
    }
    return first;
}

QString firstKeyword(const QString &sql)
{
    const Dialect dialect;
    qsizetype i = 0;
    while (true) {
        i = skipBlanksAndComments(sql, i, dialect);
        if (i < sql.size() && sql.at(i) == u'(')
            ++i;
        else
            break;
    }
    qsizetype end = i;
    while (end < sql.size() && (sql.at(end).isLetter() || sql.at(end) == u'_'))
        ++end;
    return sql.mid(i, end - i).toUpper();
}

QString withoutTrailingSemicolons(const QString &sql)
{
    QString text = sql.trimmed();
    while (text.endsWith(u';'))
        text = text.chopped(1).trimmed();
    return text;
}

} // namespace SqlText
