// outbox-dashboard [--db URL [--profile NAME|PATH] | --demo] [--notes-db URL] [--read-only]
// [--search TEXT] [--state STATE] [--sort COLUMN[:asc|desc]] [--select ID] [--tab PAGE], or one
// link outbox-health:open?KEY=VALUE&… with the same keys: opens the dashboard on a database, on the
// embedded SQLite demo database with the simulated relay running (--demo), or, with neither, on
// the last database opened (the demo on a first start); its event table on that view.
#include "benchdriver.h"
#include "dashboardapp.h"
#include "dashboardoptions.h"
#include "databaseurl.h"
#include "englishplurals.h"
#include "fleetbench.h"
#include "fleetwindow.h"
#include "linkconfirmation.h"
#include "mainwindow.h"
#include "notesaccess.h"
#include "plaintext.h"
#include "qtmessages.h"
#include "scrollbench.h"
#include "teachingpanel.h"
#include "themecolours.h"

#include <QApplication>
#include <QDockWidget>
#include <QIcon>
#include <QSettings>
#include <QTextStream>
#include <functional>

namespace {

void describeApplication()
{
    QCoreApplication::setApplicationName(QStringLiteral("Outbox Health"));
    QCoreApplication::setOrganizationName(QStringLiteral("OutboxHealth"));
    QCoreApplication::setApplicationVersion(QStringLiteral(OUTBOX_HEALTH_VERSION));
}

void setWindowIcon()
{
    QIcon icon;
    for (int size : {32, 64, 256})
        icon.addFile(QStringLiteral(":/icons/outbox-health-%1.png").arg(size));
    QApplication::setWindowIcon(icon);
}

int refuse(const QString &message)
{
    QTextStream(stderr) << "outbox-dashboard: " << message << Qt::endl;
    return 2;
}

// --fleet FILE, read off the GUI thread: a file that cannot be read ends the run (exit 2) once
// that is known; --bench-fleet-ms starts once the fleet view opened.
void openFleetOption(DashboardApp &dashboard, const QCommandLineParser &parser)
{
    QObject::connect(&dashboard, &DashboardApp::fleetOpenFailed, &dashboard,
        [](const QString &why) { QCoreApplication::exit(refuse(PlainText::escaped(why))); });
    if (parser.isSet(QStringLiteral("bench-fleet-ms"))) {
        const int ms = parser.value(QStringLiteral("bench-fleet-ms")).toInt();
        const QString report = parser.value(QStringLiteral("bench-report"));
        QObject::connect(&dashboard, &DashboardApp::fleetOpened, &dashboard,
            [&dashboard, ms, report](
                FleetWindow *fleet) { (new FleetBench(fleet, ms, report, &dashboard))->start(); });
    }
    dashboard.openFleet(parser.value(QStringLiteral("fleet")));
}

// A password in --db is masked in every message, but ps shows it to everyone while the window is
// open.
void warnOfPassword(const QString &url)
{
    if (DatabaseUrl::maskPasswords(url) != url)
        QTextStream(stderr) << "outbox-dashboard: warning: a password in --db is visible to "
                               "every user in ps and /proc/PID/cmdline while the window is open; "
                               "use ~/.pgpass or PGPASSWORD instead"
                            << Qt::endl;
}

// --notes-db URL: where the notes of an outbox read through a profile live, for every connection
// the window opens (--db, Connect…, the fleet); set before any worker starts. False with
// *error (the password masked) when the URL is not one.
bool applyNotesDatabase(const QCommandLineParser &parser, QString *error)
{
    if (!parser.isSet(QStringLiteral("notes-db")))
        return true;
    const QString text = parser.value(QStringLiteral("notes-db")).trimmed();
    const DatabaseUrl url = DatabaseUrl::parse(text, error);
    if (!url.isValid()) {
        *error = QStringLiteral("--notes-db %1: %2")
                     .arg(DatabaseUrl::maskPasswords(text), DatabaseUrl::maskPasswords(*error));
        return false;
    }
    NotesAccess::setNotesDatabase(url);
    return true;
}

// The fleet file, --db, the demo or the last database (each opened off the GUI thread; a fleet
// file that cannot be read ends the run with exit code 2).
void openFromOptions(DashboardApp &dashboard, const QCommandLineParser &parser)
{
    // Without a person to press Connect…, a database that cannot be opened ends the run.
    dashboard.setExitOnFailure(parser.isSet(QStringLiteral("screenshot"))
        || parser.isSet(QStringLiteral("bench-scroll-pages"))
        || parser.isSet(QStringLiteral("bench-script")));
    const bool readOnly = parser.isSet(QStringLiteral("read-only"))
        || QSettings().value(QStringLiteral("connection/readOnly")).toBool();
    dashboard.setReadOnly(readOnly);
    if (parser.isSet(QStringLiteral("fleet"))) {
        openFleetOption(dashboard, parser);
    } else if (parser.isSet(QStringLiteral("db"))) {
        warnOfPassword(parser.value(QStringLiteral("db")));
        dashboard.openUrl(parser.value(QStringLiteral("db")), readOnly,
            parser.isSet(QStringLiteral("profile"))
                ? std::optional<QString>(parser.value(QStringLiteral("profile")))
                : std::nullopt);
    } else if (parser.isSet(QStringLiteral("demo"))) {
        dashboard.openDemo();
    } else {
        dashboard.openLast(readOnly);
    }
}

// The benchmarks and the scenario start once the window opened (the database opens off the GUI
// thread).
void whenOpen(DashboardApp &dashboard, const std::function<void(MainWindow *)> &start)
{
    if (dashboard.window())
        start(dashboard.window());
    else
        QObject::connect(
            &dashboard, &DashboardApp::windowOpened, &dashboard, start, Qt::SingleShotConnection);
}

void startScenario(DashboardApp &dashboard, const QCommandLineParser &parser)
{
    const QString name = parser.value(QStringLiteral("scenario"));
    const QString policy = parser.value(QStringLiteral("storm-policy"));
    whenOpen(dashboard, [name, policy](MainWindow *window) {
        QDockWidget *dock = window->teachingDock();
        if (!dock)
            return;
        dock->show();
        window->teachingPanel()->startByName(name, policy);
    });
}

void startScrollBench(DashboardApp &dashboard, const QCommandLineParser &parser)
{
    const int pages = parser.value(QStringLiteral("bench-scroll-pages")).toInt();
    const int idleMs = parser.value(QStringLiteral("bench-idle-ms")).toInt();
    const QString report = parser.value(QStringLiteral("bench-report"));
    whenOpen(dashboard, [&dashboard, pages, idleMs, report](MainWindow *window) {
        auto *scroll = new ScrollBench(window, pages, idleMs, report, &dashboard);
        scroll->start();
    });
}

// False with *error when the script cannot be read or has no report to write.
bool startBenchScript(DashboardApp &dashboard, const QCommandLineParser &parser, QString *error)
{
    const QList<BenchDriver::Step> steps
        = BenchDriver::parse(parser.value(QStringLiteral("bench-script")), error);
    if (steps.isEmpty())
        return false;
    if (!parser.isSet(QStringLiteral("bench-report"))) {
        *error = QStringLiteral("--bench-script needs --bench-report");
        return false;
    }
    const QString report = parser.value(QStringLiteral("bench-report"));
    const int holdMs = parser.value(QStringLiteral("bench-hold-ms")).toInt();
    whenOpen(dashboard, [&dashboard, steps, report, holdMs](MainWindow *window) {
        auto *driver = new BenchDriver(window, steps, report, holdMs, &dashboard);
        driver->start();
    });
    return true;
}

// What the options ask of the open window: a picture, a scenario, a benchmark.
bool scheduleForWindow(DashboardApp &dashboard, const QCommandLineParser &parser, QString *error)
{
    if (parser.isSet(QStringLiteral("screenshot")))
        dashboard.scheduleScreenshot(parser.value(QStringLiteral("screenshot")),
            parser.value(QStringLiteral("screenshot-after-ms")).toInt(),
            parser.value(QStringLiteral("select")), parser.value(QStringLiteral("tab")));
    if (parser.isSet(QStringLiteral("scenario")))
        startScenario(dashboard, parser);
    if (parser.isSet(QStringLiteral("bench-scroll-pages")))
        startScrollBench(dashboard, parser);
    return !parser.isSet(QStringLiteral("bench-script"))
        || startBenchScript(dashboard, parser, error);
}

} // namespace

