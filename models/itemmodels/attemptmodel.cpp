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

std::optional<QVariant> AttemptModel::readLeaseUntil(
    const QSqlDatabase &db, const QString &eventId, QString *error)
{
    QSqlQuery query(db);
    query.setForwardOnly(true);
    query.prepare(
        QStringLiteral("SELECT CASE WHEN claim_token IS NULL THEN NULL ELSE lease_until END"
                       "  FROM delivery_outbox WHERE event_id = :id"));
    query.bindValue(QStringLiteral(":id"), eventId);
    const std::optional<SqlRows> rows = readSqlRows(query, 1, error);
    if (!rows)
        return std::nullopt;
    return rows->isEmpty() ? QVariant() : rows->first().value(0);
}

void AttemptModel::setRows(const QString &eventId, const SqlRows &rows, bool leaseRunning)
{
    beginResetModel();
    m_eventId = eventId;
    m_rows = eventId.isEmpty() ? SqlRows() : rows;
    m_leaseRunning = leaseRunning;
    endResetModel();
}

QString AttemptModel::outcome(int row) const
{
    const QVariant stored = m_rows.at(row).value(OutcomeColumn);
    if (!stored.isNull())
        return stored.toString();
    // Only the newest attempt can still run, and only while its claim's lease does.
    const bool newest = row == int(m_rows.size()) - 1;
    return newest && m_leaseRunning ? QString() : QStringLiteral("LEASE_EXPIRED");
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
    const int column = index.column();
    if (role == OutcomeRole)
        return column == OutcomeColumn ? QVariant(outcome(index.row())) : QVariant();
    if (role != Qt::DisplayRole)
        return {};
    const bool isTime
        = column == ClaimedColumn || column == FinishedColumn || column == NextAttemptColumn;
    if (isTime && !raw.isNull())
        return TimeFormat::time(raw.toLongLong());
    if (column == OutcomeColumn) {
        const QString word = outcome(index.row());
        if (word.isEmpty())
            return tr("in flight");
        return word == QLatin1String("LEASE_EXPIRED") ? tr("LEASE EXPIRED") : word;
    }
    return raw;
}
