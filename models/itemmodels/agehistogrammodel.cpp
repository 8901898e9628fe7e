#include "agehistogrammodel.h"

#include "timeformat.h"

namespace {

QString logicalLabel(const AgeBucket &bucket)
{
    return bucket.upperBoundMs
        ? u"<= "_qs + TimeFormat::units(*bucket.upperBoundMs)
        : u"> "_qs + TimeFormat::units(HealthSnapshot::ageBoundsMs().constLast());
}

} // namespace

AgeHistogramModel::AgeHistogramModel(QObject *parent)
    : ValueTableModel({tr("Age"), tr("Pending")}, parent)
{
    setRightAligned({CountColumn});
}

void AgeHistogramModel::setSnapshot(const HealthSnapshot &snapshot)
{
    SqlRows rows;
    for (const AgeBucket &bucket : snapshot.ageHistogram) {
        const QVariant bound = bucket.upperBoundMs ? QVariant(*bucket.upperBoundMs) : QVariant();
        rows << QVariantList {
            m_logical ? logicalLabel(bucket) : ageBucketLabel(bucket), bucket.count, bound};
    }
    updateRows(rows); // charted: see updateRows()
}

QVariant AgeHistogramModel::cellData(int row, int column, int role) const
{
    if (role == UpperBoundRole)
        return value(row, UpperBoundValue);
    return ValueTableModel::cellData(row, column, role);
}
