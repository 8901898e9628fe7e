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

// Prints "outboxctl: MESSAGE" on stderr and returns ExitCode::Error.
int fail(const QString &message);
void printLine(const QString &line);

// Parses the arguments after the command name. Returns false after printing help (exitCode 0)
// or an error (exitCode 2).
bool parse(QCommandLineParser &parser, const QString &command, const QStringList &arguments,
    int *exitCode);

// `outboxctl COMMAND --help`: "Usage: outboxctl COMMAND [options]", the options, a few examples.
QString helpText(const QCommandLineParser &parser, const QString &command);

bool requireValue(const QCommandLineParser &parser, const QString &option, QString *error);

// A simulation target: a new SQLite file (created with the schema) or a database initialised
// with --for-simulation. Anything else is refused and left untouched.
std::unique_ptr<DbConnection> openForSimulation(const QString &urlText, QString *error);

// --profile NAME|PATH: which schema the command reads (check, replay).
void addProfileOption(QCommandLineParser &parser);

// Opens `url` (schema not validated by the open) and chooses its profile: the --profile value
// (a built-in's name or a profile file; a bad file is named with its line and field) or, when
// the option is absent, the one ProfileRegistry::detect finds (native whenever its tables
// exist). The profile is then validated against the database. On failure returns nothing and
// sets *error to one line.
std::unique_ptr<DbConnection> openWithProfile(const DatabaseUrl &url, OpenOptions options,
    const QCommandLineParser &parser, std::optional<OutboxProfile> *profile, QString *error);

} // namespace Cli
