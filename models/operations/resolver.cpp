#include "resolver.h"

#include "readonlytransaction.h"
#include "schema.h"

#include <QSqlError>
#include <QSqlQuery>

namespace {

QString errorText(const QSqlQuery &query)
{
    return query.lastError().text().simplified();
}

} // namespace

Resolver::Resolver(const QSqlDatabase &db, bool readOnly)
    : m_db(db)
    , m_readOnly(readOnly)
    , m_job(db)
{ }

Resolver::Resolver(const QSqlDatabase &db, const OutboxProfile &profile, bool readOnly)
    : Resolver(db, readOnly)
{
    if (!profile.isNative())
        m_profile = profile;
}

QString Resolver::profileRefusal(const OutboxProfile &profile)
{
    const QString instead = profile.resolveUnavailableReason();
    return instead.isEmpty()
        ? QStringLiteral("%1: resolve is Outbox Health's own action on its native schema; "
                         "close the event with the tools of the library that owns it")
              .arg(profile.name())
        : QStringLiteral("%1: resolve is not possible from the database: %2")
              .arg(profile.name(), instead);
}

QString Resolver::refusal()
{
    if (m_profile)
        return profileRefusal(*m_profile);
    if (m_readOnly)
        return QStringLiteral("the connection is read-only: nothing resolved");
    QString error;
    const int version = Schema::version(m_db, &error);
    if (version < 0)
        return error;
    const QString outdated = Schema::outdatedMessage(version);
    return outdated.isEmpty() ? QString() : outdated + QStringLiteral("; nothing resolved");
}

const OperatorWords &Resolver::words()
{
    static const OperatorWords words {QStringLiteral("resolve_log"),
        QStringLiteral("who resolved the events"),
        QStringLiteral("why the events need no delivery"), QStringLiteral("resolving")};
    return words;
}

// DEAD → RESOLVED, claim cleared: resolved or replayed by someone else first, not DEAD, or not
// found is a skip.
const NativeChange &Resolver::nativeChange()
{
    static const NativeChange change {QStringLiteral("DEAD"),
        // clang-format off
        QStringLiteral(
            "UPDATE delivery_outbox"
            " SET status = 'RESOLVED', claim_token = NULL, lease_until = NULL"
            " WHERE event_id = :id AND status = :from"),
        {},
        QStringLiteral(
            "INSERT INTO resolve_log (event_id, resolved_at, operator, reason, failures_before)"
            " VALUES (:id, :at, :operator, :reason, :before)"),
        // clang-format on
        {}};
    return change;
}

ResolveResult Resolver::resolve(const ResolveRequest &request)
{
    const OperatorOutcome outcome = m_job.run(
        request, words(), [this] { return refusal(); },
        [this, &request](const QString &id, qsizetype, qsizetype, QString *error) {
            return m_job.change(id, request, nativeChange(), error);
        });
    return {outcome.done, outcome.skipped, outcome.error, outcome.total, outcome.cancelled};
}

QStringList Resolver::deadAmong(const QStringList &eventIds, QString *error)
{
    ReadOnlyTransaction transaction(m_db);
    QSqlQuery *query = transaction.prepare(
        QStringLiteral("SELECT 1 FROM delivery_outbox WHERE event_id = :id AND status = 'DEAD'"));
    if (!query) {
        *error = transaction.errorText();
        return {};
    }
    QStringList dead;
    for (const QString &id : OperatorJob::distinct(eventIds)) {
        query->bindValue(QStringLiteral(":id"), id);
        if (!query->exec()) {
            *error = errorText(*query);
            return {};
        }
        if (query->next())
            dead << id;
        query->finish();
    }
    return dead;
}
