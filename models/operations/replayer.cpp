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
    if (profile.isNative())
        return;
    m_profile = profile;
    if (profile.replayKind() == OutboxProfile::ReplayKind::Statement)
        m_statement.emplace(db, profile,
            ProfileStatement::Spec {OutboxProfile::Action::Replay, QStringLiteral("DEAD"), {},
                QStringLiteral("replayed")});
}

void Replayer::setAudit(const ProfileAudit &audit)
{
    if (m_statement)
        m_statement->setAudit(audit);
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
        if (why.isEmpty() && m_statement)
            why = m_statement->readOnlyCheck(OperatorJob::distinct(request.eventIds));
        return why.isEmpty() ? auditRefusal() : why;
    };
    const auto step
        = [this, &request](const QString &id, qsizetype index, qsizetype count, QString *error) {
              if (m_statement)
                  return m_statement->step(id, request, error);
              const qint64 due = dueTime(request.now, request.spreadMs, index, count);
              return m_job.change(id, request, nativeChange(request, due), error);
          };
    if (m_statement)
        m_job.setSettled([this](const QString &id, OperatorJob::Outcome ended) {
            return m_statement->settle(id, ended);
        });
    const OperatorOutcome outcome = m_job.run(request, words(), refused, step);
    ReplayResult result {outcome.done, outcome.skipped, outcome.error, outcome.total,
        outcome.cancelled, outcome.unknown};
    if (m_statement)
        result.notReleased = m_statement->takeUntouched();
    for (const QString &id : std::as_const(result.notReleased))
        result.skipped.removeOne(id);
    return result;
}

QString Replayer::auditRefusal() const
{
    return m_statement ? m_statement->auditRefusal() : QString();
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
