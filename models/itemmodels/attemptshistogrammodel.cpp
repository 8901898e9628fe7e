#include "attemptshistogrammodel.h"

AttemptsHistogramModel::AttemptsHistogramModel(QObject *parent)
    : SnapshotTableModel(
        &HealthSnapshot::attemptsHistogram, {tr("Failures"), tr("Pending"), tr("Dead")}, parent)
{ }

QVariant AttemptsHistogramModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    if (role != Qt::DisplayRole)
        return {};
    const FailuresBucket &bucket = items().at(index.row());
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
