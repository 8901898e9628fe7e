// Operator resolution of parked events: DEAD → RESOLVED, a terminal state that is never
// claimed, stays in the table and is counted apart from DEAD. An OperatorJob action, as
// Replayer: each event in a short transaction of its own guarded by WHERE status = 'DEAD', its
// resolve_log row (who, when, why, failures before) written in that same transaction; two
// operators resolving one event: one wins, the other is told it was skipped. A read-only
// connection, a schema older than version 2 (see Schema::outdated) and a profile for another
// schema refuse before anything is written, each saying what to do instead.
#pragma once

#include "operatorjob.h"
#include "outboxprofile.h"
#include "resolvetypes.h"

#include <QSqlDatabase>
#include <atomic>
#include <optional>

class Resolver
{
public:
    // `readOnly`: the connection was opened read-only (the window's read-only mode).
    explicit Resolver(const QSqlDatabase &db, bool readOnly = false);
    // The schema as `profile` reads it; a native profile is the same as no profile.
    Resolver(const QSqlDatabase &db, const OutboxProfile &profile, bool readOnly = false);

    // Why nothing can be resolved here (empty when it can): read-only, a profile without a
    // resolve of its own, or a native schema that predates RESOLVED (reads its version).
    QString refusal();
    // Why resolve is refused through `profile` (another schema): its own tools close the event.
    static QString profileRefusal(const OutboxProfile &profile);

    // Refuses a blank operator or reason (error set, nothing changed). Stops at the first
    // database error; events resolved before it stay resolved and are listed.
    ResolveResult resolve(const ResolveRequest &request);
    // Checked between two events, as OperatorJob::setStopFlag.
    void setStopFlag(const std::atomic_bool *stop) { m_job.setStopFlag(stop); }
    // Events taken so far of the total, as OperatorJob::setProgress.
    void setProgress(OperatorJob::Progress progress) { m_job.setProgress(std::move(progress)); }
    // What resolve_log records and how resolve's errors name it (also outboxctl resolve's).
    static const OperatorWords &words();

    // Which of `eventIds` are DEAD now, in their order, each once (what a dry run would
    // resolve). Empty with *error set when the read fails.
    QStringList deadAmong(const QStringList &eventIds, QString *error);

private:
    static const NativeChange &nativeChange();

    QSqlDatabase m_db;
    bool m_readOnly = false;
    OperatorJob m_job;
    std::optional<OutboxProfile> m_profile; // only for another schema than the native one
};
