// outboxctl: the command-line twin of the Outbox Health dashboard.
// Exit status: 0 success, 1 `check` found a threshold violated, `diagnose` a warning or
// critical finding, or `metrics` could not read the outbox, 2 any error (also an unknown event).
#include "cli.h"
#include "qtmessages.h"

#include <QCoreApplication>
#include <QTextStream>

int runInit(const QStringList &arguments);
int runSimulate(const QStringList &arguments);
int runCheck(const QStringList &arguments);
int runRelay(const QStringList &arguments);
int runReplay(const QStringList &arguments);
int runGenerate(const QStringList &arguments);
int runExport(const QStringList &arguments);
int runResolve(const QStringList &arguments);
int runReopen(const QStringList &arguments);
int runMigrate(const QStringList &arguments);
int runPurge(const QStringList &arguments);
int runDiagnose(const QStringList &arguments);
int runExplain(const QStringList &arguments);
int runErrors(const QStringList &arguments);
int runMetrics(const QStringList &arguments);
int runPolicy(const QStringList &arguments);
int runServe(const QStringList &arguments);
int runNote(QStringList arguments);

namespace {

// One line per command; `outboxctl COMMAND --help` tells the rest.
const char usage[]
    = "Usage: outboxctl COMMAND [options]\n"
      "The command-line twin of the Outbox Health dashboard.\n"
      "\n"
      "Commands:\n"
      "  init      create the native schema where it is absent\n"
      "  simulate  run a seed scenario on the logical clock and narrate or trace it\n"
      "  check     print the health snapshot; exit 1 when a limit is exceeded\n"
      "  relay     run the live simulated relay with injected faults\n"
      "  replay    release DEAD events for another delivery, recording who and why\n"
      "  generate  fill a simulation database with a realistic synthetic outbox\n"
      "  export    write the events, or the replay log, as spreadsheet-safe CSV\n"
      "  resolve   close DEAD events without delivering them, recording who and why\n"
      "  reopen    put RESOLVED events back to DEAD, recording who and why\n"
      "  note      add, list or clear operator notes and markers on DEAD events and groups\n"
      "  migrate   bring a database's native schema to this program's version\n"
      "  purge     delete old DELIVERED (and RESOLVED) events in short batches\n"
      "  diagnose  say why the outbox is stuck and what to do; exit 1 on a finding\n"
      "  explain   explain one event: where it is, why, and what happens next\n"
      "  errors    list the failed events grouped by error signature\n"
      "  metrics   print the health snapshot as Prometheus metrics, or write a textfile\n"
      "  policy    print the schedule a retry policy gives, and when it parks an event DEAD\n"
      "  serve     serve /metrics for many outboxes to Prometheus\n"
      "\n"
      "Options:\n"
      "  -h, --help     show this help; `outboxctl COMMAND --help` shows a command's options\n"
      "  -v, --version  show the version\n"
      "\n"
      "Exit status: 0 success, 1 `check` found a limit exceeded, `diagnose` a warning or\n"
      "critical finding, or `metrics` could not read the outbox (outbox_up 0 written), 2 any\n"
      "error (also an event ID that names no event, a relay whose database stayed unreachable\n"
      "for --give-up-after, or a `serve` that cannot listen). `serve` runs until SIGINT or\n"
      "SIGTERM, then exits 0. Durations take units: 500ms, 30s, 10m, 2h, 7d.\n";

} // namespace

int main(int argc, char *argv[])
{
    QtMessages::install(); // Qt's SQL warnings never beside the one error line
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("outboxctl"));
    QStringList arguments = QCoreApplication::arguments().mid(1);
    if (arguments.isEmpty())
        return Cli::fail(
            QStringLiteral("missing command (init, simulate, check, relay, replay, "
                           "generate, export, resolve, reopen, note, migrate, purge, diagnose, "
                           "explain, errors, metrics, policy, serve); see `outboxctl --help`"));
    const QString command = arguments.takeFirst();
    if (command == QLatin1String("--help") || command == QLatin1String("-h")
        || command == QLatin1String("help")) {
        QTextStream(stdout) << usage;
        return Cli::Ok;
    }
    if (command == QLatin1String("--version") || command == QLatin1String("-v")) {
        QTextStream(stdout) << "outboxctl " OUTBOX_HEALTH_VERSION "\n";
        return Cli::Ok;
    }
    if (command == QLatin1String("init"))
        return runInit(arguments);
    if (command == QLatin1String("simulate"))
        return runSimulate(arguments);
    if (command == QLatin1String("check"))
        return runCheck(arguments);
    if (command == QLatin1String("relay"))
        return runRelay(arguments);
    if (command == QLatin1String("replay"))
        return runReplay(arguments);
    if (command == QLatin1String("generate"))
        return runGenerate(arguments);
    if (command == QLatin1String("export"))
        return runExport(arguments);
    if (command == QLatin1String("resolve"))
        return runResolve(arguments);
    if (command == QLatin1String("reopen"))
        return runReopen(arguments);
    if (command == QLatin1String("note"))
        return runNote(arguments);
    if (command == QLatin1String("migrate"))
        return runMigrate(arguments);
    if (command == QLatin1String("purge"))
        return runPurge(arguments);
    if (command == QLatin1String("diagnose"))
        return runDiagnose(arguments);
    if (command == QLatin1String("explain"))
        return runExplain(arguments);
    if (command == QLatin1String("errors"))
        return runErrors(arguments);
    if (command == QLatin1String("metrics"))
        return runMetrics(arguments);
    if (command == QLatin1String("policy"))
        return runPolicy(arguments);
    if (command == QLatin1String("serve"))
        return runServe(arguments);
    return Cli::fail(
        QStringLiteral("unknown command '%1' (expected init, simulate, check, relay, "
                       "replay, generate, export, resolve, reopen, note, migrate, purge, "
                       "diagnose, explain, errors, metrics, policy or serve)")
            .arg(command));
}
