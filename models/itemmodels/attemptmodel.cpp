#include "attemptmodel.h"

#include "timeformat.h"

#include <QSqlQuery>

AttemptModel::AttemptModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

std::optional<SqlRows> AttemptModel::readRows(
    const QSqlDatabase &db, const QString &eventId, QString *error)
{
    QSqlQuery query(db);
    query.setForwardOnly(true);
    // clang-format off
    query.prepare(QStringLiteral(
        "SELECT attempt_no, worker, claimed_at, finished_at, outcome, error_category,"
        "       error_message, consumer_result, next_attempt_at"
        "  FROM delivery_attempt"
        " WHERE event_id = :id"
        " ORDER BY attempt_no"));
    // clang-format on
    query.bindValue(QStringLiteral(":id"), eventId);
    return readSqlRows(query, ColumnCount, error);
}

void AttemptModel::setRows(const QString &eventId, const SqlRows &rows)
{
    beginResetModel();
    m_eventId = eventId;
    m_rows = eventId.isEmpty() ? SqlRows() : rows;
    endResetModel();
}

bool AttemptModel::setEvent(const QSqlDatabase &db, const QString &eventId)
{
    const std::optional<SqlRows> rows = readRows(db, eventId);
    setRows(eventId, rows.value_or(SqlRows()));
    return rows.has_value();
}

int AttemptModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int AttemptModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AttemptModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    static const char *const titles[ColumnCount] = {"#", "Worker", "Claimed", "Finished", "Outcome",
        "Error", "Message", "Consumer", "Next due"};
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0
        || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    return tr(titles[section]);
}

QVariant AttemptModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const QVariant raw = m_rows.at(index.row()).value(index.column());
    if (role == RawValueRole)
        return raw;
    if (role != Qt::DisplayRole)
        return {};
    const int column = index.column();
    const bool isTime
        = column == ClaimedColumn || column == FinishedColumn || column == NextAttemptColumn;
    if (isTime && !raw.isNull())
        return TimeFormat::time(raw.toLongLong());
    if (column == OutcomeColumn && raw.isNull())
        return tr("in flight");
    return raw;
}
