#include "throughputmodel.h"

ThroughputModel::ThroughputModel(QObject *parent)
    : ValueTableModel({tr("Minute"), tr("Delivered"), tr("Failed")}, parent)
{
    setRightAligned({MinuteColumn, DeliveredColumn, FailedColumn});
}

void ThroughputModel::setSnapshot(const HealthSnapshot &snapshot)
{
    SqlRows rows;
    const int count = int(snapshot.throughput.size());
    for (int row = 0; row < count; ++row) {
        const ThroughputMinute &minute = snapshot.throughput.at(row);
        const int ago = row - count + 1; // the current minute is 0
        rows << QVariantList {ago, minute.delivered, minute.failed, minute.minuteStart};
    }
    resetRows(rows);
}

QVariant ThroughputModel::cellData(int row, int column, int role) const
{
    if (role == MinuteStartRole)
        return value(row, MinuteStartValue);
    return ValueTableModel::cellData(row, column, role);
}
