// The age histogram of PENDING rows as a table for a bar chart: one row per bucket.
#pragma once

#include "snapshottablemodel.h"

class AgeHistogramModel : public SnapshotTableModel<AgeBucket>
{
    Q_OBJECT
public:
    enum Column { LabelColumn, CountColumn, ColumnCount };
    enum Role { UpperBoundRole = Qt::UserRole }; // the bucket's bound in ms; null beyond the last

    explicit AgeHistogramModel(QObject *parent = nullptr);

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
};
