// outboxctl resolve --db URL (--event ID ... | --all-dead [--older-than DURATION]
// [--error-category C]) --operator NAME --reason TEXT [--now MS] [--dry-run] [--json]: closes
// parked (DEAD) events without delivering them (DEAD → RESOLVED, kept in the table), each in
// its own transaction with a resolve_log row; the twin of `outboxctl replay`. --dry-run prints
// what would be resolved and changes nothing. Exit 0 even when some were skipped (someone
// else resolved or replayed them first, or they are not DEAD); 2 on any error, also on an
// --event ID that names no event (nothing is resolved then), on a
// schema older than version 2 (run `outboxctl migrate`) and on a profile for another schema
// (refused, naming that library's own action).
#include "cli.h"
#include "operatorcommand.h"
#include "replayer.h"
#include "resolver.h"

namespace {

struct ResolveOptions
{
    OperatorCommand::Selection selection;
    ResolveRequest request;
    bool dryRun = false;
    bool json = false;
};

const OperatorCommand &command()
{
    static const OperatorCommand command({u"resolve"_qs, u"resolved"_qs,
        u"already resolved or replayed by someone else, or not DEAD"_qs, Resolver::words()});
    return command;
}

void addOptions(QCommandLineParser &parser)
{
    Cli::addDatabaseOptions(parser,
        u"Any but native is refused, naming that library's own way to settle an event."_qs);
    command().addSelectionOptions(parser);
    parser.addOption(
        {u"operator"_qs, u"Who resolves the events (recorded in resolve_log)."_qs, u"NAME"_qs});
    parser.addOption(
        {u"reason"_qs, u"Why they need no delivery (recorded in resolve_log)."_qs, u"TEXT"_qs});
    Cli::addNowOption(parser, u"The resolve time"_qs);
    parser.addOption({u"dry-run"_qs, u"Print which events would be resolved; change nothing."_qs});
    Cli::addJsonOption(parser,
        u"Print {\"resolved\":[...],\"skipped\":[...]} ({\"would_resolve\":[...]} with "
        "--dry-run)."_qs);
}

bool readOptions(const QCommandLineParser &parser, ResolveOptions *options, QString *error)
{
    if (!Cli::requireDatabase(parser, error)
        || !command().readSelection(parser, &options->selection, error)
        || !command().readOperator(parser, &options->request, error)
        || !Cli::readNow(parser, &options->request.now, error))
        return false;
    options->dryRun = parser.isSet(u"dry-run"_qs);
    options->json = parser.isSet(u"json"_qs);
    return true;
}

QString dryRunLine(const QStringList &dead, const ResolveOptions &options)
{
    if (options.json)
        return u"{\"would_resolve\":"_qs + OperatorCommand::jsonArray(dead) + u"}"_qs;
    QString line = QStringLiteral("dry run: would resolve %1 event%2")
                       .arg(dead.size())
                       .arg(OperatorCommand::plural(dead.size()));
    if (!dead.isEmpty())
        line += u": "_qs + Cli::printable(dead.join(u", "_qs));
    const qsizetype notDead
        = options.selection.isBulk() ? 0 : options.request.eventIds.size() - dead.size();
    if (notDead > 0)
        line += QStringLiteral("; %1 not DEAD").arg(notDead);
    return line + u"; nothing changed"_qs;
}

} // namespace

int runResolve(const QStringList &arguments)
{
    QCommandLineParser parser;
    addOptions(parser);
    int exitCode = Cli::Ok;
    if (!Cli::parse(parser, u"resolve"_qs, arguments, &exitCode))
        return exitCode;
    ResolveOptions options;
    QString error;
    if (!readOptions(parser, &options, &error))
        return Cli::fail(u"resolve: "_qs + error);
    const auto outbox = Cli::openOutbox(parser, Cli::outboxOptions(false), &error);
    if (!outbox)
        return Cli::fail(error);
    Resolver resolver(outbox->database(), outbox->profile);
    const QString refusal = resolver.refusal();
    if (!refusal.isEmpty())
        return Cli::fail(u"resolve: "_qs + refusal);
    Replayer replayer(outbox->database()); // the native schema: it finds the DEAD rows
    if (!OperatorCommand::selectEvents(*outbox, replayer, options.selection, options.request.now,
            &options.request.eventIds, &error))
        return Cli::fail(QStringLiteral("resolve: reading %1: %2").arg(outbox->name(), error));
    if (const int refused = command().refuseUnknown(*outbox, options.selection, options.json))
        return refused;
    if (options.dryRun) {
        error.clear();
        const QStringList dead = resolver.deadAmong(options.request.eventIds, &error);
        if (!error.isEmpty())
            return Cli::fail(QStringLiteral("resolve: reading %1: %2").arg(outbox->name(), error));
        Cli::printLine(dryRunLine(dead, options));
        return Cli::Ok;
    }
    const ResolveResult result = resolver.resolve(options.request);
    if (!result.error.isEmpty())
        return command().failOutcome(*outbox, result.error, result.resolved);
    Cli::printLine(command().outcomeLine(result.resolved, result.skipped, options.json));
    return Cli::Ok;
}
