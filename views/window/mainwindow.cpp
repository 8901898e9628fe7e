#include "mainwindow.h"

#include "alertbar.h"
#include "banneroverlay.h"
#include "cdctiles.h"
#include "columnfitter.h"
#include "detailpane.h"
#include "detailreader.h"
#include "diagnosismonitor.h"
#include "diagnosispage.h"
#include "diagnosisstatusline.h"
#include "editactions.h"
#include "eventspage.h"
#include "eventtablemenu.h"
#include "filterbar.h"
#include "healthmonitor.h"
#include "healthtiles.h"
#include "healthworker.h"
#include "historymonitor.h"
#include "mainmenus.h"
#include "notesactions.h"
#include "operatoractions.h"
#include "overviewpage.h"
#include "pagenavigator.h"
#include "pageregistry.h"
#include "pagewiring.h"
#include "plaintooltips.h"
#include "policylabpage.h"
#include "reopenactions.h"
#include "resolveactions.h"
#include "schema.h"
#include "stalebanner.h"
#include "teachingsession.h"
#include "teachpage.h"
#include "thresholdsdialog.h"
#include "viewfocus.h"
#include "windowactions.h"
#include "windowalerts.h"
#include "windowframe.h"
#include "windowmenus.h"
#include "windowmodels.h"
#include "windowsettings.h"
#include "windowstatus.h"
#include "windowtoolbar.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QCloseEvent>
#include <QDateTime>
#include <QStatusBar>
#include <QTimer>
#include <QVBoxLayout>

namespace {

using PageRegistry::pageOf;

template<class T>
T *shown(const PageNavigator *pages)
{
    return dynamic_cast<T *>(pageOf(pages->page(T::Key)));
}

// The toolbar's actions the menus list too.
MenuActions menuActions(const ToolbarActions &toolbar)
{
    MenuActions own;
    own.connect = toolbar.connect;
    own.refresh = toolbar.refresh;
    own.pauseRefresh = toolbar.pause;
    own.thresholds = toolbar.thresholds;
    return own;
}

WindowOptions withSimulationMark(WindowOptions options, const DbConnection &connection)
{
    if (!options.markedForSimulation)
        options.markedForSimulation = Schema::isMarkedForSimulation(connection.database());
    return options;
}

} // namespace

MainWindow::MainWindow(
    std::unique_ptr<DbConnection> connection, const WindowOptions &options, QWidget *parent)
    : MainWindow(connection->url(), withSimulationMark(options, *connection),
        connection->isReadOnly(), parent)
{ }

MainWindow::MainWindow(const DatabaseUrl &url, const WindowOptions &options, QWidget *parent)
    : MainWindow(url, options, options.readOnly, parent)
{ }

// The stated order; each step uses only what the steps above it made: the models and workers,
// the pages on them (the registry), the writes on the Events page's table, then the frame
// (toolbar, tiles, status bar, diagnosis, banners, menus), the size and the
// remembered layout, and last the live relay and the first snapshot.
MainWindow::MainWindow(
    const DatabaseUrl &url, const WindowOptions &options, bool connectionReadOnly, QWidget *parent)
    : QMainWindow(parent)
    , m_url(url)
    , m_connectionReadOnly(connectionReadOnly)
    , m_options(options)
    , m_simulation(options.markedForSimulation.value_or(false))
{
    setWindowTitle(WindowFrame::title(m_options, m_url));
    PlainToolTips::install(); // tooltips quote servers, files and links: never markup
    m_context = WindowModels::make(m_url, m_options.profile, this);
    m_context.clock = [this] { return currentTime(); };
    OpenOptions diagnosisOptions = HealthWorker::defaultOpenOptions(); // short timeouts
    diagnosisOptions.validateSchema = false; // validated when the window's database was opened
    m_diagnosis = new DiagnosisMonitor(m_context.monitor, m_url, diagnosisOptions, this);
    if (!isNativeSchema())
        m_diagnosis->setProfile(*m_options.profile);
    if (m_simulation && !m_options.readOnly) {
        m_sessionOwner = std::make_unique<TeachingSession>(m_url);
        m_session = m_sessionOwner.get();
        m_context.session = m_session;
    }
    m_context.monitor->setClock(m_context.clock);
    setupPages();
    setupActions();
    m_toolbar = WindowToolbar::build(*this);
    setupCentral();
    if (m_session)
        PageWiring::wireTeaching(*this, m_session);
    setupStatusBar();
    setupBanners();
    WindowMenus::install(*this, menuActions(m_toolbar), m_toolbar.interval);
    connect(monitor(), &HealthMonitor::snapshotChanged, this, &MainWindow::applySnapshot);
    resize(WindowFrame::defaultSize());
    m_layoutRestored = WindowSettings::restore(*this);
    if (m_layoutRestored)
        m_eventsPage->fitter()->setRestored();
    if (m_session && m_options.startLiveRelay)
        teachPage()->startDemo();
    monitor()->resume();
}

MainWindow::~MainWindow()
{
    // The one stated order (see the members): the relay's threads stop first. Every other
    // child stops its own worker in its destructor.
    m_session = nullptr;
    m_sessionOwner.reset();
}

