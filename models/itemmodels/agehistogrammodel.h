// The age histogram of PENDING rows as a table for a bar chart: one row per bucket.
#pragma once

#include "healthsnapshot.h"
#include "valuetablemodel.h"

class AgeHistogramModel : public ValueTableModel
{
    Q_OBJECT
public:
    enum Column { LabelColumn, CountColumn, ColumnCount };
    enum Role { UpperBoundRole = Qt::UserRole }; // the bucket's bound in ms; null beyond the last

    explicit AgeHistogramModel(QObject *parent = nullptr);

    void setSnapshot(const HealthSnapshot &snapshot);
    // A scenario's logical clock: the buckets are labelled in its units ("<= 1000 units"), as
    // its ages are compared with the same bounds. Applies from the next snapshot.
    void setLogicalClock(bool logical) { m_logical = logical; }

protected:
    QVariant cellData(int row, int column, int role) const override;

private:
    enum { UpperBoundValue = ColumnCount }; // the value past the columns: UpperBoundRole's
    bool m_logical = false;
};
