#include "sqltext.h"

#include "sqldialect.h"

#include <QList>
#include <algorithm>

namespace {

// The quote of an SQL identifier (or, in MySQL, a string), named once: a character literal of
// it reads as a string's start to line-based tools.
constexpr char16_t DoubleQuote = 0x22;

using Dialect = SqlText::Reading;

// PostgreSQL's scan.l (15): ident_start [A-Za-z\200-\377_], ident_cont
// [A-Za-z\200-\377_0-9\$], dolq_start [A-Za-z\200-\377_], dolq_cont [A-Za-z\200-\377_0-9]. In
// UTF-8 every character from U+0080 up is made of such bytes. SQLite (sqlite3IsIdChar) and
// MySQL (U+0080 and up in names) read them as name characters too.
bool isAsciiLetter(QChar c)
{
    return (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z');
}

bool isAsciiDigit(QChar c)
{
    return c >= u'0' && c <= u'9';
}

bool isIdentifierStart(QChar c)
{
    return isAsciiLetter(c) || c == u'_' || c.unicode() >= 0x80;
}

bool isIdentifierChar(QChar c)
{
    return isIdentifierStart(c) || isAsciiDigit(c) || c == u'$';
}

// One past the name that starts at `start`.
qsizetype skipIdentifier(const QString &sql, qsizetype start)
{
    qsizetype i = start + 1;
    while (i < sql.size() && isIdentifierChar(sql.at(i)))
        ++i;
    return i;
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

// A dollar quote's opening tag at `start` ("$$" or "$name$"), or an empty string. A `$` inside
// a name never gets here (skipIdentifier() took it); "$1" is a parameter.
QString dollarTag(const QString &sql, qsizetype start)
{
    qsizetype i = start + 1;
    if (i < sql.size() && isAsciiDigit(sql.at(i)))
        return {};
    while (i < sql.size() && sql.at(i) != u'$' && isIdentifierChar(sql.at(i)))
        ++i;
    if (i >= sql.size() || sql.at(i) != u'$')
        return {};
    return sql.mid(start, i - start + 1);
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

// One past the opening of a MySQL executable comment at `i` ("/*!", "/*!50001", "/*M!100100":
// the version, when there is one, is not SQL), or `i` when there is none.
qsizetype skipExecutableOpening(const QString &sql, qsizetype i)
{
    qsizetype at = i;
    if (sql.mid(at, 3) == QLatin1String("/*!"))
        at += 3;
    else if (sql.mid(at, 4) == QLatin1String("/*M!"))
        at += 4;
    else
        return i;
    for (int digits = 0; digits < 6 && at < sql.size() && sql.at(at).isDigit(); ++digits)
        ++at;
    return at;
}

// Whether "--" at `i` opens a comment: always on PostgreSQL and SQLite; on MySQL only before a
// blank or a control character, or at the end of the text.
bool opensDashComment(const QString &sql, qsizetype i, const Dialect &dialect)
{
    if (sql.mid(i, 2) != QLatin1String("--"))
        return false;
    if (!dialect.dashCommentsNeedBlank || i + 2 >= sql.size())
        return true;
    const QChar next = sql.at(i + 2);
    return next.isSpace() || next.unicode() < 0x20 || next.unicode() == 0x7f;
}

qsizetype skipToLineEnd(const QString &sql, qsizetype i, const Dialect &dialect)
{
    while (i < sql.size()) {
        const QChar c = sql.at(i++);
        if (c == u'\n' || (c == u'\r' && dialect.returnEndsLineComments))
            break;
    }
    return i;
}

// One past the blanks and comments at `i`. The opening and the end of an executable comment
// count as blanks where the engine reads its content as SQL.
qsizetype skipBlanksAndComments(const QString &sql, qsizetype i, const Dialect &dialect)
{
    while (i < sql.size()) {
        if (sql.at(i).isSpace()) {
            ++i;
        } else if (opensDashComment(sql, i, dialect)
            || (dialect.hashComments && sql.at(i) == u'#')) {
            i = skipToLineEnd(sql, i, dialect);
        } else if (dialect.executableComments && skipExecutableOpening(sql, i) > i) {
            i = skipExecutableOpening(sql, i);
        } else if (dialect.executableComments && sql.mid(i, 2) == QLatin1String("*/")) {
            i += 2;
        } else if (sql.mid(i, 2) == QLatin1String("/*")) {
            i = skipBlockComment(sql, i, dialect.nestedComments);
        } else {
            break;
        }
    }
    return i;
}

// One past the quoted token (string, quoted or bracketed identifier, dollar body) at `i`, or
// `i` itself when none starts there.
qsizetype skipQuotedToken(const QString &sql, qsizetype i, const Dialect &dialect)
{
    const QChar c = sql.at(i);
    if (c == u'\'')
        return skipQuoted(sql, i, c, dialect.backslashInPlainStrings);
    if (c == DoubleQuote)
        return skipQuoted(
            sql, i, c, dialect.doubleQuotedStrings && dialect.backslashInPlainStrings);
    if (c == u'`' && (dialect.bracketIdentifiers || dialect.backtickIdentifiers))
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
    return i;
}

// One past the token at `i` when it is a string, identifier, dollar body or comment; `i`
// itself when it is anything else.
qsizetype skipQuotedOrComment(const QString &sql, qsizetype i, const Dialect &dialect)
{
    const QChar c = sql.at(i);
    if (isIdentifierStart(c)) {
        // E'...' is an escape string where the name is E alone (flex takes the longest match).
        const qsizetype end = skipIdentifier(sql, i);
        if (dialect.escapeStrings && end == i + 1 && (c == u'E' || c == u'e') && end < sql.size()
            && sql.at(end) == u'\'')
            return skipQuoted(sql, end, u'\'', true);
        return end;
    }
    if (const qsizetype end = skipQuotedToken(sql, i, dialect); end != i)
        return end;
    if (c == u'-' || c == u'/' || c == u'#' || c == u'*')
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

// The text of a quoted identifier between `start` and `end` (one past its closing quote),
// a doubled quote standing for one.
QString unquoted(const QString &sql, qsizetype start, qsizetype end, QChar close)
{
    const bool closed = end <= sql.size() && end - start >= 2 && sql.at(end - 1) == close;
    QString name = sql.mid(start + 1, end - start - (closed ? 2 : 1));
    return close == u']' ? name : name.replace(QString(2, close), QString(close));
}

// The names `dialect` reads in `sql` (SqlText::names()).
QStringList namesIn(const QString &sql, const Dialect &dialect)
{
    QStringList names;
    qsizetype i = 0;
    while (i < sql.size()) {
        const QChar c = sql.at(i);
        const qsizetype next = skipQuotedOrComment(sql, i, dialect);
        if (isIdentifierStart(c)) {
            const bool unicodeName = dialect.escapeStrings && next == i + 1
                && (c == u'U' || c == u'u') && sql.mid(next, 2) == QLatin1String("&\"");
            if (next == skipIdentifier(sql, i)) // not E'...'
                names << (unicodeName ? QStringLiteral("U&") : sql.mid(i, next - i));
        } else if ((c == DoubleQuote && !dialect.doubleQuotedStrings)
            || (c == u'`' && (dialect.backtickIdentifiers || dialect.bracketIdentifiers))) {
            names << unquoted(sql, i, next, c);
        } else if (c == u'[' && dialect.bracketIdentifiers) {
            names << unquoted(sql, i, next, u']');
        }
        i = next > i ? next : i + 1;
    }
    return names;
}

} // namespace

namespace SqlText {

QStringList names(const QString &sql, std::optional<Engine> engine)
{
    QStringList out;
    for (const SqlDialect *dialect : SqlDialect::all()) {
        if (engine && dialect->engine() != *engine)
            continue;
        for (const Dialect &reading : dialect->readings())
            out += namesIn(sql, reading);
    }
    return out;
}

namespace {

QList<Dialect> readingsOf(std::optional<Engine> engine)
{
    QList<Dialect> readings;
    for (const SqlDialect *dialect : SqlDialect::all()) {
        if (!engine || dialect->engine() == *engine)
            readings += dialect->readings();
    }
    return readings;
}

} // namespace

bool endsInsideQuoteOrComment(const QString &sql, std::optional<Engine> engine)
{
    // A blank, a `;` and a name added at the end are a second statement for every reading,
    // unless the text's end leaves them inside something (or the text already holds a second
    // statement). The blank: MySQL's "--" opens a comment only before one, as the SQL the tool
    // adds after a field may begin.
    const QString probe = sql + QLatin1String(" ;x");
    const QList<Dialect> readings = readingsOf(engine);
    return std::any_of(readings.cbegin(), readings.cend(), [&](const Dialect &dialect) {
        return ::secondStatementAt(probe, dialect) != sql.size() + 1;
    });
}

qsizetype secondStatementAt(const QString &sql, std::optional<Engine> engine)
{
    const QList<Dialect> readings = readingsOf(engine);
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
    Dialect dialect;
    dialect.hashComments = true;
    dialect.executableComments = true;
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
