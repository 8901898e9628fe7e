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

// Whether a --json run that failed told it on both streams: one line on stderr, and on stdout
// exactly one JSON object whose "error" is that line without "outboxctl: ".
bool failedAsJson(const Run &run);

// The team's audit store of a test program: a native SQLite database of the tool's own, made
// once by `outboxctl init` in a temporary folder (every replay through a profile is recorded
// there, or refused: pass it as --notes-db).
QString auditStoreUrl();
