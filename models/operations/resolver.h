// Operator resolution of parked events: DEAD → RESOLVED, a terminal state that is never
// claimed, stays in the table and is counted apart from DEAD. A StateChange (the one path it
// shares with Reopener): each event in a short transaction of its own guarded by
// WHERE status = 'DEAD', its resolve_log row (who, when, why, failures before) written in that
// same transaction; two operators resolving one event: one wins, the other is told it was
// skipped. A read-only connection, a schema older than version 2 (see Schema::outdated) and a
// profile for another schema refuse before anything is written, each saying what to do instead.
#pragma once

#include "statechange.h"
#include "statechangetypes.h"

class Resolver : public StateChange
{
public:
    // `readOnly`: the connection was opened read-only (the window's read-only mode).
    explicit Resolver(const QSqlDatabase &db, bool readOnly = false);
    // The schema as `profile` reads it; a native profile is the same as no profile.
    Resolver(const QSqlDatabase &db, const OutboxProfile &profile, bool readOnly = false);

    // What differs from reopen: DEAD → RESOLVED, resolve_log, the words of its errors.
    static const Spec &spec();
    // Why resolve is refused through `profile` (another schema): its own tools close the event.
    static QString profileRefusal(const OutboxProfile &profile);
    // What resolve_log records and how resolve's errors name it (also outboxctl resolve's).
    static const OperatorWords &words() { return spec().words; }

    ResolveResult resolve(const ResolveRequest &request) { return run(request); }
    // Which of `eventIds` are DEAD now (what a dry run would resolve), as StateChange::among.
    QStringList deadAmong(const QStringList &eventIds, QString *error)
    {
        return among(eventIds, error);
    }
};
