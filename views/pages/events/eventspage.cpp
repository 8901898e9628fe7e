#include "eventspage.h"

#include "healthsnapshot.h"
#include "eventtablecadence.h"
#include "activefilterbar.h"
#include "columnfitter.h"
#include "detailpane.h"
#include "detailreader.h"
#include "eventlistmodel.h"
#include "eventselection.h"
#include "eventtablestatus.h"
#include "eventwindowscroller.h"
#include "filterbar.h"
#include "fulltextdelegate.h"
#include "statuscolorproxy.h"

#include <QDateTime>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <utility>

EventsPage::EventsPage(EventListModel *events, DetailReader *reader,
    const std::optional<OutboxProfile> &profile, Clock clock, QWidget *parent)
    : QWidget(parent)
    , m_events(events)
    , m_filterBar(new FilterBar)
    , m_activeFilter(new ActiveFilterBar)
    , m_detail(new DetailPane(reader))
    , m_reader(reader)
    , m_clock(clock)
{
    setObjectName(QStringLiteral("eventsPage"));
    if (profile && !profile->isNative()) {
        m_detail->setProfile(*profile);
        m_filterBar->setProfile(*profile);
    }
    m_detail->setClock(std::move(clock));
    setupTable();
    setupSplitter();
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_splitter);
    m_selection = new EventSelection(m_view, m_events, m_detail, this);
    connect(m_filterBar, &FilterBar::filterChanged, this, &EventsPage::applyFilter);
    connectFilterLine();
}

// The chips remove a criterion each, or all of them; Find event looks an ID up on the detail's
// worker; while a new filter's rows are read the old ones are greyed and the line says so.
void EventsPage::connectFilterLine()
{
    connect(m_activeFilter, &ActiveFilterBar::clearRequested, m_filterBar,
        [this] { m_filterBar->setFilter({}); });
    connect(m_activeFilter, &ActiveFilterBar::removeRequested, m_filterBar,
        [this](EventFilter::Field field) {
            m_filterBar->setFilter(m_filterBar->filter().without(field));
        });
    connect(m_filterBar, &FilterBar::findRequested, this, &EventsPage::openEvent);
    connect(m_reader, &DetailReader::locationLoaded, this, &EventsPage::showLocation);
    connect(m_events, &EventListModel::loadingChanged, this, &EventsPage::updateSearching);
    connect(m_events, &EventListModel::loaded, this, &EventsPage::updateSearching);
    connect(m_events, &EventListModel::loaded, this, [this] {
        if (const QString status = std::exchange(m_wantedStatus, {}); !status.isEmpty())
            selectFirstLoaded(status); // once: a status no row has is not waited for
    });
    connect(m_events, &EventListModel::errorOccurred, this, &EventsPage::updateSearching);
    // What Find event said is about its event: gone once the operator picks another.
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex &current) {
            if (current.isValid() && !m_events->isApplying()
                && current.data(EventListModel::EventIdRole).toString() != m_finding)
                m_activeFilter->setFindMessage({});
        });
}

// The rows shown answer the filter the chips name, or they are greyed and the line says why:
// the new filter's read runs, or it failed and the rows are still the previous filter's.
void EventsPage::updateSearching()
{
    using Rows = ActiveFilterBar::Rows;
    if (!m_events->isLoading() && m_events->lastError().isEmpty())
        m_rowsFilter = m_events->filter();
    const Rows rows = m_events->isReloading() ? Rows::Searching
        : m_rowsFilter != m_events->filter()  ? Rows::Failed
                                              : Rows::Current;
    m_activeFilter->setRows(rows);
    m_colours->setDimmed(rows != Rows::Current);
}

// The event table: coloured by state, compact rows, columns fitted to the page.
void EventsPage::setupTable()
{
    m_view = new QTableView;
    m_view->setObjectName(QStringLiteral("eventView"));
    m_colours = new StatusColorProxy(this);
    m_colours->setSourceModel(m_events);
    m_colours->setStatusFunction(
        [](const QModelIndex &index) { return index.data(EventListModel::StatusRole).toString(); });
    m_colours->setNoteColumn(EventListModel::StateColumn, EventListModel::NoteRole);
    m_view->setModel(m_colours);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(EventListModel::AgeColumn, Qt::AscendingOrder); // newest first
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    // Tab leaves the table for the detail (Shift+Tab for the filters) and never moves the
    // selection: a Tab that selected the next row changed the event just before a Replay.
    m_view->setTabKeyNavigation(false);
    m_view->setAccessibleName(tr("Events"));
    // Compact rows, the text's height and a few pixels: 15 of them fit a laptop's screen with
    // the demo's hint bar and teaching panel open.
    m_view->verticalHeader()->setMinimumSectionSize(1);
    m_view->verticalHeader()->setDefaultSectionSize(
        std::max(18, m_view->fontMetrics().height() + 4));
    m_view->verticalHeader()->hide();
    // Not stretched: a stretched last column shrank to one word of the error once the others
    // overflowed; ColumnFitter gives it room instead.
    m_view->horizontalHeader()->setSectionsMovable(true);
    // What an operator reads first, within a laptop's width beside the detail: the event, its
    // state, its failures and why; then type, aggregate and times.
    const QList<int> order = {EventListModel::EventIdColumn, EventListModel::StateColumn,
        EventListModel::FailuresColumn, EventListModel::LastErrorColumn, EventListModel::TypeColumn,
        EventListModel::AggregateColumn, EventListModel::AgeColumn,
        EventListModel::NextAttemptColumn, EventListModel::ErrorCategoryColumn};
    QHeaderView *header = m_view->horizontalHeader();
    for (int visual = 0; visual < int(order.size()); ++visual)
        header->moveSection(header->visualIndex(order.at(visual)), visual);
    m_view->setWordWrap(false); // wrapped, "Order ORDER-…-10" showed as "Order ..."
    m_view->setColumnWidth(EventListModel::StateColumn, // wide enough for every state
        m_view->fontMetrics().horizontalAdvance(QStringLiteral("LEASE EXPIRED")) + 16);
    m_view->setColumnWidth(EventListModel::FailuresColumn, 64);
    m_view->setItemDelegate(new FullTextDelegate(m_view)); // cut text: whole in a tip
    m_fitter = new ColumnFitter(m_view, m_events, this);
    connect(m_fitter, &ColumnFitter::fitted, this, &EventsPage::makeRoomForKeyColumns);
    new EventWindowScroller(m_view, m_events, m_view); // the bounded window keeps its place
}

