// The Charts tab's history as a table, oldest bucket first (only the newest ones while a first
// reading is incomplete): when (in the range's unit before
// now: minutes for 1 h, hours for 24 h, days for 7 d; the current bucket is 0), finished
// attempts, and the delivery latency's p50, p95 and p99 in seconds (null where nothing was
// delivered: no latency, never 0). BucketStartRole gives a bucket's absolute start.
#pragma once

#include "deliveryhistory.h"
#include "valuetablemodel.h"

class HistoryModel : public ValueTableModel
{
    Q_OBJECT
public:
    enum Column {
        AgoColumn,
        DeliveredColumn,
        FailedColumn,
        P50Column,
        P95Column,
        P99Column,
        CountColumn, // events delivered in the bucket (the latency's count)
        ColumnCount
    };
    enum Role { BucketStartRole = Qt::UserRole };

    explicit HistoryModel(QObject *parent = nullptr);

    void setHistory(const DeliveryHistory &history);
    const DeliveryHistory &history() const { return m_history; }
    // Buckets per unit of AgoColumn: 1 for 1 h (minutes), 4 for 24 h (hours), 24 for 7 d (days).
    static int bucketsPerUnit(HistoryRange range);

protected:
    QVariant cellData(int row, int column, int role) const override;

private:
    enum { BucketStartValue = ColumnCount }; // the value past the columns: BucketStartRole's
    QVariantList rowOf(const HistoryBucket &bucket) const;

    DeliveryHistory m_history;
};
