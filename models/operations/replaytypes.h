// What an operator asks for when replaying parked (DEAD) events, and what happened: the
// values passed between the replay dialog, outboxctl replay and the Replayer.
#pragma once

#include "operatorrequest.h"

#include <QMetaType>

struct ReplayRequest : OperatorRequest
{
    bool resetBudget = false; // failures back to 0; otherwise kept: one more attempt
    qint64 spreadMs = 0; // 0: every event due at `now`; otherwise spread evenly over the window
};

struct ReplayResult
{
    QStringList replayed; // DEAD → PENDING, each with its replay_log row
    QStringList skipped; // not DEAD (any more) or not found: nothing written for them
    QString error; // set when the request was refused or the database failed
    qsizetype total = 0; // the distinct events asked for
    bool cancelled = false; // stopped on request between two events: the rest untouched
    QStringList unknown {}; // COMMIT sent, no answer (OperatorOutcome::unknown)
    // DEAD by the profile's status, but its replay statement changed no row and the row is still
    // DEAD (a state the statement's WHERE leaves out, e.g. a library's `canceled`): not skipped.
    QStringList notReleased {};
};
Q_DECLARE_METATYPE(ReplayResult)
