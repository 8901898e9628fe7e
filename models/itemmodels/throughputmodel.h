// Finished attempts per minute over the last hour, oldest minute first, for a line or bar
// chart. The minute is shown relative to now (-59 ... 0) so that a logical clock reads as
// well as the wall clock; MinuteStartRole gives its absolute start.
#pragma once

#include "healthsnapshot.h"

#include <QAbstractTableModel>

class ThroughputModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { MinuteColumn, DeliveredColumn, FailedColumn, ColumnCount };
    enum Role { MinuteStartRole = Qt::UserRole };

    explicit ThroughputModel(QObject *parent = nullptr);

    void setSnapshot(const HealthSnapshot &snapshot);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<ThroughputMinute> m_minutes;
};
