#include "invariants.h"

#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlQuery>

namespace {

qint64 count(const QSqlDatabase &db, const QString &sql)
{
    QSqlQuery query(db);
    return query.exec(sql) && query.next() ? query.value(0).toLongLong() : -1;
}

void expectZero(
    const QSqlDatabase &db, const QString &what, const QString &sql, QStringList *violations)
{
    const qint64 n = count(db, sql);
    if (n != 0)
        *violations << QStringLiteral("%1: %2").arg(what).arg(n);
}

void checkStock(const QSqlDatabase &db, int initialStock, QStringList *violations)
{
    QHash<QString, qint64> reserved;
    QSqlQuery query(db);
    query.exec(QStringLiteral("SELECT o.payload FROM delivery_outbox o JOIN consumer_ledger l ON "
                              "l.event_id = o.event_id"));
    while (query.next()) {
        const QJsonObject payload
            = QJsonDocument::fromJson(query.value(0).toString().toUtf8()).object();
        reserved[payload.value(QStringLiteral("sku")).toString()]
            += payload.value(QStringLiteral("quantity")).toInt();
    }
    query.exec(QStringLiteral("SELECT sku, quantity FROM consumer_stock"));
    while (query.next()) {
        const QString sku = query.value(0).toString();
        const qint64 expected = initialStock - reserved.value(sku);
        if (query.value(1).toLongLong() != expected)
            *violations << QStringLiteral("stock of %1 is %2, expected %3")
                               .arg(sku)
                               .arg(query.value(1).toLongLong())
                               .arg(expected);
    }
}

} // namespace

QStringList invariantViolations(const QSqlDatabase &db, qint64 expectedEvents, int initialStock)
{
    QStringList violations;
    const qint64 rows = count(db, QStringLiteral("SELECT COUNT(*) FROM delivery_outbox"));
    if (rows != expectedEvents)
        violations << QStringLiteral("delivery_outbox has %1 rows, %2 events were produced")
                          .arg(rows)
                          .arg(expectedEvents);
    expectZero(db, QStringLiteral("DELIVERED events without exactly one ledger row"),
        QStringLiteral(
            "SELECT COUNT(*) FROM delivery_outbox o WHERE o.status = 'DELIVERED' AND"
            " (SELECT COUNT(*) FROM consumer_ledger l WHERE l.event_id = o.event_id) <> 1"),
        &violations);
    expectZero(db, QStringLiteral("ledger rows for unknown events"),
        QStringLiteral("SELECT COUNT(*) FROM consumer_ledger l WHERE NOT EXISTS"
                       " (SELECT 1 FROM delivery_outbox o WHERE o.event_id = l.event_id)"),
        &violations);
    expectZero(db, QStringLiteral("events whose failures disagree with their RETRY/DEAD attempts"),
        QStringLiteral("SELECT COUNT(*) FROM delivery_outbox o WHERE o.failures <>"
                       " (SELECT COUNT(*) FROM delivery_attempt a WHERE a.event_id = o.event_id"
                       " AND a.outcome IN ('RETRY', 'DEAD'))"),
        &violations);
    expectZero(db, QStringLiteral("events with more than one unfinished attempt"),
        QStringLiteral(
            "SELECT COUNT(*) FROM (SELECT event_id FROM delivery_attempt WHERE outcome IS NULL"
            " GROUP BY event_id HAVING COUNT(*) > 1) x"),
        &violations);
    expectZero(db, QStringLiteral("finished events still holding a claim"),
        QStringLiteral("SELECT COUNT(*) FROM delivery_outbox WHERE status <> 'PENDING' AND "
                       "claim_token IS NOT NULL"),
        &violations);
    checkStock(db, initialStock, &violations);
    return violations;
}