OpenOptions MainWindow::openOptions() const
{
    OpenOptions options;
    options.readOnly = m_connectionReadOnly || m_options.readOnly;
    options.validateSchema = false; // validated when the window's database was opened
    return options;
}

// Every page of the registry this database has, in its order (Ctrl+1…N). The history is read
// only while the Overview page, which charts it, shows.
void MainWindow::setupPages()
{
    m_pages = new PageNavigator;
    for (const PageEntry &entry : PageRegistry::pages()) {
        QWidget *page = PageRegistry::make(entry, m_context);
        if (!page)
            continue;
        m_pages->addPage(entry.key, entry.title, page);
        addActions(pageOf(page)->pageActions()); // their shortcuts, whichever page shows
    }
    m_eventsPage = qobject_cast<EventsPage *>(m_pages->page(EventsPage::Key));
    HistoryMonitor *history = m_context.historyMonitor;
    connect(m_pages, &PageNavigator::currentPageChanged, history,
        [history](const QString &key) { history->setWanted(key == OverviewPage::Key); });
    m_pages->showPage(EventsPage::Key);
    history->setWanted(false);
    // Ctrl+1…N show a page and put the keyboard in it.
    for (QAction *action : m_pages->pageActions())
        connect(action, &QAction::triggered, this, &MainWindow::focusPage);
}

void MainWindow::setupActions()
{
    m_writes = new WindowActions({m_url, eventView(), m_context.events, openOptions().readOnly,
                                     m_context.clock, m_options.profile, monitor()},
        this);
    m_tableMenu = m_writes->addTableMenu(filterBar(), this);
    detailPane()->setNoteActions(notesActions()->addNoteAction(), notesActions()->clearNotesAction());
    connect(m_tableMenu, &EventTableMenu::showAttemptsRequested, this,
        [this] { showPage(EventsPage::Key); });
    PageWiring::wireErrors(*this);
    PageWiring::wireNotes(*this);
    // The Audit page shows how the operator's own action ended: a snapshot taken while it ran
    // may have seen the change already and read the audit row before it was settled.
    DetailReader *reader = m_context.reader;
    connect(operatorActions(), &OperatorActions::replayFinished, reader,
        &DetailReader::requestReplayLog);
    connect(m_writes->resolve(), &ResolveActions::resolveFinished, reader,
        &DetailReader::requestReplayLog);
    connect(m_writes->reopen(), &ReopenActions::reopenFinished, reader,
        &DetailReader::requestReplayLog);
    connect(m_writes->edit(), &EditActions::editFinished, reader, &DetailReader::requestReplayLog);
}

// The tiles, compact and always in view, above the pages.
void MainWindow::setupCentral()
{
    m_tiles = new HealthTiles;
    m_tiles->setThresholds(ThresholdsDialog::load());
    m_diagnosis->setTileThresholds(m_tiles->thresholds()); // dead_events agrees with the tile
    if (!m_options.environment.isEmpty())
        m_tiles->setEnvironment(m_options.environment.name, m_options.environment.colour);
    auto *central = new QWidget;
    auto *layout = new QVBoxLayout(central);
    layout->addWidget(m_tiles);
    addCdcTiles(layout);
    layout->addWidget(m_pages, 1);
    setCentralWidget(central);
    connect(m_tiles, &HealthTiles::tileClicked, this,
        [this](HealthTiles::Tile tile) { filterByTile(int(tile)); });
    connect(monitor(), &HealthMonitor::staleChanged, m_tiles,
        [this](bool stale) { m_tiles->setStale(stale, monitor()->lastGoodAt()); });
}

// The replication slot's row under the tiles, only for an outbox relayed by change data capture:
// --cdc-slot (a link's or a fleet line's), else the profile's cdc_slot.
void MainWindow::addCdcTiles(QVBoxLayout *layout)
{
    m_options.cdcSlot = OutboxProfile::cdcSlotFor(m_options.cdcSlot, m_options.profile);
    if (m_options.cdcSlot.isEmpty())
        return;
    monitor()->setCdcSlot(m_options.cdcSlot);
    m_cdcTiles = new CdcTiles(m_options.cdcSlot);
    layout->addWidget(m_cdcTiles);
    connect(monitor(), &HealthMonitor::staleChanged, m_cdcTiles,
        [this](bool stale) { m_cdcTiles->setStale(stale, monitor()->lastGoodAt()); });
}

void MainWindow::setupStatusBar()
{
    m_status = new WindowStatus(statusBar(), monitor(), m_url, this);
    m_status->addLabels(profileName(),
        m_options.profile ? m_options.profile->description() : QString(),
        operatorActions()->replayUnavailableReason());
    m_writes->addStatusTo(statusBar());
    m_status->addMode(m_options.readOnly);
    if (!m_options.environment.isEmpty())
        m_status->addEnvironment(m_options.environment);
    connect(m_writes, &WindowActions::grantsChanged, m_status, &WindowStatus::showGrants);
    // The diagnosis runs on the health thread after a snapshot, spaced by its own cost.
    m_diagnosisStatus = new DiagnosisStatusLine;
    statusBar()->addWidget(m_diagnosisStatus);
    PageWiring::wireDiagnosis(*this, m_diagnosis, m_diagnosisStatus);
}

