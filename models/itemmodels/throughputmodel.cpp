#include "throughputmodel.h"

ThroughputModel::ThroughputModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void ThroughputModel::setSnapshot(const HealthSnapshot &snapshot)
{
    beginResetModel();
    m_minutes = snapshot.throughput;
    endResetModel();
}

int ThroughputModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_minutes.size());
}

int ThroughputModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ThroughputModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const ThroughputMinute &minute = m_minutes.at(index.row());
    if (role == MinuteStartRole)
        return minute.minuteStart;
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case MinuteColumn:
        return index.row() - int(m_minutes.size()) + 1; // the current minute is 0
    case DeliveredColumn:
        return minute.delivered;
    case FailedColumn:
        return minute.failed;
    default:
        return {};
    }
}

QVariant ThroughputModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case MinuteColumn:
        return tr("Minute");
    case DeliveredColumn:
        return tr("Delivered");
    case FailedColumn:
        return tr("Failed");
    default:
        return {};
    }
}
