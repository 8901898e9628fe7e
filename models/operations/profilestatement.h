// One operator action on one event through a profile's own statement (`replay`, `resolve`,
// `reopen`: OutboxProfile::Action), the one step Replayer and StateChange share on another
// library's schema, run in the event's transaction (OperatorJob's) and fenced by the tool
// whatever the statement says: the row is locked and must be in the action's from-state by the
// profile's own status expression (otherwise it is skipped, nothing run); the action is audited
// in the audit store before the row changes (ProfileAudit: 'intended', committed there, then
// settled 'done', 'skipped' or 'failed' once the outbox's transaction ended); the statement
// must change exactly one row, and afterwards that event's row must exist and be in the
// action's to-state (any state but from for a replay). Anything else rolls back with one line
// saying what went wrong. A statement that changes no row while the row stays in the
// from-state is the statement's own fence saying no: untouched() names those events.
// Before any write transaction, every event is read through the profile in a read-only
// transaction (readOnlyCheck): a `from` or an expression that writes refuses the whole action.
// Call it on the thread that owns the connection.
#pragma once

#include "statementcache.h"

#include "operatorjob.h"
#include "outboxprofile.h"
#include "profileaudit.h"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <optional>

class ProfileStatement
{
public:
    using Outcome = OperatorJob::Outcome;
    struct Spec
    {
        OutboxProfile::Action action = OutboxProfile::Action::Replay;
        QString from; // "DEAD": the state the row must be in
        QString to; // "RESOLVED"; empty: any state but `from` (a replay's PENDING)
        QString done; // "replayed": "so nothing was replayed"
    };

    ProfileStatement(const QSqlDatabase &db, const OutboxProfile &profile, const Spec &spec);

    void setAudit(const ProfileAudit &audit) { m_audit = audit; }
    // Why the action cannot be audited (empty when it can).
    QString auditRefusal() const;
    // Empty when every event reads through the profile in a read-only transaction.
    QString readOnlyCheck(const QStringList &eventIds);
    // The event's step, as OperatorJob::Step; settle() once its transaction ended.
    Outcome step(const QString &eventId, const OperatorRequest &request, QString *error);
    QString settle(const QString &eventId, Outcome outcome);
    // The events whose statement changed nothing while they stayed in the from-state.
    QStringList takeUntouched() { return std::exchange(m_untouched, {}); }

private:
    Outcome changedOrNot(const QString &eventId, std::optional<int> changed, QString *error);
    QString verb() const { return OutboxProfile::actionName(m_spec.action); }
    std::optional<QString> stateOf(const QString &eventId, QString *error);
    QString statusSql(bool lock) const;
    std::optional<QStringList> statusesOf(const QString &eventId, bool lock, QString *error);
    static bool readStatuses(
        QSqlQuery &query, const QString &eventId, QString *error, QStringList *statuses = nullptr);

    QSqlDatabase m_db;
    OutboxProfile m_profile;
    Spec m_spec;
    StatementCache m_statements;
    ProfileAudit m_audit;
    struct Audited // the audit row of the event in hand, settled once its transaction ended
    {
        QString eventId;
        qint64 id = 0;
        QString stateAfter;
    } m_audited;
    QStringList m_untouched;
};
