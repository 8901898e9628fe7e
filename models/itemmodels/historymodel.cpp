#include "historymodel.h"

#include <utility>

namespace {

QVariant seconds(const std::optional<qint64> &ms)
{
    return ms ? QVariant(double(*ms) / 1000.0) : QVariant();
}

} // namespace

HistoryModel::HistoryModel(QObject *parent)
    : ValueTableModel({tr("Ago"), tr("Delivered"), tr("Failed"), tr("p50 (s)"), tr("p95 (s)"),
                          tr("p99 (s)"), tr("Deliveries")},
        parent)
{
    setRightAligned(
        {AgoColumn, DeliveredColumn, FailedColumn, P50Column, P95Column, P99Column, CountColumn});
}

void HistoryModel::setHistory(const DeliveryHistory &history)
{
    const DeliveryHistory shown = std::exchange(m_history, history);
    SqlRows rows;
    for (const HistoryBucket &bucket : history.buckets)
        rows << rowOf(bucket);
    // The same figures again (a quiet outbox): no reset, so the charts redraw nothing.
    if (rows == this->rows() && history.range == shown.range && history.complete == shown.complete
        && history.throughputAvailable == shown.throughputAvailable
        && history.latencyAvailable == shown.latencyAvailable)
        return;
    beginResetModel();
    storeRows(rows);
    endResetModel();
}

QVariantList HistoryModel::rowOf(const HistoryBucket &bucket) const
{
    // From the bucket's start, not its row: an incomplete history lacks the oldest ones.
    const qint64 last = DeliveryHistory::lastBucketStart(m_history.range, m_history.now);
    const qint64 buckets = (bucket.start - last) / DeliveryHistory::bucketMs(m_history.range);
    const double ago = double(buckets) / bucketsPerUnit(m_history.range);
    return {ago, bucket.delivered, bucket.failed, seconds(bucket.latency.p50Ms),
        seconds(bucket.latency.p95Ms), seconds(bucket.latency.p99Ms), bucket.latency.count,
        bucket.start};
}

int HistoryModel::bucketsPerUnit(HistoryRange range)
{
    switch (range) {
    case HistoryRange::Hour:
        return 1;
    case HistoryRange::Day:
        return 4;
    case HistoryRange::Week:
        break;
    }
    return 24;
}

QVariant HistoryModel::cellData(int row, int column, int role) const
{
    if (role == BucketStartRole)
        return value(row, BucketStartValue);
    return ValueTableModel::cellData(row, column, role);
}
