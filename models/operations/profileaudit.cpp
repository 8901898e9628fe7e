#include "profileaudit.h"

#include "enginestatements.h"
#include "operatorrequest.h"
#include "outboxprofile.h"
#include "queryerror.h"
#include "sqldialect.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>

ProfileAudit::ProfileAudit(
    const QSqlDatabase &store, const QString &where, const QString &outbox, const QString &refusal)
    : m_store(store)
    , m_where(where)
    , m_outbox(outbox)
    , m_refusal(refusal)
{ }

QString ProfileAudit::outboxName(const QString &profile, const QSqlDatabase &outboxDb)
{
    const QString engine = OutboxProfile::engineName(OutboxProfile::engineOf(outboxDb));
    QString place = outboxDb.databaseName();
    if (!outboxDb.hostName().isEmpty()) {
        const QString user = outboxDb.userName().isEmpty() ? QString() : outboxDb.userName() + u'@';
        const QString port
            = outboxDb.port() > 0 ? u':' + QString::number(outboxDb.port()) : QString();
        place = u"//"_qs + user + outboxDb.hostName() + port + u'/' + place;
    }
    return QStringLiteral("profile %1 on %2:%3").arg(profile, engine, place);
}

QString ProfileAudit::unavailable(const QString &profile, const QString &action) const
{
    const QString nothing
        = QStringLiteral("; nothing %1ed").arg(action.endsWith(u'e') ? action.chopped(1) : action);
    if (m_where.isEmpty())
        return QStringLiteral("%1: every %2 through a profile is audited in a database of Outbox "
                              "Health's own, and none is configured: give --notes-db URL (the "
                              "team's audit store, also its notes; `outboxctl init --db URL` "
                              "makes one)%3")
            .arg(profile, action, nothing);
    if (!m_refusal.isEmpty())
        return QStringLiteral("%1: the audit store cannot record the %2: %3%4")
            .arg(profile, action, m_refusal, nothing);
    if (m_store.record(Table).isEmpty())
        return QStringLiteral("%1: the audit store %2 has no %3 table (made before it existed): "
                              "run `outboxctl init --db URL` on it to add it%4")
            .arg(profile, m_where, Table, nothing);
    return {};
}

QString ProfileAudit::where() const
{
    return m_where.isEmpty() ? QString()
                             : QStringLiteral("%1 in %2 (the notes database)").arg(Table, m_where);
}

std::optional<qint64> ProfileAudit::intend(const QString &action, const QString &eventId,
    const OperatorRequest &request, const QString &stateBefore, QString *error)
{
    const QString columns
        = u"outbox, event_id, action, acted_at, operator, reason, state_before, outcome"_qs;
    const QString values
        = u":outbox, :event, :action, :at, :operator, :reason, :before, 'intended'"_qs;
    QString sql = SqlDialect::of(m_store).statements().insertReturningSql(
        u"profile_audit"_qs, columns, values, u"audit_id"_qs);
    const bool returning = !sql.isEmpty();
    if (!returning)
        sql = u"INSERT INTO profile_audit ("_qs + columns + u") VALUES ("_qs + values + u')';
    QSqlQuery insert(m_store);
    insert.prepare(sql);
    insert.bindValue(u":outbox"_qs, m_outbox);
    insert.bindValue(u":event"_qs, eventId);
    insert.bindValue(u":action"_qs, action);
    insert.bindValue(u":at"_qs, request.now);
    insert.bindValue(u":operator"_qs, request.operatorName.trimmed());
    insert.bindValue(u":reason"_qs, request.reason.trimmed());
    insert.bindValue(u":before"_qs, stateBefore);
    if (!insert.exec()) {
        *error
            = QStringLiteral("the audit store did not record it: %1").arg(QueryError::text(insert));
        return std::nullopt;
    }
    const QVariant id
        = returning ? (insert.next() ? insert.value(0) : QVariant()) : insert.lastInsertId();
    insert.finish();
    if (!id.isValid() || id.toLongLong() <= 0) {
        *error = QStringLiteral("the audit store did not say which ID its record got");
        return std::nullopt;
    }
    return id.toLongLong();
}

bool ProfileAudit::settle(
    qint64 id, const QString &outcome, const QString &stateAfter, qint64 at, QString *error)
{
    QSqlQuery update(m_store);
    update.prepare(u"UPDATE profile_audit SET outcome = :outcome, state_after = :after,"
                   " settled_at = :at WHERE audit_id = :id AND outcome = 'intended'"_qs);
    update.bindValue(u":outcome"_qs, outcome);
    update.bindValue(u":after"_qs,
        stateAfter.isEmpty() ? QVariant(QMetaType::fromType<QString>()) : QVariant(stateAfter));
    update.bindValue(u":at"_qs, at);
    update.bindValue(u":id"_qs, id);
    if (!update.exec()) {
        *error = QStringLiteral("the audit store did not record how it ended (its record stays "
                                "'intended'): %1")
                     .arg(QueryError::text(update));
        return false;
    }
    return true;
}
