#include "valuetablemodel.h"

ValueTableModel::ValueTableModel(const QStringList &headers, QObject *parent)
    : QAbstractTableModel(parent)
    , m_headers(headers)
{ }

void ValueTableModel::resetRows(const SqlRows &rows)
{
    if (rows == m_rows)
        return; // a refresh that found the same values: nothing to redraw
    beginResetModel();
    storeRows(rows);
    endResetModel();
}

void ValueTableModel::updateRows(const SqlRows &rows)
{
    if (rows.size() != m_rows.size() || rows.isEmpty()) {
        resetRows(rows);
        return;
    }
    if (rows == m_rows)
        return;
    storeRows(rows);
    emit dataChanged(index(0, 0), index(int(m_rows.size()) - 1, columnCount() - 1));
}

int ValueTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ValueTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_headers.size());
}

QVariant ValueTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    return cellData(index.row(), index.column(), role);
}

QVariant ValueTableModel::cellData(int row, int column, int role) const
{
    if (role == Qt::DisplayRole)
        return value(row, column);
    if (role == Qt::TextAlignmentRole && m_rightAligned.contains(column))
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    return {};
}

QVariant ValueTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0
        || section >= m_headers.size())
        return QAbstractTableModel::headerData(section, orientation, role);
    return m_headers.at(section);
}
