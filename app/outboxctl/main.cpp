// outboxctl: the command-line twin of the Outbox Health dashboard. Its commands are the table in
// commands.cpp.
// Exit status: 0 success, 1 `check` found a threshold violated, `diagnose` a warning or
// critical finding, or `metrics` could not read the outbox, 2 any error (also an unknown event).
#include "cli.h"
#include "commands.h"
#include "qtmessages.h"

#include <QCoreApplication>
#include <QTextStream>

namespace {

// One line per command; `outboxctl COMMAND --help` tells the rest.
QString usage()
{
    return u"Usage: outboxctl COMMAND [options]\n"
           "The command-line twin of the Outbox Health dashboard.\n"
           "\n"
           "Commands:\n"_qs
        + Cli::commandList()
        + u"\n"
          "Options:\n"
          "  -h, --help     show this help; `outboxctl COMMAND --help` shows a command's options\n"
          "  -v, --version  show the version\n"
          "\n"
          "Exit status: 0 success, 1 `check` found a limit exceeded, `diagnose` a warning or\n"
          "critical finding, or `metrics` could not read the outbox (outbox_up 0 written), 2 any\n"
          "error (also an event ID that names no event, a relay whose database stayed unreachable\n"
          "for --give-up-after, or a `serve` that cannot listen). `serve` runs until SIGINT or\n"
          "SIGTERM, then exits 0. Durations take units: 500ms, 30s, 10m, 2h, 7d.\n"_qs;
}

} // namespace

int main(int argc, char *argv[])
{
    QtMessages::install(); // Qt's SQL warnings never beside the one error line
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("outboxctl"));
    QStringList arguments = QCoreApplication::arguments().mid(1);
    if (arguments.isEmpty())
        return Cli::fail(u"missing command (%1); see `outboxctl --help`"_qs.arg(
            Cli::commandNames(QStringLiteral(", "))));
    const QString command = arguments.takeFirst();
    if (command == QLatin1String("--help") || command == QLatin1String("-h")
        || command == QLatin1String("help")) {
        QTextStream(stdout) << usage();
        return Cli::Ok;
    }
    if (command == QLatin1String("--version") || command == QLatin1String("-v")) {
        QTextStream(stdout) << "outboxctl " OUTBOX_HEALTH_VERSION "\n";
        return Cli::Ok;
    }
    if (const Cli::Command *found = Cli::findCommand(command))
        return found->run(arguments);
    return Cli::fail(u"unknown command '%1' (expected %2)"_qs.arg(
        command, Cli::commandNames(QStringLiteral(" or "))));
}