int main(int argc, char *argv[])
{
    QtMessages::install(); // Qt's SQL warnings never beside the one error line
    if (DashboardOptions::asksForHelpOrVersion(argc, argv)) {
        QCoreApplication app(argc, argv);
        describeApplication();
        return DashboardOptions::printHelpOrVersion(app);
    }
    QStringList fromLink;
    if (QString error; !DashboardOptions::argumentsOfLink(argc, argv, &fromLink, &error))
        return refuse(PlainText::escaped(error));
    QString viewError;
    const std::optional<EventView> view = DashboardOptions::viewFromArguments(
        fromLink.isEmpty() ? DashboardOptions::argumentsOf(argc, argv) : fromLink, &viewError);
    if (!view)
        return refuse(PlainText::escaped(viewError));
    QApplication app(argc, argv);
    describeApplication();
    setWindowIcon();
    EnglishPlurals plurals; // "1 event", "2 events" from tr("%n event(s)")
    QCoreApplication::installTranslator(&plurals);

    QCommandLineParser parser;
    DashboardOptions::add(parser);
    parser.process(fromLink.isEmpty() ? app.arguments() : fromLink);
    QStringList extra = parser.positionalArguments(); // beside Qt's own options (-style …)
    extra.removeAll(QString());
    if (fromLink.isEmpty() && !extra.isEmpty())
        return refuse(QStringLiteral("an argument beside the options: a link "
                                     "(outbox-health:open?…) is the one argument"));
    if (QString themeError;
        !ThemeColours::applyTheme(parser.value(QStringLiteral("theme")), &themeError))
        return refuse(themeError);

    DashboardApp dashboard;
    DashboardOptions::applyView(dashboard, parser, *view);
    if (const QString conflict = DashboardOptions::conflict(parser); !conflict.isEmpty())
        return refuse(conflict);
    // A link to a database this computer never opened: the operator says so first.
    if (!fromLink.isEmpty() && parser.isSet(QStringLiteral("db"))
        && !LinkConfirmation::confirm(parser.value(QStringLiteral("db"))))
        return 0;
    QString error;
    if (!applyNotesDatabase(parser, &error))
        return refuse(PlainText::escaped(error));
    openFromOptions(dashboard, parser);
    if (!scheduleForWindow(dashboard, parser, &error))
        return refuse(error);
    return app.exec();
}
