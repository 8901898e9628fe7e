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
    connect(m_model, &EventListModel::loaded, this, [this] {
        if (!m_stopped && m_model->rowCount() > 0)
            fitNow();
    });
    connect(m_view->horizontalHeader(), &QHeaderView::sectionResized, this, [this] {
        if (!m_fitting && QGuiApplication::mouseButtons() != Qt::NoButton)
            m_stopped = true; // the operator dragged a column's edge: their widths from now on
    });
}

void ColumnFitter::fitNow()
{
    QHeaderView *header = m_view->horizontalHeader();
    m_fitting = true;
    for (int column = 0; column < header->count(); ++column) {
        if (header->isSectionHidden(column))
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
