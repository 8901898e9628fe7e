#include "statechangecommand.h"

#include "cli.h"
#include "numbertext.h"
#include "replayer.h"

namespace {

struct Options
{
    OperatorCommand::Selection selection;
    OperatorRequest request;
    bool dryRun = false;
    bool json = false;
};

void addOptions(const StateChangeCommand &spec, QCommandLineParser &parser)
{
    const QString verb = spec.command.command;
    const QString log = spec.change->words.log;
    Cli::addDatabaseOptions(parser, spec.profileNote);
    if (spec.bulk)
        OperatorCommand(spec.command).addSelectionOptions(parser);
    else
        parser.addOption({u"event"_qs, spec.eventHelp, u"ID"_qs});
    parser.addOption({u"operator"_qs,
        QStringLiteral("Who %1s the events (recorded in %2).").arg(verb, log), u"NAME"_qs});
    parser.addOption({u"reason"_qs,
        QStringLiteral("%1 (recorded in %2).").arg(spec.reasonHelp, log), u"TEXT"_qs});
    Cli::addNowOption(parser, QStringLiteral("The %1 time").arg(verb));
    parser.addOption({u"dry-run"_qs,
        QStringLiteral("Print which events would be %1; change nothing.").arg(spec.command.done)});
    Cli::addJsonOption(parser,
        QStringLiteral("Print {\"%1\":[...],\"skipped\":[...]} ({\"would_%2\":[...]} with "
                       "--dry-run).")
            .arg(spec.command.done, verb));
}

// --event only: at least one, none blank.
bool readEvents(const QCommandLineParser &parser, QStringList *ids, QString *error)
{
    if (!parser.isSet(u"event"_qs)) {
        *error = u"say which events: --event ID (repeatable)"_qs;
        return false;
    }
    for (const QString &id : parser.values(u"event"_qs)) {
        if (id.trimmed().isEmpty()) {
            *error = u"--event needs an event ID"_qs;
            return false;
        }
        *ids << id;
    }
    return true;
}

bool readOptions(const StateChangeCommand &spec, const QCommandLineParser &parser, Options *options,
    QString *error)
{
    const OperatorCommand command(spec.command);
    if (!Cli::requireDatabase(parser, error)
        || !(spec.bulk ? command.readSelection(parser, &options->selection, error)
                       : readEvents(parser, &options->selection.eventIds, error))
        || !command.readOperator(parser, &options->request, error)
        || !Cli::readNow(parser, &options->request.now, error))
        return false;
    options->request.eventIds = options->selection.eventIds;
    options->dryRun = parser.isSet(u"dry-run"_qs);
    options->json = parser.isSet(u"json"_qs);
    return true;
}

QString dryRunLine(const StateChangeCommand &spec, const QStringList &found, const Options &options)
{
    const QString verb = spec.command.command;
    if (options.json)
        return QStringLiteral("{\"would_%1\":%2}").arg(verb, OperatorCommand::jsonArray(found));
    QString line
        = QStringLiteral("dry run: would %1 %2 event%3")
              .arg(verb, NumberText::count(found.size()), OperatorCommand::plural(found.size()));
    if (!found.isEmpty())
        line += u": "_qs + Cli::printable(found.join(u", "_qs));
    const qsizetype others = options.selection.isBulk()
        ? 0
        : OperatorJob::distinct(options.request.eventIds).size() - found.size();
    if (others > 0)
        line += QStringLiteral("; %1 %2").arg(NumberText::count(others), spec.notFrom);
    return line + u"; nothing changed"_qs;
}

} // namespace

int runStateChange(const StateChangeCommand &spec, const QStringList &arguments)
{
    const QString verb = spec.command.command;
    const OperatorCommand command(spec.command);
    QCommandLineParser parser;
    addOptions(spec, parser);
    int exitCode = Cli::Ok;
    if (!Cli::parse(parser, verb, arguments, &exitCode))
        return exitCode;
    Options options;
    QString error;
    if (!readOptions(spec, parser, &options, &error))
        return Cli::fail(verb + u": "_qs + error);
    const auto outbox = Cli::openOutbox(parser, Cli::outboxOptions(false), &error);
    if (!outbox)
        return command.fail(error, options.json);
    StateChange change(*spec.change, outbox->database(), outbox->profile);
    const QString refusal = change.refusal();
    if (!refusal.isEmpty())
        return command.fail(verb + u": "_qs + refusal, options.json);
    if (error = Cli::grantsRefusal(*outbox, spec.grants, verb); !error.isEmpty())
        return command.fail(error, options.json);
    const auto reading = [&](const QString &why) {
        return QStringLiteral("%1: reading %2: %3").arg(verb, outbox->name(), why);
    };
    if (spec.bulk) {
        Replayer replayer(outbox->database()); // the native schema: it finds the DEAD rows
        if (!OperatorCommand::selectEvents(*outbox, replayer, options.selection,
                options.request.now, &options.request.eventIds, &error))
            return command.fail(reading(error), options.json);
    }
    // An ID that names no event is a typo, not "someone else got there first": exit 2 and
    // nothing changed, for both commands (replay does the same).
    if (const int refused = command.refuseUnknown(*outbox, options.selection, options.json))
        return refused;
    if (options.dryRun) {
        error.clear();
        const QStringList found = change.among(options.request.eventIds, &error);
        if (!error.isEmpty())
            return command.fail(reading(error), options.json);
        Cli::printLine(dryRunLine(spec, found, options));
        return Cli::Ok;
    }
    const OperatorOutcome outcome = change.run(options.request);
    if (!outcome.error.isEmpty())
        return command.failOutcome(*outbox, outcome, options.json);
    Cli::printLine(command.outcomeLine(outcome.done, outcome.skipped, options.json));
    return Cli::Ok;
}
