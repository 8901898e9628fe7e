#include "dashboardoptions.h"

#include "cdclesson.h"
#include "dashboardapp.h"
#include "mainwindow.h"
#include "plaintext.h"
#include "retrypolicy.h"
#include "scenario.h"
#include "viewlink.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QTextStream>
#include <functional>

namespace {

// --db, --demo, --profile, --fleet, --read-only and --notes-db: what is opened, and how.
void addConnectionOptions(QCommandLineParser &parser)
{
    parser.addOption({QStringLiteral("db"),
        QStringLiteral("Database URL: sqlite:PATH, postgresql://[USER@]HOST[:PORT]/DBNAME or "
                       "mysql://[USER@]HOST[:PORT]/DBNAME (also mariadb://)."),
        QStringLiteral("URL")});
    parser.addOption({QStringLiteral("demo"),
        QStringLiteral("Open the demo database with the simulated relay running (recreated on "
                       "every start).")});
    parser.addOption({QStringLiteral("profile"),
        QStringLiteral(
            "With --db: the outbox schema, a built-in profile (native, graphile-worker, oban, "
            "pg-boss, solid-queue, spring-modulith, spring-modulith-2, gruelbox, namastack, "
            "wolverine, masstransit, river, debezium) or a profile file (default: detected)."),
        QStringLiteral("NAME|PATH")});
    parser.addOption({QStringLiteral("cdc-slot"),
        QStringLiteral("With --db: the replication slot that relays the outbox by change data "
                       "capture (Debezium): a CDC tile row and a diagnosis finding follow it."),
        QStringLiteral("NAME")});
    parser.addOption({QStringLiteral("fleet"),
        QStringLiteral("Open the fleet view on a fleet file: one NAME=URL[;profile=P] per line, "
                       "the format of outboxctl serve --config."),
        QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("fleet-prometheus"),
        QStringLiteral("Open the fleet view on every outbox a Prometheus scrapes from outboxctl "
                       "serve, read through its HTTP API (no database connection); with --fleet, "
                       "the file names the outboxes to expect and the URLs a row opens."),
        QStringLiteral("URL")});
    parser.addOption({QStringLiteral("read-only"),
        QStringLiteral("Open the database read-only (also the setting connection/readOnly).")});
    parser.addOption({QStringLiteral("notes-db"),
        QStringLiteral("The team's audit store and operator notes of an outbox read through a "
                       "profile: URL, a native database of Outbox Health's own at schema version "
                       "3 (outboxctl init --db URL makes one); a replay through a profile is "
                       "refused without it. A native outbox keeps its own."),
        QStringLiteral("URL")});
}

// --search, --search-mode, --state and --sort: the event table's view.
void addEventViewOptions(QCommandLineParser &parser)
{
    parser.addOption({QStringLiteral("search"),
        QStringLiteral("Open the event table on this search: an event ID or its beginning (see "
                       "--search-mode)."),
        QStringLiteral("TEXT")});
    parser.addOption({QStringLiteral("search-mode"),
        QStringLiteral("id (ID starts with, the default: instant), text (text contains: ID, "
                       "type, aggregate or last error; reads every row) or payload (payload "
                       "contains: a JSON fragment or a text)."),
        QStringLiteral("MODE")});
    parser.addOption({QStringLiteral("state"),
        QStringLiteral("Open the event table on one state: any, pending, due, scheduled, "
                       "in-flight, lease-expired, delivered or dead."),
        QStringLiteral("STATE")});
    parser.addOption({QStringLiteral("sort"),
        QStringLiteral("Sort the event table by a column as its header names it (event-id, type, "
                       "failures, age, next-attempt, error), ascending unless :desc."),
        QStringLiteral("COLUMN[:asc|desc]")});
}

// --theme, and --screenshot with what it shows.
void addWindowOptions(QCommandLineParser &parser)
{
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
        QStringLiteral("Open on the Events page with this event's detail (a link's event=); with "
                       "--screenshot also first-dead or most-failures."),
        QStringLiteral("ID")});
    parser.addOption({QStringLiteral("tab"),
        QStringLiteral(
            "The page shown: overview, events, errors, diagnosis, audit, lifecycle, policy, teach (the "
            "old tab names: detail = events, charts = overview); with --screenshot also "
            "replay-dialog, replay-all-dialog or edit-dialog."),
        QStringLiteral("NAME")});
}

// --scenario and --storm-policy: the Teach page's start.
void addTeachingOptions(QCommandLineParser &parser)
{
    parser.addOption({QStringLiteral("scenario"),
        QStringLiteral("With --demo: start this on the Teach page instead of the live relay: a "
                       "seed scenario (%1), outage-storm, or %2 (the change-data-capture "
                       "lesson, its connector stalled).")
            .arg(
                Scenario::names().join(QStringLiteral(", ")), QString::fromLatin1(CdcLesson::Name)),
        QStringLiteral("NAME")});
    parser.addOption({QStringLiteral("storm-policy"),
        QStringLiteral("With --scenario outage-storm: its retry policy (a spec, as outboxctl's "
                       "--policy; default exponential)."),
        QStringLiteral("SPEC")});
}

// Options a program built on the dashboard adds (setExtraOptions).
std::function<void(QCommandLineParser &)> &extraOptions()
{
    static std::function<void(QCommandLineParser &)> add;
    return add;
}

bool isScenario(const QString &name)
{
    return (
        Scenario::names() << QStringLiteral("outage-storm") << QString::fromLatin1(CdcLesson::Name))
        .contains(name);
}

} // namespace

