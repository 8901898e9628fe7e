// What an operator asks for when reopening resolved events (RESOLVED → DEAD, back among the
// parked events an operator can replay or resolve again), and what happened: the values passed
// between outboxctl reopen, the window and the Reopener.
#pragma once

#include "operatorrequest.h"

#include <QMetaType>

// Reopen asks for nothing beyond what every operator action does.
using ReopenRequest = OperatorRequest;

struct ReopenResult
{
    QStringList reopened; // RESOLVED → DEAD, each with its reopen_log row
    QStringList skipped; // not RESOLVED (any more) or not found: nothing written for them
    QString error; // set when the request was refused or the database failed
    qsizetype total = 0; // the distinct events asked for
    bool cancelled = false; // stopped on request between two events: the rest untouched

    static ReopenResult of(const OperatorOutcome &o)
    {
        return {o.done, o.skipped, o.error, o.total, o.cancelled};
    }
};
Q_DECLARE_METATYPE(ReopenResult)
