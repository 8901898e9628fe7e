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
