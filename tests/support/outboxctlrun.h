// Runs the outboxctl binary that CTest names in $OUTBOXCTL, as a user would from a shell.
#pragma once

#include <QStringList>

struct Run
{
    int exitCode = -1; // -1: it did not finish within a minute
    QStringList out; // stdout lines
    QStringList err; // stderr lines
};

Run outboxctl(const QStringList &arguments);
// Runs each argument list as its own outboxctl, all at once (they must not depend on each
// other: reads of one database), and returns their runs in the same order.
QList<Run> outboxctlAll(const QList<QStringList> &runs);

// Whether a --json run that failed told it on both streams: one line on stderr, and on stdout
// exactly one JSON object whose "error" is that line without "outboxctl: ".
bool failedAsJson(const Run &run);
