// What every operator action on a set of events asks for and answers, whatever it does to them
// (replay, edit and replay, resolve, reopen): the events, who acts and why, and when.
// ReplayRequest extends it with replay's own choices (an edit asks for a ReplayRequest of its one
// event); resolve and reopen ask for it as it is and answer with OperatorOutcome itself.
#pragma once

#include <QMetaType>
#include <QString>
#include <QStringList>

struct OperatorRequest
{
    QStringList eventIds; // taken in this order; a repeated ID counts once
    QString operatorName; // who acts (required, recorded in the action's audit log)
    QString reason; // why (required, recorded in the action's audit log)
    qint64 now = 0;
};

// What happened to the events of one job: done (each with its audit row), skipped (no longer in
// the state the action expects, or not found: nothing written for them), and the error that
// refused the request or stopped the job (what was done before it stays done); cancelled when
// its stop flag stopped it between two events (no error: the rest were never begun). An event
// whose COMMIT got no answer (the connection was lost once it was sent) is neither done nor
// skipped: its outcome is unknown, the job stops there with the error, and a rerun settles it
// (the action's guard does it then only if the first COMMIT did not).
struct OperatorOutcome
{
    QStringList done;
    QStringList skipped;
    QString error;
    qsizetype total = 0; // the distinct events asked for
    bool cancelled = false;
    QStringList unknown {}; // COMMIT sent, no answer: done or not, nobody knows yet
};
Q_DECLARE_METATYPE(OperatorOutcome)
