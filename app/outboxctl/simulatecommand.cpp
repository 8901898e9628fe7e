// outboxctl simulate --db URL --scenario NAME [--json] [--policy SPEC] [--budget N]:
// runs a seed scenario on the logical clock and prints its trace.
#include "cli.h"
#include "narration.h"
#include "outagestorm.h"
#include "scenario.h"
#include "schema.h"
#include "simulation.h"

#include <QObject>

namespace {

bool applyOverrides(const QCommandLineParser &parser, Scenario *scenario, QString *error)
{
    if (parser.isSet(QStringLiteral("policy"))
        && !RetryPolicy::parse(parser.value(QStringLiteral("policy")), &scenario->policy, error))
        return false;
    if (parser.isSet(QStringLiteral("budget"))) {
        bool ok = false;
        scenario->budget.maxAttempts = parser.value(QStringLiteral("budget")).toInt(&ok);
        if (!ok || scenario->budget.maxAttempts < 1) {
            *error = QStringLiteral("--budget must be a whole number of at least 1");
            return false;
        }
    }
    return true;
}

int runOutageStorm(const QCommandLineParser &parser)
{
    if (parser.isSet(QStringLiteral("policy")) || parser.isSet(QStringLiteral("budget")))
        return Cli::fail(
            QStringLiteral("simulate: outage-storm compares exponential with exponential-random; "
                           "--policy and --budget do not apply"));
    QString error;
    const auto connection = Cli::openForSimulation(parser.value(QStringLiteral("db")), &error);
    if (!connection)
        return Cli::fail(error);
    const bool json = parser.isSet(QStringLiteral("json"));
    if (!json)
        Cli::printLine(
            QStringLiteral("outage-storm: %1 events fail during an outage until t=%2, then the "
                           "transport recovers. Without jitter the retries arrive together.")
                .arg(OutageStorm::Events)
                .arg(OutageStorm::OutageUntil));
    for (const QString &spec : OutageStorm::policies()) {
        RetryPolicy policy;
        RetryPolicy::parse(spec, &policy, nullptr);
        StormRun run;
        if (!OutageStorm::run(connection->database(), policy, 1, &run, &error))
            return Cli::fail(QStringLiteral("simulation stopped: ") + error);
        if (json) {
            for (const TraceEvent &line : OutageStorm::toTrace(run))
                Cli::printLine(line.toJsonLine());
        } else {
            for (const QString &line : OutageStorm::toChart(run))
                Cli::printLine(line);
        }
    }
    return Cli::Ok;
}

} // namespace

int runSimulate(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption({QStringLiteral("db"),
        QStringLiteral("Database URL (a new sqlite: file or a simulation database)."),
        QStringLiteral("URL")});
    parser.addOption({QStringLiteral("scenario"),
        QStringLiteral("One of: ") + Scenario::names().join(QStringLiteral(", "))
            + QStringLiteral(", outage-storm"),
        QStringLiteral("NAME")});
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print one JSON object per line.")});
    parser.addOption({QStringLiteral("policy"),
        QStringLiteral("Override the scenario's retry policy."), QStringLiteral("SPEC")});
    parser.addOption({QStringLiteral("budget"),
        QStringLiteral("Override the scenario's attempt budget."), QStringLiteral("N")});
    int exitCode = Cli::Ok;
    if (!Cli::parse(parser, QStringLiteral("simulate"), arguments, &exitCode))
        return exitCode;

    QString error;
    if (!Cli::requireValue(parser, QStringLiteral("db"), &error)
        || !Cli::requireValue(parser, QStringLiteral("scenario"), &error))
        return Cli::fail(QStringLiteral("simulate: ") + error);
    if (parser.value(QStringLiteral("scenario")) == QLatin1String("outage-storm"))
        return runOutageStorm(parser);
    std::optional<Scenario> scenario = Scenario::byName(parser.value(QStringLiteral("scenario")));
    if (!scenario)
        return Cli::fail(QStringLiteral("simulate: unknown scenario '%1' (known: %2)")
                             .arg(parser.value(QStringLiteral("scenario")),
                                 Scenario::names().join(QStringLiteral(", "))));
    if (!applyOverrides(parser, &*scenario, &error))
        return Cli::fail(error);

    const auto connection = Cli::openForSimulation(parser.value(QStringLiteral("db")), &error);
    if (!connection)
        return Cli::fail(error);
    if (!Schema::clearSimulationData(connection->database(), &error))
        return Cli::fail(QStringLiteral("clearing the simulation database: ") + error);

    const bool json = parser.isSet(QStringLiteral("json"));
    Simulation simulation(connection->database());
    QObject::connect(&simulation, &Simulation::traced, [json](const TraceEvent &event) {
        Cli::printLine(json ? event.toJsonLine() : Narration::describe(event));
    });
    if (!json)
        Cli::printLine(scenario->name + QStringLiteral(": ") + scenario->summary);
    ScenarioRunner runner(simulation, *scenario);
    if (!runner.start() || !runner.runToEnd())
        return Cli::fail(QStringLiteral("simulation stopped: ") + simulation.errorText());
    const TraceEvent summary = simulation.summary();
    Cli::printLine(json ? summary.toJsonLine() : Narration::describe(summary));
    return Cli::Ok;
}
