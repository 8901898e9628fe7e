// What a piece of SQL text holds, read without a database: where a second statement begins
// and which keyword it starts with. Profiles (docs/profiles.md) are SQL fragments spliced into
// Outbox Health's queries; a `;` outside string literals, quoted identifiers and comments,
// followed by more SQL, would turn one statement into several, so the loader refuses it and
// every read checks its final text again before preparing it.
#pragma once

#include "engine.h"

#include <QString>
#include <optional>

namespace SqlText {

// One way an engine reads quotes and comments (an engine may have several, by its settings):
// the readings secondStatementAt() compares. Each dialect lists its own (SqlDialect::readings()).
struct Reading
{
    bool backslashInPlainStrings = false; // PostgreSQL with standard_conforming_strings off
    bool escapeStrings = true; // PostgreSQL's E'...' with backslash escapes
    bool dollarQuotes = true; // PostgreSQL's $tag$ ... $tag$
    bool nestedComments = true; // PostgreSQL nests /* /* */ */, SQLite does not
    bool bracketIdentifiers = false; // SQLite's [name] and `name`
    // MySQL's and MariaDB's rules.
    bool backtickIdentifiers = false; // `name`, a doubled backtick standing for itself
    bool hashComments = false; // # to the end of the line
    bool dashCommentsNeedBlank = false; // "--" opens a comment only before a blank or control
                                        // character: "--x" is minus minus x
    bool doubleQuotedStrings = false; // "..." is a string (no ANSI_QUOTES), escaped as '...' is
    bool executableComments = false; // /*! ... */, /*!50001 ... */, /*M! ... */ hold SQL
    // PostgreSQL's scan.l: a "--" comment is "--"[^\n\r]*, so a carriage return ends it too
    // (MySQL, MariaDB and SQLite end theirs at a line feed only).
    bool returnEndsLineComments = false;
};

// The position of the first `;` that is followed by more SQL (not only blanks and comments),
// outside '...' and E'...' strings, "..." identifiers, $tag$...$tag$ bodies, -- and /* */
// comments; -1 when the text is one statement. Names are read as every engine reads them:
// letters, digits, '_', '$' and any character from U+0080 up (PostgreSQL's ident_cont takes
// every byte >= 0x80, so `€$a$` is one name there, not a name and a dollar quote), and a `$`
// inside a name never opens a dollar quote. The text is read as PostgreSQL (with and
// without backslash escapes in plain strings), as SQLite (no dollar quotes, no nested
// comments) and as MySQL (backticks, # and "-- " comments, "..." as a string or an identifier,
// with and without backslash escapes, /*! */ as SQL or as a comment) would read it, and the
// earliest finding of any of these readings counts, so a quote that one engine reads
// differently cannot hide a second statement. `engine` narrows the readings to that engine's;
// none reads it as every engine would (a profile field written for all of them).
qsizetype secondStatementAt(const QString &sql, std::optional<Engine> engine = std::nullopt);
inline bool hasSeveralStatements(const QString &sql, std::optional<Engine> engine = std::nullopt)
{
    return secondStatementAt(sql, engine) >= 0;
}

// The first word of the statement in upper case, after blanks, comments and opening
// parentheses: "WITH", "UPDATE", "SELECT"; empty when there is none. The content of a MySQL
// executable comment (/*! DELETE ... */) is SQL here, whatever the engine: its first word counts.
QString firstKeyword(const QString &sql);

// Every name in the text outside string literals and comments, as each reading of `engine`
// (every engine's when none) sees them: bare names, the content of quoted identifiers ("x",
// `x`, [x]), in order, each reading's after the other's. A PostgreSQL U&"..." identifier, whose
// escapes may spell any name, is given as "U&".
QStringList names(const QString &sql, std::optional<Engine> engine = std::nullopt);

// Whether the text ends inside a comment, a string literal or a quoted identifier as any
// reading of `engine` (every engine's when none) reads it. A profile field is spliced into the
// tool's SQL: ending inside a `--` or `#` comment, it would swallow the clauses that follow it.
bool endsInsideQuoteOrComment(const QString &sql, std::optional<Engine> engine = std::nullopt);

// The text without trailing `;` (and the blanks around them).
QString withoutTrailingSemicolons(const QString &sql);

} // namespace SqlText
