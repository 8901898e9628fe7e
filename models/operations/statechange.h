// The one implementation behind the operator actions that move an event between two states
// without delivering it, as Resolver (DEAD → RESOLVED) and Reopener (RESOLVED → DEAD) do: an
// OperatorJob action, each event in a short transaction of its own guarded by
// WHERE status = from, its audit row (who, when, why, failures before) written in that same
// transaction; two operators acting on one event: one wins, the other is told it was skipped.
// A read-only connection, a schema older than version 2 (see Schema::outdated), a native
// schema without the action's log table and a profile for another schema without a statement
// for the action refuse before anything is written, each saying what to do instead. A profile
// that maps the action (`resolve`, `reopen`) runs its statement through ProfileStatement, the
// step a replay through a profile takes, audited in the audit store (setAudit; refused without
// a usable one). A Spec says what differs.
#pragma once

#include "operatorjob.h"
#include "outboxprofile.h"
#include "profilestatement.h"

#include <QSqlDatabase>
#include <atomic>
#include <optional>

class StateChange
{
public:
    struct Spec
    {
        QString from; // "DEAD": the state an event must still be in
        QString to; // "RESOLVED"
        QString audit; // INSERT INTO its log, as NativeChange::audit
        OperatorWords words; // what its log records; words.log must exist on a native schema
        QString verb; // "resolve": "made before resolve existed"
        QString done; // "resolved": "nothing resolved" ends a refusal
        QString (*profileRefusal)(const OutboxProfile &profile) = nullptr;
        OutboxProfile::Action action = OutboxProfile::Action::Resolve; // the profile's statement
    };

    // `profile`: the schema as it reads it (std::nullopt or a native profile: the native
    // schema); `readOnly`: the connection was opened read-only (the window's read-only mode).
    StateChange(const Spec &spec, const QSqlDatabase &db,
        const std::optional<OutboxProfile> &profile = {}, bool readOnly = false);

    // Why nothing can be changed here (empty when it can). Through a profile's statement, the
    // audit store's refusal too unless `audited` is false (a dry run records nothing).
    QString refusal(bool audited = true);
    // Where the change through a profile is audited (NotesAccess::audit makes it); ignored on
    // the native schema, whose log is written with the change.
    void setAudit(const ProfileAudit &audit);
    // Whether the change runs the profile's own statement (and is audited in the store).
    bool isThroughStatement() const { return m_statement.has_value(); }
    // Refuses a blank operator or reason (error set, nothing changed). Stops at the first
    // database error; events changed before it stay changed and are listed as done.
    OperatorOutcome run(const OperatorRequest &request);
    // Checked between two events, as OperatorJob::setStopFlag.
    void setStopFlag(const std::atomic_bool *stop) { m_job.setStopFlag(stop); }
    // Events taken so far of the total, as OperatorJob::setProgress.
    void setProgress(OperatorJob::Progress progress) { m_job.setProgress(std::move(progress)); }

    // Which of `eventIds` are in spec.from now, in their order, each once (what a dry run
    // would change). Empty with *error set when the read fails.
    QStringList among(const QStringList &eventIds, QString *error);

private:
    Spec m_spec;
    QSqlDatabase m_db;
    bool m_readOnly = false;
    OperatorJob m_job;
    std::optional<OutboxProfile> m_profile; // only for another schema than the native one
    std::optional<ProfileStatement> m_statement; // the profile's statement for the action
    NativeChange m_change;
};
