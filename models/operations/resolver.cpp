#include "resolver.h"

#include "readonlytransaction.h"
#include "schema.h"
#include "sqltransaction.h"

#include <QSet>
#include <QSqlError>
#include <QSqlQuery>

namespace {

QString errorText(const QSqlQuery &query)
{
    return query.lastError().text().simplified();
}

// The request's event IDs in order, each once: a repeated ID would only be skipped again.
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

} // namespace

Resolver::Resolver(const QSqlDatabase &db, bool readOnly)
    : m_db(db)
    , m_postgres(db.driverName() == QLatin1String("QPSQL"))
    , m_readOnly(readOnly)
    , m_statements(db)
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

ResolveResult Resolver::resolve(const ResolveRequest &request)
{
    ResolveResult result;
    if (request.operatorName.trimmed().isEmpty()) {
        result.error = QStringLiteral(
            "an operator name is required: resolve_log records who resolved the events");
        return result;
    }
    if (request.reason.trimmed().isEmpty()) {
        result.error = QStringLiteral(
            "a reason is required: resolve_log records why the events need no delivery");
        return result;
    }
    result.error = refusal();
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
        QString error;
        switch (resolveOne(ids.at(i), request, &error)) {
        case Outcome::Resolved:
            result.resolved << ids.at(i);
            break;
        case Outcome::Skipped:
            result.skipped << ids.at(i);
            break;
        case Outcome::Failed:
            result.error = QStringLiteral("resolving %1: %2").arg(ids.at(i), error);
            return result;
        }
    }
    return result;
}

// One event, one transaction, as Replayer::replayOne: the row locked (FOR UPDATE; SQLite's
// BEGIN IMMEDIATE write-locks) while its failures are read, set RESOLVED only if it is still
// DEAD, and the audit row written with it. Anything short of that rolls back.
Resolver::Outcome Resolver::resolveOne(
    const QString &eventId, const ResolveRequest &request, QString *error)
{
    SqlTransaction transaction(m_db);
    if (!transaction.isActive()) {
        *error = transaction.errorText();
        return Outcome::Failed;
    }
    // clang-format off
    QSqlQuery &select = m_statements.prepared(QStringLiteral(
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
        return Outcome::Skipped; // resolved or replayed by someone else, not DEAD, or not found
    }
    bool whole = false;
    const QVariant failures = select.value(0);
    const qint64 failuresBefore = failures.toLongLong(&whole);
    select.finish();
    if (!whole || failures.typeId() == QMetaType::QString) {
        *error = QStringLiteral("column failures holds '%1', not a whole number")
                     .arg(failures.toString().left(40));
        return Outcome::Failed;
    }
    // clang-format off
    QSqlQuery &update = m_statements.prepared(QStringLiteral(
        "UPDATE delivery_outbox"
        " SET status = 'RESOLVED', claim_token = NULL, lease_until = NULL"
        " WHERE event_id = :id AND status = 'DEAD'"));
    // clang-format on
    update.bindValue(QStringLiteral(":id"), eventId);
    if (!update.exec()) {
        *error = errorText(update);
        return Outcome::Failed;
    }
    if (update.numRowsAffected() != 1)
        return Outcome::Skipped;
    // clang-format off
    QSqlQuery &log = m_statements.prepared(QStringLiteral(
        "INSERT INTO resolve_log (event_id, resolved_at, operator, reason, failures_before)"
        " VALUES (:id, :at, :operator, :reason, :before)"));
    // clang-format on
    log.bindValue(QStringLiteral(":id"), eventId);
    log.bindValue(QStringLiteral(":at"), request.now);
    log.bindValue(QStringLiteral(":operator"), request.operatorName.trimmed());
    log.bindValue(QStringLiteral(":reason"), request.reason.trimmed());
    log.bindValue(QStringLiteral(":before"), failuresBefore);
    if (!log.exec()) {
        *error = errorText(log);
        return Outcome::Failed;
    }
    if (!transaction.commit()) {
        *error = transaction.errorText();
        return Outcome::Failed;
    }
    return Outcome::Resolved;
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
    for (const QString &id : distinct(eventIds)) {
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
