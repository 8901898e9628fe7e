#include "pagewiring.h"

#include "agehistogrammodel.h"
#include "detailpane.h"
#include "detailreader.h"
#include "diagnosismonitor.h"
#include "diagnosispage.h"
#include "diagnosisstatusline.h"
#include "errorspage.h"
#include "eventlistmodel.h"
#include "eventspage.h"
#include "filterbar.h"
#include "healthtiles.h"
#include "mainwindow.h"
#include "notesactions.h"
#include "operatoractions.h"
#include "overviewpage.h"
#include "pagenavigator.h"
#include "resolveactions.h"
#include "teachingsession.h"

#include <QHash>
#include <QPushButton>
#include <QTableView>

namespace {

ErrorsPage *errorsPage(const MainWindow &window)
{
    return qobject_cast<ErrorsPage *>(window.pages()->page(ErrorsPage::Key));
}

GroupWrites groupWrites(OperatorActions *replay, ResolveActions *resolve)
{
    GroupWrites writes;
    writes.replayRefusal = [replay] { return replay->replayRefusal(); };
    writes.replayBusy = [replay] { return replay->isBusy(); };
    writes.replay = [replay](const QString &signature, const QStringList &ids) {
        replay->replayGroup(signature, ids);
    };
    writes.resolveRefusal = [resolve] { return resolve->refusal(); };
    writes.resolveBusy = [resolve] { return resolve->isBusy(); };
    writes.resolve = [resolve](const QStringList &ids) { resolve->resolveEvents(ids); };
    return writes;
}

QPushButton *groupButton(ErrorsPage *page, const QString &text, const char *name)
{
    auto *button = new QPushButton(text);
    button->setObjectName(QLatin1String(name));
    page->addGroupButton(button);
    return button;
}

// "Add note…" and "Clear notes…" on the selected error group, guarded as the event's are.
void addGroupNoteButtons(ErrorsPage *page, NotesActions *notes)
{
    QPushButton *add = groupButton(page, QObject::tr("Add &note…"), "addGroupNoteButton");
    QPushButton *clear = groupButton(page, QObject::tr("C&lear notes…"), "clearGroupNotesButton");
    const auto update = [page, notes, add, clear] {
        const bool selected = !notes->isBusy() && page->selectedGroup();
        for (const auto &[button, why] :
            {std::pair {add, notes->addRefusal()}, std::pair {clear, notes->clearRefusal()}}) {
            button->setEnabled(why.isEmpty() && selected);
            button->setToolTip(why.isEmpty() ? QString() : why);
        }
    };
    QObject::connect(page, &ErrorsPage::groupChanged, add, update);
    QObject::connect(notes, &NotesActions::availabilityChanged, add, update);
    update();
    const auto target = [page] {
        const auto group = page->selectedGroup();
        return group ? NoteTarget {{}, group->signature} : NoteTarget {};
    };
    QObject::connect(add, &QPushButton::clicked, notes, [notes, target] {
        if (const NoteTarget group = target(); !group.errorGroup.isEmpty())
            notes->addNote(group);
    });
    QObject::connect(clear, &QPushButton::clicked, notes, [notes, target] {
        if (const NoteTarget group = target(); !group.errorGroup.isEmpty())
            notes->clearNotes(group);
    });
}

} // namespace

