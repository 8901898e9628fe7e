#include "replayer.h"

#include "enginestatements.h"
#include "queryerror.h"
#include "readonlytransaction.h"
#include "sqldialect.h"

#include <QDateTime>
#include <QSqlError>

namespace {

EventFilter deadOnly(EventFilter filter)
{
    filter.state = EventFilter::State::Dead;
    return filter;
}

} // namespace

Replayer::Replayer(const QSqlDatabase &db)
    : m_db(db)
    , m_dialect(&SqlDialect::of(db))
    , m_statements(db)
    , m_job(db)
{ }

Replayer::Replayer(const QSqlDatabase &db, const OutboxProfile &profile)
    : Replayer(db)
{
    if (!profile.isNative())
        m_profile = profile;
}

QString Replayer::source() const
{
    return OutboxProfile::sourceOf(m_profile, m_db);
}

QString Replayer::refusal(const ReplayRequest &request) const
{
    if (!m_profile)
        return {};
    switch (m_profile->replayKind()) {
    case OutboxProfile::ReplayKind::Unavailable:
        return QStringLiteral("%1: replay is not possible from the database: %2")
            .arg(m_profile->name(), m_profile->replayUnavailableReason());
    case OutboxProfile::ReplayKind::Native:
        return {};
    case OutboxProfile::ReplayKind::Statement:
        break;
    }
    if (request.resetBudget || request.spreadMs > 0)
        return QStringLiteral("%1: a budget reset and a spread window exist only in Outbox "
                              "Health's own replay; the profile's replay statement decides both")
            .arg(m_profile->name());
    return {};
}

qint64 Replayer::dueTime(qint64 now, qint64 spreadMs, qsizetype index, qsizetype count)
{
    if (spreadMs <= 0 || count <= 0)
        return now;
    // floor(index * spreadMs / count), split so that a long window cannot overflow
    const qint64 i = index, n = count;
    return now + i * (spreadMs / n) + i * (spreadMs % n) / n;
}

const OperatorWords &Replayer::words()
{
    static const OperatorWords words {QStringLiteral("replay_log"),
        QStringLiteral("who released the events"), QStringLiteral("why the events were released"),
        QStringLiteral("replaying")};
    return words;
}

ReplayResult Replayer::replay(const ReplayRequest &request)
{
    const auto refused = [this, &request] {
        if (request.spreadMs < 0)
            return QStringLiteral("the spread window cannot be negative");
        QString why = refusal(request);
        if (why.isEmpty() && m_profile)
            why = readOnlyCheck(OperatorJob::distinct(request.eventIds));
        return why.isEmpty() ? auditRefusal() : why;
    };
    const auto step
        = [this, &request](const QString &id, qsizetype index, qsizetype count, QString *error) {
              if (m_profile)
                  return replayByStatement(id, request, error);
              const qint64 due = dueTime(request.now, request.spreadMs, index, count);
              return m_job.change(id, request, nativeChange(request, due), error);
          };
    m_notReleased.clear();
    if (m_profile)
        m_job.setSettled([this](const QString &id, Outcome ended) { return settle(id, ended); });
    const OperatorOutcome outcome = m_job.run(request, words(), refused, step);
    ReplayResult result {outcome.done, outcome.skipped, outcome.error, outcome.total,
        outcome.cancelled, outcome.unknown};
    for (const QString &id : std::as_const(m_notReleased))
        result.skipped.removeOne(id);
    result.notReleased = m_notReleased;
    return result;
}

QString Replayer::auditRefusal() const
{
    if (!m_profile || m_profile->replayKind() != OutboxProfile::ReplayKind::Statement)
        return {};
    return m_audit.unavailable(m_profile->name(), QStringLiteral("replay"));
}

