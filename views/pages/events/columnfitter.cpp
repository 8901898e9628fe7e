#include "columnfitter.h"

#include "eventlistmodel.h"

#include <QGuiApplication>
#include <QHeaderView>
#include <QTableView>

ColumnFitter::ColumnFitter(QTableView *view, EventListModel *model, QObject *parent)
    : QObject(parent)
    , m_view(view)
    , m_model(model)
{
    m_view->horizontalHeader()->setResizeContentsPrecision(200); // the rows on screen and more
    const auto all = [this] { markDirty(0, EventListModel::ColumnCount - 1); };
    connect(m_model, &QAbstractItemModel::modelReset, this, all);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, all);
    connect(m_model, &QAbstractItemModel::dataChanged, this,
        [this](const QModelIndex &from, const QModelIndex &to) {
            markDirty(from.column(), to.column());
        });
    connect(m_model, &EventListModel::loaded, this, [this] {
        if (!m_stopped && m_model->rowCount() > 0 && !m_dirty.isEmpty())
            fitChanged();
    });
    connect(m_view->horizontalHeader(), &QHeaderView::sectionResized, this, [this] {
        if (!m_fitting && QGuiApplication::mouseButtons() != Qt::NoButton)
            m_stopped = true; // the operator dragged a column's edge: their widths from now on
    });
}

void ColumnFitter::markDirty(int first, int last)
{
    for (int column = first; column <= last; ++column)
        m_dirty.insert(column);
}

void ColumnFitter::fitNow()
{
    markDirty(0, EventListModel::ColumnCount - 1);
    fitChanged();
}

void ColumnFitter::fitChanged()
{
    QHeaderView *header = m_view->horizontalHeader();
    m_fitting = true;
    const QSet<int> dirty = std::exchange(m_dirty, {});
    for (int column = 0; column < header->count(); ++column) {
        if (header->isSectionHidden(column) || !dirty.contains(column))
            continue;
        if (column == EventListModel::LastErrorColumn) // wherever it stands
            fitColumn(column, LastMinWidth, LastMaxWidth);
        else
            fitColumn(column, MinWidth, MaxWidth);
    }
    m_fitting = false;
}

// Grows only: a column once wide enough for a long value keeps that width.
void ColumnFitter::fitColumn(int column, int floor, int ceiling)
{
    QHeaderView *header = m_view->horizontalHeader();
    const int before = header->sectionSize(column);
    m_view->resizeColumnToContents(column);
    const int fitted = qBound(floor, header->sectionSize(column), ceiling);
    header->resizeSection(column, qMax(before, fitted));
}
