#include "mainwindow.h"

#include "agehistogrammodel.h"
#include "alertbar.h"
#include "alertdecider.h"
#include "attemptshistogrammodel.h"
#include "auditpage.h"
#include "banneroverlay.h"
#include "chartspanel.h"
#include "columnfitter.h"
#include "copylinkaction.h"
#include "detailpane.h"
#include "detailreader.h"
#include "diagnosismonitor.h"
#include "diagnosispanel.h"
#include "diagnosisstatusline.h"
#include "editactions.h"
#include "errorcategorymodel.h"
#include "errorspanel.h"
#include "eventlistmodel.h"
#include "eventspage.h"
#include "eventtablecadence.h"
#include "eventtablemenu.h"
#include "filterbar.h"
#include "grantsmonitor.h"
#include "healthmonitor.h"
#include "healthtiles.h"
#include "healthworker.h"
#include "hintbar.h"
#include "historymodel.h"
#include "historymonitor.h"
#include "intervalbox.h"
#include "jobstatus.h"
#include "lifecyclediagram.h"
#include "mainmenus.h"
#include "notesactions.h"
#include "operatoractions.h"
#include "pagenavigator.h"
#include "plainmessage.h"
#include "plaintooltips.h"
#include "policylabpanel.h"
#include "reopenactions.h"
#include "replaylogmodel.h"
#include "resolveactions.h"
#include "schema.h"
#include "stalebanner.h"
#include "teachingpanel.h"
#include "teachingsession.h"
#include "themecolours.h"
#include "thresholdsdialog.h"
#include "windowalerts.h"
#include "windowsettings.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDateTime>
#include <QDockWidget>
#include <QEvent>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QStatusBar>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>

namespace {

constexpr int MaxStatusTextWidth = 480; // px: the refresh line leaves room for the others
constexpr QSize DefaultSize(1600, 1000); // at most: a laptop gets its screen's size
constexpr int TeachingDockHeight = 300;

} // namespace

