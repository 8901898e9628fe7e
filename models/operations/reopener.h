// Operator reopening of resolved events: RESOLVED → DEAD, the undo of a resolve. The event is
// parked again, where an operator can replay it or resolve it once more; nothing is delivered.
// An OperatorJob action, as Resolver: each event in a short transaction of its own guarded by
// WHERE status = 'RESOLVED', its reopen_log row (who, when, why, failures before) written in
// that same transaction; two operators reopening one event: one wins, the other is told it was
// skipped. A read-only connection, a schema older than version 2, a native schema made before
// reopen_log existed (`outboxctl init` adds it) and a profile for another schema refuse before
// anything is written, each saying what to do instead.
#pragma once

#include "operatorjob.h"
#include "outboxprofile.h"
#include "reopentypes.h"

#include <QSqlDatabase>
#include <atomic>
#include <optional>

class Reopener
{
public:
    // `readOnly`: the connection was opened read-only (the window's read-only mode).
    explicit Reopener(const QSqlDatabase &db, bool readOnly = false);
    // The schema as `profile` reads it; a native profile is the same as no profile.
    Reopener(const QSqlDatabase &db, const OutboxProfile &profile, bool readOnly = false);

    // Why nothing can be reopened here (empty when it can).
    QString refusal();
    // Why reopen is refused through `profile` (another schema has no RESOLVED state).
    static QString profileRefusal(const OutboxProfile &profile);

    // Refuses a blank operator or reason (error set, nothing changed). Stops at the first
    // database error; events reopened before it stay reopened and are listed.
    ReopenResult reopen(const ReopenRequest &request);
    void setStopFlag(const std::atomic_bool *stop) { m_job.setStopFlag(stop); }
    // What reopen_log records and how reopen's errors name it (also outboxctl reopen's).
    static const OperatorWords &words();

    // Which of `eventIds` are RESOLVED now, in their order, each once (what a dry run would
    // reopen). Empty with *error set when the read fails.
    QStringList resolvedAmong(const QStringList &eventIds, QString *error);

private:
    static const NativeChange &nativeChange();

    QSqlDatabase m_db;
    bool m_readOnly = false;
    OperatorJob m_job;
    std::optional<OutboxProfile> m_profile; // only for another schema than the native one
};
