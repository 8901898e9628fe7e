// The dashboard's start (dashboardmain.h): outbox-dashboard [--db URL [--profile NAME|PATH] |
// --demo] [--notes-db URL] [--read-only] [--search TEXT] [--state STATE] [--sort
// COLUMN[:asc|desc]] [--select ID] [--tab PAGE], or one link outbox-health:open?KEY=VALUE&… with
// the same keys: opens the dashboard on a database, on the embedded SQLite demo database with the
// simulated relay running (--demo), or, with neither, on the last database opened (the demo on a
// first start); its event table on that view.
#include "dashboardmain.h"

#include "dashboardapp.h"
#include "dashboardoptions.h"
#include "databaseurl.h"
#include "englishplurals.h"
#include "linkconfirmation.h"
#include "mainwindow.h"
#include "notesaccess.h"
#include "plaintext.h"
#include "qtmessages.h"
#include "teachpage.h"
#include "themecolours.h"

#include <QApplication>
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
// that is known.
void openFleetOption(DashboardApp &dashboard, const QCommandLineParser &parser)
{
    QObject::connect(&dashboard, &DashboardApp::fleetOpenFailed, &dashboard,
        [](const QString &why) { QCoreApplication::exit(refuse(PlainText::escaped(why))); });
    if (parser.isSet(QStringLiteral("fleet-prometheus")))
        dashboard.openFleetPrometheus(parser.value(QStringLiteral("fleet-prometheus")),
            parser.value(QStringLiteral("fleet")));
    else
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
void openFromOptions(
    DashboardApp &dashboard, const QCommandLineParser &parser, const DashboardMain::Extras &extras)
{
    // Without a person to press Connect…, a database that cannot be opened ends the run.
    dashboard.setExitOnFailure(parser.isSet(QStringLiteral("screenshot"))
        || (extras.unattended && extras.unattended(parser)));
    const bool readOnly = parser.isSet(QStringLiteral("read-only"))
        || QSettings().value(QStringLiteral("connection/readOnly")).toBool();
    dashboard.setReadOnly(readOnly);
    dashboard.setCdcSlot(parser.value(QStringLiteral("cdc-slot")).trimmed());
    if (parser.isSet(QStringLiteral("fleet")) || parser.isSet(QStringLiteral("fleet-prometheus"))) {
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

void startScenario(DashboardApp &dashboard, const QCommandLineParser &parser)
{
    const QString name = parser.value(QStringLiteral("scenario"));
    const QString policy = parser.value(QStringLiteral("storm-policy"));
    DashboardMain::whenOpen(dashboard, [name, policy](MainWindow *window) {
        TeachPage *teach = window->teachPage();
        if (!teach)
            return;
        window->showPage(TeachPage::Key);
        teach->startByName(name, policy);
    });
}

// What the options ask of the open window: a picture, a scenario.
void scheduleForWindow(DashboardApp &dashboard, const QCommandLineParser &parser)
{
    if (parser.isSet(QStringLiteral("screenshot")))
        dashboard.scheduleScreenshot(parser.value(QStringLiteral("screenshot")),
            parser.value(QStringLiteral("screenshot-after-ms")).toInt(),
            parser.value(QStringLiteral("select")), parser.value(QStringLiteral("tab")));
    if (parser.isSet(QStringLiteral("scenario")))
        startScenario(dashboard, parser);
}

} // namespace

namespace DashboardMain {

void whenOpen(DashboardApp &dashboard, const std::function<void(MainWindow *)> &start)
{
    if (dashboard.window())
        start(dashboard.window());
    else
        QObject::connect(
            &dashboard, &DashboardApp::windowOpened, &dashboard, start, Qt::SingleShotConnection);
}

int run(int argc, char *argv[], const Extras &extras)
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
    // What a program built on the dashboard starts, connected before anything can open.
    if (extras.schedule && !extras.schedule(dashboard, parser, &error))
        return refuse(error);
    openFromOptions(dashboard, parser, extras);
    scheduleForWindow(dashboard, parser);
    return app.exec();
}

} // namespace DashboardMain
