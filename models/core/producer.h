// Produces events into the outbox, as a service committing business data and its outbox row
// would: several SKUs seeded in consumer_stock, a payload {"sku":..,"quantity":..}, and a few
// event types in turn (StockReserved, OrderPlaced, PaymentCaptured, ShipmentBooked), so that
// no one type is all of the outbox.
#pragma once

#include "clock.h"

#include <QRandomGenerator>
#include <QSqlDatabase>
#include <QStringList>

class Producer
{
public:
    static constexpr int InitialStock = 1000000;
    static constexpr qint64 RunIdCycle = 36LL * 36 * 36 * 36 * 36; // seconds
    static QStringList skus();
    static QStringList eventTypes();

    Producer(const QSqlDatabase &db, const Clock *clock, quint32 seed = 0);

    // Seeds every SKU's stock if absent; a restarted relay leaves existing stock alone.
    bool seedStock(QString *error);
    // Inserts `count` events now, in transactions of up to 500 rows.
    bool produce(int count, QString *error);
    int produced() const { return m_produced; }

private:
    QSqlDatabase m_db;
    const Clock *m_clock = nullptr;
    QRandomGenerator m_random;
    QString m_runId;
    int m_produced = 0;
};
