#include "attemptshistogrammodel.h"

AttemptsHistogramModel::AttemptsHistogramModel(QObject *parent)
    : ValueTableModel({tr("Failures"), tr("Pending"), tr("Dead")}, parent)
{
    setRightAligned({FailuresColumn, PendingColumn, DeadColumn});
}

void AttemptsHistogramModel::setSnapshot(const HealthSnapshot &snapshot)
{
    SqlRows rows;
    for (const FailuresBucket &bucket : snapshot.attemptsHistogram)
        rows << QVariantList {bucket.failures, bucket.pending, bucket.dead};
    updateRows(rows); // charted: see updateRows()
}
