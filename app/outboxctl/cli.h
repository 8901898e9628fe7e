// Shared plumbing of the outboxctl commands: exit codes, one-line errors, option parsing and
// opening the database named by --db.
#pragma once

#include "dbconnection.h"

#include <QCommandLineParser>
#include <QStringList>
#include <memory>

namespace Cli {

enum ExitCode { Ok = 0, CheckFailed = 1, Error = 2 };

// Prints "outboxctl: MESSAGE" on stderr and returns ExitCode::Error.
int fail(const QString &message);
void printLine(const QString &line);

// Parses the arguments after the command name. Returns false after printing help (exitCode 0)
// or an error (exitCode 2).
bool parse(QCommandLineParser &parser, const QString &command, const QStringList &arguments,
           int *exitCode);

bool requireValue(const QCommandLineParser &parser, const QString &option, QString *error);

// A simulation target: a new SQLite file (created with the schema) or a database initialised
// with --for-simulation. Anything else is refused and left untouched.
std::unique_ptr<DbConnection> openForSimulation(const QString &urlText, QString *error);

} // namespace Cli
