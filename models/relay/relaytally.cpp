#include "relaytally.h"

#include <QSqlError>
#include <QSqlQuery>

namespace RelayTally {

namespace {

QString statement(Figure figure)
{
    switch (figure) {
    case Figure::Pending:
        return QStringLiteral("SELECT COUNT(*) FROM delivery_outbox WHERE status = 'PENDING'");
    case Figure::Delivered:
        return QStringLiteral("SELECT COUNT(*) FROM delivery_outbox WHERE status = 'DELIVERED'");
    case Figure::Dead:
        return QStringLiteral("SELECT COUNT(*) FROM delivery_outbox WHERE status = 'DEAD'");
    case Figure::Attempts:
        return QStringLiteral("SELECT COUNT(*) FROM delivery_attempt");
    case Figure::LeaseExpired:
        return QStringLiteral(
            "SELECT COUNT(*) FROM delivery_attempt WHERE outcome = 'LEASE_EXPIRED'");
    }
    return {};
}

} // namespace

std::optional<qint64> count(const QSqlDatabase &db, Figure figure, QString *error)
{
    QSqlQuery query(db);
    if (query.exec(statement(figure)) && query.next())
        return query.value(0).toLongLong();
    *error = query.lastError().text();
    return std::nullopt;
}

} // namespace RelayTally
