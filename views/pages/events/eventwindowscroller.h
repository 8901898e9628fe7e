// Keeps an event table in place while its model's bounded window moves (EventListModel holds
// at most MaxRows rows): when rows are dropped or added at the top, the scroll position moves
// by as many rows, so the rows on screen stay on screen; and scrolling to the very top asks
// the model for the page before its window. Scrolling down needs nothing: the view's own
// fetchMore() does it.
#pragma once

#include <QObject>

class EventListModel;
class QTableView;

class EventWindowScroller : public QObject
{
    Q_OBJECT
public:
    // The view shows `model` (directly or through identity proxies); both outlive this object.
    EventWindowScroller(QTableView *view, EventListModel *model, QObject *parent = nullptr);

private:
    void shift(int rows);
    void onScrolled(int value);

    QTableView *m_view = nullptr;
    EventListModel *m_model = nullptr;
    int m_valueBeforePage = 0;
};
