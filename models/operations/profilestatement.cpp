#include "profilestatement.h"

#include "enginestatements.h"

#include "queryerror.h"
#include "readonlytransaction.h"
#include "sqldialect.h"

#include <QDateTime>
#include <QSqlError>

ProfileStatement::ProfileStatement(
    const QSqlDatabase &db, const OutboxProfile &profile, const Spec &spec)
    : m_db(db)
    , m_profile(profile)
    , m_spec(spec)
    , m_statements(db)
{ }

QString ProfileStatement::auditRefusal() const
{
    return m_audit.unavailable(m_profile.name(), verb());
}

OperatorJob::Outcome ProfileStatement::step(
    const QString &eventId, const OperatorRequest &request, QString *error)
{
    const std::optional<QStringList> before = statusesOf(eventId, true, error);
    if (!before)
        return Outcome::Failed;
    if (before->size() > 1) {
        *error = QStringLiteral("%1 reads %2 rows with this event_id, not one: nothing %3")
                     .arg(m_profile.name())
                     .arg(before->size())
                     .arg(m_spec.done);
        return Outcome::Failed;
    }
    if (before->isEmpty() || before->constFirst() != m_spec.from)
        return Outcome::Skipped; // taken by someone else first, not in the state, or not found
    // Audited before the row changes (committed in the store): a crash after the statement
    // leaves the record 'intended', never an unrecorded action.
    const std::optional<QString> state = stateOf(eventId, error);
    if (!state)
        return Outcome::Failed;
    const std::optional<qint64> audited = m_audit.intend(verb(), eventId, request, *state, error);
    if (!audited)
        return Outcome::Failed;
    m_audited = {eventId, *audited, {}};
    return changedOrNot(
        eventId, m_profile.run(m_spec.action, m_db, eventId, request.now, error), error);
}

// What the statement did to the locked row: moved it (one row, now in the to-state), or not.
// 0 rows is the statement's own fence saying no; the row is read again, and one still in the
// from-state is named untouched (its WHERE leaves the row's state out).
OperatorJob::Outcome ProfileStatement::changedOrNot(
    const QString &eventId, std::optional<int> changed, QString *error)
{
    if (!changed)
        return Outcome::Failed;
    const QString statement
        = QStringLiteral("the %1 statement of %2").arg(verb(), m_profile.name());
    if (*changed > 1) {
        *error = QStringLiteral("%1 changed %2 rows, not one: rolled back")
                     .arg(statement)
                     .arg(*changed);
        return Outcome::Failed;
    }
    const std::optional<QStringList> after = statusesOf(eventId, false, error);
    if (!after)
        return Outcome::Failed;
    if (*changed == 0) {
        if (after->size() == 1 && after->constFirst() == m_spec.from)
            m_untouched << eventId;
        return Outcome::Skipped;
    }
    const QString now = after->size() == 1 ? after->constFirst() : QString();
    if (now.isEmpty() || now == m_spec.from || (!m_spec.to.isEmpty() && now != m_spec.to)) {
        *error = after->isEmpty()
            ? statement + QStringLiteral(" left no row for the event: rolled back")
            : now == m_spec.from
            ? QStringLiteral("%1 changed a row, but the event is still %2: rolled back")
                  .arg(statement, m_spec.from)
            : QStringLiteral("%1 changed a row, but the event is %2, not %3: rolled back")
                  .arg(statement, now.isEmpty() ? u"read twice"_qs : now, m_spec.to);
        return Outcome::Failed;
    }
    const std::optional<QString> state = stateOf(eventId, error);
    if (!state)
        return Outcome::Failed;
    m_audited.stateAfter = *state;
    return Outcome::Done;
}

