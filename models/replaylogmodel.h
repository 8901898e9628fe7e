// The replay audit trail: a QSqlQueryModel over replay_log, newest first, for every event or
// one event's, with times and the budget decision written out for reading.
#pragma once

#include <QSqlQueryModel>

class ReplayLogModel : public QSqlQueryModel
{
    Q_OBJECT
public:
    enum Column {
        WhenColumn,
        EventColumn,
        OperatorColumn,
        ReasonColumn,
        BudgetColumn,
        FailuresBeforeColumn,
        ColumnCount
    };
    enum Role { RawValueRole = Qt::UserRole }; // the stored value: ms or units, the boolean

    explicit ReplayLogModel(QObject *parent = nullptr);

    // Every replay, newest first; with an event ID only that event's.
    bool load(const QSqlDatabase &db, const QString &eventId = {});
    QString eventId() const { return m_eventId; }

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

private:
    QString m_eventId;
};
