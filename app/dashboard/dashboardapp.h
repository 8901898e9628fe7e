// Opens dashboard windows: at start-up (the last database, --db or the demo), from the connect
// dialog, or on the embedded demo database with the simulated relay running. A database is
// opened off the GUI thread (ConnectionOpener) while a StartWindow says so; one that cannot be
// opened shows its cause with Connect… offered, and keeps whatever window was open.
#pragma once

#include "connectionenvironment.h"
#include "connectionopener.h"
#include "eventview.h"
#include "outboxprofile.h"

#include <QObject>
#include <QPointer>
#include <memory>

class FleetWindow;
class MainWindow;
class QWidget;
class StartWindow;

class DashboardApp : public QObject
{
    Q_OBJECT
public:
    explicit DashboardApp(QObject *parent = nullptr);
    ~DashboardApp() override;

    // `profile`: a built-in profile's name or a profile file; none = detected (native whenever
    // its tables exist). ProfileConnection::open, the same rules as outboxctl --profile. Answers
    // later: windowOpened() or openFailed(); meanwhile a StartWindow says what is being opened.
    void openUrl(
        const QString &url, bool readOnly, const std::optional<QString> &profile = std::nullopt);
    // Recreates the embedded demo database on a thread of its own (the start window says so
    // meanwhile), then opens a window on it with the simulated relay: windowOpened(), or
    // openFailed() with the cause.
    void openDemo();
    // What a start without --db opens: the last database (WindowSettings), else the demo.
    void openLast(bool readOnly);
    void askForConnection();
    // A fleet view on a fleet file (FleetWindow), the file read off the GUI thread: shown with
    // fleetOpened(), or fleetOpenFailed(error) when the file cannot be read (a warning box
    // over `errorParent` too, when given). Double-clicking an outbox opens its own window
    // beside it (openFleetOutbox).
    void openFleet(const QString &path, QWidget *errorParent = nullptr);
    // The fleet read through the Prometheus at `url` (--fleet-prometheus), the fleet file at
    // `path` (may be empty) naming the outboxes to expect and the URLs a row opens.
    void openFleetPrometheus(const QString &url, const QString &path);
    void askForFleet(); // File › Open fleet…: a file dialog, then openFleet
    FleetWindow *fleetWindow() const; // the newest fleet view, if any
    // The dashboard window of the fleet's outbox at `row`, in this process: its URL (with a
    // password, if the file had one, kept in memory only), profile and name.
    MainWindow *openFleetOutbox(FleetWindow *fleet, int row);
    // Read-only windows from the fleet view (outbox-dashboard --read-only).
    void setReadOnly(bool readOnly) { m_readOnly = readOnly; }
    // The replication slot the window opened from the command line shows (--cdc-slot).
    void setCdcSlot(const QString &slot) { m_cdcSlot = slot; }
    // The event table's filter and sort in every window opened from now on, instead of the
    // remembered ones.
    void setEventView(const EventView &view) { m_view = view; }
    // In the next window opened: `eventId` on the Events page, its detail showing (none: empty),
    // then `page` shown (none: empty), as a link's event= and tab= (--select and --tab).
    void setStartPlace(const QString &eventId, const QString &page)
    {
        m_startPlace = {eventId, page};
    }
    // Without a person watching (--screenshot, benchmarks): a database that cannot be opened
    // ends the program with exit code 2 instead of waiting for Connect….
    void setExitOnFailure(bool exit) { m_exitOnFailure = exit; }
    // For documentation and benchmarks: `delayMs` after the window opened, select an event
    // ("first-dead" or an ID), show a tab, save a picture of the window to `path` and quit.
    void scheduleScreenshot(
        const QString &path, int delayMs, const QString &select, const QString &tab);
    MainWindow *window() const; // the open window, if any
    StartWindow *startWindow() const;

signals:
    void windowOpened(MainWindow *window);
    void fleetOpened(FleetWindow *fleet);
    void fleetOpenFailed(const QString &error); // the password masked
    void openFailed(const QString &error); // the password masked

private:
    FleetWindow *newFleet(QWidget *errorParent); // opened() shows it, openFailed() ends it
    struct Screenshot
    {
        QString path;
        int delayMs = 0;
        QString select;
        QString tab;
    };

    void show(
        const OpenedDatabase &database, bool demo, const ConnectionEnvironment &environment = {});
    void onStartOpened(const OpenedDatabase &database);
    void onStartFailed(const QString &error);
    void retryStart(); // the start window's Retry, or its automatic retry
    StartWindow *ensureStartWindow();
    void takeScreenshot(const Screenshot &shot);
    void connectWindow(MainWindow *window);
    void showFleet(FleetWindow *fleet);

    QPointer<MainWindow> m_window;
    QPointer<StartWindow> m_start;
    QList<QPointer<FleetWindow>> m_fleets;
    QList<QPointer<MainWindow>> m_fleetWindows; // outboxes opened from a fleet view
    bool m_readOnly = false;
    QString m_cdcSlot;
    ConnectionOpener m_opener; // the Connect… dialog's, off the GUI thread
    ConnectionOpener m_startOpener; // the database given at start-up
    std::unique_ptr<class QThread> m_demoThread; // recreating the demo database
    QString m_startUrl; // as given, for the settings once opened
    QString m_startProfile;
    bool m_startReadOnly = false;
    QString m_lastStartError; // said on stderr once, not at every retry
    bool m_asking = false; // the Connect… dialog is open: a start-up retry waits for it
    bool m_retryAfterAsking = false;
    std::optional<EventView> m_view;
    std::optional<std::pair<QString, QString>> m_startPlace; // the event and the page
    std::optional<Screenshot> m_screenshot;
    bool m_exitOnFailure = false;
};
