// The event table's keyboard and mouse answers: Ctrl+C copies the selected event IDs, and the
// row context menu copies an ID, filters the table by the row's type, aggregate or error
// category (offered only when the row has one), shows the row's attempts, replays it
// (OperatorActions' action), resolves it and reopens it; each action enabled only when the
// selection holds a row in the state it takes (DEAD, or RESOLVED for Reopen). A right click
// opens the menu on the row under the pointer; Shift+F10 and the Menu key open it on the
// current row, below it.
#pragma once

#include <QObject>
#include <QPoint>

class FilterBar;
class OperatorActions;
class QAction;
class QMenu;
class QModelIndex;
class QTableView;

class EventTableMenu : public QObject
{
    Q_OBJECT
public:
    EventTableMenu(QTableView *view, FilterBar *filterBar, OperatorActions *actions,
        QObject *parent = nullptr);

    QAction *copyIdsAction() const { return m_copyIds; }
    // Resolve… (ResolveActions' action), offered next to Replay… on a row.
    void setResolveAction(QAction *action) { m_resolve = action; }
    // Reopen… (ReopenActions' action), after Resolve….
    void setReopenAction(QAction *action) { m_reopen = action; }
    // Edit and replay… (EditActions' action), after Replay….
    void setEditAction(QAction *action) { m_edit = action; }
    // Add note… and Clear notes… (NotesActions' actions), after Reopen….
    void setNoteActions(QAction *add, QAction *clear)
    {
        m_addNote = add;
        m_clearNotes = clear;
    }
    // The menu for the row under `index` (made current first), as a right click shows it; the
    // caller owns it.
    QMenu *menuFor(const QModelIndex &index);
    QStringList selectedEventIds() const;
    // Shift+F10 or the Menu key: the menu of the current row (none: of the table), at the row.
    void showMenuAtCurrentRow();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

signals:
    void showAttemptsRequested(); // the detail tab, on the current event

private:
    void showMenu(const QPoint &position);
    void copySelectedIds();
    void filterByType(const QString &type);
    void filterByText(const QString &text);
    void filterByErrorSignature(const QString &signature); // the error group's events

    QTableView *m_view;
    FilterBar *m_filterBar;
    OperatorActions *m_actions;
    QAction *m_copyIds;
    QAction *m_resolve = nullptr;
    QAction *m_reopen = nullptr;
    QAction *m_edit = nullptr;
    QAction *m_addNote = nullptr;
    QAction *m_clearNotes = nullptr;
};
