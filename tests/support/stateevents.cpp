#include "stateevents.h"

#include "outboxrows.h"

#include <QSqlQuery>
#include <QVariant>

bool insertKnownEvents(const QSqlDatabase &db)
{
    const auto row = [](const QString &id, const QString &status, int failures, qint64 created,
                         const QString &category) {
        OutboxRow row;
        row.id = id;
        row.status = status;
        row.failures = failures;
        row.createdAt = created;
        row.category = category;
        return row;
    };
    return insertRow(db, row(u"E-1"_qs, u"DEAD"_qs, 3, 100, u"TRANSIENT"_qs))
        && insertRow(db, row(u"E-2"_qs, u"DEAD"_qs, 1, 200, u"PERMANENT"_qs))
        && insertRow(db, row(u"E-3"_qs, u"DEAD"_qs, 3, 9000, u"TRANSIENT"_qs))
        && insertRow(db, row(u"E-4"_qs, u"PENDING"_qs, 0, 300, {}))
        && insertRow(db, row(u"E-5"_qs, u"DELIVERED"_qs, 0, 400, {}));
}

QStringList insertEventsIn(const QSqlDatabase &db, const QString &status, int count)
{
    QStringList ids;
    for (int i = 0; i < count; ++i) {
        OutboxRow row;
        row.id = u"R-%1"_qs.arg(i, 2, 10, QLatin1Char('0'));
        row.status = status;
        row.failures = 3;
        row.createdAt = 100;
        if (!insertRow(db, row))
            return {};
        ids << row.id;
    }
    return ids;
}

QStringList statusLines(const QSqlDatabase &db)
{
    QStringList out;
    QSqlQuery query(db);
    query.exec(u"SELECT event_id, status, failures FROM delivery_outbox ORDER BY event_id"_qs);
    while (query.next())
        out << u"%1 %2 %3"_qs.arg(query.value(0).toString(), query.value(1).toString())
                   .arg(query.value(2).toInt());
    return out;
}

// `table` and `atColumn` are the tests' own names, never input.
QStringList auditLines(const QSqlDatabase &db, const QString &table, const QString &atColumn)
{
    QStringList out;
    QSqlQuery query(db);
    query.exec(u"SELECT event_id, %1, operator, reason, failures_before FROM %2"
               " ORDER BY event_id"_qs.arg(atColumn, table));
    while (query.next())
        out << u"%1 %2 %3 %4 %5"_qs.arg(query.value(0).toString(), query.value(1).toString(),
            query.value(2).toString(), query.value(3).toString(), query.value(4).toString());
    return out;
}

QStringList operatorArgs(const QString &command, const QString &url, const QStringList &more,
    const QString &who, const QString &why, const QString &now)
{
    return QStringList {command, u"--db"_qs, url} + more
        + QStringList {u"--operator"_qs, who, u"--reason"_qs, why, u"--now"_qs, now};
}
