// Shared plumbing of the outboxctl commands: exit codes, one-line errors, option parsing and
// opening the database named by --db.
#pragma once

#include "dbconnection.h"
#include "outboxprofile.h"
#include "tablegrants.h"

#include <QCommandLineParser>
#include <QStringList>
#include <functional>
#include <memory>
#include <optional>

namespace Cli {

enum ExitCode { Ok = 0, CheckFailed = 1, Error = 2 };

// Latest time a --now may name: exact in JSON and far beyond any real clock.
constexpr qint64 MaxTimeMs = 1LL << 53;

// Prints "outboxctl: MESSAGE" on stderr and returns ExitCode::Error. The message is made safe
// first: a URL's password masked, control characters escaped (one line, whatever it quotes).
int fail(const QString &message);
// A time in human output: local ISO 8601 with its offset ("2026-11-30T17:05:00.000+01:00", "Z"
// where local is UTC), or "t=30" on a simulation's logical clock; never raw milliseconds.
QString timeText(qint64 time);
// Event IDs that name no event: "COMMAND: no event with ID 'NOPE'THEN" (or "no events with IDs
// 'A', 'B'") on stderr and, with `json`, {"error":TEXT,"unknown_events":[{"event_id","reason"}]}
// on stdout. Returns ExitCode::Error.
int failUnknownEvents(
    const QString &command, const QStringList &ids, bool json, const QString &then = {});
void printLine(const QString &line);
// Text from the database or the command line, for a plain-text line: control characters
// escaped (PlainText::escaped) and URL passwords masked. JSON output does not go through it.
QString printable(const QString &text);

// Parses the arguments after the command name. Returns false after printing help (exitCode 0)
// or an error (exitCode 2).
bool parse(QCommandLineParser &parser, const QString &command, const QStringList &arguments,
    int *exitCode);

// `outboxctl COMMAND --help`: "Usage: outboxctl COMMAND [options]", the options, a few examples.
QString helpText(const QCommandLineParser &parser, const QString &command);

bool requireValue(const QCommandLineParser &parser, const QString &option, QString *error);
// The trimmed value of option `name`, which must not be blank: "--NAME is required and must not
// be blank: WHY" otherwise.
bool requireText(const QCommandLineParser &parser, const QString &name, const QString &why,
    QString *value, QString *error);

// A whole number from `low` to `high` for option `name`, when it is set (*value unchanged
// otherwise).
bool readNumber(const QCommandLineParser &parser, const QString &name, qint64 low, qint64 high,
    qint64 *value, QString *error);
// --now MS: from 0 (1970) to MaxTimeMs; the current time when absent.
bool readNow(const QCommandLineParser &parser, qint64 *now, QString *error);
// A duration option: --NAME DURATION (500ms, 30s, 10m, 2h, 7d; a plain number is milliseconds)
// and its old spelling --NAME-ms N (whole milliseconds), hidden from --help but still read.
void addDurationOption(QCommandLineParser &parser, const QString &name, const QString &description);
// Either spelling of duration option `name` is set.
bool isDurationSet(const QCommandLineParser &parser, const QString &name);
// The spelling the command line used, "--older-than" or "--older-than-ms" (for messages).
QString durationSpelling(const QCommandLineParser &parser, const QString &name);
// Duration option `name` in ms, from `low` to `high`, when it is set (*ms unchanged otherwise);
// both spellings at once are refused.
bool readDuration(const QCommandLineParser &parser, const QString &name, qint64 low, qint64 high,
    qint64 *ms, QString *error);
// --error-category: TRANSIENT or PERMANENT (any case), upper-cased into *category; empty when
// the option is absent. Anything else would match nothing and look like success: refused.
bool readErrorCategory(const QCommandLineParser &parser, QString *category, QString *error);
// --payload-contains TEXT: a JSON fragment (containment) or a plain text (substring), checked
// as the window checks it (PayloadSearch::parse with the dashboard's redaction list): too
// long, not JSON, or naming a redacted key is refused. Empty when the option is absent.
// `prefix`: "With --all-dead" for a bulk selection, or empty.
void addPayloadContainsOption(QCommandLineParser &parser, const QString &prefix);
bool readPayloadContains(const QCommandLineParser &parser, QString *search, QString *error);
// --notes-db URL: where the notes and the audit of an outbox read through a profile live
// (NotesAccess).
void addNotesDbOption(QCommandLineParser &parser);
// Sets the process's notes database from --notes-db when given; false with *error (the
// password masked) when the value is no database URL. Call before NotesAccess::open.
bool applyNotesDb(const QCommandLineParser &parser, QString *error);
struct Outbox;
// With --notes-db through a profile: Cli::Ok when the notes database can hold the notes;
// otherwise its refusal, "COMMAND: WHY" (exit 2), so that nothing runs as if there were no
// notes (a bulk replay would replay what they hold back).
int refuseUnusableNotesDb(
    const QCommandLineParser &parser, const Outbox &outbox, const QString &command);
// The same refusal as a line (empty: usable), for a command that prints it its own way (--json).
QString unusableNotesDb(
    const QCommandLineParser &parser, const Outbox &outbox, const QString &command);
// Empty when `profile` maps a payload; otherwise why --payload-contains is not available.
QString payloadSearchRefusal(const OutboxProfile &profile);

// A simulation target: a new SQLite file (created with the schema) or a database initialised
// with --for-simulation. Anything else is refused and left untouched.
std::unique_ptr<DbConnection> openForSimulation(const QString &urlText, QString *error);

// --profile NAME|PATH: which schema the command reads (check, replay). `more` follows the
// common text: what the command does with a profile other than native, when it refuses one.
void addProfileOption(QCommandLineParser &parser, const QString &more = {});
// --db URL: which database.
void addDatabaseOption(
    QCommandLineParser &parser, const QString &description = u"Database URL."_qs);
// --db-file FILE: the URL read from a file (added by addDatabaseOption).
void addDatabaseFileOption(QCommandLineParser &parser);
// --db URL and --profile NAME|PATH: the first options of every command that reads an outbox.
void addDatabaseOptions(QCommandLineParser &parser, const QString &profileMore = {});
// --now MS, described as "WHEN, ms since the epoch (default: now)." (read by readNow).
void addNowOption(QCommandLineParser &parser, const QString &when);
// --json, with what it prints.
void addJsonOption(QCommandLineParser &parser, const QString &prints);
// --db, --profile, --now (WHEN) and --json (PRINTS): a read-only report's first options.
void addReportOptions(QCommandLineParser &parser, const QString &when, const QString &prints);
// The database URL's text: --db; else the first line of --db-file FILE (when the command has
// it; a regular file of at most 64 KiB, refused when it holds a password and group or others
// have access, as libpq refuses such a ~/.pgpass); else the environment's OUTBOX_DB_URL. None,
// with *error ("--db is required"), otherwise.
std::optional<QString> databaseText(const QCommandLineParser &parser, QString *error);
// Says on stderr, once, that a password in `arguments` is visible in ps for as long as the
// program runs, and what to use instead (relay and serve, which run for long, say it).
void warnOfPasswordInArguments(const QStringList &arguments);
// A database URL is given (databaseText).
bool requireDatabase(const QCommandLineParser &parser, QString *error);
// The database URL (databaseText) parsed: invalid with *error set when it is malformed.
DatabaseUrl databaseUrl(const QCommandLineParser &parser, QString *error);

// How a command opens a real outbox (its profile validated, no simulation mark needed): each
// statement at most a minute, read-only when `readOnly` (it cannot change anything then).
OpenOptions outboxOptions(bool readOnly);

// The outbox --db names, opened with --profile (or the detected one).
struct Outbox
{
    DatabaseUrl url;
    std::unique_ptr<DbConnection> connection;
    OutboxProfile profile;