namespace PageWiring {

void wireErrors(MainWindow &window)
{
    ErrorsPage *page = errorsPage(window);
    OperatorActions *replay = window.operatorActions();
    ResolveActions *resolve = window.resolveActions();
    page->setGroupWrites(groupWrites(replay, resolve));
    QObject::connect(replay, &OperatorActions::replayAvailabilityChanged, page,
        &ErrorsPage::updateButtons);
    QObject::connect(
        resolve, &ResolveActions::availabilityChanged, page, &ErrorsPage::updateButtons);
    // Only when asked (Show events, Enter, a double click): the group's events on the Events
    // page, the filter shown there as a chip. Selecting a group filters nothing.
    QObject::connect(page, &ErrorsPage::filterRequested, &window,
        [&window](const EventFilter &filter) {
            window.filterBar()->setFilter(filter);
            window.showPage(EventsPage::Key);
        });
    QPushButton *show = groupButton(page, QObject::tr("Show &events"), "showGroupEventsButton");
    show->setEnabled(false);
    QObject::connect(page, &ErrorsPage::groupChanged, show,
        [page, show] { show->setEnabled(page->selectedGroup().has_value()); });
    QObject::connect(show, &QPushButton::clicked, page, &ErrorsPage::showSelectedEvents);
    addGroupNoteButtons(page, window.notesActions());
}

void wireDiagnosis(MainWindow &window, DiagnosisMonitor *diagnosis, DiagnosisStatusLine *line)
{
    DiagnosisPage *page = window.diagnosisPanel();
    QObject::connect(line, &QToolButton::clicked, &window,
        [&window] { window.showPage(DiagnosisPage::Key); });
    QObject::connect(
        diagnosis, &DiagnosisMonitor::resultChanged, page, &DiagnosisPage::setResult);
    QObject::connect(
        diagnosis, &DiagnosisMonitor::resultChanged, line, &DiagnosisStatusLine::setResult);
    // The DEAD tile's "(9 on hold)": the diagnosis counts the markers already, no statement more.
    HealthTiles *tiles = window.tiles();
    QObject::connect(diagnosis, &DiagnosisMonitor::resultChanged, tiles,
        [tiles](const DiagnosisResult &result) {
            tiles->setAcknowledged(result.onHold, result.investigating);
        });
    QObject::connect(diagnosis, &DiagnosisMonitor::failed, page, &DiagnosisPage::setFailure);
    QObject::connect(diagnosis, &DiagnosisMonitor::failed, line, &DiagnosisStatusLine::setFailure);
    QObject::connect(page, &DiagnosisPage::filterRequested, &window,
        [&window](const FindingFilter &shown) {
            window.openEventView(shown.filter, EventListModel::AgeColumn,
                shown.oldestFirst ? Qt::DescendingOrder : Qt::AscendingOrder);
        });
}

// The scenario's budget on the failures chart, its logical clock on the ages ("<= 1000 units").
void wireTeaching(MainWindow &window, TeachingSession *session)
{
    OverviewPage *overview = window.charts();
    AgeHistogramModel *ages = window.ageModel();
    QObject::connect(session, &TeachingSession::stateChanged, overview, [session, overview, ages] {
        ages->setLogicalClock(session->isLogicalClock());
        if (session->mode() == TeachingSession::Mode::LiveRelay)
            overview->setBudget(session->relayConfig().budget.maxAttempts);
        else if (session->mode() == TeachingSession::Mode::Scenario)
            overview->setBudget(session->scenarioBudget());
        else
            overview->followDataLimit(); // idle: the outbox's own limit, at the next snapshot
    });
    wireExplanations(window, session);
}

void wireExplanations(MainWindow &window, TeachingSession *session)
{
    DetailReader *reader = window.detailReader();
    QObject::connect(session, &TeachingSession::stateChanged, reader, [session, reader] {
        ExplainOptions explain;
        if (session->mode() == TeachingSession::Mode::LiveRelay) {
            explain.policy = session->relayConfig().policy;
            explain.budget = session->relayConfig().budget.maxAttempts;
        } else if (session->mode() == TeachingSession::Mode::Scenario) {
            explain.budget = session->scenarioBudget();
        }
        reader->setExplainOptions(explain);
    });
}

void wireNotes(MainWindow &window)
{
    QObject::connect(window.notesActions(), &NotesActions::notesChanged, &window, [&window] {
        window.eventModel()->refresh();
        window.detailPane()->refresh();
        errorsPage(window)->refresh();
        // The acknowledged count (the Diagnosis page, the DEAD tile's "(N on hold)") at once.
        window.diagnosis()->requestSoon(window.currentTime());
    });
}

void filterByTile(MainWindow &window, int tile)
{
    using T = HealthTiles::Tile;
    using S = EventFilter::State;
    static const QHash<int, S> states = {{int(T::Due), S::Due}, {int(T::Scheduled), S::Scheduled},
        {int(T::InFlight), S::InFlight}, {int(T::LeaseExpired), S::LeaseExpired},
        {int(T::Delivered), S::Delivered}, {int(T::Dead), S::Dead}, {int(T::Resolved), S::Resolved},
        {int(T::OldestPending), S::Pending}};
    if (!states.contains(tile))
        return;
    EventFilter filter;
    filter.state = states.value(tile);
    window.filterBar()->setFilter(filter);
    if (tile == int(T::OldestPending)) // oldest first
        window.eventView()->sortByColumn(EventListModel::AgeColumn, Qt::DescendingOrder);
    window.showPage(EventsPage::Key);
}

} // namespace PageWiring
