// The base of the table models whose rows are plain values: a fixed header, one QVariantList per
// row (SqlRows, as a worker reads them, or built from a snapshot), and a data() override per
// model for its display formatting and its roles. A row may hold values past the last column for
// a model's roles (a bucket's start beside its figures). The model never reads a database.
#pragma once

#include "sqlrows.h"

#include <QAbstractTableModel>
#include <QSet>
#include <QStringList>

class ValueTableModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    const SqlRows &rows() const { return m_rows; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

protected:
    // `headers` names the columns, in the order of the model's Column enum.
    explicit ValueTableModel(const QStringList &headers, QObject *parent = nullptr);

    // The model is reset, unless the rows equal those it holds: views and charts redraw only
    // what changed (a quiet outbox's refreshes redraw nothing).
    void resetRows(const SqlRows &rows);
    // As resetRows(), but rows of the same number change in place (dataChanged, no reset): a
    // chart's model mapper then updates its bars instead of making them anew, which Qt Charts
    // 6.4 does without freeing the old ones (the live demo grew by about 0.15 MB a minute).
    void updateRows(const SqlRows &rows);
    // The same within a reset the model makes itself, to change its own state with the rows.
    void storeRows(const SqlRows &rows) { m_rows = rows; }
    // Counts and figures: aligned right, their TextAlignmentRole.
    void setRightAligned(const QSet<int> &columns) { m_rightAligned = columns; }
    QVariant value(int row, int column) const { return m_rows.at(row).value(column); }

    // What a valid cell holds for `role`: by default its value for display, the alignment of
    // setRightAligned(), nothing for other roles.
    virtual QVariant cellData(int row, int column, int role) const;

private:
    QStringList m_headers;
    QSet<int> m_rightAligned;
    SqlRows m_rows;
};
