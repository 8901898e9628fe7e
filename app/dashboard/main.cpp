// outbox-dashboard [--db URL [--profile NAME|PATH] | --demo] [--read-only] [--search TEXT]
// [--state STATE] [--sort COLUMN[:asc|desc]]: opens the dashboard on a database, on the embedded
// SQLite demo database with the simulated relay running (--demo), or, with neither, on the last
// database opened (the demo on a first start); its event table on that view.
#include "benchdriver.h"
#include "dashboardapp.h"
#include "databaseurl.h"
#include "eventview.h"
#include "fleetbench.h"
#include "mainwindow.h"
#include "plaintext.h"
#include "scenario.h"
#include "scrollbench.h"
#include "teachingpanel.h"
#include "themecolours.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDockWidget>
#include <QIcon>
#include <QSettings>
#include <QTextStream>

namespace {

void addOptions(QCommandLineParser &parser)
{
    parser.setApplicationDescription(
        QStringLiteral("Health dashboard for a transactional outbox."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOption({QStringLiteral("db"),
        QStringLiteral("Database URL (sqlite:PATH or postgresql://[USER@]HOST[:PORT]/DBNAME)."),
        QStringLiteral("URL")});
    parser.addOption({QStringLiteral("demo"),
        QStringLiteral("Open the demo database with the simulated relay running (recreated on "
                       "every start).")});
    parser.addOption({QStringLiteral("profile"),
        QStringLiteral(
            "With --db: the outbox schema, a built-in profile (native, pg-boss, spring-modulith, "
            "spring-modulith-2, gruelbox, namastack) or a profile file (default: detected)."),
        QStringLiteral("NAME|PATH")});
    parser.addOption({QStringLiteral("fleet"),
        QStringLiteral("Open the fleet view on a fleet file: one NAME=URL[;profile=P] per line, "
                       "the format of outboxctl serve --config."),
        QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("read-only"),
        QStringLiteral("Open the database read-only (also the setting connection/readOnly).")});
    parser.addOption({QStringLiteral("search"),
        QStringLiteral("Open the event table on this search: an event ID or its beginning (see "
                       "--search-mode)."),
        QStringLiteral("TEXT")});
    parser.addOption({QStringLiteral("search-mode"),
        QStringLiteral("id (ID starts with, the default: instant) or text (text contains: ID, "
                       "type, aggregate or last error; reads every row)."),
        QStringLiteral("MODE")});
    parser.addOption({QStringLiteral("state"),
        QStringLiteral("Open the event table on one state: any, pending, due, scheduled, "
                       "in-flight, lease-expired, delivered or dead."),
        QStringLiteral("STATE")});
    parser.addOption({QStringLiteral("sort"),
        QStringLiteral("Sort the event table by a column as its header names it (event-id, type, "
                       "failures, age, next-attempt, error), ascending unless :desc."),
        QStringLiteral("COLUMN[:asc|desc]")});
    parser.addOption({QStringLiteral("theme"),
        QStringLiteral("light, dark or system (the default): the colours of the window."),
        QStringLiteral("NAME"), QStringLiteral("system")});
    parser.addOption({QStringLiteral("screenshot"),
        QStringLiteral("Save a picture of the window to FILE, then quit."),
        QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("screenshot-after-ms"),
        QStringLiteral("Wait this long before the picture (default 8000)."), QStringLiteral("MS"),
        QStringLiteral("8000")});
    parser.addOption({QStringLiteral("select"),
        QStringLiteral("With --screenshot: an event ID to select, first-dead or most-failures."),
        QStringLiteral("ID")});
    parser.addOption({QStringLiteral("tab"),
        QStringLiteral(
            "With --screenshot: detail, charts, lifecycle, audit, errors, diagnosis, policy or "
            "replay-dialog."),
        QStringLiteral("NAME")});
    parser.addOption({QStringLiteral("scenario"),
        QStringLiteral("With --demo: start this in the teaching panel instead of the live relay: a "
                       "seed scenario (%1) or outage-storm.")
            .arg(Scenario::names().join(QStringLiteral(", "))),
        QStringLiteral("NAME")});
    parser.addOption({QStringLiteral("storm-policy"),
        QStringLiteral("With --scenario outage-storm: its retry policy (a spec, as outboxctl's "
                       "--policy; default exponential)."),
        QStringLiteral("SPEC")});
    // Hidden: the GUI figures of tests/bench/scale (see scrollbench.h).
    QList<QCommandLineOption> bench = {
        {QStringLiteral("bench-scroll-pages"),
            QStringLiteral("Scroll the event table this many pages, report, quit."),
            QStringLiteral("N")},
        {QStringLiteral("bench-idle-ms"), QStringLiteral("Before scrolling, stay open this long."),
            QStringLiteral("MS"), QStringLiteral("0")},
        {QStringLiteral("bench-report"),
            QStringLiteral("Where the benchmark writes its JSON line."), QStringLiteral("FILE")},
        // (see benchdriver.h)
        {QStringLiteral("bench-script"),
            QStringLiteral("Drive the window through these steps, report, quit."),
            QStringLiteral("STEPS")},
        {QStringLiteral("bench-hold-ms"),
            QStringLiteral("After each step, stay this long (default two refresh intervals)."),
            QStringLiteral("MS"), QString::number(BenchDriver::DefaultHoldMs)},
        // (see fleetbench.h)
        {QStringLiteral("bench-fleet-ms"),
            QStringLiteral("With --fleet: stay open this long, report, quit."),
            QStringLiteral("MS")}};
    for (QCommandLineOption &option : bench) {
        option.setFlags(QCommandLineOption::HiddenFromHelp);
        parser.addOption(option);
    }
}

// --help and --version need no display: answer them before a QApplication (which aborts without
// one) exists.
bool asksForHelpOrVersion(int argc, char *argv[])
{
    for (int i = 1; i < argc; ++i) {
        const QByteArray arg(argv[i]);
        if (arg == "--")
            return false;
        if (arg == "-h" || arg == "--help" || arg == "--help-all" || arg == "-v"
            || arg == "--version")
            return true;
    }
    return false;
}

void describeApplication()
{
    QCoreApplication::setApplicationName(QStringLiteral("Outbox Health"));
    QCoreApplication::setOrganizationName(QStringLiteral("OutboxHealth"));
    QCoreApplication::setApplicationVersion(QStringLiteral(OUTBOX_HEALTH_VERSION));
}

int printHelpOrVersion(const QCoreApplication &app)
{
    QCommandLineParser parser;
    addOptions(parser);
    QTextStream out(stdout);
    if (!parser.parse(app.arguments())) {
        QTextStream(stderr) << "outbox-dashboard: " << parser.errorText() << Qt::endl;
        return 2;
    }
    if (parser.isSet(QStringLiteral("version"))) {
        out << "outbox-dashboard " << QCoreApplication::applicationVersion() << Qt::endl;
        return 0;
    }
    // Qt names the binary by the path it was started with; name the program instead.
    QString help = parser.helpText();
    help.replace(
        0, help.indexOf(QLatin1Char('\n')), QStringLiteral("Usage: outbox-dashboard [options]"));
    out << help
        << "\nExamples:\n"
           "  outbox-dashboard                       the last database opened (first start: the "
           "demo)\n"
           "  outbox-dashboard --demo                the demo database with the simulated relay\n"
           "  outbox-dashboard --db sqlite:/var/lib/shop/outbox.sqlite\n"
           "  outbox-dashboard --db postgresql://monitor@db.internal/shop --read-only\n"
           "  outbox-dashboard --db postgresql://db.internal/jobs --profile pg-boss\n"
           "  outbox-dashboard --db postgresql://db.internal/shop --state dead --sort "
           "failures:desc\n"
           "  outbox-dashboard --db postgresql://db.internal/shop --search 7f3c9a\n"
           "  outbox-dashboard --fleet ~/outboxes.conf   one row per outbox, worst first\n";
    return 0;
}

// The event table's view from --search, --search-mode, --state and --sort, checked before any
// window or display exists.
std::optional<EventView> viewFromArguments(int argc, char *argv[], QString *error)
{
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
    QCommandLineParser parser;
    addOptions(parser);
    if (!parser.parse(arguments))
        return EventView(); // QCommandLineParser::process() reports it as before
    return EventView::fromOptions(parser.value(QStringLiteral("search")),
        parser.value(QStringLiteral("search-mode")), parser.value(QStringLiteral("state")),
        parser.value(QStringLiteral("sort")), error);
}

bool givesEventView(const QCommandLineParser &parser)
{
    for (const char *name : {"search", "search-mode", "state", "sort"}) {
        if (parser.isSet(QLatin1String(name)))
            return true;
    }
    return false;
}

} // namespace

int main(int argc, char *argv[])
{
    if (asksForHelpOrVersion(argc, argv)) {
        QCoreApplication app(argc, argv);
        describeApplication();
        return printHelpOrVersion(app);
    }
    QString viewError;
    const std::optional<EventView> view = viewFromArguments(argc, argv, &viewError);
    if (!view) {
        QTextStream(stderr) << "outbox-dashboard: " << PlainText::escaped(viewError) << Qt::endl;
        return 2;
    }
    QApplication app(argc, argv);
    describeApplication();
    QIcon icon;
    for (int size : {32, 64, 256})
        icon.addFile(QStringLiteral(":/icons/outbox-health-%1.png").arg(size));
    QApplication::setWindowIcon(icon);

    QCommandLineParser parser;
    addOptions(parser);
    parser.process(app);
    if (QString themeError;
        !ThemeColours::applyTheme(parser.value(QStringLiteral("theme")), &themeError)) {
        QTextStream(stderr) << "outbox-dashboard: " << themeError << Qt::endl;
        return 2;
    }

    DashboardApp dashboard;
    if (givesEventView(parser))
        dashboard.setEventView(*view); // else the window's remembered filter and sort
    QString error;
    if (parser.isSet(QStringLiteral("profile")) && !parser.isSet(QStringLiteral("db"))) {
        QTextStream(stderr)
            << "outbox-dashboard: --profile needs --db (the demo database is native)" << Qt::endl;
        return 2;
    }
    if (parser.isSet(QStringLiteral("fleet"))
        && (parser.isSet(QStringLiteral("db")) || parser.isSet(QStringLiteral("demo")))) {
        QTextStream(stderr) << "outbox-dashboard: --fleet excludes --db and --demo" << Qt::endl;
        return 2;
    }
    if (parser.isSet(QStringLiteral("demo")) && parser.isSet(QStringLiteral("db"))) {
        QTextStream(stderr) << "outbox-dashboard: --demo and --db exclude each other" << Qt::endl;
        return 2;
    }
    if (parser.isSet(QStringLiteral("scenario"))
        && (!parser.isSet(QStringLiteral("demo"))
            || !(Scenario::names() << QStringLiteral("outage-storm"))
                    .contains(parser.value(QStringLiteral("scenario"))))) {
        QTextStream(stderr) << "outbox-dashboard: --scenario needs --demo and one of "
                            << Scenario::names().join(QStringLiteral(", ")) << ", outage-storm"
                            << Qt::endl;
        return 2;
    }
    if (RetryPolicy policy; parser.isSet(QStringLiteral("storm-policy"))
        && (parser.value(QStringLiteral("scenario")) != QLatin1String("outage-storm")
            || !RetryPolicy::parse(
                parser.value(QStringLiteral("storm-policy")), &policy, &error))) {
        QTextStream(stderr) << "outbox-dashboard: --storm-policy: "
                            << (error.isEmpty() ? QStringLiteral("needs --scenario outage-storm")
                                                : PlainText::escaped(error))
                            << Qt::endl;
        return 2;
    }
    // Without a person to press Connect…, a database that cannot be opened ends the run.
    dashboard.setExitOnFailure(parser.isSet(QStringLiteral("screenshot"))
        || parser.isSet(QStringLiteral("bench-scroll-pages"))
        || parser.isSet(QStringLiteral("bench-script")));
    const bool readOnly = parser.isSet(QStringLiteral("read-only"))
        || QSettings().value(QStringLiteral("connection/readOnly")).toBool();
    dashboard.setReadOnly(readOnly);
    if (parser.isSet(QStringLiteral("fleet"))) {
        if (!dashboard.openFleet(parser.value(QStringLiteral("fleet")), &error)) {
            QTextStream(stderr) << "outbox-dashboard: " << PlainText::escaped(error) << Qt::endl;
            return 2;
        }
        if (parser.isSet(QStringLiteral("bench-fleet-ms"))) {
            auto *bench = new FleetBench(dashboard.fleetWindow(),
                parser.value(QStringLiteral("bench-fleet-ms")).toInt(),
                parser.value(QStringLiteral("bench-report")), &dashboard);
            bench->start();
        }
    } else if (parser.isSet(QStringLiteral("db"))) {
        dashboard.openUrl(parser.value(QStringLiteral("db")), readOnly,
            parser.isSet(QStringLiteral("profile"))
                ? std::optional<QString>(parser.value(QStringLiteral("profile")))
                : std::nullopt);
    } else if (parser.isSet(QStringLiteral("demo"))) {
        dashboard.openDemo();
    } else {
        dashboard.openLast(readOnly);
    }
    if (parser.isSet(QStringLiteral("screenshot")))
        dashboard.scheduleScreenshot(parser.value(QStringLiteral("screenshot")),
            parser.value(QStringLiteral("screenshot-after-ms")).toInt(),
            parser.value(QStringLiteral("select")), parser.value(QStringLiteral("tab")));
    // The benchmarks start once the window opened (the database opens off the GUI thread).
    auto whenOpen = [&dashboard](auto start) {
        if (dashboard.window())
            start(dashboard.window());
        else
            QObject::connect(&dashboard, &DashboardApp::windowOpened, &dashboard, start,
                Qt::SingleShotConnection);
    };
    if (parser.isSet(QStringLiteral("scenario"))) {
        const QString name = parser.value(QStringLiteral("scenario"));
        const QString policy = parser.value(QStringLiteral("storm-policy"));
        whenOpen([name, policy](MainWindow *window) {
            QDockWidget *dock = window->teachingDock();
            if (!dock)
                return;
            dock->show();
            window->teachingPanel()->startByName(name, policy);
        });
    }
    if (parser.isSet(QStringLiteral("bench-scroll-pages"))) {
        whenOpen([&parser, &dashboard](MainWindow *window) {
            auto *scroll = new ScrollBench(window,
                parser.value(QStringLiteral("bench-scroll-pages")).toInt(),
                parser.value(QStringLiteral("bench-idle-ms")).toInt(),
                parser.value(QStringLiteral("bench-report")), &dashboard);
            scroll->start();
        });
    }
    if (parser.isSet(QStringLiteral("bench-script"))) {
        const QList<BenchDriver::Step> steps
            = BenchDriver::parse(parser.value(QStringLiteral("bench-script")), &error);
        if (steps.isEmpty() || !parser.isSet(QStringLiteral("bench-report"))) {
            QTextStream(stderr) << "outbox-dashboard: "
                                << (steps.isEmpty()
                                           ? error
                                           : QStringLiteral("--bench-script needs --bench-report"))
                                << Qt::endl;
            return 2;
        }
        whenOpen([&parser, &dashboard, steps](MainWindow *window) {
            auto *driver
                = new BenchDriver(window, steps, parser.value(QStringLiteral("bench-report")),
                    parser.value(QStringLiteral("bench-hold-ms")).toInt(), &dashboard);
            driver->start();
        });
    }
    return app.exec();
}
