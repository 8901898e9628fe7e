// The dashboard window: a strip of health tiles always in view above the pages of the registry
// (PageRegistry: Overview, Events, Errors, Diagnosis, Audit, Lifecycle, Policy lab, and Teach on
// a simulation database) an operator switches between on a rail (PageNavigator). The window
// only composes: the models and workers every page reads (PageContext), the
// pages, the writes (WindowActions), the status bar (WindowStatus), the wiring between pages
// (PageWiring) and the menus; each page owns its widgets. Aggregates come from the
// HealthMonitor's worker thread,
// the detail and the replay log from the DetailReader's, replays and exports from OperatorActions'
// threads: the GUI thread only resets small models. The window keeps no QSqlDatabase of its own,
// only what it needs to open one on a worker: the URL, whether it may write, the profile and
// whether the database is a simulation's.
#pragma once

#include "connectionenvironment.h"
#include "dbconnection.h"
#include "eventspage.h"
#include "outboxprofile.h"
#include "page.h"
#include "pagenavigator.h"
#include "pageregistry.h"
#include "pagewiring.h"
#include "windowactions.h"
#include "windowmenus.h"
#include "windowtoolbar.h"

#include <QMainWindow>
#include <memory>
#include <optional>

class AgeHistogramModel;
class AlertBar;
class DetailPane;
class DetailReader;
class DiagnosisMonitor;
class DiagnosisPage;
class DiagnosisStatusLine;
class EditActions;
class EventListModel;
class EventTableMenu;
class EventsPage;
class FilterBar;
class HealthMonitor;
class HealthTiles;
class CdcTiles;
class NotesActions;
class OperatorActions;
class OverviewPage;
class PolicyLabPage;
class QAction;
class QDockWidget;
class QSpinBox;
class QSplitter;
class QTableView;
class QVBoxLayout;
class ReopenActions;
class ReplayLogModel;
class ResolveActions;
class TeachPage;
class TeachingSession;
class WindowActions;
class WindowAlerts;
class WindowStatus;
struct EventFilter;
struct HealthSnapshot;

struct WindowOptions
{
    bool readOnly = false;
    bool startLiveRelay = false; // the demo: the simulated relay runs from the start
    // The schema shown: another library's table through its profile (validated by whoever
    // opened the connection); none or native = delivery_outbox.
    std::optional<OutboxProfile> profile;
    // Whether the database is marked for simulation (the Teach page appears): told by
    // whoever opened and validated it (DashboardApp), or, unset, read once from the connection
    // handed to the constructor.
    std::optional<bool> markedForSimulation;
    // The environment the operator named for this database (title, status bar, tile badge).
    ConnectionEnvironment environment;
    // The outbox's name in desktop alerts and their mutes ("orders: 3 DEAD events"): the fleet
    // file's name when opened from the fleet view; empty = the database's name.
    QString outboxName;
    // The replication slot that relays the outbox by change data capture (outbox-dashboard
    // --cdc-slot): each snapshot reads it and the CDC tile row shows it; empty: no row.
    QString cdcSlot;
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
    EventListModel *eventModel() const { return m_context.events; }
    QTableView *eventView() const { return m_eventsPage->eventView(); }
    DetailPane *detailPane() const { return m_eventsPage->detailPane(); }
    DetailReader *detailReader() const { return m_context.reader; }
    HealthMonitor *monitor() const { return m_context.monitor; }
    HealthTiles *tiles() const { return m_tiles; }
    CdcTiles *cdcTiles() const { return m_cdcTiles; } // null without a slot
    TeachingSession *session() const { return m_session; }
    OperatorActions *operatorActions() const { return m_writes->operatorActions(); }
    ResolveActions *resolveActions() const { return m_writes->resolve(); }
    ReopenActions *reopenActions() const { return m_writes->reopen(); }
    EditActions *editActions() const { return m_writes->edit(); }
    NotesActions *notesActions() const { return m_writes->notes(); }
    ReplayLogModel *replayLog() const { return m_context.replayLog; }
    DiagnosisMonitor *diagnosis() const { return m_diagnosis; }
    DiagnosisPage *diagnosisPanel() const;
    PolicyLabPage *policyLab() const;
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
    // The pages, by the names --tab takes (the registry's keys, PageRegistry::keyForName).
    void showPage(const QString &name);
    void showTab(const QString &name) { showPage(name); } // the old name, for --tab
    QString currentPage() const { return m_pages->currentPage(); }
    // Empty: no such page.
    static QString pageForName(const QString &name) { return PageRegistry::keyForName(name); }
    PageNavigator *pages() const { return m_pages; }
    EventsPage *eventsPage() const { return m_eventsPage; }
    // Keyboard focus into the shown page: its main control (Page::focusTarget).
    void focusPage();
    // `/`: the shown page's search field, else the Events page's.
    void focusSearch();
    // The table on one state, as a click on a tile asks (the oldest-pending tile: pending events,
    // oldest first).
    void filterByTile(int tile) { PageWiring::filterByTile(*this, tile); }

    const WindowOptions &options() const { return m_options; }
    FilterBar *filterBar() const { return m_eventsPage->filterBar(); }
    QSplitter *splitter() const { return m_eventsPage->splitter(); } // the table and the detail
    OverviewPage *charts() const;
    TeachPage *teachPage() const; // none without a simulation the window may write
    AgeHistogramModel *ageModel() const { return m_context.ages; }
    EventTableMenu *tableMenu() const { return m_tableMenu; }
    QAction *refreshAction() const { return m_toolbar.refresh; }
    QSpinBox *intervalBox() const { return m_toolbar.interval; }
    // What Help › About says: version, database (never a password) and Qt version.
    QString aboutText() const { return WindowMenus::aboutText(*this); }
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
    void setupPages();
    void setupActions();
    void setupCentral();
    void addCdcTiles(QVBoxLayout *layout);
    void setupStatusBar();
    void setupBanners();
    void applySnapshot(const HealthSnapshot &snapshot);

    // Destroyed in the reverse order of declaration, after the destructor's body and before
    // QObject deletes the children: m_session (whose relay threads use the window's monitor
    // signals) goes first. Every other child holds only values or its own worker thread,
    // which it stops and waits for in its own destructor. The window holds no connection.
    DatabaseUrl m_url;
    bool m_connectionReadOnly = false;
    WindowOptions m_options;
    bool m_simulation = false;
    PageContext m_context; // the models and workers every page reads (WindowModels)
    std::unique_ptr<TeachingSession> m_sessionOwner; // not a QObject child: destroyed first
    TeachingSession *m_session = nullptr;
    HealthTiles *m_tiles = nullptr;
    CdcTiles *m_cdcTiles = nullptr;
    PageNavigator *m_pages = nullptr;
    EventsPage *m_eventsPage = nullptr;
    WindowStatus *m_status = nullptr;
    AlertBar *m_alertBar = nullptr;
    WindowAlerts *m_alerts = nullptr;
    WindowActions *m_writes = nullptr;
    DiagnosisMonitor *m_diagnosis = nullptr; // its worker runs on the monitor's thread
    DiagnosisStatusLine *m_diagnosisStatus = nullptr;
    EventTableMenu *m_tableMenu = nullptr;
    ToolbarActions m_toolbar;
    bool m_layoutRestored = false; // WindowSettings gave the columns and the splitter
    bool m_shownOnce = false;
};
