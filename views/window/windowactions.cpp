#include "windowactions.h"

#include "editactions.h"
#include "eventlistmodel.h"
#include "eventtablecadence.h"
#include "eventtablemenu.h"
#include "grantsmonitor.h"
#include "healthmonitor.h"
#include "healthworker.h"
#include "jobstatus.h"
#include "notesactions.h"
#include "operatoractions.h"
#include "reopenactions.h"
#include "resolveactions.h"

#include <QAction>
#include <QStatusBar>

namespace {

template<class Actions>
Actions *make(const WindowActions::Setup &setup, QWidget *window)
{
    auto *actions = new Actions(setup.url, setup.view, setup.readOnly, setup.clock, window);
    if (setup.profile && !setup.profile->isNative())
        actions->setProfile(*setup.profile);
    return actions;
}

} // namespace

WindowActions::WindowActions(const Setup &setup, QWidget *window)
    : QObject(window)
    , m_native(!setup.profile || setup.profile->isNative())
    , m_view(setup.view)
{
    m_actions = new OperatorActions(
        setup.url, setup.view, setup.events, setup.readOnly, setup.clock, window);
    if (!m_native)
        m_actions->setProfile(*setup.profile);
    m_resolve = make<ResolveActions>(setup, window);
    m_reopen = make<ReopenActions>(setup, window);
    m_edit = make<EditActions>(setup, window);
    m_notes = make<NotesActions>(setup, window);
    HealthMonitor *monitor = setup.monitor;
    connect(m_actions, &OperatorActions::replayFinished, monitor, &HealthMonitor::refreshNow);
    connect(m_resolve, &ResolveActions::resolveFinished, monitor, &HealthMonitor::refreshNow);
    connect(m_reopen, &ReopenActions::reopenFinished, monitor, &HealthMonitor::refreshNow);
    connect(m_edit, &EditActions::editFinished, monitor, &HealthMonitor::refreshNow);
    // The operator's own change shows in the table at once, not on its cadence.
    EventTableCadence *cadence = setup.events->cadence();
    connect(m_actions, &OperatorActions::replayFinished, cadence, &EventTableCadence::readNow);
    connect(m_resolve, &ResolveActions::resolveFinished, cadence, &EventTableCadence::readNow);
    connect(m_reopen, &ReopenActions::reopenFinished, cadence, &EventTableCadence::readNow);
    connect(m_edit, &EditActions::editFinished, cadence, &EventTableCadence::readNow);
    setShortcuts();
    setupGrants(setup);
}

// Every action of the Events page has a key (Ctrl+Shift+R and Ctrl+Shift+X are the actions'
// own); the window carries them, so they work from any page.
void WindowActions::setShortcuts()
{
    m_actions->replayMatchingAction()->setShortcut(tr("Ctrl+Shift+M"));
    m_reopen->reopenSelectedAction()->setShortcut(tr("Ctrl+Shift+O"));
    m_edit->editSelectedAction()->setShortcut(tr("Ctrl+Shift+E"));
    m_notes->addNoteAction()->setShortcut(tr("Ctrl+Shift+N"));
    m_notes->clearNotesAction()->setShortcut(tr("Ctrl+Shift+Del"));
}

void WindowActions::addStatusTo(QStatusBar *bar) const
{
    bar->addPermanentWidget(m_actions->replayStatus());
    bar->addPermanentWidget(m_resolve->status());
    bar->addPermanentWidget(m_reopen->status());
    bar->addPermanentWidget(m_edit->status());
    bar->addPermanentWidget(m_notes->status());
    bar->addPermanentWidget(m_actions->exportStatus());
}

EventTableMenu *WindowActions::addTableMenu(FilterBar *filterBar, QObject *parent) const
{
    auto *menu = new EventTableMenu(m_view, filterBar, m_actions, parent);
    menu->setResolveAction(m_resolve->resolveSelectedAction());
    menu->setReopenAction(m_reopen->reopenSelectedAction());
    menu->setEditAction(m_edit->editSelectedAction());
    menu->setNoteActions(m_notes->addNoteAction(), m_notes->clearNotesAction());
    return menu;
}

void WindowActions::setSchemaVersion(int version)
{
    if (!m_native)
        return;
    m_resolve->setSchemaVersion(version);
    m_reopen->setSchemaVersion(version);
    m_edit->setSchemaVersion(version);
    m_notes->setSchemaVersion(version);
}

// The grants are read on a worker of their own when the window opens and again each time the
// figures become current after a stale spell (a reconnect: the grants may have changed). Until
// the first answer nothing is refused by them; a read-only window (--read-only) refuses anyway.
void WindowActions::setupGrants(const Setup &setup)
{
    OpenOptions options = HealthWorker::defaultOpenOptions();
    options.validateSchema = false; // validated when the window's database was opened
    m_grants = new GrantsMonitor(setup.url, options, this);
    connect(m_grants, &GrantsMonitor::grantsChanged, this, &WindowActions::applyGrants);
    if (setup.readOnly)
        return; // nothing is offered that writes
    connect(setup.monitor, &HealthMonitor::staleChanged, m_grants, [this](bool stale) {
        if (!stale)
            m_grants->refresh();
    });
    m_grants->refresh();
}

void WindowActions::applyGrants(const TableGrants &grants)
{
    if (!m_native)
        return; // a profile's writes are its own (its replay statement), refused by it
    m_actions->setGrants(grants);
    m_resolve->setGrants(grants);
    m_reopen->setGrants(grants);
    m_edit->setGrants(grants);
    m_notes->setGrants(grants);
    emit grantsChanged(grants);
}
