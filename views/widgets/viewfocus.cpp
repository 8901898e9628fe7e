#include "viewfocus.h"

#include <QAbstractItemView>
#include <QEvent>
#include <QItemSelectionModel>

void ViewFocus::keepSelection(QAbstractItemView *view)
{
    if (view->findChild<ViewFocus *>(QString(), Qt::FindDirectChildrenOnly))
        return;
    view->installEventFilter(new ViewFocus(view));
}

bool ViewFocus::eventFilter(QObject *watched, QEvent *event)
{
    auto *view = static_cast<QAbstractItemView *>(watched);
    if (event->type() == QEvent::FocusIn && !view->currentIndex().isValid()
        && view->selectionModel() && !view->selectionModel()->hasSelection())
        view->setCurrentIndex(QModelIndex()); // nothing selected, nothing made current
    return QObject::eventFilter(watched, event);
}