// The stale banner and the alert bar come and go in a strip under the pages: the pages give up
// their bottom lines and nothing is covered. The demo's hint bar is there from the start, above the tiles.
void MainWindow::setupBanners()
{
    auto *banners = new BannerOverlay(m_pages);
    m_alertBar = new AlertBar; // desktop alerts where there is no tray, above the banner
    banners->addBanner(m_alertBar);
    banners->addBanner(new StaleBanner(monitor()));
    m_alerts = new WindowAlerts(monitor(), m_tiles, outboxName(), m_alertBar, this);
    if (m_session) // a scenario's empty tables are a new story, not a recovery
        connect(m_session, &TeachingSession::starting, m_alerts, &WindowAlerts::rebase);
    WindowFrame::addHintBar(*this);
    connect(detailReader(), &DetailReader::replayLogFailed, this, [this](const QString &error) {
        statusBar()->showMessage(tr("Replay log: could not read it: %1").arg(error), 10000);
    });
}

void MainWindow::applySnapshot(const HealthSnapshot &snapshot)
{
    m_tiles->setSnapshot(snapshot);
    if (m_cdcTiles)
        m_cdcTiles->setSnapshot(snapshot, m_tiles->thresholds());
    const bool changed = monitor()->figuresChanged();
    for (const QString &key : m_pages->pageKeys())
        if (Page *page = pageOf(m_pages->page(key)))
            page->outboxChanged(snapshot, changed);
    if (isNativeSchema()) {
        m_writes->setSchemaVersion(snapshot.schemaVersion);
        m_status->showSchemaVersion(snapshot.schemaVersion);
    }
    m_status->updateRefreshLabel();
}

void MainWindow::focusPage()
{
    Page *page = pageOf(m_pages->page(m_pages->currentPage()));
    QWidget *target = page ? page->focusTarget() : nullptr;
    if (auto *view = qobject_cast<QAbstractItemView *>(target))
        ViewFocus::keepSelection(view);
    if (target)
        target->setFocus(Qt::ShortcutFocusReason);
}

void MainWindow::focusSearch()
{
    Page *page = pageOf(m_pages->page(m_pages->currentPage()));
    QWidget *field = page ? page->searchField() : nullptr;
    if (!field) {
        showPage(EventsPage::Key);
        field = m_eventsPage->searchField();
    }
    field->setFocus(Qt::ShortcutFocusReason);
}

QString MainWindow::profileName() const
{
    return m_options.profile ? m_options.profile->name() : QStringLiteral("native");
}

qint64 MainWindow::currentTime() const
{
    // Called from the monitor's request on the GUI thread; the session's clocks are thread-safe.
    if (m_session && m_session->mode() != TeachingSession::Mode::Idle)
        return m_session->now();
    return QDateTime::currentMSecsSinceEpoch();
}

void MainWindow::openEventView(const EventFilter &filter, int column, Qt::SortOrder order)
{
    m_eventsPage->openEventView(filter, column, order);
    showPage(EventsPage::Key);
}

bool MainWindow::selectEvent(const QString &eventId)
{
    showPage(EventsPage::Key);
    return m_eventsPage->selectEvent(eventId);
}

void MainWindow::openEvent(const QString &eventId)
{
    showPage(EventsPage::Key);
    m_eventsPage->openEvent(eventId);
}

bool MainWindow::selectFirstEventWithStatus(const QString &status)
{
    showPage(EventsPage::Key);
    return m_eventsPage->selectFirstEventWithStatus(status);
}

void MainWindow::showPage(const QString &name)
{
    m_pages->showPage(pageForName(name));
}

DiagnosisPage *MainWindow::diagnosisPanel() const
{
    return shown<DiagnosisPage>(m_pages);
}
PolicyLabPage *MainWindow::policyLab() const
{
    return shown<PolicyLabPage>(m_pages);
}
OverviewPage *MainWindow::charts() const
{
    return shown<OverviewPage>(m_pages);
}
TeachPage *MainWindow::teachPage() const
{
    return shown<TeachPage>(m_pages);
}

// The first show: the keyboard in the page.
void MainWindow::showEvent(QShowEvent *event)
{
    monitor()->setSlowed(false);
    QMainWindow::showEvent(event);
    if (std::exchange(m_shownOnce, true))
        return;
    QTimer::singleShot(0, this, [this] { focusPage(); });
}

void MainWindow::hideEvent(QHideEvent *event)
{
    monitor()->setSlowed(true); // nobody looks: poll the database five times less often
    QMainWindow::hideEvent(event);
}

void MainWindow::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::WindowStateChange)
        monitor()->setSlowed(isMinimized());
    QMainWindow::changeEvent(event);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    WindowSettings::save(*this);
    QMainWindow::closeEvent(event);
}

QString MainWindow::outboxName() const
{
    return WindowFrame::outboxName(m_options, m_url);
}
