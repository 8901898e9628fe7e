// The dashboard window: a strip of health tiles always in view above pages an operator switches
// between on a rail (PageNavigator): Overview (charts), Events (table and the selected event's
// detail), Errors, Diagnosis, Audit, Lifecycle and Policy lab; on a simulation database, the
// teaching panel docked below. The window composes the pages and wires one to another; each
// page owns its widgets. Aggregates come from the HealthMonitor's worker thread,
// the detail and the replay log from the DetailReader's, replays and exports from OperatorActions'
// threads: the GUI thread only resets small models. The window keeps no QSqlDatabase of its own,
// only what it needs to open one on a worker: the URL, whether it may write, the profile and
// whether the database is a simulation's.
#pragma once

#include "connectionenvironment.h"
#include "dbconnection.h"
#include "outboxprofile.h"

#include <QMainWindow>
#include <memory>
#include <optional>

class AgeHistogramModel;
class AttemptsHistogramModel;
class ChartsPanel;
class DetailPane;
class DetailReader;
class DiagnosisMonitor;
class DiagnosisPanel;
class PolicyLabPanel;
class DiagnosisStatusLine;
class ErrorCategoryModel;
class ErrorsPanel;
class EventsPage;
class PageNavigator;
class EventListModel;
class FilterBar;
class HealthMonitor;
class HealthTiles;
class LifecycleDiagram;
class OperatorActions;
class ReplayLogModel;
class ReopenActions;
class EditActions;
class NotesActions;
class ResolveActions;
class StaleBanner;
class AlertBar;
class WindowAlerts;
class EventTableMenu;
class QAction;
class QDockWidget;
class QLabel;
class QSpinBox;
class QSplitter;
class QTableView;
class TeachingPanel;
class TeachingSession;
class HistoryModel;
class HistoryMonitor;
struct EventFilter;
struct HealthSnapshot;

struct WindowOptions
{
    bool readOnly = false;
    bool startLiveRelay = false; // the demo: the simulated relay runs from the start
    // The schema shown: another library's table through its profile (validated by whoever
    // opened the connection); none or native = delivery_outbox.
    std::optional<OutboxProfile> profile;
    // Whether the database is marked for simulation (the teaching panel appears): told by
    // whoever opened and validated it (DashboardApp), or, unset, read once from the connection
    // handed to the constructor.
    std::optional<bool> markedForSimulation;
    // The environment the operator named for this database (title, status bar, tile badge).
    ConnectionEnvironment environment;
    // The outbox's name in desktop alerts and their mutes ("orders: 3 DEAD events"): the fleet
    // file's name when opened from the fleet view; empty = the database's name.
    QString outboxName;
    // The teaching panel (a simulation database only) is shown unless the saved window state
    // says otherwise; by default only for the demo.
    bool showTeachingByDefault = false;
};

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    // Takes what it needs from `connection` (URL, read-only or not); every read and write of the
    // window runs on worker threads with connections of their own.
    MainWindow(std::unique_ptr<DbConnection> connection, const WindowOptions &options,
        QWidget *parent = nullptr);
    // A database opened and checked elsewhere (ConnectionOpener): `options.markedForSimulation`
    // set, unset counts as not marked; the workers open it read-only when options.readOnly.
    MainWindow(const DatabaseUrl &url, const WindowOptions &options, QWidget *parent = nullptr);
    ~MainWindow() override;

    const DatabaseUrl &url() const { return m_url; }
    // What the window's workers open their connections with (read-only when the window is).
    OpenOptions openOptions() const;
    EventListModel *eventModel() const { return m_events; }
    QTableView *eventView() const;
    DetailPane *detailPane() const;
    HealthMonitor *monitor() const { return m_monitor; }
    HealthTiles *tiles() const { return m_tiles; }
    TeachingSession *session() const { return m_session; }
    OperatorActions *operatorActions() const { return m_actions; }
    ResolveActions *resolveActions() const { return m_resolve; }
    ReopenActions *reopenActions() const { return m_reopen; }
    EditActions *editActions() const { return m_edit; }
    NotesActions *notesActions() const { return m_notes; }
    ReplayLogModel *replayLog() const { return m_replayLog; }
    DiagnosisMonitor *diagnosis() const { return m_diagnosis; }
    DiagnosisPanel *diagnosisPanel() const { return m_diagnosisPanel; }
    PolicyLabPanel *policyLab() const { return m_policyLab; }
    DiagnosisStatusLine *diagnosisStatus() const { return m_diagnosisStatus; }
    // The native schema (no profile, or the native one): attempts and replay log exist.
    bool isNativeSchema() const { return !m_options.profile || m_options.profile->isNative(); }
    QString profileName() const;
    qint64
    currentTime() const; // the simulation's clock on a simulation database, else the wall clock
    // The event table on this filter and sort (outbox-dashboard --search, --state, --sort).
    void openEventView(const EventFilter &filter, int column, Qt::SortOrder order);
    bool selectEvent(const QString &eventId);
    // The Events page on this event, its detail showing at once and its row selected once
    // loaded (a link's event=, --select).
    void openEvent(const QString &eventId);
    bool selectFirstEventWithStatus(const QString &status);
    // The pages, by the names --tab takes: overview, events, errors, diagnosis, audit, lifecycle,
    // policy. The old tab names still work: detail = events, charts = overview (pageForName).
    void showPage(const QString &name);
    void showTab(const QString &name) { showPage(name); } // the old name, for --tab
    QString currentPage() const;
    static QString pageForName(const QString &name); // empty: no such page
    PageNavigator *pages() const { return m_pages; }
    EventsPage *eventsPage() const { return m_eventsPage; }
    // The table on one state, as a click on a tile asks (the oldest-pending tile: pending events,
    // oldest first).
    void filterByTile(int tile);

    const WindowOptions &options() const { return m_options; }
    FilterBar *filterBar() const;
    QSplitter *splitter() const; // the Events page's: the table and the detail
    ChartsPanel *charts() const { return m_charts; }
    QDockWidget *teachingDock() const { return m_teachingDock; } // none without a simulation
    TeachingPanel *teachingPanel() const { return m_teaching; } // none without a simulation
    EventTableMenu *tableMenu() const { return m_tableMenu; }
    QAction *refreshAction() const { return m_refreshAction; }
    QSpinBox *intervalBox() const { return m_interval; }
    // What Help › About says: version, database (never a password) and Qt version.
    QString aboutText() const;
    AlertBar *alertBar() const { return m_alertBar; }
    WindowAlerts *windowAlerts() const { return m_alerts; }
    // The name desktop alerts give this outbox (WindowOptions::outboxName, else the database's).
    QString outboxName() const;