namespace {

// A page that scrolls rather than holding the window above a laptop's height.
QScrollArea *scrolled(QWidget *page, const char *name)
{
    auto *scroll = new QScrollArea;
    scroll->setObjectName(QLatin1String(name) + QStringLiteral("Page"));
    scroll->setWidget(page);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    return scroll;
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

MainWindow::MainWindow(
    const DatabaseUrl &url, const WindowOptions &options, bool connectionReadOnly, QWidget *parent)
    : QMainWindow(parent)
    , m_url(url)
    , m_connectionReadOnly(connectionReadOnly)
    , m_options(options)
    , m_simulation(options.markedForSimulation.value_or(false))
{
    setWindowTitle(options.outboxName.isEmpty()
            ? tr("Outbox Health — %1").arg(m_url.toDisplayString())
            : tr("Outbox Health — %1 (%2)").arg(options.outboxName, m_url.toDisplayString()));
    // The stated order; each step uses only what the steps above it made:
    //  1. setupModels: the item models, the monitor and the readers (their workers and threads);
    //  2. setupPages: each page on those models (the Events page owns the event table);
    //  3. setupOperatorActions: replay, resolve, reopen and export on the Events page's table;
    //  4. the frame: the toolbar (the actions of 3), the tiles above the pages, the teaching
    //     dock, the status bar (the job parts of 3), the diagnosis line, the banners (over the
    //     central widget), the environment badge and the menus (every action made so far);
    //  5. the wiring between them (connectMonitor, connectErrors), then the size and the
    //     remembered layout, and last the live relay and the first snapshot.
    PlainToolTips::install(); // tooltips quote servers, files and links: never markup
    setupModels();
    setupPages();
    setupOperatorActions();
    setupToolbar();
    setupCentral();
    setupTeaching();
    setupStatusBar();
    setupGrants();
    setupDiagnosis();
    setupStaleBanner();
    showEnvironment();
    setupMenus();
    connectMonitor();
    connectErrors();
    resizeToScreen();
    m_layoutRestored = WindowSettings::restore(*this);
    if (m_layoutRestored)
        m_eventsPage->fitter()->setRestored();
    if (m_session && m_options.startLiveRelay) {
        // The producer's stock is seeded on the session's worker; a failure there arrives later.
        connect(m_session, &TeachingSession::startFinished, this,
            [this](bool ok, const QString &error) {
                if (!ok)
                    statusBar()->showMessage(error);
            });
        QString error;
        if (m_session->startLiveRelay(
                TeachingSession::demoRelayConfig(), TeachingSession::DemoEventsPerSecond, &error))
            m_session->play();
        else
            statusBar()->showMessage(error);
    }
    m_monitor->resume();
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

void MainWindow::setupModels()
{
    m_events = new EventListModel(this);
    m_ages = new AgeHistogramModel(this);
    m_failures = new AttemptsHistogramModel(this);
    m_history = new HistoryModel(this);
    m_categories = new ErrorCategoryModel(this);
    // Read-only (the snapshot only reads, whatever the window may do), short timeouts.
    OpenOptions options = HealthWorker::defaultOpenOptions();
    options.validateSchema = isNativeSchema(); // a profile validated its own schema
    m_monitor = new HealthMonitor(m_url, options, this);
    m_reader = new DetailReader(m_url, this);
    m_historyMonitor = new HistoryMonitor(m_monitor, m_url, options, this);
    // Its reading, on its own thread, is not charged to the snapshot's interval (lastCostMs).
    connect(
        m_historyMonitor, &HistoryMonitor::historyChanged, m_history, &HistoryModel::setHistory);
    if (!isNativeSchema()) {
        m_monitor->setProfile(*m_options.profile);
        m_historyMonitor->setProfile(*m_options.profile);
        m_reader->setProfile(*m_options.profile);
    }
    m_replayLog = new ReplayLogModel(this);
    OpenOptions diagnosisOptions = HealthWorker::defaultOpenOptions();
    diagnosisOptions.validateSchema = false; // validated when the window's database was opened
    m_diagnosis = new DiagnosisMonitor(m_monitor, m_url, diagnosisOptions, this);
    if (!isNativeSchema())
        m_diagnosis->setProfile(*m_options.profile);
    if (m_simulation && !m_options.readOnly) {
        m_sessionOwner = std::make_unique<TeachingSession>(m_url);
        m_session = m_sessionOwner.get();
    }
    m_monitor->setClock([this] { return currentTime(); });
    m_events->setNow(QDateTime::currentMSecsSinceEpoch());
    if (!isNativeSchema())
        m_events->setProfile(*m_options.profile);
    m_events->setSource(m_url); // its own connection, on its own thread
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

void MainWindow::setupToolbar()
{
    QToolBar *toolbar = addToolBar(tr("Main"));
    toolbar->setObjectName(QStringLiteral("mainToolbar"));
    toolbar->setMovable(false);
    m_connectAction = toolbar->addAction(tr("Connect…"), this, &MainWindow::connectRequested);
    m_connectAction->setObjectName(QStringLiteral("connectAction"));
    m_connectAction->setShortcut(QKeySequence::Open);
    toolbar->addSeparator();
    toolbar->addAction(m_actions->replaySelectedAction());
    toolbar->addAction(m_actions->replayMatchingAction());
    toolbar->addAction(m_resolve->resolveSelectedAction());
    toolbar->addAction(m_actions->exportEventsAction());
    toolbar->addAction(m_actions->exportAuditAction());
    toolbar->addSeparator();
    m_thresholdsAction = toolbar->addAction(tr("Thresholds…"), this, [this] {
        ThresholdsDialog dialog(m_tiles->thresholds(), this);
        if (dialog.exec() != QDialog::Accepted)
            return;
        ThresholdsDialog::save(dialog.thresholds());
        m_tiles->setThresholds(dialog.thresholds());
        m_diagnosis->setTileThresholds(dialog.thresholds()); // dead_events agrees with the tile
    });
    m_refreshAction = toolbar->addAction(tr("Refresh"), m_monitor, &HealthMonitor::refreshNow);
    m_refreshAction->setObjectName(QStringLiteral("refreshAction"));
    m_refreshAction->setShortcut(QKeySequence::Refresh); // F5
    QAction *pause = m_pauseAction = toolbar->addAction(tr("Pause refresh"));
    pause->setCheckable(true);
    connect(pause, &QAction::toggled, this,
        [this](bool paused) { paused ? m_monitor->pause() : m_monitor->resume(); });
    toolbar->addWidget(createIntervalBox());
}

// Replay, resolve, reopen and export, each finished one refreshing the snapshot (each says how it
// ended in its own part of the status bar, setupStatusBar).
void MainWindow::setupOperatorActions()
{
    m_actions = new OperatorActions(
        m_url, eventView(), m_events, openOptions().readOnly, [this] { return currentTime(); },
        this);
    if (!isNativeSchema())
        m_actions->setProfile(*m_options.profile);
    connect(m_actions, &OperatorActions::replayFinished, m_monitor, &HealthMonitor::refreshNow);
    m_resolve = new ResolveActions(
        m_url, eventView(), openOptions().readOnly, [this] { return currentTime(); }, this);
    if (!isNativeSchema())
        m_resolve->setProfile(*m_options.profile);
    connect(m_resolve, &ResolveActions::resolveFinished, m_monitor, &HealthMonitor::refreshNow);
    m_reopen = new ReopenActions(
        m_url, eventView(), openOptions().readOnly, [this] { return currentTime(); }, this);
    if (!isNativeSchema())
        m_reopen->setProfile(*m_options.profile);
    connect(m_reopen, &ReopenActions::reopenFinished, m_monitor, &HealthMonitor::refreshNow);
    m_edit = new EditActions(
        m_url, eventView(), openOptions().readOnly, [this] { return currentTime(); }, this);
    if (!isNativeSchema())
        m_edit->setProfile(*m_options.profile);
    connect(m_edit, &EditActions::editFinished, m_monitor, &HealthMonitor::refreshNow);
    m_notes = new NotesActions(
        m_url, eventView(), openOptions().readOnly, [this] { return currentTime(); }, this);
    if (!isNativeSchema())
        m_notes->setProfile(*m_options.profile);
    // A note changes no figure: the table, the detail pane and the Errors tab read again.
    connect(m_notes, &NotesActions::notesChanged, this, [this] {
        m_events->refresh();
        detailPane()->refresh();
        m_errors->refresh();
        // The acknowledged count (the Diagnosis tab, the DEAD tile's "(N on hold)") at once.
        m_diagnosis->requestSoon(currentTime());
    });
}

// How often the snapshot is refreshed, in step with the monitor.
QSpinBox *MainWindow::createIntervalBox()
{
    return m_interval = new IntervalBox(m_monitor);
}

// Every page, in the rail's order (Ctrl+1…): each owns its widgets; the window wires one page
// to another (connectErrors, connectDiagnosis).
void MainWindow::setupPages()
{
    m_pages = new PageNavigator;
    m_charts = new ChartsPanel(m_ages, m_failures, m_history, m_categories);
    connect(m_charts, &ChartsPanel::rangeChanged, m_historyMonitor, &HistoryMonitor::setRange);
    m_pages->addPage(QStringLiteral("overview"), tr("Overview"), scrolled(m_charts, "overview"));
    m_eventsPage
        = new EventsPage(m_events, m_reader, m_options.profile, [this] { return currentTime(); });
    m_pages->addPage(QStringLiteral("events"), tr("Events"), m_eventsPage);
    m_errors = new ErrorsPanel(m_url, m_options.profile, [this] { return currentTime(); });
    m_errors->setObjectName(QStringLiteral("errorsPage"));
    m_pages->addPage(QStringLiteral("errors"), tr("Errors"), m_errors);
    m_diagnosisPanel = new DiagnosisPanel;
    m_pages->addPage(
        QStringLiteral("diagnosis"), tr("Diagnosis"), scrolled(m_diagnosisPanel, "diagnosis"));
    m_pages->addPage(QStringLiteral("audit"), tr("Audit"),
        new AuditPage(m_replayLog, isNativeSchema() ? QString() : profileName()));
    m_lifecycle = new LifecycleDiagram;
    m_pages->addPage(
        QStringLiteral("lifecycle"), tr("Lifecycle"), scrolled(m_lifecycle, "lifecycle"));
    // The lab compares retry policies on its own thread and scratch database: on any database.
    m_policyLab = new PolicyLabPanel;
    m_pages->addPage(QStringLiteral("policy"), tr("Policy lab"), scrolled(m_policyLab, "policy"));
    // The history is read only while the Overview page, which charts it, shows: the window
    // opens on Events, and an hour of latency percentiles is a few hundred milliseconds of
    // database time on a big outbox (docs/benchmarks/scale.md).
    connect(m_pages, &PageNavigator::currentPageChanged, m_historyMonitor,
        [this](const QString &key) { m_historyMonitor->setWanted(key == u"overview"_qs); });
    m_pages->showPage(QStringLiteral("events"));
    m_historyMonitor->setWanted(m_pages->currentPage() == u"overview"_qs);
}

// The tiles, compact and always in view, above the pages.
void MainWindow::setupCentral()
{
    m_tiles = new HealthTiles;
    m_tiles->setThresholds(ThresholdsDialog::load());
    m_diagnosis->setTileThresholds(m_tiles->thresholds()); // dead_events agrees with the tile
    auto *central = new QWidget;
    auto *layout = new QVBoxLayout(central);
    layout->addWidget(m_tiles);
    layout->addWidget(m_pages, 1);
    setCentralWidget(central);
    connect(m_tiles, &HealthTiles::tileClicked, this,
        [this](HealthTiles::Tile tile) { filterByTile(int(tile)); });
}

QTableView *MainWindow::eventView() const
{
    return m_eventsPage->eventView();
}

DetailPane *MainWindow::detailPane() const
{
    return m_eventsPage->detailPane();
}

FilterBar *MainWindow::filterBar() const
{
    return m_eventsPage->filterBar();
}

QSplitter *MainWindow::splitter() const
{
    return m_eventsPage->splitter();
}

void MainWindow::setupTeaching()
{
    if (!m_session)
        return;
    m_teaching = new TeachingPanel(m_session);
    m_teaching->watch(m_monitor); // the Start guard names the snapshot's row count
    auto *dock = m_teachingDock
        = new QDockWidget(tr("Teach: the retry lifecycle, step by step"), this);
    dock->setObjectName(QStringLiteral("teachingDock"));
    // Scrolled rather than squeezed: on a small screen the dock stays short and the event
    // table keeps its rows.
    auto *scroll = new QScrollArea;
    scroll->setObjectName(QStringLiteral("teachingScroll"));
    scroll->setWidget(m_teaching);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    dock->setWidget(scroll);
    dock->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable
        | QDockWidget::DockWidgetFloatable);
    dock->toggleViewAction()->setText(tr("&Teaching panel"));
    dock->toggleViewAction()->setObjectName(QStringLiteral("teachingPanelAction"));
    addDockWidget(Qt::BottomDockWidgetArea, dock);
    resizeDocks({dock}, {TeachingDockHeight}, Qt::Vertical); // the outbox stays the larger part
    dock->setVisible(m_options.showTeachingByDefault); // until the saved state says otherwise
    // Bursts of relay activity arrive coalesced (TeachingSession), and become one refresh.
    connect(m_session, &TeachingSession::databaseChanged, m_monitor, &HealthMonitor::refreshNow);
    connect(m_session, &TeachingSession::stateChanged, this, [this] {
        m_ages->setLogicalClock(m_session->isLogicalClock()); // "<= 1000 units" in a scenario
        if (m_session->mode() == TeachingSession::Mode::LiveRelay)
            m_charts->setBudget(m_session->relayConfig().budget.maxAttempts);
        else if (m_session->mode() == TeachingSession::Mode::Scenario)
            m_charts->setBudget(m_session->scenarioBudget());
    });
}

void MainWindow::setupStatusBar()
{
    auto *connection = m_connectionLabel = new QLabel;
    connection->setObjectName(QStringLiteral("connectionLabel"));
    connection->setTextFormat(Qt::PlainText); // a server's words
    updateConnectionLabel();
    m_refreshLabel = new QLabel(tr("Waiting for the first snapshot…"));
    m_refreshLabel->setObjectName(QStringLiteral("refreshLabel"));
    statusBar()->addWidget(connection);
    auto *profile = new QLabel(tr("Profile: %1").arg(profileName()));
    profile->setObjectName(QStringLiteral("profileLabel"));
    profile->setTextFormat(Qt::PlainText); // a profile file's name
    if (m_options.profile)
        profile->setToolTip(m_options.profile->description());
    statusBar()->addWidget(profile);
    statusBar()->addWidget(m_refreshLabel);
    m_schemaNote = new QLabel;
    m_schemaNote->setObjectName(QStringLiteral("schemaNoteLabel"));
    m_schemaNote->setVisible(false);
    statusBar()->addWidget(m_schemaNote);
    const QString replayNote = m_actions->replayUnavailableReason();
    if (!replayNote.isEmpty()) {
        auto *note
            = new QLabel(tr("Replay disabled (%1 is read-only for replay)").arg(profileName()));
        note->setObjectName(QStringLiteral("replayNoteLabel"));
        note->setTextFormat(Qt::PlainText);
        note->setToolTip(replayNote);
        statusBar()->addWidget(note);
    }
    auto *mode = new QLabel(m_options.readOnly ? tr("READ-ONLY") : tr("read-write"));
    mode->setObjectName(QStringLiteral("readOnlyLabel"));
    if (m_options.readOnly)
        mode->setStyleSheet(
            QStringLiteral("font-weight: bold; color: %1").arg(ThemeColours::warningText().name()));
    // A long job's progress and Cancel, then its outcome: beside the connection and health,
    // never over them (as showMessage() would be).
    statusBar()->addPermanentWidget(m_actions->replayStatus());
    statusBar()->addPermanentWidget(m_resolve->status());
    statusBar()->addPermanentWidget(m_reopen->status());
    statusBar()->addPermanentWidget(m_edit->status());
    statusBar()->addPermanentWidget(m_notes->status());
    statusBar()->addPermanentWidget(m_actions->exportStatus());
    statusBar()->addPermanentWidget(mode);
}

// PRODUCTION (or whatever the operator named it) in the title, the status bar and a badge.
void MainWindow::showEnvironment()
{
    const ConnectionEnvironment &environment = m_options.environment;
    if (environment.isEmpty())
        return;
    setWindowTitle(QStringLiteral("[%1] ").arg(environment.name) + windowTitle());
    m_tiles->setEnvironment(environment.name, environment.colour);
    auto *label = new QLabel(environment.name);
    label->setObjectName(QStringLiteral("environmentLabel"));
    label->setTextFormat(Qt::PlainText); // the operator's words, never markup
    label->setStyleSheet(
        QStringLiteral("font-weight: bold; color: %1; background: %2;"
                       " padding: 0 6px; border-radius: 3px")
            .arg(ThemeColours::textOn(environment.colour).name(), environment.colour.name()));
    statusBar()->insertPermanentWidget(0, label);
}

// The stale banner and the alert bar come and go: they float over the pages' bottom edge and
// move nothing. The demo's hint bar is there from the start, above the tiles.
void MainWindow::setupStaleBanner()
{
    auto *banners = new BannerOverlay(m_pages);
    m_alertBar = new AlertBar; // desktop alerts where there is no tray, above the banner
    banners->addBanner(m_alertBar);
    m_staleBanner = new StaleBanner(m_monitor);
    banners->addBanner(m_staleBanner);
    auto *layout = qobject_cast<QVBoxLayout *>(centralWidget()->layout());
    m_alerts = new WindowAlerts(m_monitor, m_tiles, outboxName(), m_alertBar, this);
    if (m_session) // a scenario's empty tables are a new story, not a recovery
        connect(m_session, &TeachingSession::starting, m_alerts, &WindowAlerts::rebase);
    if (m_options.startLiveRelay && !HintBar::isDismissed()) { // the demo's first runs
        auto *hint = new HintBar;
        connect(hint, &HintBar::showMeRequested, this,
            [this] { selectFirstEventWithStatus(QStringLiteral("DEAD")); });
        layout->insertWidget(0, hint);
    }
}

void MainWindow::connectReplayLog()
{
    // The tab keeps its rows while a read runs; a failed read says so in the status bar.
    connect(m_reader, &DetailReader::replayLogLoaded, m_replayLog,
        [this](const SqlRows &rows) { m_replayLog->setRows({}, rows); });
    connect(m_reader, &DetailReader::replayLogFailed, this, [this](const QString &error) {
        statusBar()->showMessage(tr("Replay log: could not read it: %1").arg(error), 10000);
    });
}

// The Errors tab reads after each snapshot that changed the figures (only while shown), filters
// the table to a group, and replays or resolves a group through the window's operator and resolve
// actions.
void MainWindow::connectErrors()
{
    m_errors->setOperatorActions(m_actions);
    m_errors->setResolveActions(m_resolve);
    connect(m_monitor, &HealthMonitor::snapshotChanged, m_errors, [this] {
        if (m_monitor->figuresChanged())
            m_errors->refresh();
    });
    // Only when asked (Show events, Enter, a double click): the group's events on the Events
    // page, the filter shown there as a chip. Selecting a group filters nothing.
    connect(m_errors, &ErrorsPanel::filterRequested, this, [this](const EventFilter &filter) {
        filterBar()->setFilter(filter);
        showPage(QStringLiteral("events"));
    });
    auto *show = new QPushButton(tr("Show events"));
    show->setObjectName(QStringLiteral("showGroupEventsButton"));
    show->setEnabled(false);
    m_errors->addGroupButton(show);
    connect(m_errors, &ErrorsPanel::groupChanged, show,
        [this, show] { show->setEnabled(m_errors->selectedGroup().has_value()); });
    connect(show, &QPushButton::clicked, m_errors, &ErrorsPanel::showSelectedEvents);
    addGroupNoteButtons();
}

// "Add note…" and "Clear notes…" on the selected error group, guarded as the event's are.
void MainWindow::addGroupNoteButtons()
{
    auto *add = new QPushButton(tr("Add note…"));
    add->setObjectName(QStringLiteral("addGroupNoteButton"));
    auto *clear = new QPushButton(tr("Clear notes…"));
    clear->setObjectName(QStringLiteral("clearGroupNotesButton"));
    m_errors->addGroupButton(add);
    m_errors->addGroupButton(clear);
    const auto update = [this, add, clear] {
        const bool selected = !m_notes->isBusy() && m_errors->selectedGroup();
        for (const auto &[button, why] :
            {std::pair {add, m_notes->addRefusal()}, std::pair {clear, m_notes->clearRefusal()}}) {
            button->setEnabled(why.isEmpty() && selected);
            button->setToolTip(why.isEmpty() ? QString() : why);
        }
    };
    connect(m_errors, &ErrorsPanel::groupChanged, add, update);
    connect(m_notes, &NotesActions::availabilityChanged, add, update);
    update();
    const auto target = [this] {
        const auto group = m_errors->selectedGroup();
        return group ? NoteTarget {{}, group->signature} : NoteTarget {};
    };
    connect(add, &QPushButton::clicked, this, [this, target] {
        if (const NoteTarget group = target(); !group.errorGroup.isEmpty())
            m_notes->addNote(group);
    });
    connect(clear, &QPushButton::clicked, this, [this, target] {
        if (const NoteTarget group = target(); !group.errorGroup.isEmpty())
            m_notes->clearNotes(group);
    });
}

void MainWindow::connectMonitor()
{
    connectReplayLog();
    connect(m_monitor, &HealthMonitor::snapshotChanged, this, &MainWindow::applySnapshot);
    connect(m_monitor, &HealthMonitor::staleChanged, this, &MainWindow::onStaleChanged);
    connect(m_monitor, &HealthMonitor::intervalChanged, this, &MainWindow::updateRefreshLabel);
    connect(
        m_monitor, &HealthMonitor::healthStateChanged, this, &MainWindow::updateConnectionLabel);
}

// The grants are read on a worker of their own when the window opens and again each time the
// figures become current after a stale spell (a reconnect: the grants may have changed). Until
// the first answer nothing is refused by them; a read-only window (--read-only) refuses anyway.
void MainWindow::setupGrants()
{
    OpenOptions options = HealthWorker::defaultOpenOptions();
    options.validateSchema = false; // validated when the window's database was opened
    m_grants = new GrantsMonitor(m_url, options, this);
    m_grantsBadge = new QLabel(tr("read-only by the database's grants"));
    m_grantsBadge->setObjectName(QStringLiteral("grantsReadOnlyLabel"));
    m_grantsBadge->setTextFormat(Qt::PlainText);
    m_grantsBadge->setStyleSheet(
        QStringLiteral("font-weight: bold; color: %1").arg(ThemeColours::warningText().name()));
    m_grantsBadge->setVisible(false);
    statusBar()->addPermanentWidget(m_grantsBadge);
    connect(m_grants, &GrantsMonitor::grantsChanged, this, &MainWindow::applyGrants);
    if (openOptions().readOnly)
        return; // nothing is offered that writes
    connect(m_monitor, &HealthMonitor::staleChanged, m_grants, [this](bool stale) {
        if (!stale)
            m_grants->refresh();
    });
    m_grants->refresh();
}

void MainWindow::applyGrants(const TableGrants &grants)
{
    if (!isNativeSchema())
        return; // a profile's writes are its own (its replay statement), refused by it
    m_actions->setGrants(grants);
    m_resolve->setGrants(grants);
    m_reopen->setGrants(grants);
    m_edit->setGrants(grants);
    m_notes->setGrants(grants);
    m_grantsBadge->setVisible(grants.isReadOnly());
    m_grantsBadge->setToolTip(grants.refusal(TableGrants::Operation::Replay));
}

// The banner names the cause; the tiles grey out; the status bar says since when.
void MainWindow::onStaleChanged(bool stale)
{
    m_tiles->setStale(stale, m_monitor->lastGoodAt()); // none: "no figures yet"
    updateRefreshLabel();
}

// "Connected: URL" only while the figures are current: "Connecting to URL…" until the first
// snapshot; while stale the banner's cause, "Not connected: the server refuses connections (is
// it running?)" or "Cannot read the outbox: …". The whole line, the URL and the driver's words
// in the tooltip.
void MainWindow::updateConnectionLabel()
{
    if (!m_connectionLabel)
        return;
    const QString url = m_url.toDisplayString();
    QString text;
    if (m_monitor->isStale() && m_monitor->isConnectionFailure())
        text = tr("Not connected: %1").arg(m_monitor->lastFailure());
    else if (m_monitor->isStale())
        text = m_monitor->failureHeadline();
    else if (m_monitor->hasSnapshot())
        text = tr("Connected: %1").arg(url);
    else
        text = tr("Connecting to %1…").arg(url);
    QString tip = text + QLatin1Char('\n') + url;
    if (m_monitor->isStale() && !m_monitor->lastFailureDetail().isEmpty())
        tip += QLatin1Char('\n') + tr("Details: %1").arg(m_monitor->lastFailureDetail());
    m_connectionLabel->setToolTip(tip);
    m_connectionLabel->setText(
        m_connectionLabel->fontMetrics().elidedText(text, Qt::ElideRight, MaxStatusTextWidth));
}

// One short line: its full text in the tooltip, never cut mid-word at the status bar's edge.
void MainWindow::updateRefreshLabel()
{
    updateConnectionLabel();
    QString text;
    if (m_monitor->isStale() && !m_monitor->lastGoodAt().isValid()) {
        text = tr("No figures yet"); // the cause is the connection label's, beside it
    } else if (m_monitor->isStale()) {
        text = tr("Stale since %1")
                   .arg(m_monitor->staleSince().toString(QStringLiteral("HH:mm:ss")));
    } else if (m_monitor->hasSnapshot()) {
        text = tr("Refreshed %1 in %2 ms, every %3 s")
                   .arg(m_monitor->lastGoodAt().toString(QStringLiteral("HH:mm:ss")))
                   .arg(m_monitor->snapshot().queryMs)
                   .arg(IntervalBox::shownSeconds(*m_monitor)); // the toolbar's number too
        if (IntervalBox::isStretched(*m_monitor))
            text += tr(" (adaptive)");
    } else {
        return; // still "Waiting for the first snapshot…"
    }
    const QString why = m_monitor->isStale() ? QString() : IntervalBox::reason(*m_monitor);
    m_refreshLabel->setToolTip(why.isEmpty() ? text : text + QLatin1Char('\n') + why);
    m_refreshLabel->setText(
        m_refreshLabel->fontMetrics().elidedText(text, Qt::ElideRight, MaxStatusTextWidth));
}

void MainWindow::applySnapshot(const HealthSnapshot &snapshot)
{
    m_tiles->setSnapshot(snapshot);
    m_ages->setSnapshot(snapshot);
    m_failures->setSnapshot(snapshot);
    m_categories->setSnapshot(snapshot);
    // The teaching session's relay names its own budget (stateChanged); otherwise the data's.
    if (!m_session || m_session->mode() == TeachingSession::Mode::Idle)
        m_charts->setAttemptLimit(
            AttemptLimit::range(snapshot.attemptLimitLowest, snapshot.attemptLimitHighest));
    m_lifecycle->setCounts(snapshot.counts);
    // RESOLVED exists on the native schema from version 2 (a profile's snapshot has none).
    m_lifecycle->setNotAvailable(snapshot.schemaVersion >= 2
            ? snapshot.notAvailable
            : snapshot.notAvailable + QStringList {QStringLiteral("resolved")});
    showSchemaVersion(snapshot.schemaVersion);
    m_events->setNow(snapshot.now); // the ages move on without a read
    // The rows are read again only when the outbox changed (HealthMonitor::figuresChanged()).
    if (m_monitor->figuresChanged()) {
        m_events->cadence()->refreshSoon(); // on the table's own cadence, never the tiles'
        detailPane()->refresh();
        if (isNativeSchema())
            m_reader->requestReplayLog();
    }
    if (!std::exchange(m_chartsMarked, true) && !isNativeSchema())
        m_charts->setNotAvailable(profileName(), snapshot.notAvailable);
    updateRefreshLabel();
}

// Resolve and reopen follow the schema's version; an older native schema says what to run, once.
void MainWindow::showSchemaVersion(int version)
{
    if (!isNativeSchema())
        return;
    m_resolve->setSchemaVersion(version);
    m_reopen->setSchemaVersion(version);
    m_edit->setSchemaVersion(version);
    m_notes->setSchemaVersion(version);
    const QString outdated = Schema::outdatedMessage(version);
    m_schemaNote->setVisible(version > 0 && !outdated.isEmpty());
    m_schemaNote->setText(tr("Schema v%1: Resolve needs outboxctl migrate").arg(version));
    m_schemaNote->setToolTip(outdated);
}

void MainWindow::openEventView(const EventFilter &filter, int column, Qt::SortOrder order)
{
    m_eventsPage->openEventView(filter, column, order);
    showPage(QStringLiteral("events"));
}

bool MainWindow::selectEvent(const QString &eventId)
{
    showPage(QStringLiteral("events"));
    return m_eventsPage->selectEvent(eventId);
}

void MainWindow::openEvent(const QString &eventId)
{
    showPage(QStringLiteral("events"));
    m_eventsPage->openEvent(eventId);
}

bool MainWindow::selectFirstEventWithStatus(const QString &status)
{
    showPage(QStringLiteral("events"));
    return m_eventsPage->selectFirstEventWithStatus(status);
}

QString MainWindow::pageForName(const QString &name)
{
    // The tabs of earlier versions, by the names --tab took.
    static const QHash<QString, QString> oldTabs
        = {{QStringLiteral("detail"), QStringLiteral("events")},
            {QStringLiteral("charts"), QStringLiteral("overview")},
            {QStringLiteral("history"), QStringLiteral("overview")}};
    static const QStringList pages = {QStringLiteral("overview"), QStringLiteral("events"),
        QStringLiteral("errors"), QStringLiteral("diagnosis"), QStringLiteral("audit"),
        QStringLiteral("lifecycle"), QStringLiteral("policy")};
    const QString page = oldTabs.value(name, name);
    return pages.contains(page) ? page : QString();
}

void MainWindow::showPage(const QString &name)
{
    m_pages->showPage(pageForName(name));
}

QString MainWindow::currentPage() const
{
    return m_pages->currentPage();
}

void MainWindow::showEvent(QShowEvent *event)
{
    m_monitor->setSlowed(false);
    QMainWindow::showEvent(event);
    if (!std::exchange(m_shownOnce, true))
        QTimer::singleShot(0, this, &MainWindow::sizeTeachingDock);
}

void MainWindow::hideEvent(QHideEvent *event)
{
    m_monitor->setSlowed(true); // nobody looks: poll the database five times less often
    QMainWindow::hideEvent(event);
}

void MainWindow::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::WindowStateChange)
        m_monitor->setSlowed(isMinimized());
    QMainWindow::changeEvent(event);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    WindowSettings::save(*this);
    QMainWindow::closeEvent(event);
}

// The default size, within the screen's available area (a 1366×768 laptop included).
void MainWindow::resizeToScreen()
{
    QSize size = DefaultSize;
    if (const QScreen *screen = QApplication::primaryScreen())
        size = size.boundedTo(screen->availableGeometry().size() - QSize(16, 48)); // frame
    resize(size);
}

// Once laid out: the table keeps at least 15 rows, the panel takes what is left, up to its
// default height. A remembered layout keeps its own.
void MainWindow::sizeTeachingDock()
{
    if (!m_teachingDock || !m_teachingDock->isVisible() || m_layoutRestored)
        return;
    // The viewport holds the rows (not the header); room is kept for a horizontal scroll bar
    // that the columns growing to their content may still bring.
    const QTableView *view = eventView();
    const QScrollBar *bar = view->horizontalScrollBar();
    const int rows = MinimumTableRows * view->verticalHeader()->defaultSectionSize()
        + (bar->isVisible() ? 0 : bar->sizeHint().height());
    const int spare = m_teachingDock->height() + view->viewport()->height() - rows;
    resizeDocks({m_teachingDock}, {qBound(MinimumTeachingDockHeight, spare, TeachingDockHeight)},
        Qt::Vertical);
}

void MainWindow::filterByTile(int tile)
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
    filterBar()->setFilter(filter);
    if (tile == int(T::OldestPending))
        eventView()->sortByColumn(EventListModel::AgeColumn, Qt::DescendingOrder); // oldest first
    showPage(QStringLiteral("events"));
}

