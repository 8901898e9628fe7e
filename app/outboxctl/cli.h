// Shared plumbing of the outboxctl commands: exit codes, one-line errors, option parsing and
// opening the database named by --db.
#pragma once

#include "dbconnection.h"
#include "outboxprofile.h"

#include <QCommandLineParser>
#include <QStringList>
#include <memory>
#include <optional>

namespace Cli {

enum ExitCode { Ok = 0, CheckFailed = 1, Error = 2 };

// Latest time a --now may name: exact in JSON and far beyond any real clock.
constexpr qint64 MaxTimeMs = 1LL << 53;

// Prints "outboxctl: MESSAGE" on stderr and returns ExitCode::Error. The message is made safe
// first: a URL's password masked, control characters escaped (one line, whatever it quotes).
int fail(const QString &message);
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

// A whole number from `low` to `high` for option `name`, when it is set (*value unchanged
// otherwise).
bool readNumber(const QCommandLineParser &parser, const QString &name, qint64 low, qint64 high,
    qint64 *value, QString *error);
// --now MS: from 0 (1970) to MaxTimeMs; the current time when absent.
bool readNow(const QCommandLineParser &parser, qint64 *now, QString *error);
// --error-category: TRANSIENT or PERMANENT (any case), upper-cased into *category; empty when
// the option is absent. Anything else would match nothing and look like success: refused.
bool readErrorCategory(const QCommandLineParser &parser, QString *category, QString *error);

// A simulation target: a new SQLite file (created with the schema) or a database initialised
// with --for-simulation. Anything else is refused and left untouched.
std::unique_ptr<DbConnection> openForSimulation(const QString &urlText, QString *error);

// --profile NAME|PATH: which schema the command reads (check, replay).
void addProfileOption(QCommandLineParser &parser);

// Opens `url` with the --profile value, or the detected profile when the option is absent:
// ProfileConnection::open, the same rules as outbox-dashboard --db URL --profile.
std::unique_ptr<DbConnection> openWithProfile(const DatabaseUrl &url, OpenOptions options,
    const QCommandLineParser &parser, std::optional<OutboxProfile> *profile, QString *error);

} // namespace Cli