    QSqlDatabase database() const { return connection->database(); }
    QString name() const { return url.toDisplayString(); } // its password masked
};
// Exit 2 with one line ("replay: the role 'reader' may not UPDATE delivery_outbox") when the
// database's grants refuse `operation` to the connected role, before anything is asked or
// changed; Cli::Ok otherwise (and through a profile, whose writes are its own).
int refuseByGrants(const Outbox &outbox, TableGrants::Operation operation, const QString &command);
// The same refusal as a line (empty: allowed), for a command that prints it its own way (--json).
QString grantsRefusal(
    const Outbox &outbox, TableGrants::Operation operation, const QString &command);
// Parses --db and opens it with openWithProfile. Empty with *error set (a line to print as it
// is) when the URL is malformed or the database cannot be opened.
std::optional<Outbox> openOutbox(
    const QCommandLineParser &parser, const OpenOptions &options, QString *error);
// How a read-only report (check, diagnose, errors, explain) starts: the arguments parsed, --db
// required, `read` for the command's own options (null: none), and the outbox opened
// read-only. Empty with *exitCode set, after printing the help or the error, otherwise.
std::optional<Outbox> openReport(QCommandLineParser &parser, const QString &command,
    const QStringList &arguments, const std::function<bool(QString *error)> &read, int *exitCode);

// Opens `url` with the --profile value, or the detected profile when the option is absent:
// ProfileConnection::open, the same rules as outbox-dashboard --db URL --profile.
std::unique_ptr<DbConnection> openWithProfile(const DatabaseUrl &url, OpenOptions options,
    const QCommandLineParser &parser, std::optional<OutboxProfile> *profile, QString *error);

} // namespace Cli