QString MainWindow::aboutText() const
{
    return tr("<h3>Outbox Health %1</h3>"
              "<p>Health dashboard for a transactional outbox.</p>"
              "<p>Database: %2<br>Profile: %3%4</p>"
              "<p>Qt %5 (built with %6)</p>")
        .arg(QApplication::applicationVersion().toHtmlEscaped(),
            m_url.toStorableString().toHtmlEscaped(), profileName().toHtmlEscaped(),
            openOptions().readOnly ? tr(", read-only") : QString(), QString::fromLatin1(qVersion()),
            QStringLiteral(QT_VERSION_STR));
}

QString MainWindow::outboxName() const
{
    if (!m_options.outboxName.isEmpty())
        return m_options.outboxName;
    return m_url.isFile() ? QFileInfo(m_url.path()).completeBaseName() : m_url.databaseName();
}

void MainWindow::setupMenus()
{
    m_tableMenu = new EventTableMenu(eventView(), filterBar(), m_actions, this);
    m_tableMenu->setResolveAction(m_resolve->resolveSelectedAction());
    m_tableMenu->setReopenAction(m_reopen->reopenSelectedAction());
    m_tableMenu->setEditAction(m_edit->editSelectedAction());
    m_tableMenu->setNoteActions(m_notes->addNoteAction(), m_notes->clearNotesAction());
    detailPane()->setNoteActions(m_notes->addNoteAction(), m_notes->clearNotesAction());
    connect(m_tableMenu, &EventTableMenu::showAttemptsRequested, this,
        [this] { showPage(QStringLiteral("events")); });
    MenuActions actions;
    actions.connect = m_connectAction;
    actions.openFleet = new QAction(tr("Open &fleet…"), this);
    actions.openFleet->setObjectName(QStringLiteral("openFleetAction"));
    connect(actions.openFleet, &QAction::triggered, this, &MainWindow::fleetRequested);
    actions.exportEvents = m_actions->exportEventsAction();
    actions.exportEvents->setShortcut(tr("Ctrl+E"));
    actions.exportAudit = m_actions->exportAuditAction();
    actions.quit = new QAction(tr("&Quit"), this);
    actions.quit->setObjectName(QStringLiteral("quitAction"));
    actions.quit->setShortcut(QKeySequence::Quit);
    actions.quit->setShortcutContext(Qt::ApplicationShortcut);
    connect(actions.quit, &QAction::triggered, qApp, &QApplication::closeAllWindows);
    actions.teachingPanel = m_teachingDock ? m_teachingDock->toggleViewAction() : nullptr;
    actions.pauseRefresh = m_pauseAction;
    actions.thresholds = m_thresholdsAction;
    actions.diagnosis = m_diagnosisAction;
    actions.find = new QAction(tr("&Find event…"), this);
    actions.find->setObjectName(QStringLiteral("findAction"));
    actions.find->setShortcut(QKeySequence::Find);
    connect(actions.find, &QAction::triggered, this, [this] {
        showPage(QStringLiteral("events"));
        m_eventsPage->focusFind(); // an ID, found whatever the filters
    });
    actions.clearSearch = new QAction(tr("&Clear search"), this);
    actions.clearSearch->setObjectName(QStringLiteral("clearSearchAction"));
    actions.clearSearch->setShortcut(Qt::Key_Escape);
    connect(actions.clearSearch, &QAction::triggered, filterBar(), &FilterBar::clearSearch);
    actions.copyLink = new CopyLinkAction(this);
    actions.muteAlerts = new QAction(tr("&Mute desktop alerts for %1").arg(outboxName()), this);
    actions.muteAlerts->setObjectName(QStringLiteral("muteAlertsAction"));
    actions.muteAlerts->setCheckable(true);
    actions.muteAlerts->setData(outboxName());
    actions.muteAlerts->setChecked(AlertDecider::isMuted(outboxName()));
    connect(actions.muteAlerts, &QAction::toggled, this, [this](bool muted) {
        AlertDecider::setMuted(outboxName(), muted);
        if (muted && m_alertBar)
            m_alertBar->removeAlerts(outboxName());
    });
    actions.refresh = m_refreshAction;
    actions.replaySelected = m_actions->replaySelectedAction();
    actions.replayMatching = m_actions->replayMatchingAction();
    actions.resolveSelected = m_resolve->resolveSelectedAction();
    actions.reopenSelected = m_reopen->reopenSelectedAction();
    actions.editSelected = m_edit->editSelectedAction();
    actions.copyIds = m_tableMenu->copyIdsAction();
    actions.about = new QAction(tr("&About Outbox Health"), this);
    actions.about->setObjectName(QStringLiteral("aboutAction"));
    connect(actions.about, &QAction::triggered, this,
        [this] { QMessageBox::about(this, tr("About Outbox Health"), aboutText()); });
    // Window-wide shortcuts need the actions on the window, not only in a menu.
    addActions(
        {actions.quit, actions.find, actions.clearSearch, m_refreshAction, actions.exportEvents});
    actions.pages = m_pages->pageActions();
    addActions(actions.pages);
    menuBar()->setObjectName(QStringLiteral("menuBar"));
    MainMenus::build(menuBar(), actions, m_interval);
}

