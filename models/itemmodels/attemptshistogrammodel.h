// PENDING and DEAD rows by number of failures, as a table for a stacked bar chart: one row
// per failures value (0 to the maximum present), the DEAD rows in a column of their own.
#pragma once

#include "healthsnapshot.h"
#include "valuetablemodel.h"

class AttemptsHistogramModel : public ValueTableModel
{
    Q_OBJECT
public:
    enum Column { FailuresColumn, PendingColumn, DeadColumn, ColumnCount };

    explicit AttemptsHistogramModel(QObject *parent = nullptr);

    void setSnapshot(const HealthSnapshot &snapshot);
};
