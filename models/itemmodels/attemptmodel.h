// The attempt history of one event (master-detail): rows of delivery_attempt as values, times
// formatted for reading (colours are the view's). readRows() is the one statement, run by
// whoever owns a connection (the detail worker, a test); the model itself never reads.
#pragma once

#include "sqlrows.h"

#include <QAbstractTableModel>
#include <QSqlDatabase>
#include <optional>

class AttemptModel : public QAbstractTableModel
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

    // The attempts of `eventId` in attempt order; nullopt with *error set when the read failed.
    static std::optional<SqlRows> readRows(
        const QSqlDatabase &db, const QString &eventId, QString *error = nullptr);

    // Shows `rows` as the attempts of `eventId`; an empty ID shows none.
    void setRows(const QString &eventId, const SqlRows &rows);
    // Reads and shows at once, on the calling thread (tests and tools; the window uses a worker).
    bool setEvent(const QSqlDatabase &db, const QString &eventId);
    QString eventId() const { return m_eventId; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QString m_eventId;
    SqlRows m_rows;
};
