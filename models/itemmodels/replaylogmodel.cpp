#include "replaylogmodel.h"

#include "timeformat.h"

#include <QSqlQuery>

ReplayLogModel::ReplayLogModel(QObject *parent)
    : ValueTableModel({tr("When"), tr("Event"), tr("Operator"), tr("Reason"), tr("Budget"),
                          tr("Failures before")},
        parent)
{ }

std::optional<SqlRows> ReplayLogModel::readRows(
    const QSqlDatabase &db, const QString &eventId, QString *error, int limit)
{
    QSqlQuery query(db);
    query.setForwardOnly(true);
    // Fixed fragments only; the event ID and the limit are bound.
    query.prepare(QStringLiteral("SELECT replayed_at, event_id, operator, reason, reset_failures,"
                                 " failures_before FROM replay_log")
        + (eventId.isEmpty() ? QString() : QStringLiteral(" WHERE event_id = :id"))
        + QStringLiteral(" ORDER BY replayed_at DESC, replay_id DESC")
        + (limit > 0 ? QStringLiteral(" LIMIT :limit") : QString()));
    if (!eventId.isEmpty())
        query.bindValue(QStringLiteral(":id"), eventId);
    if (limit > 0)
        query.bindValue(QStringLiteral(":limit"), limit);
    return readSqlRows(query, ColumnCount, error);
}

void ReplayLogModel::setRows(const QString &eventId, const SqlRows &rows)
{
    if (eventId == m_eventId && rows == this->rows())
        return; // read again after a snapshot, unchanged: nothing to redraw
    beginResetModel();
    m_eventId = eventId;
    storeRows(rows);
    endResetModel();
}

bool ReplayLogModel::load(const QSqlDatabase &db, const QString &eventId)
{
    const std::optional<SqlRows> rows = readRows(db, eventId);
    setRows(eventId, rows.value_or(SqlRows()));
    return rows.has_value();
}

QVariant ReplayLogModel::cellData(int row, int column, int role) const
{
    const QVariant raw = value(row, column);
    if (role == RawValueRole)
        return raw;
    if (role != Qt::DisplayRole)
        return {};
    if (column == WhenColumn && !raw.isNull())
        return TimeFormat::time(raw.toLongLong());
    if (column == BudgetColumn && !raw.isNull())
        return raw.toBool() ? tr("reset") : tr("one more attempt");
    return raw;
}