namespace DashboardOptions {

void add(QCommandLineParser &parser)
{
    parser.setApplicationDescription(
        QStringLiteral("Health dashboard for a transactional outbox."));
    parser.addHelpOption();
    parser.addVersionOption();
    addConnectionOptions(parser);
    addEventViewOptions(parser);
    addWindowOptions(parser);
    addTeachingOptions(parser);
    if (extraOptions())
        extraOptions()(parser);
}

void setExtraOptions(const std::function<void(QCommandLineParser &)> &add)
{
    extraOptions() = add;
}

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

int printHelpOrVersion(const QCoreApplication &app)
{
    QCommandLineParser parser;
    add(parser);
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
           "  outbox-dashboard --db mariadb://monitor@db.internal/orders --read-only\n"
           "  outbox-dashboard --db postgresql://db.internal/shop --state dead --sort "
           "failures:desc\n"
           "  outbox-dashboard --db postgresql://db.internal/shop --search 7f3c9a\n"
           "  outbox-dashboard --fleet ~/outboxes.conf   one row per outbox, worst first\n"
           "  outbox-dashboard --fleet-prometheus http://prometheus.internal:9090\n";
    return 0;
}

QStringList argumentsOf(int argc, char *argv[])
{
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
    return arguments;
}

bool argumentsOfLink(int argc, char *argv[], QStringList *arguments, QString *error)
{
    const QStringList given = argumentsOf(argc, argv);
    QCommandLineParser parser;
    add(parser);
    if (!parser.parse(given))
        return true; // QCommandLineParser::process() reports it as before
    QStringList positional = parser.positionalArguments();
    positional.removeAll(QString()); // a launcher may hand an empty %u on when it has no link
    if (positional.isEmpty())
        return true;
    if (positional.size() > 1) {
        *error = QStringLiteral("one link at most, and nothing beside it");
        return false;
    }
    const std::optional<ViewLink> link = ViewLink::fromUrl(positional.constFirst(), error);
    if (!link)
        return false;
    if (given.size() > 2) {
        *error = QStringLiteral("a link is the one argument: no options beside it");
        return false;
    }
    *arguments = QStringList {given.constFirst()} + link->toArguments();
    return true;
}

std::optional<EventView> viewFromArguments(const QStringList &arguments, QString *error)
{
    QCommandLineParser parser;
    add(parser);
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

void applyView(DashboardApp &dashboard, const QCommandLineParser &parser, const EventView &view)
{
    if (givesEventView(parser))
        dashboard.setEventView(view); // else the window's remembered filter and sort
    if (!parser.isSet(QStringLiteral("screenshot"))
        && (parser.isSet(QStringLiteral("select")) || parser.isSet(QStringLiteral("tab"))))
        dashboard.setStartPlace(
            parser.value(QStringLiteral("select")), parser.value(QStringLiteral("tab")));
}

QString conflict(const QCommandLineParser &parser)
{
    if (parser.isSet(QStringLiteral("profile")) && !parser.isSet(QStringLiteral("db")))
        return QStringLiteral("--profile needs --db (the demo database is native)");
    if (parser.isSet(QStringLiteral("cdc-slot")) && !parser.isSet(QStringLiteral("db")))
        return QStringLiteral("--cdc-slot needs --db (a replication slot is PostgreSQL's)");
    // PostgreSQL's own rule for a slot's name (at most NAMEDATALEN - 1 bytes).
    static const QRegularExpression slotName(QStringLiteral("^[a-z0-9_]{1,63}$"));
    if (parser.isSet(QStringLiteral("cdc-slot"))
        && !slotName.match(parser.value(QStringLiteral("cdc-slot")).trimmed()).hasMatch())
        return QStringLiteral("--cdc-slot: a replication slot's name is 1 to 63 lower-case "
                              "letters, digits and underscores");
    if ((parser.isSet(QStringLiteral("fleet")) || parser.isSet(QStringLiteral("fleet-prometheus")))
        && (parser.isSet(QStringLiteral("db")) || parser.isSet(QStringLiteral("demo"))))
        return QStringLiteral("--fleet and --fleet-prometheus exclude --db and --demo");
    if (parser.isSet(QStringLiteral("demo")) && parser.isSet(QStringLiteral("db")))
        return QStringLiteral("--demo and --db exclude each other");
    if (parser.isSet(QStringLiteral("scenario"))
        && (!parser.isSet(QStringLiteral("demo"))
            || !isScenario(parser.value(QStringLiteral("scenario")))))
        return QStringLiteral("--scenario needs --demo and one of ")
            + Scenario::names().join(QStringLiteral(", ")) + QStringLiteral(", outage-storm, ")
            + QString::fromLatin1(CdcLesson::Name);
    const QString tab = parser.value(QStringLiteral("tab"));
    if (parser.isSet(QStringLiteral("tab")) && MainWindow::pageForName(tab).isEmpty()
        && !((tab == QLatin1String("replay-dialog") || tab == QLatin1String("replay-all-dialog")
                 || tab == QLatin1String("edit-dialog"))
            && parser.isSet(QStringLiteral("screenshot"))))
        return QStringLiteral("unknown page \"%1\" (one of: overview, events, errors, diagnosis, "
                              "audit, lifecycle, policy, teach)")
            .arg(PlainText::escaped(tab));
    QString error;
    if (RetryPolicy policy; parser.isSet(QStringLiteral("storm-policy"))
        && (parser.value(QStringLiteral("scenario")) != QLatin1String("outage-storm")
            || !RetryPolicy::parse(parser.value(QStringLiteral("storm-policy")), &policy, &error)))
        return QStringLiteral("--storm-policy: ")
            + (error.isEmpty() ? QStringLiteral("needs --scenario outage-storm")
                               : PlainText::escaped(error));
    return {};
}

} // namespace DashboardOptions
