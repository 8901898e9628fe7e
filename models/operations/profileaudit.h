// The audit of operator actions through a profile (another library's outbox, whose database has
// no replay_log and is never given a table of ours): the rows of table profile_audit in the audit
// store, a native Outbox Health database of the team's own (--notes-db, the notes database). One
// row per event and action with the outbox (profile and database), operator, reason, time and
// the event's state before and after.
// Ordering: the store and the outbox are two databases, so no transaction holds both. A row is
// written 'intended' (and committed) before the library's row changes, and settled once the
// outbox's transaction has ended: 'done' after its COMMIT, 'skipped' or 'failed' when nothing
// changed. A crash (or a lost connection) between the two leaves the row 'intended': the action
// may or may not have happened, and the audit says exactly that, never that nothing happened.
// An action the store cannot record is refused before anything changes (intend() fails).
// Call it on the thread that owns both connections; it returns values.
#pragma once

#include <QSqlDatabase>
#include <QString>
#include <optional>

struct OperatorRequest;

class ProfileAudit
{
public:
    static inline const QString Table = QStringLiteral("profile_audit");

    // No store: every action through a profile is refused (unavailable() says how to give one).
    ProfileAudit() = default;
    // `store`: the audit store's connection (open), or invalid with `refusal` saying why not;
    // `outbox`: how the rows name the audited outbox (outboxName()).
    ProfileAudit(const QSqlDatabase &store, const QString &where, const QString &outbox,
        const QString &refusal);

    // "profile pg-boss on postgresql://ops@db/app": the outbox column's value for a connection.
    static QString outboxName(const QString &profile, const QSqlDatabase &outboxDb);
    // Empty when actions can be recorded; otherwise one sentence naming --notes-db and
    // `outboxctl init`. `action` is "replay", "resolve", ...
    QString unavailable(const QString &profile, const QString &action) const;
    // "profile_audit in postgresql://ops@audit/ops (the notes database)": where the rows go.
    QString where() const;
    QSqlDatabase store() const { return m_store; }
    QString outbox() const { return m_outbox; }

    // Writes the 'intended' row (committed): its id, or nothing with *error set.
    std::optional<qint64> intend(const QString &action, const QString &eventId,
        const OperatorRequest &request, const QString &stateBefore, QString *error);
    // Settles row `id`: outcome "done", "skipped" or "failed", the state after (may be empty).
    bool settle(
        qint64 id, const QString &outcome, const QString &stateAfter, qint64 at, QString *error);

private:
    QSqlDatabase m_store;
    QString m_where;
    QString m_outbox;
    QString m_refusal;
};
