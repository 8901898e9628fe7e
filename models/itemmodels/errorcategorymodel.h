// PENDING and DEAD rows by their last error category: TRANSIENT, PERMANENT, then any other
// category found in the table.
#pragma once

#include "snapshottablemodel.h"

class ErrorCategoryModel : public SnapshotTableModel<CategoryCount>
{
    Q_OBJECT
public:
    enum Column { CategoryColumn, CountColumn, ColumnCount };

    explicit ErrorCategoryModel(QObject *parent = nullptr);

    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
};
