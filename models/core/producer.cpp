#include "producer.h"

#include "enginestatements.h"
#include "outboxstore.h"
#include "queryerror.h"
#include "sqldialect.h"
#include "sqltransaction.h"

#include <QDateTime>
#include <QSqlQuery>

QStringList Producer::skus()
{
    return {QStringLiteral("SKU-1"), QStringLiteral("SKU-2"), QStringLiteral("SKU-3"),
        QStringLiteral("SKU-4"), QStringLiteral("SKU-5")};
}

Producer::Producer(const QSqlDatabase &db, const Clock *clock, quint32 seed)
    : m_db(db)
    , m_clock(clock)
    , m_random(seed == 0 ? QRandomGenerator::global()->generate() : seed)
    // Event IDs unique across runs on one database, so a restarted relay never collides, and
    // short enough to read in the narration: the run's start second, five base-36 digits
    // (a cycle of about two years), e.g. EV-1x3k9-00042.
    , m_runId(QString::number(QDateTime::currentSecsSinceEpoch() % RunIdCycle, 36)
                  .rightJustified(5, QLatin1Char('0')))
{ }

bool Producer::seedStock(QString *error)
{
    QSqlQuery query(m_db);
    query.prepare(SqlDialect::of(m_db).statements().insertIgnoringSql(
        {.table = QStringLiteral("consumer_stock"),
            .columns = QStringLiteral("sku, quantity"),
            .values = QStringLiteral(":sku, :quantity"),
            .key = QStringLiteral("sku")}));
    for (const QString &sku : skus()) {
        query.bindValue(QStringLiteral(":sku"), sku);
        query.bindValue(QStringLiteral(":quantity"), InitialStock);
        if (!query.exec()) {
            *error = QueryError::text(query);
            return false;
        }
    }
    return true;
}

bool Producer::produce(int count, QString *error)
{
    const QStringList skuList = skus();
    OutboxStore store(m_db);
    for (int done = 0; done < count;) {
        SqlTransaction transaction(m_db);
        const int chunk = std::min(500, count - done);
        for (int i = 0; i < chunk; ++i) {
            const int n = m_produced + i + 1;
            NewEvent event;
            event.eventId = QStringLiteral("EV-%1-%2").arg(m_runId).arg(n, 5, 10, QLatin1Char('0'));
            event.aggregateType = QStringLiteral("Order");
            event.aggregateId = QStringLiteral("ORDER-%1-%2").arg(m_runId).arg(n);
            event.eventType = QStringLiteral("StockReserved");
            event.payload = QStringLiteral("{\"sku\":\"%1\",\"quantity\":%2}")
                                .arg(skuList.at(int(m_random.bounded(quint32(skuList.size())))))
                                .arg(1 + m_random.bounded(3));
            event.createdAt = m_clock->now();
            if (!store.insertEvent(event)) {
                *error = store.lastError();
                return false;
            }
        }
        if (!transaction.commit()) {
            *error = transaction.errorText();
            return false;
        }
        m_produced += chunk;
        done += chunk;
    }
    return true;
}