// The filter bar, the table and its status line.
QWidget *EventsPage::createList()
{
    auto *list = new QWidget;
    auto *layout = new QVBoxLayout(list);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_filterBar);
    layout->addWidget(m_activeFilter);
    layout->addWidget(m_view, 1);
    layout->addWidget(new EventTableStatus(m_events, m_view));
    return list;
}

// The table the larger part, the detail beside it (it scrolls rather than squeezing).
void EventsPage::setupSplitter()
{
    auto *detail = new QScrollArea;
    detail->setObjectName(QStringLiteral("detailScroll"));
    detail->setWidget(m_detail);
    detail->setWidgetResizable(true);
    detail->setFrameShape(QFrame::NoFrame);
    m_splitter = new QSplitter(Qt::Horizontal);
    m_splitter->setObjectName(QStringLiteral("eventsSplitter"));
    m_splitter->addWidget(createList());
    m_splitter->addWidget(detail);
    m_splitter->setChildrenCollapsible(false);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 2);
    m_splitter->setSizes({600, 400});
    connect(m_splitter, &QSplitter::splitterMoved, this, [this] { m_splitterMoved = true; });
}

void EventsPage::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    makeRoomForKeyColumns();
}

void EventsPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    makeRoomForKeyColumns();
}

// The table side wide enough for the ID, state, failures and last error without scrolling
// (a long last error was cut at 1366×768), taken from the detail while it keeps its minimum,
// until the operator moves the divider or their layout was restored.
void EventsPage::makeRoomForKeyColumns()
{
    constexpr int DetailMinimum = 380; // the detail's summary and attempt outcomes still read
    if (m_splitterMoved || m_fitter->isStopped() || m_fitter->isRestored() || !isVisible())
        return;
    const QScrollBar *scroll = m_view->verticalScrollBar();
    const int room
        = m_view->viewport()->width() - (scroll->isVisible() ? 0 : scroll->sizeHint().width());
    const QList<int> sizes = m_splitter->sizes();
    const int give = std::min(m_fitter->keyColumnsWidth() - room, sizes.at(1) - DetailMinimum);
    if (give > 0)
        m_splitter->setSizes({sizes.at(0) + give, sizes.at(1) - give});
}

void EventsPage::applyFilter(const EventFilter &filter)
{
    m_activeFilter->setFilter(filter);
    m_activeFilter->setFindMessage({}); // it named the filters of then
    m_events->setFilter(filter); // the selection comes back when the rows are loaded
    updateSearching();
}

void EventsPage::openEventView(const EventFilter &filter, int column, Qt::SortOrder order)
{
    m_filterBar->setFilter(filter);
    m_view->sortByColumn(column, order);
}

bool EventsPage::selectEvent(const QString &eventId)
{
    const int row = m_events->rowOfEvent(eventId);
    if (row < 0)
        return false;
    m_view->setCurrentIndex(m_view->model()->index(row, 0));
    return m_detail->eventId() == eventId;
}

void EventsPage::openEvent(const QString &eventId)
{
    m_finding = eventId;
    m_filterBar->findField()->setText(eventId);
    m_activeFilter->setFindMessage(tr("Looking up %1…").arg(eventId));
    m_selection->choose(eventId);
    m_reader->requestLocation(
        eventId, m_events->filter(), m_clock ? m_clock() : QDateTime::currentMSecsSinceEpoch());
}

void EventsPage::showLocation(const EventLocation &location)
{
    if (location.eventId != m_finding)
        return;
    m_activeFilter->setFindMessage(EventSelection::locationText(location));
    m_selection->setLocation(location);
}

void EventsPage::focusFind()
{
    m_filterBar->focusFind();
}

bool EventsPage::selectFirstEventWithStatus(const QString &status)
{
    m_wantedStatus.clear();
    if (selectFirstLoaded(status))
        return true;
    m_wantedStatus = status;
    m_events->cadence()->readNow();
    return false;
}

bool EventsPage::selectFirstLoaded(const QString &status)
{
    for (int row = 0; row < m_events->rowCount(); ++row) {
        if (m_events->index(row, 0).data(EventListModel::StatusRole).toString() == status)
            return selectEvent(m_events->eventIdAt(row));
    }
    return false;
}

QWidget *EventsPage::focusTarget() const
{
    return m_view;
}

QWidget *EventsPage::searchField() const
{
    return m_filterBar->searchField();
}

// The ages move on without a read; the rows are read again only when the outbox changed, on the
// table's own cadence, never the tiles'.
void EventsPage::outboxChanged(const HealthSnapshot &snapshot, bool figuresChanged)
{
    m_events->setNow(snapshot.now);
    if (!figuresChanged)
        return;
    m_events->cadence()->refreshSoon();
    m_detail->refresh();
}
