#include "consumer.h"

#include "enginestatements.h"
#include "sqldialect.h"
#include "sqltransaction.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlError>

Consumer::Consumer(const QSqlDatabase &db)
    : m_db(db)
    , m_dialect(&SqlDialect::of(db))
    , m_statements(db)
{ }

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

Consumer::Result Consumer::fail(const QString &error)
{
    m_lastError = error.simplified();
    return Result::Error;
}

Consumer::Result Consumer::apply(const QString &eventId, const QString &payload, qint64 now)
{
    const QJsonObject reservation = QJsonDocument::fromJson(payload.toUtf8()).object();
    const QString sku = reservation.value(QStringLiteral("sku")).toString();
    const int quantity = reservation.value(QStringLiteral("quantity")).toInt();
    // The ledger row and the stock change in one statement (hence one transaction), where the
    // engine has one.
    const QString oneStatement = m_dialect->statements().consumerApplySql();
    if (!oneStatement.isEmpty()) {
        QSqlQuery &apply = prepared(oneStatement);
        apply.bindValue(QStringLiteral(":id"), eventId);
        apply.bindValue(QStringLiteral(":now"), now);
        apply.bindValue(QStringLiteral(":quantity"), quantity);
        apply.bindValue(QStringLiteral(":sku"), sku);
        if (!apply.exec() || !apply.next())
            return fail(apply.lastError().text());
        const bool applied = apply.value(0).toInt() == 1;
        apply.finish();
        return applied ? Result::Applied : Result::Duplicate;
    }

    SqlTransaction transaction(m_db);
    if (!transaction.isActive())
        return fail(transaction.errorText());
    // Ignoring the conflict makes the ledger row the deduplication point even when two
    // deliveries of one event race each other.
    QSqlQuery &ledger = prepared(
        m_dialect->statements().insertIgnoringSql({.table = QStringLiteral("consumer_ledger"),
            .columns = QStringLiteral("event_id, applied_at"),
            .values = QStringLiteral(":id, :now"),
            .key = QStringLiteral("event_id")}));
    ledger.bindValue(QStringLiteral(":id"), eventId);
    ledger.bindValue(QStringLiteral(":now"), now);
    if (!ledger.exec())
        return fail(ledger.lastError().text());
    if (ledger.numRowsAffected() == 0)
        return Result::Duplicate; // the rollback leaves everything as it was
    QSqlQuery &stock = prepared(QStringLiteral(
        "UPDATE consumer_stock SET quantity = quantity - :quantity WHERE sku = :sku"));
    stock.bindValue(QStringLiteral(":quantity"), quantity);
    stock.bindValue(QStringLiteral(":sku"), sku);
    if (!stock.exec())
        return fail(stock.lastError().text());
    if (!transaction.commit())
        return fail(transaction.errorText());
    return Result::Applied;
}
