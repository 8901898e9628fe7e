#include "throughputmodel.h"

ThroughputModel::ThroughputModel(QObject *parent)
    : SnapshotTableModel(
        &HealthSnapshot::throughput, {tr("Minute"), tr("Delivered"), tr("Failed")}, parent)
{ }

QVariant ThroughputModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const ThroughputMinute &minute = items().at(index.row());
    if (role == MinuteStartRole)
        return minute.minuteStart;
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case MinuteColumn:
        return index.row() - int(items().size()) + 1; // the current minute is 0
    case DeliveredColumn:
        return minute.delivered;
    case FailedColumn:
        return minute.failed;
    default:
        return {};
    }
}
