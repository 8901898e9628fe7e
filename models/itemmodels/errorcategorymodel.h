// PENDING and DEAD rows by their last error category: TRANSIENT, PERMANENT, then any other
// category found in the table.
#pragma once

#include "healthsnapshot.h"
#include "valuetablemodel.h"

class ErrorCategoryModel : public ValueTableModel
{
    Q_OBJECT
public:
    enum Column { CategoryColumn, CountColumn, ColumnCount };

    explicit ErrorCategoryModel(QObject *parent = nullptr);

    void setSnapshot(const HealthSnapshot &snapshot);
};
