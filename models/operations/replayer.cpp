#include "replayer.h"

#include "readonlytransaction.h"
#include "sqltransaction.h"

#include <QSet>
#include <QSqlError>

namespace {

QString errorText(const QSqlQuery &query)
{
    return query.lastError().text().simplified();
}

// The request's event IDs in order, each once: a repeated ID would only be skipped the
// second time, and it must not take a slot of the spread window.
QStringList distinct(const QStringList &ids)
{
    QStringList out;
    QSet<QString> seen;
    for (const QString &id : ids) {
        if (!seen.contains(id)) {
            seen.insert(id);
            out << id;
        }
    }
    return out;
}

EventFilter deadOnly(EventFilter filter)
{
    filter.state = EventFilter::State::Dead;
    return filter;
}

} // namespace

Replayer::Replayer(const QSqlDatabase &db)
    : m_db(db)
    , m_postgres(db.driverName() == QLatin1String("QPSQL"))
    , m_statements(db)
{ }

Replayer::Replayer(const QSqlDatabase &db, const OutboxProfile &profile)
    : Replayer(db)
{
    if (!profile.isNative())
        m_profile = profile;
}

QString Replayer::source() const
{
    return m_profile ? m_profile->source(OutboxProfile::engineOf(m_db))
                     : QStringLiteral("delivery_outbox");
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

ReplayResult Replayer::replay(const ReplayRequest &request)
{
    ReplayResult result;
    if (request.operatorName.trimmed().isEmpty()) {
        result.error = QStringLiteral(
            "an operator name is required: replay_log records who released the events");
        return result;
    }
    if (request.reason.trimmed().isEmpty()) {
        result.error = QStringLiteral(
            "a reason is required: replay_log records why the events were released");
        return result;
    }
    if (request.spreadMs < 0) {
        result.error = QStringLiteral("the spread window cannot be negative");
        return result;
    }
    result.error = refusal(request);
    if (!result.error.isEmpty())
        return result;
    const QStringList ids = distinct(request.eventIds);
    for (qsizetype i = 0; i < ids.size(); ++i) {
        if (m_stop && *m_stop) {
            result.error = QStringLiteral("stopped before %1 of %2 events: the window was closed")
                               .arg(ids.size() - i)
                               .arg(ids.size());
            return result;
        }
        const qint64 due = dueTime(request.now, request.spreadMs, i, ids.size());
        QString error;
        const Outcome outcome = m_profile ? replayByStatement(ids.at(i), request.now, &error)
                                          : replayOne(ids.at(i), request, due, &error);
        switch (outcome) {
        case Outcome::Replayed:
            result.replayed << ids.at(i);
            break;
        case Outcome::Skipped:
            result.skipped << ids.at(i);
            break;
        case Outcome::Failed:
            result.error = QStringLiteral("replaying %1: %2").arg(ids.at(i), error);
            return result;
        }
    }
    return result;
}

// One event, one transaction: the row is locked (FOR UPDATE on PostgreSQL; BEGIN IMMEDIATE
// write-locks SQLite) while its failures are read, flipped back to PENDING only if it is still
// DEAD, and the audit row goes in with it. Anything short of that rolls back.
Replayer::Outcome Replayer::replayOne(
    const QString &eventId, const ReplayRequest &request, qint64 due, QString *error)
{
    SqlTransaction transaction(m_db);
    if (!transaction.isActive()) {
        *error = transaction.errorText();
        return Outcome::Failed;
    }
    // clang-format off
    QSqlQuery &select = prepared(QStringLiteral(
        "SELECT failures FROM delivery_outbox"
        " WHERE event_id = :id AND status = 'DEAD'")
        + (m_postgres ? QStringLiteral(" FOR UPDATE") : QString()));
    // clang-format on
    select.bindValue(QStringLiteral(":id"), eventId);
    if (!select.exec()) {
        *error = errorText(select);
        return Outcome::Failed;
    }
    if (!select.next()) {
        select.finish();
        return Outcome::Skipped; // replayed by someone else first, not DEAD, or not found
    }
    // failures is recorded as it was; text in it (SQLite keeps whatever is written) is not a
    // count to record or to keep, so the row is left alone and named.
    bool whole = false;
    const QVariant failures = select.value(0);
    const qint64 failuresBefore = failures.toLongLong(&whole);
    select.finish();
    if (!whole || failures.typeId() == QMetaType::QString) {
        *error = QStringLiteral("column failures holds '%1', not a whole number")
                     .arg(failures.toString().left(40));
        return Outcome::Failed;
    }

    // Without --reset-budget the column is not written at all: the row keeps its own value.
    // clang-format off
    QSqlQuery &update = prepared(request.resetBudget
        ? QStringLiteral(
            "UPDATE delivery_outbox"
            " SET status = 'PENDING', failures = 0,"
            "     next_attempt_at = :due, claim_token = NULL, lease_until = NULL"
            " WHERE event_id = :id AND status = 'DEAD'")
        : QStringLiteral(
            "UPDATE delivery_outbox"
            " SET status = 'PENDING',"
            "     next_attempt_at = :due, claim_token = NULL, lease_until = NULL"
            " WHERE event_id = :id AND status = 'DEAD'"));
    // clang-format on
    update.bindValue(QStringLiteral(":due"), due);
    update.bindValue(QStringLiteral(":id"), eventId);
    if (!update.exec()) {
        *error = errorText(update);
        return Outcome::Failed;
    }
    if (update.numRowsAffected() != 1)
        return Outcome::Skipped;

    // clang-format off
    QSqlQuery &log = prepared(QStringLiteral(
        "INSERT INTO replay_log (event_id, replayed_at, operator, reason, reset_failures,"
        "                        failures_before)"
        " VALUES (:id, :at, :operator, :reason, :reset, :before)"));
    // clang-format on
    log.bindValue(QStringLiteral(":id"), eventId);
    log.bindValue(QStringLiteral(":at"), request.now);
    log.bindValue(QStringLiteral(":operator"), request.operatorName.trimmed());
    log.bindValue(QStringLiteral(":reason"), request.reason.trimmed());
    log.bindValue(QStringLiteral(":reset"), request.resetBudget);
    log.bindValue(QStringLiteral(":before"), failuresBefore);
    if (!log.exec()) {
        *error = errorText(log);
        return Outcome::Failed;
    }
    if (!transaction.commit()) {
        *error = transaction.errorText();
        return Outcome::Failed;
    }
    return Outcome::Replayed;
}

// The profile's statement, fenced by the tool whatever the statement says, in one
// transaction: the row is locked and must be DEAD by the profile's own status expression
// (otherwise it is skipped, nothing run); the statement must change exactly one row, and
// afterwards that event's row must exist and no longer be DEAD. Anything else rolls back with
// one line saying what went wrong. A statement that changes no row is a skip (its own fence
// said no).
Replayer::Outcome Replayer::replayByStatement(const QString &eventId, qint64 now, QString *error)
{
    SqlTransaction transaction(m_db);
    if (!transaction.isActive()) {
        *error = transaction.errorText();
        return Outcome::Failed;
    }
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
    const std::optional<int> changed = m_profile->replay(m_db, eventId, now, error);
    if (!changed)
        return Outcome::Failed;
    if (*changed == 0)
        return Outcome::Skipped;
    if (*changed > 1) {
        *error = QStringLiteral("the replay statement of %1 changed %2 rows, not one: rolled back")
                     .arg(m_profile->name())
                     .arg(*changed);
        return Outcome::Failed;
    }
    const std::optional<QStringList> after = statusesOf(eventId, false, error);
    if (!after)
        return Outcome::Failed;
    if (after->size() != 1 || after->constFirst() == QLatin1String("DEAD")) {
        *error = after->isEmpty()
            ? QStringLiteral("the replay statement of %1 left no row for the event: rolled back")
                  .arg(m_profile->name())
            : QStringLiteral("the replay statement of %1 changed a row, but the event is still"
                             " DEAD: rolled back")
                  .arg(m_profile->name());
        return Outcome::Failed;
    }
    if (!transaction.commit()) {
        *error = transaction.errorText();
        return Outcome::Failed;
    }
    return Outcome::Replayed;
}

// The statuses the profile derives for the rows of one event (normally one), locked for the
// rest of the transaction when `lock` is set (SQLite's BEGIN IMMEDIATE holds the write lock).
std::optional<QStringList> Replayer::statusesOf(const QString &eventId, bool lock, QString *error)
{
    // clang-format off
    QSqlQuery &query = prepared(QStringLiteral("SELECT status FROM ") + source()
        + QStringLiteral(" WHERE event_id = :id")
        + (lock && m_postgres ? QStringLiteral(" FOR UPDATE") : QString()));
    // clang-format on
    query.bindValue(QStringLiteral(":id"), eventId);
    if (!query.exec()) {
        *error = errorText(query);
        return std::nullopt;
    }
    QStringList statuses;
    while (query.next())
        statuses << query.value(0).toString();
    query.finish();
    return statuses;
}

// Runs a read of the DEAD rows a filter matches in `transaction` (read-only): the query,
// ready to be stepped through, or null with *error set.
QSqlQuery *Replayer::runFilter(ReadOnlyTransaction &transaction, const QString &select,
    const EventFilter &filter, qint64 now, QString *error)
{
    const EventFilter dead = deadOnly(filter);
    // Pieces put together rather than QString::arg(): a profile's source may hold a '%'.
    QString sql = select;
    sql.replace(QStringLiteral("@WHERE@"), dead.whereClause());
    sql.replace(QStringLiteral("@SOURCE@"), source());
    QSqlQuery *query = transaction.prepare(sql);
    if (!query) {
        if (error)
            *error = transaction.errorText();
        return nullptr;
    }
    dead.bindValues(*query, now);
    if (!query->exec()) {
        if (error)
            *error = errorText(*query);
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
