#include "eventtablemenu.h"

#include "errorsignature.h"
#include "eventlistmodel.h"
#include "filterbar.h"
#include "operatoractions.h"
#include "plaintext.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QHeaderView>
#include <QKeyEvent>
#include <QMenu>
#include <QTableView>

EventTableMenu::EventTableMenu(
    QTableView *view, FilterBar *filterBar, OperatorActions *actions, QObject *parent)
    : QObject(parent)
    , m_view(view)
    , m_filterBar(filterBar)
    , m_actions(actions)
    , m_copyIds(new QAction(tr("Copy event IDs"), this))
{
    m_copyIds->setObjectName(QStringLiteral("copyEventIdsAction"));
    m_copyIds->setShortcut(QKeySequence::Copy);
    // Only while the table has the focus: Ctrl+C in the search field copies its text.
    m_copyIds->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_view->addAction(m_copyIds);
    connect(m_copyIds, &QAction::triggered, this, &EventTableMenu::copySelectedIds);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_view, &QWidget::customContextMenuRequested, this, &EventTableMenu::showMenu);
    m_view->installEventFilter(this); // the keyboard's menu keys
}

bool EventTableMenu::eventFilter(QObject *watched, QEvent *event)
{
    if (watched != m_view)
        return QObject::eventFilter(watched, event);
    // X11 turns the Menu key into a keyboard context-menu event at the pointer (sent before the
    // key press); other platforms, and Shift+F10 everywhere, leave the key press alone.
    bool menuKey = false;
    if (event->type() == QEvent::ContextMenu)
        menuKey = static_cast<QContextMenuEvent *>(event)->reason() == QContextMenuEvent::Keyboard;
    if (event->type() == QEvent::KeyPress) {
        const auto *key = static_cast<QKeyEvent *>(event);
        menuKey = (key->key() == Qt::Key_Menu && key->modifiers() == Qt::NoModifier)
            || (key->key() == Qt::Key_F10 && key->modifiers() == Qt::ShiftModifier);
    }
    if (!menuKey)
        return QObject::eventFilter(watched, event);
    if (!QApplication::activePopupWidget()) // the X11 event and its key press: one menu
        showMenuAtCurrentRow();
    return true;
}

void EventTableMenu::showMenuAtCurrentRow()
{
    const QModelIndex current = m_view->currentIndex();
    QRect cell = current.isValid() ? m_view->visualRect(current) : QRect();
    if (!cell.isValid() || !m_view->viewport()->rect().intersects(cell)) {
        m_view->scrollTo(current);
        cell = current.isValid() ? m_view->visualRect(current) : QRect();
    }
    QMenu *menu = menuFor(current);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    const QPoint at = cell.isValid() ? cell.bottomLeft() : QPoint(0, 0);
    menu->popup(m_view->viewport()->mapToGlobal(at));
}

QStringList EventTableMenu::selectedEventIds() const
{
    QModelIndexList rows = m_view->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(),
        [](const QModelIndex &a, const QModelIndex &b) { return a.row() < b.row(); });
    QStringList ids;
    for (const QModelIndex &row : std::as_const(rows))
        ids << row.data(EventListModel::EventIdRole).toString();
    if (ids.isEmpty() && m_view->currentIndex().isValid())
        ids << m_view->currentIndex().data(EventListModel::EventIdRole).toString();
    return ids;
}

void EventTableMenu::copySelectedIds()
{
    const QStringList ids = selectedEventIds();
    if (!ids.isEmpty())
        QApplication::clipboard()->setText(ids.join(QLatin1Char('\n')));
}

QMenu *EventTableMenu::menuFor(const QModelIndex &index)
{
    auto *menu = new QMenu(m_view);
    if (index.isValid()) {
        if (!m_view->selectionModel()->isRowSelected(index.row(), index.parent()))
            m_view->setCurrentIndex(index.siblingAtColumn(0));
        // The stored value to filter by; its escaped display (PlainText) in the menu's words.
        const auto cell = [&index](int column) {
            return index.siblingAtColumn(column).data(EventListModel::RawTextRole).toString();
        };
        // A menu reads '&' as its shortcut's mark: '&&' shows one.
        const auto shown = [&index](int column) {
            return index.siblingAtColumn(column).data().toString().replace(
                QLatin1Char('&'), QLatin1String("&&"));
        };
        const QString id = index.data(EventListModel::EventIdRole).toString();
        menu->addAction(
            tr("Copy event ID"), this, [id] { QApplication::clipboard()->setText(id); });
        menu->addSeparator();
        const QString type = cell(EventListModel::TypeColumn);
        const QString aggregate = cell(EventListModel::AggregateColumn);
        const QString category = cell(EventListModel::ErrorCategoryColumn);
        // The type exactly; the aggregate as a text search (ID, type, aggregate or last error
        // containing it): the filter has no field of its own for an aggregate.
        menu->addAction(tr("Filter by this type (%1)").arg(shown(EventListModel::TypeColumn)), this,
                [this, type] { filterByType(type); })
            ->setEnabled(!type.isEmpty() && type != QLatin1String("n/a"));
        menu->addAction(
                tr("Filter by this aggregate (%1)").arg(shown(EventListModel::AggregateColumn)),
                this, [this, aggregate] { filterByText(aggregate); })
            ->setEnabled(!aggregate.isEmpty() && aggregate != QLatin1String("n/a"));
        // A row without an error (a delivered one) has nothing to filter by. Its error group is
        // the one the Errors page lists: the signature of the message's first characters.
        const QString lastError = cell(EventListModel::LastErrorColumn);
        if (!category.isEmpty() && !lastError.isEmpty()) {
            const QString signature
                = ErrorSignature::of(lastError.left(ErrorSignature::ReadLength));
            QString title = PlainText::escaped(signature).replace(u'&', u"&&"_qs);
            if (title.size() > 60)
                title = title.left(59) + QChar(0x2026);
            menu->addAction(tr("Filter by this error (%1)").arg(title), this,
                [this, signature] { filterByErrorSignature(signature); });
        }
        menu->addSeparator();
        menu->addAction(tr("Show attempts"), this, &EventTableMenu::showAttemptsRequested);
        menu->addAction(m_actions->replaySelectedAction());
        if (m_edit)
            menu->addAction(m_edit);
        if (m_resolve)
            menu->addAction(m_resolve);
        if (m_reopen)
            menu->addAction(m_reopen);
        if (m_addNote) {
            menu->addSeparator();
            menu->addAction(m_addNote);
            menu->addAction(m_clearNotes);
        }
    }
    menu->addAction(m_actions->replayMatchingAction());
    menu->addAction(m_actions->exportEventsAction());
    return menu;
}

void EventTableMenu::showMenu(const QPoint &position)
{
    QMenu *menu = menuFor(m_view->indexAt(position));
    menu->setAttribute(Qt::WA_DeleteOnClose);
    menu->popup(m_view->viewport()->mapToGlobal(position));
}

void EventTableMenu::filterByType(const QString &type)
{
    EventFilter filter = m_filterBar->filter();
    filter.eventType = type;
    m_filterBar->setFilter(filter);
}

void EventTableMenu::filterByText(const QString &text)
{
    EventFilter filter = m_filterBar->filter();
    filter.search = text;
    filter.searchMode = EventFilter::SearchMode::Contains;
    m_filterBar->setFilter(filter);
}

void EventTableMenu::filterByErrorSignature(const QString &signature)
{
    EventFilter filter = m_filterBar->filter();
    filter.errorSignature = signature;
    m_filterBar->setFilter(filter);
}