// DEAD → PENDING, claim cleared, due at `due`. Without --reset-budget the failures column is
// not written at all: the row keeps its own value.
NativeChange Replayer::nativeChange(
    const ReplayRequest &request, qint64 due, const std::optional<QString> &payload)
{
    NativeChange change;
    change.from = QStringLiteral("DEAD");
    change.update = QStringLiteral("UPDATE delivery_outbox SET ")
        + (payload ? QStringLiteral("payload = :payload, ") : QString())
        + QStringLiteral("status = 'PENDING', ")
        + (request.resetBudget ? QStringLiteral("failures = 0, ") : QString())
        + QStringLiteral("next_attempt_at = :due, claim_token = NULL, lease_until = NULL"
                         " WHERE event_id = :id AND status = :from");
    // clang-format off
    change.audit = QStringLiteral(
        "INSERT INTO replay_log (event_id, replayed_at, operator, reason, reset_failures,"
        "                        failures_before)"
        " VALUES (:id, :at, :operator, :reason, :reset, :before)");
    // clang-format on
    change.updateValues.insert(QStringLiteral(":due"), due);
    if (payload)
        change.updateValues.insert(QStringLiteral(":payload"), *payload);
    change.auditValues.insert(QStringLiteral(":reset"), request.resetBudget);
    return change;
}

// The profile's statement, fenced by the tool whatever the statement says, in the event's
// transaction (OperatorJob's): the row is locked and must be DEAD by the profile's own status
// expression (otherwise it is skipped, nothing run); the statement must change exactly one row, and
// afterwards that event's row must exist and no longer be DEAD. Anything else rolls back with
// one line saying what went wrong. A statement that changes no row is a skip (its own fence
// said no).
OperatorJob::Outcome Replayer::replayByStatement(
    const QString &eventId, const ReplayRequest &request, QString *error)
{
    const std::optional<QStringList> before = statusesOf(eventId, true, error);
    if (!before)
        return Outcome::Failed;
    if (before->size() > 1) {
        *error = QStringLiteral("%1 reads %2 rows with this event_id, not one: nothing replayed")
                     .arg(m_profile->name())
                     .arg(before->size());
        return Outcome::Failed;
    }
    if (before->isEmpty() || before->constFirst() != QLatin1String("DEAD"))
        return Outcome::Skipped; // replayed by someone else first, not DEAD, or not found
    // Audited before the row changes (committed in the store): a crash after the statement
    // leaves the record 'intended', never an unrecorded replay.
    const std::optional<QString> state = stateOf(eventId, error);
    if (!state)
        return Outcome::Failed;
    const std::optional<qint64> audited
        = m_audit.intend(QStringLiteral("replay"), eventId, request, *state, error);
    if (!audited)
        return Outcome::Failed;
    m_audited = {eventId, *audited, {}};
    return releasedOrNot(eventId, m_profile->replay(m_db, eventId, request.now, error), error);
}

