// The statements behind the event table, run by EventQueryWorker on its own connection: one
// keyset page (WHERE (key, event_id) > anchor ORDER BY key, event_id LIMIT n) and a bounded count
// of the matching rows. Both run in a read-only transaction, since a profile's SQL is part of
// the statement.
#pragma once

#include "eventpage.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <optional>

class EventPageQuery
{
public:
    explicit EventPageQuery(const QSqlDatabase &db);

    // The rows of the requested page, in the table's order; nothing when the statement failed.
    std::optional<QList<EventRow>> page(const EventPageRequest &request);
    // Matching rows, exact up to EventPageAnswer::CountLimit; CountLimit + 1 for more.
    std::optional<qint64> count(const EventPageRequest &request);

    QString errorText() const { return m_errorText; }
    QSqlError error() const { return m_error; }
    // The last statement was stopped by a cancel or by the statement timeout.
    bool wasCancelled() const;

private:
    QString pageSql(const EventPageRequest &request, bool forward) const;
    bool fail(const QString &text, const QSqlError &error);

    QSqlDatabase m_db;
    QString m_errorText;
    QSqlError m_error;
};
