#include "mainwindow.h"

#include "agehistogrammodel.h"
#include "alertbar.h"
#include "attemptshistogrammodel.h"
#include "banneroverlay.h"
#include "columnfitter.h"
#include "detailpane.h"
#include "detailreader.h"
#include "diagnosismonitor.h"
#include "diagnosispage.h"
#include "diagnosisstatusline.h"
#include "errorcategorymodel.h"
#include "eventlistmodel.h"
#include "eventspage.h"
#include "editactions.h"
#include "eventtablemenu.h"
#include "filterbar.h"
#include "healthmonitor.h"
#include "healthtiles.h"
#include "healthworker.h"
#include "hintbar.h"
#include "historymodel.h"
#include "historymonitor.h"
#include "intervalbox.h"
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
#include "replaylogmodel.h"
#include "resolveactions.h"
#include "schema.h"
#include "stalebanner.h"
#include "teachingdock.h"
#include "teachingsession.h"
#include "thresholdsdialog.h"
#include "windowactions.h"
#include "windowalerts.h"
#include "windowmenus.h"
#include "windowsettings.h"
#include "windowstatus.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDateTime>
#include <QEvent>
#include <QFileInfo>
#include <QScreen>
#include <QScrollArea>
#include <QSpinBox>
#include <QStatusBar>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>