// What the statement did to the locked DEAD row: released it (one row, no longer DEAD), or
// not. 0 rows is the statement's own fence saying no; the row is read again, and one still
// DEAD is named as not released by the statement (its WHERE leaves the row's state out).
OperatorJob::Outcome Replayer::releasedOrNot(
    const QString &eventId, std::optional<int> changed, QString *error)
{
    if (!changed)
        return Outcome::Failed;
    if (*changed > 1) {
        *error = QStringLiteral("the replay statement of %1 changed %2 rows, not one: rolled back")
                     .arg(m_profile->name())
                     .arg(*changed);
        return Outcome::Failed;
    }
    const std::optional<QStringList> after = statusesOf(eventId, false, error);
    if (!after)
        return Outcome::Failed;
    if (*changed == 0) {
        if (after->size() == 1 && after->constFirst() == QLatin1String("DEAD"))
            m_notReleased << eventId;
        return Outcome::Skipped;
    }
    if (after->size() != 1 || after->constFirst() == QLatin1String("DEAD")) {
        *error = after->isEmpty()
            ? QStringLiteral("the replay statement of %1 left no row for the event: rolled back")
                  .arg(m_profile->name())
            : QStringLiteral("the replay statement of %1 changed a row, but the event is still"
                             " DEAD: rolled back")
                  .arg(m_profile->name());
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
QString Replayer::settle(const QString &eventId, Outcome outcome)
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
std::optional<QString> Replayer::stateOf(const QString &eventId, QString *error)
{
    QSqlError refused;
    QSqlQuery *query = m_statements.preparedOne(QStringLiteral("SELECT status, failures FROM ")
            + source() + QStringLiteral(" WHERE event_id = :id"),
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
// table) fails here and the whole replay is refused, instead of the read committing its write
// with the replay. Empty when every read ran.
QString Replayer::readOnlyCheck(const QStringList &eventIds)
{
    ReadOnlyTransaction transaction(m_db);
    QSqlQuery *query = transaction.prepare(statusSql(false));
    QString error = query ? QString() : transaction.errorText();
    for (qsizetype i = 0; query && error.isEmpty() && i < eventIds.size(); ++i)
        readStatuses(*query, eventIds.at(i), &error);
    if (error.isEmpty())
        return {};
    return QStringLiteral("%1: reading the events through the profile failed in a read-only"
                          " transaction, so nothing was replayed (a profile's reads must not"
                          " write): %2")
        .arg(m_profile->name(), error);
}

// The profile's status of one event's rows, locked for the rest of the transaction when `lock`
// is set (SQLite's BEGIN IMMEDIATE holds the write lock).
QString Replayer::statusSql(bool lock) const
{
    using Lock = EngineStatements::RowLock;
    return m_dialect->statements().selectSql({.columns = QStringLiteral("status"),
        .table = source(),
        .where = QStringLiteral("event_id = :id"),
        .lock = lock ? Lock::Update : Lock::None});
}

// The statuses the profile derives for the rows of one event (normally one).
std::optional<QStringList> Replayer::statusesOf(const QString &eventId, bool lock, QString *error)
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

bool Replayer::readStatuses(
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

// Runs a read of the DEAD rows a filter matches in `transaction` (read-only): the query,
// ready to be stepped through, or null with *error set.
QSqlQuery *Replayer::runFilter(ReadOnlyTransaction &transaction, const QString &select,
    const EventFilter &filter, qint64 now, QString *error)
{
    const EventFilter dead = deadOnly(filter);
    // Pieces put together rather than QString::arg(): a profile's source may hold a '%'.
    QString sql = select;
    sql.replace(QStringLiteral("@WHERE@"), dead.whereClause(*m_dialect));
    sql.replace(QStringLiteral("@SOURCE@"), source());
    QSqlQuery *query = transaction.prepare(sql);
    if (!query) {
        if (error)
            *error = transaction.errorText();
        return nullptr;
    }
    dead.bindValues(*query, now, *m_dialect);
    if (!query->exec()) {
        if (error)
            *error = QueryError::text(*query);
        return nullptr;
    }
    return query;
}

QStringList Replayer::matchingDeadEvents(const EventFilter &filter, qint64 now, QString *error)
{
    ReadOnlyTransaction transaction(m_db);
    QSqlQuery *query = runFilter(transaction,
        QStringLiteral("SELECT event_id FROM @SOURCE@ WHERE @WHERE@ ORDER BY event_id"), filter,
        now, error);
    if (!query)
        return {};
    QStringList ids;
    while (query->next())
        ids << query->value(0).toString();
    return ids;
}

qint64 Replayer::countMatchingDead(const EventFilter &filter, qint64 now, QString *error)
{
    ReadOnlyTransaction transaction(m_db);
    QSqlQuery *query = runFilter(transaction,
        QStringLiteral("SELECT COUNT(*) FROM @SOURCE@ WHERE @WHERE@"), filter, now, error);
    if (!query)
        return -1;
    return query->next() ? query->value(0).toLongLong() : -1;
}
