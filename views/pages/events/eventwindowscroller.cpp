#include "eventwindowscroller.h"

#include "eventlistmodel.h"

#include <QHeaderView>
#include <QScrollBar>
#include <QTableView>

EventWindowScroller::EventWindowScroller(QTableView *view, EventListModel *model, QObject *parent)
    : QObject(parent)
    , m_view(view)
    , m_model(model)
{
    connect(model, &EventListModel::windowShifted, this, &EventWindowScroller::shift);
    // A page arrives as an insertion, then the rows it displaces are removed and the window
    // shifts; the view may move its bar in between, so the shift starts from where it was.
    connect(model, &QAbstractItemModel::rowsAboutToBeInserted, this,
        [this] { m_valueBeforePage = m_view->verticalScrollBar()->value(); });
    connect(view->verticalScrollBar(), &QScrollBar::valueChanged, this,
        &EventWindowScroller::onScrolled);
}

void EventWindowScroller::shift(int rows)
{
    QScrollBar *bar = m_view->verticalScrollBar();
    const int step = m_view->verticalScrollMode() == QAbstractItemView::ScrollPerItem
        ? 1
        : m_view->verticalHeader()->defaultSectionSize();
    // The view lays its rows out later (delayed layout); until then the bar keeps its old
    // range, which is wide enough for the moved position.
    bar->setValue(m_valueBeforePage + rows * step);
}

void EventWindowScroller::onScrolled(int value)
{
    if (value == m_view->verticalScrollBar()->minimum() && m_model->canFetchPrevious())
        m_model->fetchPrevious();
}
