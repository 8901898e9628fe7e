// The table of outboxctl's commands, declared once: each command's name, its line in `outboxctl
// --help`, the line under the usage line of `outboxctl NAME --help`, its examples and the
// function that runs it. main() dispatches through it and prints the usage from it; Cli::parse
// and Cli::helpText take a command's description and examples from it; the bash completion
// and the build's man page (its command list: cmake/ManCommands.cmake) read the command list
// from `outboxctl --help`, and tst_cli_reference checks the man page's and docs/outboxctl.md's
// command sections against it.
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace Cli {

struct Command
{
    QString name;
    // Its line in `outboxctl --help`: lower case, no full stop.
    QString summary;
    // The line under "Usage: outboxctl NAME [options]"; empty: the summary as a sentence.
    QString description;
    // Indented lines ("  outboxctl NAME ...\n") at the end of `outboxctl NAME --help`.
    QString examples;
    int (*run)(const QStringList &arguments);

    QString helpDescription() const;
};

// Every command, in the order `outboxctl --help` lists them.
const QList<Command> &commands();
// The command called `name`; null when there is none.
const Command *findCommand(const QString &name);
// "init, simulate, ..., policy, serve", the last two joined by `lastJoin` (", " or " or ").
QString commandNames(const QString &lastJoin);
// The "Commands:" block of `outboxctl --help`: one line a command, "  NAME      summary".
QString commandList();

} // namespace Cli