signals:
    void connectRequested();
    void fleetRequested(); // File › Open fleet…

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;
    void changeEvent(QEvent *event) override;
    void closeEvent(QCloseEvent *event) override; // remembers the window (WindowSettings)

private:
    MainWindow(const DatabaseUrl &url, const WindowOptions &options, bool connectionReadOnly,
        QWidget *parent);
    static constexpr int MinimumTableRows = 15;
    static constexpr int MinimumTeachingDockHeight = 96; // it scrolls below its own height
    void setupModels();
    void setupOperatorActions();
    void setupToolbar();
    QSpinBox *createIntervalBox();
    void setupPages();
    void setupCentral();
    void setupTeaching();
    void setupStatusBar();
    void setupGrants();
    void applyGrants(const class TableGrants &grants);
    void setupStaleBanner();
    void setupDiagnosis();
    void connectDiagnosis();
    void showEnvironment();
    void setupMenus();
    void resizeToScreen();
    void sizeTeachingDock();
    void connectMonitor();
    void onStaleChanged(bool stale);
    void updateRefreshLabel();
    void updateConnectionLabel();
    void applySnapshot(const HealthSnapshot &snapshot);
    void showSchemaVersion(int version);
    void connectReplayLog();
    void connectErrors();
    void addGroupNoteButtons();

    // Destroyed in the reverse order of declaration, after the destructor's body and before
    // QObject deletes the children: m_session (whose relay threads use the window's monitor
    // signals) goes first. Every other child holds only values or its own worker thread,
    // which it stops and waits for in its own destructor. The window holds no connection.
    DatabaseUrl m_url;
    bool m_connectionReadOnly = false;
    WindowOptions m_options;
    bool m_simulation = false;
    EventListModel *m_events = nullptr;
    DetailReader *m_reader = nullptr;
    AgeHistogramModel *m_ages = nullptr;
    AttemptsHistogramModel *m_failures = nullptr;
    HistoryModel *m_history = nullptr;
    HistoryMonitor *m_historyMonitor = nullptr; // the Charts tab's 1 h / 24 h / 7 d history
    ErrorCategoryModel *m_categories = nullptr;
    HealthMonitor *m_monitor = nullptr;
    class GrantsMonitor *m_grants = nullptr; // what the role may write: on connect, reconnect
    QLabel *m_grantsBadge = nullptr; // "read-only by the database's grants"
    std::unique_ptr<TeachingSession> m_sessionOwner; // not a QObject child: destroyed first
    TeachingSession *m_session = nullptr;
    HealthTiles *m_tiles = nullptr;
    PageNavigator *m_pages = nullptr;
    EventsPage *m_eventsPage = nullptr;
    ChartsPanel *m_charts = nullptr;
    LifecycleDiagram *m_lifecycle = nullptr;
    TeachingPanel *m_teaching = nullptr;
    QLabel *m_refreshLabel = nullptr;
    QLabel *m_connectionLabel = nullptr;
    StaleBanner *m_staleBanner = nullptr;
    AlertBar *m_alertBar = nullptr;
    WindowAlerts *m_alerts = nullptr;
    OperatorActions *m_actions = nullptr;
    ResolveActions *m_resolve = nullptr;
    ReopenActions *m_reopen = nullptr;
    EditActions *m_edit = nullptr;
    NotesActions *m_notes = nullptr;
    QLabel *m_schemaNote = nullptr; // a native schema older than the program: what to run
    ReplayLogModel *m_replayLog = nullptr;
    DiagnosisMonitor *m_diagnosis = nullptr; // its worker runs on m_monitor's thread
    DiagnosisPanel *m_diagnosisPanel = nullptr;
    PolicyLabPanel *m_policyLab = nullptr;
    DiagnosisStatusLine *m_diagnosisStatus = nullptr;
    QAction *m_diagnosisAction = nullptr;
    ErrorsPanel *m_errors = nullptr;
    QDockWidget *m_teachingDock = nullptr;
    EventTableMenu *m_tableMenu = nullptr;
    QAction *m_connectAction = nullptr;
    QAction *m_refreshAction = nullptr;
    QAction *m_pauseAction = nullptr;
    QAction *m_thresholdsAction = nullptr;
    QSpinBox *m_interval = nullptr;
    bool m_layoutRestored = false; // WindowSettings gave the columns, splitter and docks
    bool m_shownOnce = false;
    bool m_chartsMarked = false; // charts the schema cannot tell are labelled, once
};
