#include "agehistogrammodel.h"

AgeHistogramModel::AgeHistogramModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void AgeHistogramModel::setSnapshot(const HealthSnapshot &snapshot)
{
    beginResetModel();
    m_buckets = snapshot.ageHistogram;
    endResetModel();
}

int AgeHistogramModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_buckets.size());
}

int AgeHistogramModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AgeHistogramModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const AgeBucket &bucket = m_buckets.at(index.row());
    if (role == UpperBoundRole)
        return bucket.upperBoundMs ? QVariant(*bucket.upperBoundMs) : QVariant();
    if (role == Qt::TextAlignmentRole && index.column() == CountColumn)
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    if (role != Qt::DisplayRole)
        return {};
    return index.column() == LabelColumn ? QVariant(ageBucketLabel(bucket))
                                         : QVariant(bucket.count);
}

QVariant AgeHistogramModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case LabelColumn:
        return tr("Age");
    case CountColumn:
        return tr("Pending");
    default:
        return {};
    }
}
