// What an operator asks for when resolving parked (DEAD) events without delivering them, and
// what happened: the values passed between outboxctl resolve, the window and the Resolver.
#pragma once

#include "operatorrequest.h"

#include <QMetaType>

// Resolve asks for nothing beyond what every operator action does.
using ResolveRequest = OperatorRequest;

struct ResolveResult
{
    QStringList resolved; // DEAD → RESOLVED, each with its resolve_log row
    QStringList skipped; // not DEAD (any more) or not found: nothing written for them
    QString error; // set when the request was refused or the database failed
    qsizetype total = 0; // the distinct events asked for
    bool cancelled = false; // stopped on request between two events: the rest untouched

    static ResolveResult of(const OperatorOutcome &o)
    {
        return {o.done, o.skipped, o.error, o.total, o.cancelled};
    }
};
Q_DECLARE_METATYPE(ResolveResult)
