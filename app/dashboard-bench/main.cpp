// outbox-dashboard-bench: the dashboard with the benchmarks' drivers, which the shipped
// outbox-dashboard does not carry. Every option of outbox-dashboard, plus (hidden from --help):
// --bench-scroll-pages N [--bench-idle-ms MS] (scrollbench.h), --bench-script STEPS
// [--bench-hold-ms MS] (benchdriver.h) and, with --fleet, --bench-fleet-ms MS (fleetbench.h;
// with --fleet-prometheus, prometheusfleetbench.h and --bench-expect N),
// each writing its JSON line to --bench-report FILE. Built for tests/bench/scale and
// tests/bench/fleet; never installed.
#include "benchdriver.h"
#include "dashboardapp.h"
#include "dashboardmain.h"
#include "dashboardoptions.h"
#include "fleetbench.h"
#include "fleetwindow.h"
#include "mainwindow.h"
#include "prometheusfleetbench.h"
#include "scrollbench.h"

namespace {

void addBenchOptions(QCommandLineParser &parser)
{
    QList<QCommandLineOption> bench = {
        {QStringLiteral("bench-scroll-pages"),
            QStringLiteral("Scroll the event table this many pages, report, quit."),
            QStringLiteral("N")},
        {QStringLiteral("bench-idle-ms"), QStringLiteral("Before scrolling, stay open this long."),
            QStringLiteral("MS"), QStringLiteral("0")},
        {QStringLiteral("bench-report"),
            QStringLiteral("Where the benchmark writes its JSON line."), QStringLiteral("FILE")},
        {QStringLiteral("bench-script"),
            QStringLiteral("Drive the window through these steps, report, quit."),
            QStringLiteral("STEPS")},
        {QStringLiteral("bench-hold-ms"),
            QStringLiteral("After each step, stay this long (default two refresh intervals)."),
            QStringLiteral("MS"), QString::number(BenchDriver::DefaultHoldMs)},
        {QStringLiteral("bench-fleet-ms"),
            QStringLiteral("With --fleet: stay open this long, report, quit."),
            QStringLiteral("MS")},
        {QStringLiteral("bench-expect"),
            QStringLiteral("With --fleet-prometheus: the outboxes that fill the view."),
            QStringLiteral("N"), QStringLiteral("1")}};
    for (QCommandLineOption &option : bench) {
        option.setFlags(QCommandLineOption::HiddenFromHelp);
        parser.addOption(option);
    }
}

// --bench-fleet-ms starts once the fleet view opened.
void startFleetBench(DashboardApp &dashboard, const QCommandLineParser &parser)
{
    const int ms = parser.value(QStringLiteral("bench-fleet-ms")).toInt();
    const QString report = parser.value(QStringLiteral("bench-report"));
    QObject::connect(&dashboard, &DashboardApp::fleetOpened, &dashboard,
        [&dashboard, ms, report, expected = parser.value(QStringLiteral("bench-expect")).toInt()](
            FleetWindow *fleet) {
            if (fleet->prometheusModel()) // idle for ms once filled (prometheusfleetbench.h)
                (new PrometheusFleetBench(fleet, ms, expected, report, &dashboard))->start();
            else
                (new FleetBench(fleet, ms, report, &dashboard))->start();
        });
}

void startScrollBench(DashboardApp &dashboard, const QCommandLineParser &parser)
{
    const int pages = parser.value(QStringLiteral("bench-scroll-pages")).toInt();
    const int idleMs = parser.value(QStringLiteral("bench-idle-ms")).toInt();
    const QString report = parser.value(QStringLiteral("bench-report"));
    DashboardMain::whenOpen(dashboard, [&dashboard, pages, idleMs, report](MainWindow *window) {
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
    DashboardMain::whenOpen(dashboard, [&dashboard, steps, report, holdMs](MainWindow *window) {
        auto *driver = new BenchDriver(window, steps, report, holdMs, &dashboard);
        driver->start();
    });
    return true;
}

bool startBenchmarks(DashboardApp &dashboard, const QCommandLineParser &parser, QString *error)
{
    if (parser.isSet(QStringLiteral("bench-fleet-ms")))
        startFleetBench(dashboard, parser);
    if (parser.isSet(QStringLiteral("bench-scroll-pages")))
        startScrollBench(dashboard, parser);
    return !parser.isSet(QStringLiteral("bench-script"))
        || startBenchScript(dashboard, parser, error);
}

} // namespace

int main(int argc, char *argv[])
{
    DashboardOptions::setExtraOptions(addBenchOptions);
    DashboardMain::Extras extras;
    extras.unattended = [](const QCommandLineParser &parser) {
        return parser.isSet(QStringLiteral("bench-scroll-pages"))
            || parser.isSet(QStringLiteral("bench-script"));
    };
    extras.schedule = startBenchmarks;
    return DashboardMain::run(argc, argv, extras);
}
