// The window's writes and exports: replay, resolve, reopen, edit-and-replay, notes and the CSV
// exports, all on the Events page's table, each with its guards, its dialog and its part of the
// status bar; the grants the role has (read on a worker when the window opens and after each
// reconnect) and the schema's version enable them. Each finished write refreshes the snapshot.
#pragma once

#include "dbconnection.h"
#include "outboxprofile.h"

#include <QObject>
#include <functional>
#include <optional>

class EditActions;
class EventTableMenu;
class FilterBar;
class EventListModel;
class GrantsMonitor;
class HealthMonitor;
class NotesActions;
class OperatorActions;
class QStatusBar;
class QTableView;
class ReopenActions;
class ResolveActions;
class TableGrants;
class QWidget;

class WindowActions : public QObject
{
    Q_OBJECT
public:
    struct Setup
    {
        DatabaseUrl url;
        QTableView *view = nullptr; // the Events page's table
        EventListModel *events = nullptr; // its rows
        bool readOnly = false;
        std::function<qint64()> clock;
        std::optional<OutboxProfile> profile; // none or native: delivery_outbox
        HealthMonitor *monitor = nullptr;
    };
    // `window`: the actions' dialogs' parent, and theirs.
    WindowActions(const Setup &setup, QWidget *window);

    OperatorActions *operatorActions() const { return m_actions; }
    ResolveActions *resolve() const { return m_resolve; }
    ReopenActions *reopen() const { return m_reopen; }
    EditActions *edit() const { return m_edit; }
    NotesActions *notes() const { return m_notes; }
    // The jobs' progress and outcomes, beside the connection and health, never over them.
    void addStatusTo(QStatusBar *bar) const;
    // An older native schema: what cannot run yet (Resolve, Reopen, Edit, notes) says why.
    void setSchemaVersion(int version);
    // The event table's row menu on these actions (Replay, Resolve, Reopen, Edit, notes).
    EventTableMenu *addTableMenu(FilterBar *filterBar, QObject *parent) const;

signals:
    // The role's grants as read (a profile's writes are its own: never emitted for one).
    void grantsChanged(const TableGrants &grants);

private:
    void setupGrants(const Setup &setup);
    void applyGrants(const TableGrants &grants);
    void setShortcuts();

    bool m_native = true;
    QTableView *m_view = nullptr;
    OperatorActions *m_actions = nullptr;
    ResolveActions *m_resolve = nullptr;
    ReopenActions *m_reopen = nullptr;
    EditActions *m_edit = nullptr;
    NotesActions *m_notes = nullptr;
    GrantsMonitor *m_grants = nullptr;
};
