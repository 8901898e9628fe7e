// PENDING and DEAD rows by their last error category: TRANSIENT, PERMANENT, then any other
// category found in the table.
#pragma once

#include "healthsnapshot.h"

#include <QAbstractTableModel>

class ErrorCategoryModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { CategoryColumn, CountColumn, ColumnCount };

    explicit ErrorCategoryModel(QObject *parent = nullptr);

    void setSnapshot(const HealthSnapshot &snapshot);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<CategoryCount> m_categories;
};
