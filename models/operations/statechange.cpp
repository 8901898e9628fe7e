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
    if (profile && !profile->isNative())
        m_profile = profile;
}

QString StateChange::refusal()
{
    const QString nothing = QStringLiteral("nothing ") + m_spec.done;
    if (m_profile)
        return m_spec.profileRefusal(*m_profile);
    if (m_readOnly)
        return QStringLiteral("the connection is read-only: ") + nothing;
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
    return m_job.run(
        request, m_spec.words, [this] { return refusal(); },
        [this, &request](const QString &id, qsizetype, qsizetype, QString *error) {
            return m_job.change(id, request, m_change, error);
        });
}

QStringList StateChange::among(const QStringList &eventIds, QString *error)
{
    ReadOnlyTransaction transaction(m_db);
    QSqlQuery *query = transaction.prepare(
        QStringLiteral("SELECT 1 FROM delivery_outbox WHERE event_id = :id AND status = :from"));
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