// The Diagnosis page's status-bar line and View › Diagnosis. The diagnosis runs on the health
// thread after a snapshot, spaced by its own cost (DiagnosisMonitor::spacingMs), not charged to
// the snapshot's interval.
void MainWindow::setupDiagnosis()
{
    m_diagnosisStatus = new DiagnosisStatusLine;
    statusBar()->addWidget(m_diagnosisStatus);
    m_diagnosisAction = new QAction(tr("&Diagnosis"), this);
    m_diagnosisAction->setObjectName(QStringLiteral("diagnosisAction"));
    m_diagnosisAction->setShortcut(tr("Ctrl+D"));
    addAction(m_diagnosisAction);
    connectDiagnosis();
}

// Results to the page and the line; the line and View › Diagnosis open the page; a finding's
// "Show events" shows the Events page, filtered; the teaching session's relay names its policy and
// budget in the detail's explanation.
void MainWindow::connectDiagnosis()
{
    const auto showPanel = [this] { showPage(QStringLiteral("diagnosis")); };
    connect(m_diagnosisAction, &QAction::triggered, this, showPanel);
    connect(m_diagnosisStatus, &QToolButton::clicked, this, showPanel);
    connect(m_diagnosis, &DiagnosisMonitor::resultChanged, m_diagnosisPanel,
        &DiagnosisPanel::setResult);
    connect(m_diagnosis, &DiagnosisMonitor::resultChanged, m_diagnosisStatus,
        &DiagnosisStatusLine::setResult);
    // The DEAD tile's "(9 on hold)": the diagnosis counts the markers already, no statement more.
    connect(m_diagnosis, &DiagnosisMonitor::resultChanged, m_tiles,
        [this](const DiagnosisResult &result) {
            m_tiles->setAcknowledged(result.onHold, result.investigating);
        });
    connect(m_diagnosis, &DiagnosisMonitor::failed, m_diagnosisPanel, &DiagnosisPanel::setFailure);
    connect(m_diagnosis, &DiagnosisMonitor::failed, m_diagnosisStatus,
        &DiagnosisStatusLine::setFailure);
    connect(m_diagnosisPanel, &DiagnosisPanel::filterRequested, this,
        [this](const FindingFilter &shown) {
            openEventView(shown.filter, EventListModel::AgeColumn,
                shown.oldestFirst ? Qt::DescendingOrder : Qt::AscendingOrder);
        });
    if (m_session)
        connect(m_session, &TeachingSession::stateChanged, this, [this] {
            ExplainOptions explain;
            if (m_session->mode() == TeachingSession::Mode::LiveRelay) {
                explain.policy = m_session->relayConfig().policy;
                explain.budget = m_session->relayConfig().budget.maxAttempts;
            } else if (m_session->mode() == TeachingSession::Mode::Scenario) {
                explain.budget = m_session->scenarioBudget();
            }
            m_reader->setExplainOptions(explain);
        });
}
