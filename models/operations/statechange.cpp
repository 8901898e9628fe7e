#include "statechange.h"

#include "queryerror.h"
#include "readonlytransaction.h"
#include "schema.h"

#include <QSqlQuery>
#include <QSqlRecord>

StateChange::StateChange(const Spec &spec, const QSqlDatabase &db,
    const std::optional<OutboxProfile> &profile, bool readOnly)
    : m_spec(spec)
    , m_db(db)
    , m_readOnly(readOnly)
    , m_job(db)
    // The claim cleared: done by someone else first, not in `from`, or not found is a skip.
    // The row keeps its failures and last error.
    , m_change {spec.from,
          QStringLiteral("UPDATE delivery_outbox"
                         " SET status = :to, claim_token = NULL, lease_until = NULL"
                         " WHERE event_id = :id AND status = :from"),
          {{QStringLiteral(":to"), spec.to}}, spec.audit, {}}
{
    if (!profile || profile->isNative())
        return;
    m_profile = profile;
    if (profile->hasStatement(spec.action))
        m_statement.emplace(
            db, *profile, ProfileStatement::Spec {spec.action, spec.from, spec.to, spec.done});
}

void StateChange::setAudit(const ProfileAudit &audit)
{
    if (m_statement)
        m_statement->setAudit(audit);
}

QString StateChange::refusal(bool audited)
{
    const QString nothing = QStringLiteral("nothing ") + m_spec.done;
    if (m_profile && !m_statement)
        return m_spec.profileRefusal(*m_profile);
    if (m_readOnly)
        return QStringLiteral("the connection is read-only: ") + nothing;
    if (m_statement)
        return audited ? m_statement->auditRefusal() : QString();
    QString error;
    const int version = Schema::version(m_db, &error);
    if (version < 0)
        return error;
    const QString outdated = Schema::outdatedMessage(version, Schema::ResolveVersion);
    if (!outdated.isEmpty())
        return outdated + QStringLiteral("; ") + nothing;
    // A version 2 schema made before the action existed (reopen_log came later).
    if (m_db.record(m_spec.words.log).isEmpty())
        return QStringLiteral("the schema has no %1 table (made before %2 existed): run "
                              "`outboxctl init --db URL` to add it; %3")
            .arg(m_spec.words.log, m_spec.verb, nothing);
    return {};
}

OperatorOutcome StateChange::run(const OperatorRequest &request)
{
    if (m_statement)
        m_job.setSettled([this](const QString &id, OperatorJob::Outcome ended) {
            return m_statement->settle(id, ended);
        });
    const auto refused = [this, &request] {
        QString why = refusal();
        if (why.isEmpty() && m_statement)
            why = m_statement->readOnlyCheck(OperatorJob::distinct(request.eventIds));
        return why;
    };
    OperatorOutcome outcome = m_job.run(request, m_spec.words, refused,
        [this, &request](const QString &id, qsizetype, qsizetype, QString *error) {
            if (m_statement)
                return m_statement->step(id, request, error);
            return m_job.change(id, request, m_change, error);
        });
    if (m_statement && outcome.error.isEmpty()) {
        const QStringList untouched = m_statement->takeUntouched();
        if (!untouched.isEmpty())
            outcome.error
                = QStringLiteral("%1: the profile's %2 statement left these events %3"
                                 " (its WHERE leaves their state out): %4")
                      .arg(m_profile->name(), m_spec.verb, m_spec.from, untouched.join(u", "_qs));
    }
    return outcome;
}

QStringList StateChange::among(const QStringList &eventIds, QString *error)
{
    ReadOnlyTransaction transaction(m_db);
    QSqlQuery *query = transaction.prepare(QStringLiteral("SELECT 1 FROM ")
        + OutboxProfile::sourceOf(m_profile, m_db)
        + QStringLiteral(" WHERE event_id = :id AND status = :from"));
    if (!query) {
        *error = transaction.errorText();
        return {};
    }
    QStringList found;
    for (const QString &id : OperatorJob::distinct(eventIds)) {
        query->bindValue(QStringLiteral(":id"), id);
        query->bindValue(QStringLiteral(":from"), m_spec.from);
        if (!query->exec()) {
            *error = QueryError::text(*query);
            return {};
        }
        if (query->next())
            found << id;
        query->finish();
    }
    return found;
}
