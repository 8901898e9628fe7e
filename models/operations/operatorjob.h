// The one path every operator action on a set of events takes (replay, edit and replay, resolve
// and reopen): the operator and the reason are required, the
// action may refuse the whole request first, then the events are taken in order, each once,
// each in a short transaction of its own, committed only when the action says the event is
// done. The native step locks the row (FOR UPDATE on PostgreSQL; SQLite's BEGIN IMMEDIATE
// write-locks), checks it is still in the status the action expects, changes it with the same
// fence and writes the audit row (who, why, when, the failures it had) in that transaction: two
// operators acting on one event, one wins, the other is told it was skipped. The first
// database error stops the job (events done before it stay done), and so does a COMMIT whose
// answer never came (the event's outcome is unknown then, OperatorOutcome::unknown); a stop flag is
// checked between two events, and progress (done of total) is reported after the first event, then
// at most every ProgressIntervalMs, and after the last. An action is its words, its refusal and its
// step (NativeChange, or a step of its own such as a profile's replay statement, or the edit's,
// which writes a payload_revision row before replay's NativeChange with the new payload).
#pragma once

#include "statementcache.h"

#include "operatorrequest.h"

#include <QSqlDatabase>
#include <QVariantMap>
#include <atomic>
#include <functional>

// How an action names itself in its refusals and errors, and what its audit log records:
// outboxctl asks for --operator and --reason with the same words.
class SqlDialect;

struct OperatorWords
{
    QString log; // "replay_log"
    QString who; // "who released the events"
    QString why; // "why the events were released"
    QString doing; // "replaying", before an event ID in an error

    QString whoRecorded() const { return log + QStringLiteral(" records ") + who; }
    QString whyRecorded() const { return log + QStringLiteral(" records ") + why; }
};

// A native action's change to one event. The job binds the update's :id and :from (the status
// the event must still be in), and the audit row's :id, :at (the request's time), :operator,
// :reason (both trimmed) and :before (the failures the row had): every audit row records who,
// why, when and what the row was. The values here bind the statements' other placeholders.
struct NativeChange
{
    QString from; // "DEAD"
    QString update; // UPDATE delivery_outbox SET ... WHERE event_id = :id AND status = :from
    QVariantMap updateValues;
    QString audit; // INSERT INTO its log (... :id, :at, :operator, :reason, :before ...)
    QVariantMap auditValues;
};

class OperatorJob
{
public:
    // Unknown: the step was done and its COMMIT sent, but no answer came (run() sets it).
    enum class Outcome { Done, Skipped, Failed, Unknown };
    // One event, inside its own transaction: the index-th of `count` distinct events.
    using Step = std::function<Outcome(
        const QString &eventId, qsizetype index, qsizetype count, QString *error)>;
    // Events taken so far (done or skipped) of the job's distinct events; on the job's thread.
    using Progress = std::function<void(qsizetype taken, qsizetype total)>;
    // Bounded: a 100,000-event job reports about ten times a second, not per event.
    static constexpr qint64 ProgressIntervalMs = 100;

    explicit OperatorJob(const QSqlDatabase &db);

    // Checked between two events: once it is set, run() stops there (each event's own
    // transaction is either committed or never begun) and says so in the outcome's error.
    void setStopFlag(const std::atomic_bool *stop) { m_stop = stop; }
    void setProgress(Progress progress) { m_progress = std::move(progress); }
    // Called once each event's transaction has ended (Done: after its COMMIT), before the next
    // event: an audit kept in another database records how it ended there. A non-empty answer
    // stops the job with it as its error (the event still counts as it ended).
    using Settled = std::function<QString(const QString &eventId, Outcome outcome)>;
    void setSettled(Settled settled) { m_settled = std::move(settled); }

    // Refuses a blank operator or reason, then whatever `refusal` says (called only then;
    // empty: go on), with nothing changed. Then `step` for each distinct event in order.
    OperatorOutcome run(const OperatorRequest &request, const OperatorWords &words,
        const std::function<QString()> &refusal, const Step &step);

    // The native step: row locked while still in change.from, its failures read, the update
    // (which must change that one row) and the audit row. Skipped when the row is not (any
    // more) in change.from or not found.
    Outcome change(const QString &eventId, const OperatorRequest &request,
        const NativeChange &change, QString *error);

    // The request's event IDs in order, each once: a repeated ID would only be skipped the
    // second time (and it must not take a slot of a replay's spread window).
    static QStringList distinct(const QStringList &ids);

private:
    QSqlQuery &prepared(const QString &sql) { return m_statements.prepared(sql); }
    Outcome runStep(
        const Step &step, const QString &eventId, qsizetype index, qsizetype count, QString *error);
    bool lockFailures(
        const QString &eventId, const QString &from, qint64 *failures, bool *found, QString *error);
    static void bindAll(QSqlQuery &query, const QVariantMap &values);

    QSqlDatabase m_db;
    const SqlDialect *m_dialect = nullptr;
    StatementCache m_statements;
    const std::atomic_bool *m_stop = nullptr;
    Progress m_progress;
    Settled m_settled;
};
