#include "historymodel.h"

namespace {

QVariant seconds(const std::optional<qint64> &ms)
{
    return ms ? QVariant(double(*ms) / 1000.0) : QVariant();
}

} // namespace

HistoryModel::HistoryModel(QObject *parent)
    : QAbstractTableModel(parent)
{ }

void HistoryModel::setHistory(const DeliveryHistory &history)
{
    beginResetModel();
    m_history = history;
    endResetModel();
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

int HistoryModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_history.buckets.size());
}

int HistoryModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant HistoryModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const HistoryBucket &bucket = m_history.buckets.at(index.row());
    if (role == BucketStartRole)
        return bucket.start;
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case AgoColumn: {
        // From the bucket's start, not its row: an incomplete history lacks the oldest ones.
        const qint64 last = DeliveryHistory::lastBucketStart(m_history.range, m_history.now);
        const qint64 buckets = (bucket.start - last) / DeliveryHistory::bucketMs(m_history.range);
        return double(buckets) / bucketsPerUnit(m_history.range);
    }
    case DeliveredColumn:
        return bucket.delivered;
    case FailedColumn:
        return bucket.failed;
    case P50Column:
        return seconds(bucket.latency.p50Ms);
    case P95Column:
        return seconds(bucket.latency.p95Ms);
    case P99Column:
        return seconds(bucket.latency.p99Ms);
    case CountColumn:
        return bucket.latency.count;
    default:
        return {};
    }
}

QVariant HistoryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case AgoColumn:
        return tr("Ago");
    case DeliveredColumn:
        return tr("Delivered");
    case FailedColumn:
        return tr("Failed");
    case P50Column:
        return tr("p50 (s)");
    case P95Column:
        return tr("p95 (s)");
    case P99Column:
        return tr("p99 (s)");
    case CountColumn:
        return tr("Deliveries");
    default:
        return {};
    }
}
