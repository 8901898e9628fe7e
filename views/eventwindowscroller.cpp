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
    bar->setValue(bar->value() + rows * step);
}

void EventWindowScroller::onScrolled(int value)
{
    if (value == m_view->verticalScrollBar()->minimum() && m_model->canFetchPrevious())
        m_model->fetchPrevious();
}
