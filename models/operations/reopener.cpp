#include "reopener.h"

#include "readonlytransaction.h"
#include "schema.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>

Reopener::Reopener(const QSqlDatabase &db, bool readOnly)
    : m_db(db)
    , m_readOnly(readOnly)
    , m_job(db)
{ }

Reopener::Reopener(const QSqlDatabase &db, const OutboxProfile &profile, bool readOnly)
    : Reopener(db, readOnly)
{
    if (!profile.isNative())
        m_profile = profile;
}

QString Reopener::profileRefusal(const OutboxProfile &profile)
{
    return QStringLiteral("%1: reopen is not available: it undoes Outbox Health's resolve, which "
                          "exists only on its native schema")
        .arg(profile.name());
}

QString Reopener::refusal()
{
    if (m_profile)
        return profileRefusal(*m_profile);
    if (m_readOnly)
        return QStringLiteral("the connection is read-only: nothing reopened");
    QString error;
    const int version = Schema::version(m_db, &error);
    if (version < 0)
        return error;
    const QString outdated = Schema::outdatedMessage(version);
    if (!outdated.isEmpty())
        return outdated + QStringLiteral("; nothing reopened");
    if (m_db.record(QStringLiteral("reopen_log")).isEmpty())
        return QStringLiteral("the schema has no reopen_log table (made before reopen existed): "
                              "run `outboxctl init --db URL` to add it; nothing reopened");
    return {};
}

const OperatorWords &Reopener::words()
{
    static const OperatorWords words {QStringLiteral("reopen_log"),
        QStringLiteral("who reopened the events"),
        QStringLiteral("why the events need an operator again"), QStringLiteral("reopening")};
    return words;
}

// RESOLVED → DEAD: reopened by someone else first, not RESOLVED, or not found is a skip. The
// row keeps its failures and last error, as it had them when it was resolved.
const NativeChange &Reopener::nativeChange()
{
    static const NativeChange change {QStringLiteral("RESOLVED"),
        // clang-format off
        QStringLiteral(
            "UPDATE delivery_outbox"
            " SET status = 'DEAD', claim_token = NULL, lease_until = NULL"
            " WHERE event_id = :id AND status = :from"),
        {},
        QStringLiteral(
            "INSERT INTO reopen_log (event_id, reopened_at, operator, reason, failures_before)"
            " VALUES (:id, :at, :operator, :reason, :before)"),
        // clang-format on
        {}};
    return change;
}

ReopenResult Reopener::reopen(const ReopenRequest &request)
{
    const OperatorOutcome outcome = m_job.run(
        request, words(), [this] { return refusal(); },
        [this, &request](const QString &id, qsizetype, qsizetype, QString *error) {
            return m_job.change(id, request, nativeChange(), error);
        });
    return {outcome.done, outcome.skipped, outcome.error};
}

QStringList Reopener::resolvedAmong(const QStringList &eventIds, QString *error)
{
    ReadOnlyTransaction transaction(m_db);
    QSqlQuery *query = transaction.prepare(QStringLiteral(
        "SELECT 1 FROM delivery_outbox WHERE event_id = :id AND status = 'RESOLVED'"));
    if (!query) {
        *error = transaction.errorText();
        return {};
    }
    QStringList resolved;
    for (const QString &id : OperatorJob::distinct(eventIds)) {
        query->bindValue(QStringLiteral(":id"), id);
        if (!query->exec()) {
            *error = query->lastError().text().simplified();
            return {};
        }
        if (query->next())
            resolved << id;
        query->finish();
    }
    return resolved;
}
