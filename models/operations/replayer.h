// Operator replay of parked events: DEAD → PENDING under the same event ID, one of the
// OperatorJob actions: each event in a short transaction of its own guarded by
// WHERE status = 'DEAD', with its replay_log row written in that same transaction. Two operators
// replaying one event: one wins, the other is told it was skipped. Also finds every DEAD row a
// filter matches, for bulk replay. With a profile for another schema (pg-boss, gruelbox, ...), each
// event runs the profile's replay statement in its own transaction, fenced by the tool itself: the
// row is locked and must be DEAD by the profile's status expression, the statement must change
// exactly that row and leave it no longer DEAD, or everything rolls back (1 row changed = replayed,
// not DEAD or 0 rows = skipped; no replay_log, no budget reset nor spread): ProfileStatement's
// step, which resolve and reopen through a profile share; before that, every event is read
// through the profile in a read-only transaction, and a read that fails there (a `from` that
// writes) refuses the whole replay. DEAD rows are found
// through its source in a read-only transaction; a read-only profile refuses with what to run
// instead. Through a profile every event's replay is audited in the audit store (ProfileAudit,
// given with setAudit): without a usable one the replay is refused before anything changes; a
// DEAD row that the profile's statement leaves DEAD (0 rows changed, read again) is reported
// as not released by the statement (ReplayResult::notReleased), not as skipped.
#pragma once

#include "statementcache.h"

#include "eventfilter.h"
#include "operatorjob.h"
#include "outboxprofile.h"
#include "profileaudit.h"
#include "profilestatement.h"
#include "replaytypes.h"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <atomic>
#include <optional>

class ReadOnlyTransaction;

class SqlDialect;

class Replayer
{
public:
    explicit Replayer(const QSqlDatabase &db);
    // The schema as `profile` reads it; a native profile is the same as no profile.
    Replayer(const QSqlDatabase &db, const OutboxProfile &profile);

    // Why this schema cannot replay a request like `request` (empty when it can): a read-only
    // profile's explanation, or a budget reset or spread that only the native replay knows.
    QString refusal(const ReplayRequest &request) const;

    // Refuses a blank operator or reason (error set, nothing changed). Stops at the first
    // database error; events replayed before it stay replayed and are listed. OperatorJob's
    // path, with the native change below or the profile's statement as its step.
    ReplayResult replay(const ReplayRequest &request);
    // Checked between two events, as OperatorJob::setStopFlag.
    void setStopFlag(const std::atomic_bool *stop) { m_job.setStopFlag(stop); }
    // Events taken so far of the total, as OperatorJob::setProgress.
    void setProgress(OperatorJob::Progress progress) { m_job.setProgress(std::move(progress)); }
    // Where a replay through a profile is audited (NotesAccess::audit makes it); ignored on
    // the native schema, whose replay_log is written with the change.
    void setAudit(const ProfileAudit &audit);
    // Why a replay through this profile cannot be audited (empty when it can, or native).
    QString auditRefusal() const;
    // What replay_log records and how replay's errors name it (also outboxctl replay's).
    static const OperatorWords &words();

    // Every DEAD row the filter matches (its state is forced to DEAD), ordered by event ID:
    // all of them, not a page. Empty with *error set when the query fails.
    QStringList matchingDeadEvents(const EventFilter &filter, qint64 now, QString *error = nullptr);
    // -1 with *error set when the query fails.
    qint64 countMatchingDead(const EventFilter &filter, qint64 now, QString *error = nullptr);

    // The due time of the index-th (from 0) of `count` events replayed at `now`: evenly
    // inside [now, now + spreadMs), or `now` without a spread.
    static qint64 dueTime(qint64 now, qint64 spreadMs, qsizetype index, qsizetype count);
    // The native replay of one event (OperatorJob::change): DEAD → PENDING, claim cleared, due
    // at `due`, failures back to 0 only with request.resetBudget, a replay_log row. With
    // `payload`, the event's payload is set to it in the same UPDATE: edit and replay's
    // variant (PayloadEditor).
    static NativeChange nativeChange(const ReplayRequest &request, qint64 due,
        const std::optional<QString> &payload = std::nullopt);

private:
    using Outcome = OperatorJob::Outcome;

    QString source() const;
    QSqlQuery *runFilter(ReadOnlyTransaction &transaction, const QString &select,
        const EventFilter &filter, qint64 now, QString *error);

    QSqlDatabase m_db;
    const SqlDialect *m_dialect = nullptr;
    StatementCache m_statements;
    OperatorJob m_job;
    std::optional<OutboxProfile> m_profile; // only for another schema than the native one
    std::optional<ProfileStatement> m_statement; // the profile's replay statement's step
};
