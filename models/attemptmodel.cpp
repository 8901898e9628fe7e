#include "attemptmodel.h"

#include "timeformat.h"

#include <QSqlError>
#include <QSqlQuery>

AttemptModel::AttemptModel(QObject *parent)
    : QSqlQueryModel(parent)
{ }

bool AttemptModel::setEvent(const QSqlDatabase &db, const QString &eventId)
{
    m_eventId = eventId;
    QSqlQuery query(db);
    query.prepare(QStringLiteral(
        "SELECT attempt_no, worker, claimed_at, finished_at, outcome, error_category,"
        " error_message, consumer_result, next_attempt_at"
        " FROM delivery_attempt WHERE event_id = :id ORDER BY attempt_no"));
    query.bindValue(QStringLiteral(":id"), eventId);
    query.exec();
    setQuery(std::move(query));
    static const char *const titles[ColumnCount] = {"#", "Worker", "Claimed", "Finished", "Outcome",
        "Error", "Message", "Consumer", "Next due"};
    for (int column = 0; column < ColumnCount; ++column)
        setHeaderData(column, Qt::Horizontal, tr(titles[column]));
    return !lastError().isValid();
}

QVariant AttemptModel::data(const QModelIndex &index, int role) const
{
    const QVariant raw = QSqlQueryModel::data(index, Qt::DisplayRole);
    if (role == RawValueRole)
        return raw;
    const int column = index.column();
    if (role != Qt::DisplayRole)
        return QSqlQueryModel::data(index, role);
    const bool isTime
        = column == ClaimedColumn || column == FinishedColumn || column == NextAttemptColumn;
    if (isTime && !raw.isNull())
        return TimeFormat::time(raw.toLongLong());
    if (column == OutcomeColumn && raw.isNull())
        return tr("in flight");
    return raw;
}