// Records in the audit store how the event's transaction ended. An unknown COMMIT leaves the
// record 'intended': done or not, nobody knows, and the audit says so.
QString ProfileStatement::settle(const QString &eventId, Outcome outcome)
{
    if (m_audited.eventId != eventId || m_audited.id == 0 || outcome == Outcome::Unknown)
        return {};
    const Audited audited = std::exchange(m_audited, Audited {});
    const QString label = outcome == Outcome::Done ? QStringLiteral("done")
        : outcome == Outcome::Skipped              ? QStringLiteral("skipped")
                                                   : QStringLiteral("failed");
    QString error;
    if (!m_audit.settle(
            audited.id, label, audited.stateAfter, QDateTime::currentMSecsSinceEpoch(), &error))
        return error;
    return {};
}

// "DEAD, failures 3": the event's state through the profile, as the audit records it.
std::optional<QString> ProfileStatement::stateOf(const QString &eventId, QString *error)
{
    QSqlError refused;
    QSqlQuery *query = m_statements.preparedOne(QStringLiteral("SELECT status, failures FROM ")
            + OutboxProfile::sourceOf(&m_profile, m_db) + QStringLiteral(" WHERE event_id = :id"),
        &refused);
    if (!query) {
        *error = QueryError::text(refused);
        return std::nullopt;
    }
    query->bindValue(QStringLiteral(":id"), eventId);
    if (!query->exec() || !query->next()) {
        *error = query->lastError().isValid() ? QueryError::text(*query)
                                              : QStringLiteral("the event's row is gone");
        return std::nullopt;
    }
    QString state = query->value(0).toString();
    if (!query->value(1).isNull())
        state += QStringLiteral(", failures ") + query->value(1).toString();
    query->finish();
    return state;
}

// Every event read through the profile once, in a read-only transaction, before any write
// transaction begins: a `from` or an expression that writes (a function deleting from another
// table) fails here and the whole action is refused, instead of the read committing its write
// with the change. Empty when every read ran.
QString ProfileStatement::readOnlyCheck(const QStringList &eventIds)
{
    ReadOnlyTransaction transaction(m_db);
    QSqlQuery *query = transaction.prepare(statusSql(false));
    QString error = query ? QString() : transaction.errorText();
    for (qsizetype i = 0; query && error.isEmpty() && i < eventIds.size(); ++i)
        readStatuses(*query, eventIds.at(i), &error);
    if (error.isEmpty())
        return {};
    return QStringLiteral("%1: reading the events through the profile failed in a read-only"
                          " transaction, so nothing was %2 (a profile's reads must not"
                          " write): %3")
        .arg(m_profile.name(), m_spec.done, error);
}

// The profile's status of one event's rows, locked for the rest of the transaction when `lock`
// is set (SQLite's BEGIN IMMEDIATE holds the write lock).
QString ProfileStatement::statusSql(bool lock) const
{
    using Lock = EngineStatements::RowLock;
    return SqlDialect::of(m_db).statements().selectSql(
        {.columns = QStringLiteral("status"),
            .table = OutboxProfile::sourceOf(&m_profile, m_db),
            .where = QStringLiteral("event_id = :id"),
            .lock = lock ? Lock::Update : Lock::None});
}

// The statuses the profile derives for the rows of one event (normally one).
std::optional<QStringList> ProfileStatement::statusesOf(
    const QString &eventId, bool lock, QString *error)
{
    QStringList statuses;
    QSqlError refused;
    QSqlQuery *query = m_statements.preparedOne(statusSql(lock), &refused);
    if (!query) {
        *error = QueryError::text(refused);
        return std::nullopt;
    }
    if (!readStatuses(*query, eventId, error, &statuses))
        return std::nullopt;
    return statuses;
}

bool ProfileStatement::readStatuses(
    QSqlQuery &query, const QString &eventId, QString *error, QStringList *statuses)
{
    query.bindValue(QStringLiteral(":id"), eventId);
    if (!query.exec()) {
        *error = QueryError::text(query);
        return false;
    }
    while (query.next()) {
        if (statuses)
            *statuses << query.value(0).toString();
    }
    query.finish();
    return true;
}