namespace {

constexpr QSize DefaultSize(1600, 1000); // at most: a laptop gets its screen's size

// A page that scrolls rather than holding the window above a laptop's height.
QWidget *scrolled(QWidget *page, const QString &key)
{
    auto *scroll = new QScrollArea;
    scroll->setObjectName(key + QStringLiteral("Page"));
    scroll->setWidget(page);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    return scroll;
}

Page *pageOf(QWidget *shown)
{
    if (auto *scroll = qobject_cast<QScrollArea *>(shown))
        shown = scroll->widget();
    return dynamic_cast<Page *>(shown);
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
// (toolbar, tiles, teaching dock, status bar, diagnosis, banners, menus), the size and the
// remembered layout, and last the live relay and the first snapshot.
MainWindow::MainWindow(
    const DatabaseUrl &url, const WindowOptions &options, bool connectionReadOnly, QWidget *parent)
    : QMainWindow(parent)
    , m_url(url)
    , m_connectionReadOnly(connectionReadOnly)
    , m_options(options)
    , m_simulation(options.markedForSimulation.value_or(false))
{
    const QString title = options.outboxName.isEmpty()
        ? tr("Outbox Health — %1").arg(m_url.toDisplayString())
        : tr("Outbox Health — %1 (%2)").arg(options.outboxName, m_url.toDisplayString());
    const ConnectionEnvironment &environment = m_options.environment;
    setWindowTitle(environment.isEmpty() ? title
                                         : QStringLiteral("[%1] ").arg(environment.name) + title);
    PlainToolTips::install(); // tooltips quote servers, files and links: never markup
    setupModels();
    setupPages();
    setupActions();
    setupToolbar();
    setupCentral();
    setupTeaching();
    setupStatusBar();
    setupDiagnosis();
    setupBanners();
    setupMenus();
    setupKeyboard();
    connect(m_monitor, &HealthMonitor::snapshotChanged, this, &MainWindow::applySnapshot);
    resizeToScreen();
    m_layoutRestored = WindowSettings::restore(*this);
    if (m_layoutRestored)
        m_eventsPage->fitter()->setRestored();
    startDemo();
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

// The models and workers every page reads; read-only, short timeouts.
void MainWindow::setupModels()
{
    m_events = new EventListModel(this);
    m_ages = new AgeHistogramModel(this);
    m_failures = new AttemptsHistogramModel(this);
    m_history = new HistoryModel(this);
    m_categories = new ErrorCategoryModel(this);
    OpenOptions options = HealthWorker::defaultOpenOptions();
    options.validateSchema = isNativeSchema(); // a profile validated its own schema
    m_monitor = new HealthMonitor(m_url, options, this);
    m_reader = new DetailReader(m_url, this);
    m_historyMonitor = new HistoryMonitor(m_monitor, m_url, options, this);
    connect(
        m_historyMonitor, &HistoryMonitor::historyChanged, m_history, &HistoryModel::setHistory);
    m_replayLog = new ReplayLogModel(this);
    options.validateSchema = false; // validated when the window's database was opened
    m_diagnosis = new DiagnosisMonitor(m_monitor, m_url, options, this);
    if (!isNativeSchema()) {
        m_monitor->setProfile(*m_options.profile);
        m_historyMonitor->setProfile(*m_options.profile);
        m_reader->setProfile(*m_options.profile);
        m_diagnosis->setProfile(*m_options.profile);
        m_events->setProfile(*m_options.profile);
    }
    if (m_simulation && !m_options.readOnly) {
        m_sessionOwner = std::make_unique<TeachingSession>(m_url);
        m_session = m_sessionOwner.get();
    }
    m_monitor->setClock([this] { return currentTime(); });
    m_events->setNow(QDateTime::currentMSecsSinceEpoch());
    m_events->setSource(m_url); // its own connection, on its own thread
}

PageContext MainWindow::pageContext() const
{
    return {m_url, m_options.profile, [this] { return currentTime(); }, m_monitor, m_events,
        m_reader, m_replayLog, m_ages, m_failures, m_history, m_historyMonitor, m_categories};
}

// Every page of the registry, in its order (Ctrl+1…N). The history is read only while the
// Overview page, which charts it, shows.
void MainWindow::setupPages()
{
    m_pages = new PageNavigator;
    const PageContext context = pageContext();
    for (const PageEntry &entry : PageRegistry::pages()) {
        QWidget *page = entry.create(context);
        m_pages->addPage(entry.key, entry.title, entry.scrolled ? scrolled(page, entry.key) : page);
    }
    m_eventsPage = qobject_cast<EventsPage *>(m_pages->page(EventsPage::Key));
    connect(m_pages, &PageNavigator::currentPageChanged, m_historyMonitor,
        [this](const QString &key) { m_historyMonitor->setWanted(key == OverviewPage::Key); });
    m_pages->showPage(EventsPage::Key);
    m_historyMonitor->setWanted(m_pages->currentPage() == OverviewPage::Key);
}

void MainWindow::setupActions()
{
    m_writes = new WindowActions({m_url, eventView(), m_events, openOptions().readOnly,
                                     [this] { return currentTime(); }, m_options.profile,
                                     m_monitor},
        this);
    m_tableMenu = new EventTableMenu(eventView(), filterBar(), operatorActions(), this);
    m_tableMenu->setResolveAction(resolveActions()->resolveSelectedAction());
    m_tableMenu->setReopenAction(reopenActions()->reopenSelectedAction());
    m_tableMenu->setEditAction(editActions()->editSelectedAction());
    m_tableMenu->setNoteActions(notesActions()->addNoteAction(), notesActions()->clearNotesAction());
    detailPane()->setNoteActions(notesActions()->addNoteAction(), notesActions()->clearNotesAction());
    connect(m_tableMenu, &EventTableMenu::showAttemptsRequested, this,
        [this] { showPage(EventsPage::Key); });
    PageWiring::wireErrors(*this);
    PageWiring::wireNotes(*this);
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
    toolbar->addActions({operatorActions()->replaySelectedAction(),
        operatorActions()->replayMatchingAction(), resolveActions()->resolveSelectedAction(),
        operatorActions()->exportEventsAction(), operatorActions()->exportAuditAction()});
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
    m_pauseAction = toolbar->addAction(tr("Pause refresh"));
    m_pauseAction->setCheckable(true);
    connect(m_pauseAction, &QAction::toggled, this,
        [this](bool paused) { paused ? m_monitor->pause() : m_monitor->resume(); });
    // Reached by a click or Tab, never the first focus: a stray digit would change the refresh.
    toolbar->addWidget(m_interval = new IntervalBox(m_monitor));
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
    layout->addWidget(m_pages, 1);
    setCentralWidget(central);
    connect(m_tiles, &HealthTiles::tileClicked, this,
        [this](HealthTiles::Tile tile) { filterByTile(int(tile)); });
    connect(m_monitor, &HealthMonitor::staleChanged, m_tiles,
        [this](bool stale) { m_tiles->setStale(stale, m_monitor->lastGoodAt()); });
}

void MainWindow::setupTeaching()
{
    if (!m_session)
        return;
    m_teachingDock = new TeachingDock(m_session, m_monitor, this);
    m_teachingDock->follow(charts(), m_ages);
    addDockWidget(Qt::BottomDockWidgetArea, m_teachingDock);
    resizeDocks({m_teachingDock}, {TeachingDock::DefaultHeight}, Qt::Vertical);
    m_teachingDock->setVisible(m_options.showTeachingByDefault); // until the settings say
    PageWiring::wireExplanations(*this, m_session);
}

void MainWindow::setupStatusBar()
{
    m_status = new WindowStatus(statusBar(), m_monitor, m_url, this);
    m_status->addLabels(profileName(),
        m_options.profile ? m_options.profile->description() : QString(),
        operatorActions()->replayUnavailableReason());
    m_writes->addStatusTo(statusBar());
    m_status->addMode(m_options.readOnly);
    if (!m_options.environment.isEmpty())
        m_status->addEnvironment(m_options.environment);
    connect(m_writes, &WindowActions::grantsChanged, m_status, &WindowStatus::showGrants);
}

// The Diagnosis page's status-bar line and View › Diagnosis. The diagnosis runs on the health
// thread after a snapshot, spaced by its own cost (DiagnosisMonitor::spacingMs).
void MainWindow::setupDiagnosis()
{
    m_diagnosisStatus = new DiagnosisStatusLine;
    statusBar()->addWidget(m_diagnosisStatus);
    m_diagnosisAction = new QAction(tr("&Diagnosis"), this);
    m_diagnosisAction->setObjectName(QStringLiteral("diagnosisAction"));
    m_diagnosisAction->setShortcut(tr("Ctrl+D"));
    connect(m_diagnosisAction, &QAction::triggered, this, [this] {
        showPage(DiagnosisPage::Key);
        focusPage();
    });
    PageWiring::wireDiagnosis(*this, m_diagnosis, m_diagnosisStatus);
}

// The stale banner and the alert bar come and go: they float over the pages' bottom edge and
// move nothing. The demo's hint bar is there from the start, above the tiles.
void MainWindow::setupBanners()
{
    auto *banners = new BannerOverlay(m_pages);
    m_alertBar = new AlertBar; // desktop alerts where there is no tray, above the banner
    banners->addBanner(m_alertBar);
    banners->addBanner(new StaleBanner(m_monitor));
    m_alerts = new WindowAlerts(m_monitor, m_tiles, outboxName(), m_alertBar, this);
    if (m_session) // a scenario's empty tables are a new story, not a recovery
        connect(m_session, &TeachingSession::starting, m_alerts, &WindowAlerts::rebase);
    if (m_options.startLiveRelay && !HintBar::isDismissed()) { // the demo's first runs
        auto *hint = new HintBar;
        connect(hint, &HintBar::showMeRequested, this,
            [this] { selectFirstEventWithStatus(QStringLiteral("DEAD")); });
        qobject_cast<QVBoxLayout *>(centralWidget()->layout())->insertWidget(0, hint);
    }
    connect(m_reader, &DetailReader::replayLogFailed, this, [this](const QString &error) {
        statusBar()->showMessage(tr("Replay log: could not read it: %1").arg(error), 10000);
    });
}

void MainWindow::setupMenus()
{
    MenuActions own;
    own.connect = m_connectAction;
    own.refresh = m_refreshAction;
    own.pauseRefresh = m_pauseAction;
    own.thresholds = m_thresholdsAction;
    own.diagnosis = m_diagnosisAction;
    WindowMenus::install(*this, own, m_interval);
}

// Ctrl+1…N show a page and put the keyboard in it; the window opens with it in the page too.
void MainWindow::setupKeyboard()
{
    for (QAction *action : m_pages->pageActions())
        connect(action, &QAction::triggered, this, &MainWindow::focusPage);
    m_interval->setFocusPolicy(Qt::ClickFocus);
}

// The demo: the simulated relay runs from the start; the producer's stock is seeded on the
// session's worker, a failure there arrives later.
void MainWindow::startDemo()
{
    if (!m_session || !m_options.startLiveRelay)
        return;
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

void MainWindow::applySnapshot(const HealthSnapshot &snapshot)
{
    m_tiles->setSnapshot(snapshot);
    const bool changed = m_monitor->figuresChanged();
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
    if (QWidget *target = page ? page->focusTarget() : nullptr)
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

QString MainWindow::pageForName(const QString &name)
{
    return PageRegistry::keyForName(name);
}

void MainWindow::showPage(const QString &name)
{
    m_pages->showPage(pageForName(name));
}

QString MainWindow::currentPage() const
{
    return m_pages->currentPage();
}

void MainWindow::filterByTile(int tile)
{
    PageWiring::filterByTile(*this, tile);
}

DiagnosisPage *MainWindow::diagnosisPanel() const
{
    return dynamic_cast<DiagnosisPage *>(pageOf(m_pages->page(DiagnosisPage::Key)));
}

PolicyLabPage *MainWindow::policyLab() const
{
    return dynamic_cast<PolicyLabPage *>(pageOf(m_pages->page(PolicyLabPage::Key)));
}

OverviewPage *MainWindow::charts() const
{
    return dynamic_cast<OverviewPage *>(pageOf(m_pages->page(OverviewPage::Key)));
}

// The first show: the teaching dock below the table's rows, the keyboard in the page.
void MainWindow::showEvent(QShowEvent *event)
{
    m_monitor->setSlowed(false);
    QMainWindow::showEvent(event);
    if (std::exchange(m_shownOnce, true))
        return;
    QTimer::singleShot(0, this, [this] {
        if (m_teachingDock && !m_layoutRestored)
            m_teachingDock->fitBelow(eventView());
        focusPage();
    });
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
