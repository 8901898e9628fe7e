// Finished attempts per minute over the last hour, oldest minute first, for a line or bar
// chart. The minute is shown relative to now (-59 ... 0) so that a logical clock reads as
// well as the wall clock; MinuteStartRole gives its absolute start.
#pragma once

#include "snapshottablemodel.h"

class ThroughputModel : public SnapshotTableModel<ThroughputMinute>
{
    Q_OBJECT
public:
    enum Column { MinuteColumn, DeliveredColumn, FailedColumn, ColumnCount };
    enum Role { MinuteStartRole = Qt::UserRole };

    explicit ThroughputModel(QObject *parent = nullptr);

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
};
