// The attempt history of one event (master-detail): a QSqlQueryModel over delivery_attempt,
// selected with the event ID bound, times formatted for reading (colours are the view's).
#pragma once

#include <QSqlQueryModel>

class AttemptModel : public QSqlQueryModel
{
    Q_OBJECT
public:
    enum Column {
        AttemptColumn,
        WorkerColumn,
        ClaimedColumn,
        FinishedColumn,
        OutcomeColumn,
        ErrorCategoryColumn,
        ErrorColumn,
        ConsumerResultColumn,
        NextAttemptColumn,
        ColumnCount
    };
    enum Role { RawValueRole = Qt::UserRole }; // the stored value, e.g. times in ms or units

    explicit AttemptModel(QObject *parent = nullptr);

    // Shows the attempts of `eventId`; an empty ID shows none.
    bool setEvent(const QSqlDatabase &db, const QString &eventId);
    QString eventId() const { return m_eventId; }

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

private:
    QString m_eventId;
};
