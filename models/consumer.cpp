#include "consumer.h"

#include "sqltransaction.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlError>
#include <QSqlQuery>

Consumer::Consumer(const QSqlDatabase &db)
    : m_db(db)
{
}

QString Consumer::resultName(Result result)
{
    switch (result) {
    case Result::Applied:
        return QStringLiteral("APPLIED");
    case Result::Duplicate:
        return QStringLiteral("DUPLICATE");
    case Result::Error:
        break;
    }
    return QStringLiteral("ERROR");
}

Consumer::Result Consumer::apply(const QString &eventId, const QString &payload, qint64 now)
{
    SqlTransaction transaction(m_db);
    QSqlQuery query(m_db);
    // ON CONFLICT DO NOTHING makes the ledger row the deduplication point even when two
    // deliveries of one event race each other.
    query.prepare(QStringLiteral("INSERT INTO consumer_ledger (event_id, applied_at) VALUES (:id, :now)"
                                 " ON CONFLICT (event_id) DO NOTHING"));
    query.bindValue(QStringLiteral(":id"), eventId);
    query.bindValue(QStringLiteral(":now"), now);
    if (!transaction.isActive() || !query.exec()) {
        m_lastError = transaction.isActive() ? query.lastError().text().simplified() : transaction.errorText();
        return Result::Error;
    }
    if (query.numRowsAffected() == 0)
        return Result::Duplicate;

    const QJsonObject reservation = QJsonDocument::fromJson(payload.toUtf8()).object();
    const QString sku = reservation.value(QStringLiteral("sku")).toString();
    if (!sku.isEmpty()) {
        query.prepare(QStringLiteral("UPDATE consumer_stock SET quantity = quantity - :quantity WHERE sku = :sku"));
        query.bindValue(QStringLiteral(":quantity"), reservation.value(QStringLiteral("quantity")).toInt());
        query.bindValue(QStringLiteral(":sku"), sku);
        if (!query.exec()) {
            m_lastError = query.lastError().text().simplified();
            return Result::Error;
        }
    }
    if (!transaction.commit()) {
        m_lastError = transaction.errorText();
        return Result::Error;
    }
    return Result::Applied;
}
