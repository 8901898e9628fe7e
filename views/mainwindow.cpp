#include "mainwindow.h"

#include "activefilterbar.h"
#include "agehistogrammodel.h"
#include "alertbar.h"
#include "alertdecider.h"
#include "attemptshistogrammodel.h"
#include "chartspanel.h"
#include "columnfitter.h"
#include "detailpane.h"
#include "detailreader.h"
#include "diagnosismonitor.h"
#include "diagnosispanel.h"
#include "diagnosisstatusline.h"
#include "errorcategorymodel.h"
#include "errorspanel.h"
#include "eventlistmodel.h"
#include "eventselection.h"
#include "eventtablemenu.h"
#include "eventtablestatus.h"
#include "eventwindowscroller.h"
#include "filterbar.h"
#include "fulltextdelegate.h"
#include "healthmonitor.h"
#include "healthtiles.h"
#include "healthworker.h"
#include "hintbar.h"
#include "historymodel.h"
#include "historymonitor.h"
#include "lifecyclediagram.h"
#include "mainmenus.h"
#include "operatoractions.h"
#include "policylabpanel.h"
#include "replaylogmodel.h"
#include "resolveactions.h"
#include "schema.h"
#include "stalebanner.h"
#include "statuscolorproxy.h"
#include "tabwidener.h"
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
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSpinBox>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
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
QScrollArea *scrolled(QWidget *page)
{
    auto *scroll = new QScrollArea;
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
    setupModels();
    setupCentral();
    setupToolbar();
    setupTeaching();
    setupStatusBar();
    setupDiagnosis();
    setupPolicyLab();
    setupStaleBanner();
    showEnvironment();
    setupMenus();
    connectMonitor();
    connectErrors();
    resizeToScreen();
    m_layoutRestored = WindowSettings::restore(*this);
    if (m_layoutRestored)
        m_fitter->setRestored();
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
    connect(
        m_historyMonitor, &HistoryMonitor::historyChanged, m_history, &HistoryModel::setHistory);
    // Its reading follows each snapshot: its cost counts into the adaptive interval.
    connect(m_historyMonitor, &HistoryMonitor::historyChanged, m_monitor,
        [this](const DeliveryHistory &history) { m_monitor->noteRefreshCost(history.queryMs); });
    if (!isNativeSchema()) {
        m_monitor->setProfile(*m_options.profile);
        m_historyMonitor->setProfile(*m_options.profile);
        m_reader->setProfile(*m_options.profile);
    }
    m_replayLog = new ReplayLogModel(this);
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
    setupOperatorActions();
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

// Replay, resolve and export, each finished one refreshing the snapshot or saying so.
void MainWindow::setupOperatorActions()
{
    m_actions = new OperatorActions(
        m_url, m_eventView, m_events, openOptions().readOnly, [this] { return currentTime(); },
        this);
    if (!isNativeSchema())
        m_actions->setProfile(*m_options.profile);
    connect(m_actions, &OperatorActions::replayFinished, m_monitor, &HealthMonitor::refreshNow);
    m_resolve = new ResolveActions(
        m_url, m_eventView, openOptions().readOnly, [this] { return currentTime(); }, this);
    if (!isNativeSchema())
        m_resolve->setProfile(*m_options.profile);
    connect(m_resolve, &ResolveActions::resolveFinished, m_monitor, &HealthMonitor::refreshNow);
    connect(m_actions, &OperatorActions::exportFinished, this,
        [this](bool, bool, qint64, const QString &message) { statusBar()->showMessage(message); });
}

// How often the snapshot is refreshed, in step with the monitor.
QSpinBox *MainWindow::createIntervalBox()
{
    auto *interval = m_interval = new QSpinBox;
    interval->setObjectName(QStringLiteral("intervalBox"));
    interval->setRange(1, 600);
    interval->setValue(m_monitor->interval() / 1000);
    interval->setPrefix(tr("every "));
    interval->setSuffix(tr(" s"));
    interval->setToolTip(tr("How often the health snapshot is refreshed"));
    connect(interval, &QSpinBox::valueChanged, this,
        [this](int seconds) { m_monitor->setInterval(seconds * 1000); });
    connect(m_monitor, &HealthMonitor::intervalChanged, interval,
        [this, interval] { interval->setValue(m_monitor->interval() / 1000); });
    return interval;
}

void MainWindow::setupCentral()
{
    m_tiles = new HealthTiles;
    m_tiles->setThresholds(ThresholdsDialog::load());
    m_filterBar = new FilterBar;
    setupEventView();
    setupTabs();
    setupSplitter();

    auto *central = new QWidget;
    auto *layout = new QVBoxLayout(central);
    layout->addWidget(m_tiles);
    layout->addWidget(m_splitter, 1);
    setCentralWidget(central);

    connect(m_filterBar, &FilterBar::filterChanged, this, &MainWindow::applyFilter);
    m_detail->setClock([this] { return currentTime(); });
    new EventSelection(m_eventView, m_events, m_detail, this);
    connect(m_activeFilter, &ActiveFilterBar::clearRequested, m_filterBar,
        [this] { m_filterBar->setFilter({}); });
    connect(m_tiles, &HealthTiles::tileClicked, this,
        [this](HealthTiles::Tile tile) { filterByTile(int(tile)); });
}

// The event table: coloured by state, compact rows, columns fitted to the window.
void MainWindow::setupEventView()
{
    m_eventView = new QTableView;
    m_eventView->setObjectName(QStringLiteral("eventView"));
    auto *colours = new StatusColorProxy(this);
    colours->setSourceModel(m_events);
    colours->setStatusFunction(
        [](const QModelIndex &index) { return index.data(EventListModel::StatusRole).toString(); });
    m_eventView->setModel(colours);
    m_eventView->setSortingEnabled(true);
    m_eventView->sortByColumn(EventListModel::AgeColumn, Qt::AscendingOrder); // newest first
    m_eventView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_eventView->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_eventView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    // Compact rows, the text's height and a few pixels: 15 of them fit a laptop's screen with
    // the demo's hint bar and teaching panel open.
    m_eventView->verticalHeader()->setMinimumSectionSize(1);
    m_eventView->verticalHeader()->setDefaultSectionSize(
        std::max(18, m_eventView->fontMetrics().height() + 4));
    m_eventView->verticalHeader()->hide();
    // Not stretched: a stretched last column shrank to one word of the error once the others
    // overflowed; ColumnFitter gives it room instead.
    m_eventView->horizontalHeader()->setSectionsMovable(true);
    m_eventView->setWordWrap(false); // wrapped, "Order ORDER-…-10" showed as "Order ..."
    m_eventView->setColumnWidth(EventListModel::StateColumn, // wide enough for every state
        m_eventView->fontMetrics().horizontalAdvance(QStringLiteral("LEASE EXPIRED")) + 16);
    m_eventView->setColumnWidth(EventListModel::FailuresColumn, 64);
    m_eventView->setItemDelegate(new FullTextDelegate(m_eventView)); // cut text: whole in a tip
    m_fitter = new ColumnFitter(m_eventView, m_events, this);
    new EventWindowScroller(
        m_eventView, m_events, m_eventView); // the bounded window keeps its place
}

// The tabs beside the table: detail, charts, lifecycle, replay log and errors.
void MainWindow::setupTabs()
{
    m_detail = new DetailPane(m_reader);
    if (!isNativeSchema()) {
        m_detail->setProfile(*m_options.profile);
        m_filterBar->setProfile(*m_options.profile);
    }
    m_charts = new ChartsPanel(m_ages, m_failures, m_history, m_categories);
    connect(m_charts, &ChartsPanel::rangeChanged, m_historyMonitor, &HistoryMonitor::setRange);
    m_lifecycle = new LifecycleDiagram;
    auto *tabs = m_tabs = new QTabWidget;
    tabs->setObjectName(QStringLiteral("rightTabs"));
    tabs->addTab(scrolled(m_detail), tr("Event detail"));
    tabs->addTab(scrolled(m_charts), tr("Charts"));
    tabs->addTab(scrolled(m_lifecycle), tr("Lifecycle"));
    tabs->addTab(createReplayLogView(), tr("Replay log"));
    m_errors = new ErrorsPanel(m_url, m_options.profile, [this] { return currentTime(); });
    tabs->addTab(m_errors, tr("Errors"));
}

// The audit table of replays, or on a schema that keeps none, a label that says so.
QWidget *MainWindow::createReplayLogView()
{
    auto *audit = new QTableView;
    audit->setObjectName(QStringLiteral("replayLogView"));
    audit->setModel(m_replayLog);
    audit->setEditTriggers(QAbstractItemView::NoEditTriggers);
    audit->verticalHeader()->hide();
    audit->horizontalHeader()->setStretchLastSection(true);
    audit->setWordWrap(false);
    audit->setItemDelegate(new FullTextDelegate(audit));
    if (isNativeSchema())
        return audit;
    delete audit;
    auto *none = new QLabel(
        tr("Replay log: not available for %1: the schema keeps no replay log.").arg(profileName()));
    none->setObjectName(QStringLiteral("replayLogNotAvailable"));
    none->setAlignment(Qt::AlignCenter);
    none->setWordWrap(true);
    return none;
}

// The filter bar, the table and its status line on the left, the tabs on the right.
void MainWindow::setupSplitter()
{
    auto *list = new QWidget;
    auto *listLayout = new QVBoxLayout(list);
    listLayout->setContentsMargins(0, 0, 0, 0);
    listLayout->addWidget(m_filterBar);
    m_activeFilter = new ActiveFilterBar;
    listLayout->addWidget(m_activeFilter);
    listLayout->addWidget(m_eventView, 1);
    listLayout->addWidget(new EventTableStatus(m_events, m_eventView));
    auto *splitter = m_splitter = new QSplitter(Qt::Horizontal);
    splitter->setObjectName(QStringLiteral("mainSplitter"));
    splitter->addWidget(list);
    splitter->addWidget(m_tabs);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setSizes({650, 350}); // the table the larger part, also on a laptop
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
        if (m_session->mode() == TeachingSession::Mode::LiveRelay)
            m_charts->setBudget(m_session->relayConfig().budget.maxAttempts);
        else if (m_session->mode() == TeachingSession::Mode::Scenario)
            m_charts->setBudget(m_session->scenarioBudget());
    });
}

