// PENDING and DEAD rows by number of failures, as a table for a stacked bar chart: one row
// per failures value (0 to the maximum present), the DEAD rows in a column of their own.
#pragma once

#include "healthsnapshot.h"

#include <QAbstractTableModel>

class AttemptsHistogramModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { FailuresColumn, PendingColumn, DeadColumn, ColumnCount };

    explicit AttemptsHistogramModel(QObject *parent = nullptr);

    void setSnapshot(const HealthSnapshot &snapshot);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<FailuresBucket> m_buckets;
};
