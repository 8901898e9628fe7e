// Operator reopening of resolved events: RESOLVED → DEAD, the undo of a resolve. The event is
// parked again, where an operator can replay it or resolve it once more; nothing is delivered.
// A StateChange, as Resolver: each event in a short transaction of its own guarded by
// WHERE status = 'RESOLVED', its reopen_log row (who, when, why, failures before) written in
// that same transaction; two operators reopening one event: one wins, the other is told it was
// skipped. A read-only connection, a schema older than version 2, a native schema made before
// reopen_log existed (`outboxctl init` adds it) and a profile for another schema refuse before
// anything is written, each saying what to do instead.
#pragma once

#include "statechange.h"
#include "statechangetypes.h"

class Reopener : public StateChange
{
public:
    // `readOnly`: the connection was opened read-only (the window's read-only mode).
    explicit Reopener(const QSqlDatabase &db, bool readOnly = false);
    // The schema as `profile` reads it; a native profile is the same as no profile.
    Reopener(const QSqlDatabase &db, const OutboxProfile &profile, bool readOnly = false);

    // What differs from resolve: RESOLVED → DEAD, reopen_log, the words of its errors.
    static const Spec &spec();
    // Why reopen is refused through `profile` (another schema has no RESOLVED state).
    static QString profileRefusal(const OutboxProfile &profile);
    // What reopen_log records and how reopen's errors name it (also outboxctl reopen's).
    static const OperatorWords &words() { return spec().words; }

    ReopenResult reopen(const ReopenRequest &request) { return run(request); }
    // Which of `eventIds` are RESOLVED now (what a dry run would reopen), as
    // StateChange::among.
    QStringList resolvedAmong(const QStringList &eventIds, QString *error)
    {
        return among(eventIds, error);
    }
};
