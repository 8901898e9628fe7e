#include "eventpagequery.h"

#include "enginestatements.h"
#include "readonlytransaction.h"
#include "sqldialect.h"

#include <QSqlQuery>
#include <algorithm>

namespace {

using Anchor = EventPageRequest::Anchor;

EventRow rowOf(const QSqlQuery &query)
{
    EventRow row;
    row.eventId = query.value(0).toString();
    row.eventType = query.value(1).toString();
    row.aggregate
        = query.value(2).toString() + QLatin1Char(' ') + query.value(3).toString().trimmed();
    row.status = query.value(4).toString();
    row.failures = query.value(5).toInt();
    row.createdAt = query.value(6).toLongLong();
    row.nextAttemptAt = query.value(7).toLongLong();
    row.claimed = query.value(8).toBool();
    row.leaseUntil = query.value(9).toLongLong();
    row.errorCategory = query.value(10).toString();
    row.lastError = query.value(11).toString();
    row.sortKey = query.value(12);
    return row;
}

} // namespace

EventPageQuery::EventPageQuery(const QSqlDatabase &db)
    : m_db(db)
{ }

bool EventPageQuery::fail(const QString &text, const QSqlError &error)
{
    m_errorText = text.simplified();
    m_error = error;
    return false;
}

bool EventPageQuery::wasCancelled() const
{
    return SqlDialect::of(m_db).wasCancelled(m_error);
}

QString EventPageQuery::pageSql(const EventPageRequest &request, bool forward) const
{
    const QString &key = request.sortExpression;
    const QString direction = forward ? QStringLiteral(" ASC") : QStringLiteral(" DESC");
    // clang-format off
    QString sql = QStringLiteral(
        "SELECT event_id, event_type, aggregate_type, aggregate_id, status, failures,"
        " created_at, next_attempt_at, claim_token IS NOT NULL, lease_until,"
        " last_error_category, last_error, %1"
        " FROM %2 WHERE %3").arg(key, request.source, request.filter.whereClause(SqlDialect::of(m_db)));
    // clang-format on
    if (request.anchor != Anchor::None) {
        const QString comparison = QLatin1String(forward ? ">" : "<")
            + QLatin1String(request.anchor == Anchor::AtOrAfter ? "=" : "");
        sql += QStringLiteral(" AND ")
            + SqlDialect::of(m_db).rowComparison(key, QStringLiteral("event_id"), comparison,
                QStringLiteral(":k_key"), QStringLiteral(":k_id"));
    }
    return SqlDialect::of(m_db).statements().limitedSql(
        sql + QStringLiteral(" ORDER BY %1%2, event_id%2").arg(key, direction),
        QStringLiteral(":k_limit"));
}

std::optional<QList<EventRow>> EventPageQuery::page(const EventPageRequest &request)
{
    // A page before the anchor is read in the opposite order, then turned round.
    const bool before = request.anchor == Anchor::Before;
    const bool forward = request.ascending != before;
    ReadOnlyTransaction transaction(m_db);
    QSqlQuery *query = transaction.prepare(pageSql(request, forward));
    if (!query) {
        fail(transaction.errorText(), transaction.lastError());
        return std::nullopt;
    }
    request.filter.bindValues(*query, request.now, SqlDialect::of(m_db));
    if (request.anchor != Anchor::None) {
        query->bindValue(QStringLiteral(":k_key"), request.anchorKey);
        query->bindValue(QStringLiteral(":k_id"), request.anchorId);
    }
    query->bindValue(QStringLiteral(":k_limit"), request.limit);
    if (!query->exec()) {
        fail(query->lastError().text(), query->lastError());
        return std::nullopt;
    }
    QList<EventRow> rows;
    while (query->next())
        rows.append(rowOf(*query));
    if (query->lastError().isValid()) { // a statement cancelled while its rows came in
        fail(query->lastError().text(), query->lastError());
        return std::nullopt;
    }
    if (before)
        std::reverse(rows.begin(), rows.end());
    return rows;
}

std::optional<qint64> EventPageQuery::count(const EventPageRequest &request)
{
    // Bounded: a filter matching millions of rows stops reading after CountLimit + 1.
    // clang-format off
    const SqlDialect &dialect = SqlDialect::of(m_db);
    const QString matching = dialect.statements().limitedSql(
        QStringLiteral("SELECT 1 FROM %1 WHERE %2")
            .arg(request.source, request.filter.whereClause(dialect)),
        QStringLiteral(":k_limit"));
    const QString sql = QStringLiteral("SELECT count(*) FROM (%1) AS matching").arg(matching);
    // clang-format on
    ReadOnlyTransaction transaction(m_db);
    QSqlQuery *query = transaction.prepare(sql);
    if (!query) {
        fail(transaction.errorText(), transaction.lastError());
        return std::nullopt;
    }
    request.filter.bindValues(*query, request.now, SqlDialect::of(m_db));
    query->bindValue(QStringLiteral(":k_limit"), EventPageAnswer::CountLimit + 1);
    if (!query->exec() || !query->next()) {
        fail(query->lastError().text(), query->lastError());
        return std::nullopt;
    }
    return query->value(0).toLongLong();
}
