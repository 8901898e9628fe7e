#include "attemptshistogrammodel.h"

AttemptsHistogramModel::AttemptsHistogramModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void AttemptsHistogramModel::setSnapshot(const HealthSnapshot &snapshot)
{
    beginResetModel();
    m_buckets = snapshot.attemptsHistogram;
    endResetModel();
}

int AttemptsHistogramModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_buckets.size());
}

int AttemptsHistogramModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AttemptsHistogramModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    if (role != Qt::DisplayRole)
        return {};
    const FailuresBucket &bucket = m_buckets.at(index.row());
    switch (index.column()) {
    case FailuresColumn:
        return bucket.failures;
    case PendingColumn:
        return bucket.pending;
    case DeadColumn:
        return bucket.dead;
    default:
        return {};
    }
}

QVariant AttemptsHistogramModel::headerData(
    int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case FailuresColumn:
        return tr("Failures");
    case PendingColumn:
        return tr("Pending");
    case DeadColumn:
        return tr("Dead");
    default:
        return {};
    }
}
