#include "replaylogmodel.h"

#include "timeformat.h"

#include <QSqlError>
#include <QSqlQuery>

ReplayLogModel::ReplayLogModel(QObject *parent)
    : QSqlQueryModel(parent)
{ }

bool ReplayLogModel::load(const QSqlDatabase &db, const QString &eventId)
{
    m_eventId = eventId;
    QSqlQuery query(db);
    query.prepare(QStringLiteral("SELECT replayed_at, event_id, operator, reason, reset_failures,"
                                 " failures_before FROM replay_log")
        + (eventId.isEmpty() ? QString() : QStringLiteral(" WHERE event_id = :id"))
        + QStringLiteral(" ORDER BY replayed_at DESC, replay_id DESC"));
    if (!eventId.isEmpty())
        query.bindValue(QStringLiteral(":id"), eventId);
    query.exec();
    setQuery(std::move(query));
    static const char *const titles[ColumnCount]
        = {"When", "Event", "Operator", "Reason", "Budget", "Failures before"};
    for (int column = 0; column < ColumnCount; ++column)
        setHeaderData(column, Qt::Horizontal, tr(titles[column]));
    return !lastError().isValid();
}

QVariant ReplayLogModel::data(const QModelIndex &index, int role) const
{
    const QVariant raw = QSqlQueryModel::data(index, Qt::DisplayRole);
    if (role == RawValueRole)
        return raw;
    if (role != Qt::DisplayRole)
        return QSqlQueryModel::data(index, role);
    if (index.column() == WhenColumn && !raw.isNull())
        return TimeFormat::time(raw.toLongLong());
    if (index.column() == BudgetColumn && !raw.isNull())
        return raw.toBool() ? tr("reset") : tr("one more attempt");
    return raw;
}
