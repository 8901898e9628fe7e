// outboxctl reopen --db URL --event ID... --operator NAME --reason TEXT [--now MS] [--dry-run]
// [--json]: puts resolved events back among the parked ones (RESOLVED → DEAD), each in its own
// transaction with a reopen_log row; the undo of `outboxctl resolve`, with its exit codes. A
// reopened event is DEAD again: replay or resolve it as any other. --dry-run prints what would be
// reopened and changes nothing. Exit 0 even when some were skipped (someone else reopened them
// first, or they are not RESOLVED); 2 on any error, also on a schema older than version 2 or
// without reopen_log (run `outboxctl migrate` or `outboxctl init`) and on a profile for another
// schema (reopen is not available there).
#include "cli.h"
#include "operatorcommand.h"
#include "reopener.h"

namespace {

struct ReopenOptions
{
    ReopenRequest request;
    bool dryRun = false;
    bool json = false;
};

const OperatorCommand &command()
{
    static const OperatorCommand command({u"reopen"_qs, u"reopened"_qs,
        u"already reopened by someone else, or not RESOLVED"_qs, Reopener::words()});
    return command;
}

void addOptions(QCommandLineParser &parser)
{
    Cli::addDatabaseOptions(
        parser, u"Any but native is refused: reopen undoes Outbox Health's own resolve."_qs);
    parser.addOption({u"event"_qs, u"A RESOLVED event to reopen (repeat for more)."_qs, u"ID"_qs});
    parser.addOption(
        {u"operator"_qs, u"Who reopens the events (recorded in reopen_log)."_qs, u"NAME"_qs});
    parser.addOption({u"reason"_qs, u"Why they need an operator again (recorded in reopen_log)."_qs,
        u"TEXT"_qs});
    Cli::addNowOption(parser, u"The reopen time"_qs);
    parser.addOption({u"dry-run"_qs, u"Print which events would be reopened; change nothing."_qs});
    Cli::addJsonOption(parser,
        u"Print {\"reopened\":[...],\"skipped\":[...]} ({\"would_reopen\":[...]} with "
        "--dry-run)."_qs);
}

bool readOptions(const QCommandLineParser &parser, ReopenOptions *options, QString *error)
{
    if (!Cli::requireDatabase(parser, error))
        return false;
    if (!parser.isSet(u"event"_qs)) {
        *error = u"say which events: --event ID (repeatable)"_qs;
        return false;
    }
    for (const QString &id : parser.values(u"event"_qs)) {
        if (id.trimmed().isEmpty()) {
            *error = u"--event needs an event ID"_qs;
            return false;
        }
        options->request.eventIds << id;
    }
    if (!command().readOperator(parser, &options->request, error)
        || !Cli::readNow(parser, &options->request.now, error))
        return false;
    options->dryRun = parser.isSet(u"dry-run"_qs);
    options->json = parser.isSet(u"json"_qs);
    return true;
}

QString dryRunLine(const QStringList &resolved, const ReopenOptions &options)
{
    if (options.json)
        return u"{\"would_reopen\":"_qs + OperatorCommand::jsonArray(resolved) + u"}"_qs;
    QString line = QStringLiteral("dry run: would reopen %1 event%2")
                       .arg(resolved.size())
                       .arg(OperatorCommand::plural(resolved.size()));
    if (!resolved.isEmpty())
        line += u": "_qs + Cli::printable(resolved.join(u", "_qs));
    const qsizetype others
        = OperatorJob::distinct(options.request.eventIds).size() - resolved.size();
    if (others > 0)
        line += QStringLiteral("; %1 not RESOLVED or not found").arg(others);
    return line + u"; nothing changed"_qs;
}

} // namespace

int runReopen(const QStringList &arguments)
{
    QCommandLineParser parser;
    addOptions(parser);
    int exitCode = Cli::Ok;
    if (!Cli::parse(parser, u"reopen"_qs, arguments, &exitCode))
        return exitCode;
    ReopenOptions options;
    QString error;
    if (!readOptions(parser, &options, &error))
        return Cli::fail(u"reopen: "_qs + error);
    const auto outbox = Cli::openOutbox(parser, Cli::outboxOptions(false), &error);
    if (!outbox)
        return Cli::fail(error);
    Reopener reopener(outbox->database(), outbox->profile);
    const QString refusal = reopener.refusal();
    if (!refusal.isEmpty())
        return Cli::fail(u"reopen: "_qs + refusal);
    if (options.dryRun) {
        const QStringList resolved = reopener.resolvedAmong(options.request.eventIds, &error);
        if (!error.isEmpty())
            return Cli::fail(QStringLiteral("reopen: reading %1: %2").arg(outbox->name(), error));
        Cli::printLine(dryRunLine(resolved, options));
        return Cli::Ok;
    }
    const ReopenResult result = reopener.reopen(options.request);
    if (!result.error.isEmpty())
        return command().failOutcome(*outbox, result.error, result.reopened);
    Cli::printLine(command().outcomeLine(result.reopened, result.skipped, options.json));
    return Cli::Ok;
}
