// What the chart models share: one list of a HealthSnapshot as a table, one row per item and
// the columns the subclass names, reset whole by setSnapshot(). A subclass gives the list and
// its column titles, and reads a cell in data().
#pragma once

#include "healthsnapshot.h"

#include <QAbstractTableModel>
#include <QStringList>

template <typename Item> class SnapshotTableModel : public QAbstractTableModel
{
public:
    using List = QList<Item> HealthSnapshot::*;

    void setSnapshot(const HealthSnapshot &snapshot)
    {
        beginResetModel();
        m_items = snapshot.*m_list;
        endResetModel();
    }

    int rowCount(const QModelIndex &parent = {}) const override
    {
        return parent.isValid() ? 0 : int(m_items.size());
    }
    int columnCount(const QModelIndex &parent = {}) const override
    {
        return parent.isValid() ? 0 : int(m_headers.size());
    }
    QVariant headerData(
        int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override
    {
        if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
            return QAbstractTableModel::headerData(section, orientation, role);
        return section >= 0 && section < m_headers.size() ? QVariant(m_headers.at(section))
                                                          : QVariant();
    }

protected:
    // `headers`: one title per column, in the subclass's Column order.
    SnapshotTableModel(List list, const QStringList &headers, QObject *parent)
        : QAbstractTableModel(parent)
        , m_list(list)
        , m_headers(headers)
    { }

    const QList<Item> &items() const { return m_items; }

private:
    List m_list;
    QStringList m_headers;
    QList<Item> m_items;
};
