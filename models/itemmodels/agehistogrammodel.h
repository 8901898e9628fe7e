// The age histogram of PENDING rows as a table for a bar chart: one row per bucket.
#pragma once

#include "healthsnapshot.h"

#include <QAbstractTableModel>

class AgeHistogramModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { LabelColumn, CountColumn, ColumnCount };
    enum Role { UpperBoundRole = Qt::UserRole }; // the bucket's bound in ms; null beyond the last

    explicit AgeHistogramModel(QObject *parent = nullptr);

    void setSnapshot(const HealthSnapshot &snapshot);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<AgeBucket> m_buckets;
};
