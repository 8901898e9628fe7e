#include "agehistogrammodel.h"

AgeHistogramModel::AgeHistogramModel(QObject *parent)
    : SnapshotTableModel(&HealthSnapshot::ageHistogram, {tr("Age"), tr("Pending")}, parent)
{ }

QVariant AgeHistogramModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const AgeBucket &bucket = items().at(index.row());
    if (role == UpperBoundRole)
        return bucket.upperBoundMs ? QVariant(*bucket.upperBoundMs) : QVariant();
    if (role == Qt::TextAlignmentRole && index.column() == CountColumn)
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    if (role != Qt::DisplayRole)
        return {};
    return index.column() == LabelColumn ? QVariant(ageBucketLabel(bucket))
                                         : QVariant(bucket.count);
}
