// outboxctl: the command-line twin of the Outbox Health dashboard.
// Exit status: 0 success, 1 `check` found a threshold violated, 2 any error.
#include "cli.h"

#include <QCoreApplication>
#include <QTextStream>

int runInit(const QStringList &arguments);
int runSimulate(const QStringList &arguments);
int runCheck(const QStringList &arguments);
int runRelay(const QStringList &arguments);
int runReplay(const QStringList &arguments);
int runGenerate(const QStringList &arguments);
int runExport(const QStringList &arguments);

namespace {

const char usage[]
    = "usage: outboxctl COMMAND [OPTIONS]\n"
      "commands:\n"
      "  init      create the native schema (--db URL [--for-simulation])\n"
      "  simulate  run a seed scenario on the logical clock (--db URL --scenario NAME [--json])\n"
      "  check     the health snapshot; exit 1 when a threshold is violated (--db URL [--now MS] "
      "[--json] [--max-dead N] ...)\n"
      "  relay     run the live simulated relay with faults (--db URL [--workers N] ...)\n"
      "  replay    release DEAD events for another attempt (--db URL (--event ID ... | --all-dead) "
      "--operator NAME --reason TEXT ...)\n"
      "  generate  fill a simulation database with a synthetic outbox (--db URL --events N [--seed "
      "S])\n"
      "  export    the events (or with --audit the replay log) as spreadsheet-safe CSV (--db URL "
      "[--state STATE] [--output FILE] ...)\n"
      "Run `outboxctl COMMAND --help` for a command's options.\n";

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("outboxctl"));
    QStringList arguments = QCoreApplication::arguments().mid(1);
    if (arguments.isEmpty())
        return Cli::fail(QStringLiteral("missing command (init, simulate, check, relay, replay, "
                                        "generate, export); see `outboxctl --help`"));
    const QString command = arguments.takeFirst();
    if (command == QLatin1String("--help") || command == QLatin1String("-h")
        || command == QLatin1String("help")) {
        QTextStream(stdout) << usage;
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
    return Cli::fail(QStringLiteral("unknown command '%1' (expected init, simulate, check, relay, "
                                    "replay, generate or export)")
                         .arg(command));
}
