#include "replaylogmodel.h"

#include "timeformat.h"

#include <QSqlQuery>

ReplayLogModel::ReplayLogModel(QObject *parent)
    : QAbstractTableModel(parent)
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
    beginResetModel();
    m_eventId = eventId;
    m_rows = rows;
    endResetModel();
}

bool ReplayLogModel::load(const QSqlDatabase &db, const QString &eventId)
{
    const std::optional<SqlRows> rows = readRows(db, eventId);
    setRows(eventId, rows.value_or(SqlRows()));
    return rows.has_value();
}

int ReplayLogModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ReplayLogModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ReplayLogModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    static const char *const titles[ColumnCount]
        = {"When", "Event", "Operator", "Reason", "Budget", "Failures before"};
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0
        || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    return tr(titles[section]);
}

QVariant ReplayLogModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const QVariant raw = m_rows.at(index.row()).value(index.column());
    if (role == RawValueRole)
        return raw;
    if (role != Qt::DisplayRole)
        return {};
    if (index.column() == WhenColumn && !raw.isNull())
        return TimeFormat::time(raw.toLongLong());
    if (index.column() == BudgetColumn && !raw.isNull())
        return raw.toBool() ? tr("reset") : tr("one more attempt");
    return raw;
}
