// Finished attempts per minute over the last hour, oldest minute first, for a line or bar
// chart. The minute is shown relative to now (-59 ... 0) so that a logical clock reads as
// well as the wall clock; MinuteStartRole gives its absolute start.
#pragma once

#include "healthsnapshot.h"
#include "valuetablemodel.h"

class ThroughputModel : public ValueTableModel
{
    Q_OBJECT
public:
    enum Column { MinuteColumn, DeliveredColumn, FailedColumn, ColumnCount };
    enum Role { MinuteStartRole = Qt::UserRole };

    explicit ThroughputModel(QObject *parent = nullptr);

    void setSnapshot(const HealthSnapshot &snapshot);

protected:
    QVariant cellData(int row, int column, int role) const override;

private:
    enum { MinuteStartValue = ColumnCount }; // the value past the columns: MinuteStartRole's
};