void MainWindow::setupStatusBar()
{
    auto *connection = new QLabel(tr("Connected: %1").arg(m_url.toDisplayString()));
    connection->setObjectName(QStringLiteral("connectionLabel"));
    m_refreshLabel = new QLabel(tr("Waiting for the first snapshot…"));
    m_refreshLabel->setObjectName(QStringLiteral("refreshLabel"));
    statusBar()->addWidget(connection);
    auto *profile = new QLabel(tr("Profile: %1").arg(profileName()));
    profile->setObjectName(QStringLiteral("profileLabel"));
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
        note->setToolTip(replayNote);
        statusBar()->addWidget(note);
    }
    auto *mode = new QLabel(m_options.readOnly ? tr("READ-ONLY") : tr("read-write"));
    mode->setObjectName(QStringLiteral("readOnlyLabel"));
    if (m_options.readOnly)
        mode->setStyleSheet(
            QStringLiteral("font-weight: bold; color: %1").arg(ThemeColours::warningText().name()));
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

void MainWindow::setupStaleBanner()
{
    m_staleBanner = new StaleBanner(m_monitor);
    auto *layout = qobject_cast<QVBoxLayout *>(centralWidget()->layout());
    layout->insertWidget(0, m_staleBanner); // above the tiles
    m_alertBar = new AlertBar; // desktop alerts where there is no tray, above the banner
    layout->insertWidget(0, m_alertBar);
    m_alerts = new WindowAlerts(m_monitor, m_tiles, outboxName(), m_alertBar, this);
    if (m_options.startLiveRelay && !HintBar::isDismissed()) { // the demo's first runs
        auto *hint = new HintBar;
        connect(hint, &HintBar::showMeRequested, this, [this] {
            showTab(QStringLiteral("detail"));
            selectFirstEventWithStatus(QStringLiteral("DEAD"));
        });
        layout->insertWidget(1, hint);
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

// The Errors tab reads after each snapshot (only while shown), filters the table to a group,
// and replays or resolves a group through the window's operator and resolve actions.
void MainWindow::connectErrors()
{
    m_errors->setOperatorActions(m_actions);
    m_errors->setResolveActions(m_resolve);
    connect(m_monitor, &HealthMonitor::snapshotChanged, m_errors, &ErrorsPanel::refresh);
    connect(m_errors, &ErrorsPanel::filterRequested, this, [this](const EventFilter &filter) {
        if (m_filterBar->filter() != filter) // a click that selects a group asks twice
            m_filterBar->setFilter(filter);
    });
}

void MainWindow::connectMonitor()
{
    connectReplayLog();
    connect(m_monitor, &HealthMonitor::snapshotChanged, this, &MainWindow::applySnapshot);
    // The table's refresh is part of what a snapshot costs the database.
    connect(m_events, &EventListModel::refreshCost, m_monitor, &HealthMonitor::noteRefreshCost);
    connect(m_monitor, &HealthMonitor::staleChanged, this, &MainWindow::onStaleChanged);
    connect(m_monitor, &HealthMonitor::intervalChanged, this, &MainWindow::updateRefreshLabel);
}

// The banner names the cause; the tiles grey out; the status bar says since when.
void MainWindow::onStaleChanged(bool stale)
{
    m_tiles->setStale(stale, m_monitor->staleSince());
    updateRefreshLabel();
}

// One short line: its full text in the tooltip, never cut mid-word at the status bar's edge.
void MainWindow::updateRefreshLabel()
{
    QString text;
    if (m_monitor->isStale()) {
        text = tr("Stale since %1")
                   .arg(m_monitor->staleSince().toString(QStringLiteral("HH:mm:ss")));
    } else if (m_monitor->hasSnapshot()) {
        const int seconds = qMax(1, (m_monitor->adaptedInterval() + 500) / 1000);
        text = tr("Refreshed %1 in %2 ms, every %3 s")
                   .arg(m_monitor->lastGoodAt().toString(QStringLiteral("HH:mm:ss")))
                   .arg(m_monitor->snapshot().queryMs)
                   .arg(seconds);
        if (m_monitor->adaptedInterval() > m_monitor->interval())
            text += tr(" (adaptive)");
    } else {
        return; // still "Waiting for the first snapshot…"
    }
    m_refreshLabel->setToolTip(text);
    m_refreshLabel->setText(
        m_refreshLabel->fontMetrics().elidedText(text, Qt::ElideRight, MaxStatusTextWidth));
}

void MainWindow::applySnapshot(const HealthSnapshot &snapshot)
{
    m_tiles->setSnapshot(snapshot);
    m_ages->setSnapshot(snapshot);
    m_failures->setSnapshot(snapshot);
    m_categories->setSnapshot(snapshot);
    m_lifecycle->setCounts(snapshot.counts);
    // RESOLVED exists on the native schema from version 2 (a profile's snapshot has none).
    m_lifecycle->setNotAvailable(snapshot.schemaVersion >= 2
            ? snapshot.notAvailable
            : snapshot.notAvailable + QStringList {QStringLiteral("resolved")});
    showSchemaVersion(snapshot.schemaVersion);
    m_events->setNow(snapshot.now);
    m_events->refresh(); // answers later (loaded), or skipped while a read still runs
    m_detail->refresh();
    if (isNativeSchema())
        m_reader->requestReplayLog();
    if (!std::exchange(m_chartsMarked, true) && !isNativeSchema())
        m_charts->setNotAvailable(profileName(), snapshot.notAvailable);
    updateRefreshLabel();
}

// Resolve follows the schema's version; an older native schema says what to run, once.
void MainWindow::showSchemaVersion(int version)
{
    if (!isNativeSchema())
        return;
    m_resolve->setSchemaVersion(version);
    const QString outdated = Schema::outdatedMessage(version);
    m_schemaNote->setVisible(version > 0 && !outdated.isEmpty());
    m_schemaNote->setText(tr("Schema v%1: Resolve needs outboxctl migrate").arg(version));
    m_schemaNote->setToolTip(outdated);
}

void MainWindow::applyFilter(const EventFilter &filter)
{
    m_activeFilter->setFilter(filter);
    m_events->setFilter(filter); // the selection comes back when the rows are loaded
}

void MainWindow::openEventView(const EventFilter &filter, int column, Qt::SortOrder order)
{
    m_filterBar->setFilter(filter);
    m_eventView->sortByColumn(column, order);
}

bool MainWindow::selectEvent(const QString &eventId)
{
    const int row = m_events->rowOfEvent(eventId);
    if (row < 0)
        return false;
    m_eventView->setCurrentIndex(m_eventView->model()->index(row, 0));
    return m_detail->eventId() == eventId;
}

bool MainWindow::selectFirstEventWithStatus(const QString &status)
{
    for (int row = 0; row < m_events->rowCount(); ++row) {
        if (m_events->index(row, 0).data(EventListModel::StatusRole).toString() == status)
            return selectEvent(m_events->eventIdAt(row));
    }
    return false;
}

void MainWindow::showTab(const QString &name)
{
    const QStringList names = {QStringLiteral("detail"), QStringLiteral("charts"),
        QStringLiteral("lifecycle"), QStringLiteral("audit"), QStringLiteral("errors")};
    if (name == QLatin1String("diagnosis") || name == QLatin1String("policy"))
        m_tabs->setCurrentWidget(m_tabs->findChild<QWidget *>(name + QStringLiteral("Tab")));
    else if (names.contains(name))
        m_tabs->setCurrentIndex(int(names.indexOf(name)));
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
    m_policyLabWidener->restore(); // the table's width is saved, not the lab's
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
    const QScrollBar *bar = m_eventView->horizontalScrollBar();
    const int rows = MinimumTableRows * m_eventView->verticalHeader()->defaultSectionSize()
        + (bar->isVisible() ? 0 : bar->sizeHint().height());
    const int spare = m_teachingDock->height() + m_eventView->viewport()->height() - rows;
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
    m_filterBar->setFilter(filter);
    if (tile == int(T::OldestPending))
        m_eventView->sortByColumn(EventListModel::AgeColumn, Qt::DescendingOrder); // oldest first
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
    m_tableMenu = new EventTableMenu(m_eventView, m_filterBar, m_actions, this);
    m_tableMenu->setResolveAction(m_resolve->resolveSelectedAction());
    connect(m_tableMenu, &EventTableMenu::showAttemptsRequested, this,
        [this] { showTab(QStringLiteral("detail")); });
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
    connect(actions.find, &QAction::triggered, m_filterBar, &FilterBar::focusSearch);
    actions.clearSearch = new QAction(tr("&Clear search"), this);
    actions.clearSearch->setObjectName(QStringLiteral("clearSearchAction"));
    actions.clearSearch->setShortcut(Qt::Key_Escape);
    connect(actions.clearSearch, &QAction::triggered, m_filterBar, &FilterBar::clearSearch);
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
    actions.copyIds = m_tableMenu->copyIdsAction();
    actions.about = new QAction(tr("&About Outbox Health"), this);
    actions.about->setObjectName(QStringLiteral("aboutAction"));
    connect(actions.about, &QAction::triggered, this,
        [this] { QMessageBox::about(this, tr("About Outbox Health"), aboutText()); });
    // Window-wide shortcuts need the actions on the window, not only in a menu.
    addActions(
        {actions.quit, actions.find, actions.clearSearch, m_refreshAction, actions.exportEvents});
    menuBar()->setObjectName(QStringLiteral("menuBar"));
    MainMenus::build(menuBar(), actions, m_interval);
}

// The Diagnosis tab, its status-bar line and View › Diagnosis. The diagnosis runs on the health
// thread after each snapshot; its cost counts into the snapshot's adaptive interval.
void MainWindow::setupDiagnosis()
{
    OpenOptions options = HealthWorker::defaultOpenOptions();
    options.validateSchema = false; // validated when the window's database was opened
    m_diagnosis = new DiagnosisMonitor(m_monitor, m_url, options, this);
    if (!isNativeSchema())
        m_diagnosis->setProfile(*m_options.profile);
    m_diagnosisPanel = new DiagnosisPanel;
    QScrollArea *page = scrolled(m_diagnosisPanel);
    page->setObjectName(QStringLiteral("diagnosisTab"));
    m_tabs->addTab(page, tr("Diagnosis"));
    m_diagnosisStatus = new DiagnosisStatusLine;
    statusBar()->addWidget(m_diagnosisStatus);
    m_diagnosisAction = new QAction(tr("&Diagnosis"), this);
    m_diagnosisAction->setObjectName(QStringLiteral("diagnosisAction"));
    m_diagnosisAction->setShortcut(tr("Ctrl+D"));
    addAction(m_diagnosisAction);
    connectDiagnosis();
}

// The Policy lab: retry policies compared on the lab's own thread and scratch database, so it
// is there on any database, read-only and profiles included. While it is open the tabs take
// most of the width, for its charts side by side.
void MainWindow::setupPolicyLab()
{
    m_policyLab = new PolicyLabPanel;
    QScrollArea *page = scrolled(m_policyLab);
    page->setObjectName(QStringLiteral("policyTab"));
    m_tabs->addTab(page, tr("Policy lab"));
    m_policyLabWidener = new TabWidener(m_tabs, page, m_splitter, this);
}

// Results to the tab and the line; the line and View › Diagnosis open the tab; a finding's
// "Show events" filters the table; the teaching session's relay names its policy and budget in
// the detail's explanation.
void MainWindow::connectDiagnosis()
{
    const auto showPanel = [this] { showTab(QStringLiteral("diagnosis")); };
    connect(m_diagnosisAction, &QAction::triggered, this, showPanel);
    connect(m_diagnosisStatus, &QToolButton::clicked, this, showPanel);
    connect(m_diagnosis, &DiagnosisMonitor::resultChanged, m_diagnosisPanel,
        &DiagnosisPanel::setResult);
    connect(m_diagnosis, &DiagnosisMonitor::resultChanged, m_diagnosisStatus,
        &DiagnosisStatusLine::setResult);
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
