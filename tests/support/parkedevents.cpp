#include "parkedevents.h"

#include "outboxstore.h"

#include <QDateTime>

bool parkEvents(const QSqlDatabase &db, int dead, const std::function<QString(int)> &payloadOf)
{
    OutboxStore store(db);
    const qint64 now = QDateTime::currentMSecsSinceEpoch() - 60000;
    for (int i = 0; i <= dead; ++i) {
        const QString id = QStringLiteral("P-%1").arg(i, 4, 10, QLatin1Char('0'));
        const QString payload
            = payloadOf ? payloadOf(i) : QStringLiteral("{\"sku\":\"SKU-1\",\"quantity\":1}");
        if (!store.insertEvent(
                {id, QStringLiteral("Order"), id, QStringLiteral("StockReserved"), payload, now}))
            return false;
        const ClaimResult claim = store.claim(id, QStringLiteral("w"), now);
        const bool ok = i == 0
            ? store.ack(claim.claim, now).ok
            : store.fail(claim.claim, now, ErrorCategory::Permanent, QStringLiteral("schema")).ok;
        if (!ok)
            return false;
    }
    return true;
}

bool parkDead(const QSqlDatabase &db, const QString &prefix, int first, int count)
{
    OutboxStore store(db);
    const qint64 now = QDateTime::currentMSecsSinceEpoch() - 60000;
    for (int i = first; i < first + count; ++i) {
        const QString id = QStringLiteral("%1-%2").arg(prefix).arg(i, 4, 10, QLatin1Char('0'));
        if (!store.insertEvent({id, QStringLiteral("Order"), id, QStringLiteral("StockReserved"),
                QStringLiteral("{}"), now}))
            return false;
        const ClaimResult claim = store.claim(id, QStringLiteral("w"), now);
        if (!store.fail(claim.claim, now, ErrorCategory::Permanent, QStringLiteral("schema")).ok)
            return false;
    }
    return true;
}
