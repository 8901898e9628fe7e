#include "consumer.h"

#include "sqldialect.h"
#include "sqltransaction.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlError>

namespace {

// PostgreSQL: the ledger row and the stock change in one statement, hence one transaction.
// clang-format off
const QString pgApply = QStringLiteral(
    "WITH ledger AS ("
    "    INSERT INTO consumer_ledger (event_id, applied_at) VALUES (:id, :now)"
    "    ON CONFLICT (event_id) DO NOTHING"
    "    RETURNING event_id"
    "), stock AS ("
    "    UPDATE consumer_stock SET quantity = quantity - :quantity"
    "    WHERE sku = :sku AND EXISTS (SELECT 1 FROM ledger)"
    "    RETURNING sku"
    ")"
    " SELECT (SELECT COUNT(*) FROM ledger), (SELECT COUNT(*) FROM stock)");
// clang-format on

} // namespace

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
    if (m_dialect->can().writableCtes) {
        QSqlQuery &apply = prepared(pgApply);
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
    // ON CONFLICT DO NOTHING makes the ledger row the deduplication point even when two
    // deliveries of one event race each other.
    // clang-format off
    QSqlQuery &ledger = prepared(QStringLiteral(
        "INSERT INTO consumer_ledger (event_id, applied_at) VALUES (:id, :now)"
        " ON CONFLICT (event_id) DO NOTHING"));
    // clang-format on
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
