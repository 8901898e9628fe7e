#include "statechangecommand.h"

#include "actionplan.h"
#include "cli.h"
#include "notesaccess.h"
#include "numbertext.h"
#include "replayer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace {

struct Options
{
    OperatorCommand::Selection selection;
    OperatorRequest request;
    bool dryRun = false;
    bool json = false;
};

void addStateChangeOptions(const StateChangeCommand &spec, QCommandLineParser &parser)
{
    const QString verb = spec.command.command;
    const QString log = spec.change->words.log;
    Cli::addDatabaseOptions(parser, spec.profileNote);
    Cli::addNotesDbOption(parser);
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
        QStringLiteral("Print the plan: which events would be %1, which are left out and why; "
                       "change nothing.")
            .arg(spec.command.done)});
    Cli::addJsonOption(parser,
        QStringLiteral("Print {\"%1\":[...],\"skipped\":[...]} (with --dry-run the plan: "
                       "\"action\", \"count\", \"matching\", \"targets\", \"left_out\", "
                       "\"refusal\" and \"would_%2\").")
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

// The plan's first line as it always read ("dry run: would resolve 2 events: A, B; 1 not DEAD;
// nothing changed"), then one line per reason left out; in JSON the plan's keys with
// "would_resolve" (its targets).
QString dryRunText(const StateChangeCommand &spec, const ActionPlan &plan, const Options &options,
    const QString &audit)
{
    const QString verb = spec.command.command;
    if (options.json) {
        QJsonObject json = plan.toJson();
        json.insert(u"would_"_qs + verb, QJsonArray::fromStringList(plan.targets));
        return QString::fromUtf8(QJsonDocument(json).toJson(QJsonDocument::Compact));
    }
    QString line
        = QStringLiteral("dry run: would %1 %2 event%3")
              .arg(verb, NumberText::count(plan.count()), OperatorCommand::plural(plan.count()));
    if (!plan.targets.isEmpty())
        line += u": "_qs + Cli::printable(plan.targets.join(u", "_qs));
    if (!plan.leftOut.isEmpty())
        line += QStringLiteral("; %1 %2").arg(NumberText::count(plan.leftOut.size()), spec.notFrom);
    line += u"; nothing changed"_qs;
    for (const QString &left : plan.leftOutLines())
        line += u"\n  "_qs + Cli::printable(left);
    if (!audit.isEmpty())
        line += u"\n  audit: "_qs + Cli::printable(audit);
    return line;
}

// Through a profile's statement: where the change's audit goes, or why the real run would be
// refused (as replay's dry run says it).
QString auditLine(StateChange &change, const ProfileAudit &audit, const QString &verb)
{
    if (!change.isThroughStatement())
        return {};
    const QString refused = change.refusal();
    return refused.isEmpty() ? audit.where()
                             : QStringLiteral("the %1 would be refused: %2").arg(verb, refused);
}

} // namespace

int runStateChange(const StateChangeCommand &spec, const QStringList &arguments)
{
    const QString verb = spec.command.command;
    const OperatorCommand command(spec.command);
    QCommandLineParser parser;
    addStateChangeOptions(spec, parser);
    int exitCode = Cli::Ok;
    if (!Cli::parse(parser, verb, arguments, &exitCode))
        return exitCode;
    Options options;
    QString error;
    if (!readOptions(spec, parser, &options, &error) || !Cli::applyNotesDb(parser, &error))
        return Cli::fail(verb + u": "_qs + error);
    const auto outbox = Cli::openOutbox(parser, Cli::outboxOptions(false), &error);
    if (!outbox)
        return command.fail(error, options.json);
    if (error = Cli::unusableNotesDb(parser, *outbox, verb); !error.isEmpty())
        return command.fail(error, options.json);
    StateChange change(*spec.change, outbox->database(), outbox->profile);
    const ProfileAudit audit = change.isThroughStatement()
        ? NotesAccess::audit(outbox->database(), outbox->profile)
        : ProfileAudit();
    change.setAudit(audit);
    // A dry run records nothing; a real one through a profile's statement is refused unless
    // audited (below, after the command line's own refusals).
    const QString refusal = change.refusal(false);
    if (!refusal.isEmpty())
        return command.fail(verb + u": "_qs + refusal, options.json);
    if (error = Cli::grantsRefusal(*outbox, spec.grants, verb); !error.isEmpty())
        return command.fail(error, options.json);
    const auto reading = [&](const QString &why) {
        return QStringLiteral("%1: reading %2: %3").arg(verb, outbox->name(), why);
    };
    if (spec.bulk) {
        Replayer replayer(outbox->database(), outbox->profile); // it finds the DEAD rows
        if (!OperatorCommand::selectEvents(*outbox, replayer, options.selection,
                options.request.now, &options.request.eventIds, &error))
            return command.fail(reading(error), options.json);
    }
    // An ID that names no event is a typo, not "someone else got there first": exit 2 and
    // nothing changed, for both commands (replay does the same).
    if (const int refused = command.refuseUnknown(*outbox, options.selection, options.json))
        return refused;
    if (const QString unaudited = change.refusal(); !options.dryRun && !unaudited.isEmpty())
        return command.fail(verb + u": "_qs + unaudited, options.json);
    // The plan (ActionPlanner), as the window's dialog gets it: the dry run prints it, the real
    // run executes its targets, each still guarded.
    error.clear();
    const auto plan = ActionPlanner(outbox->database(), &outbox->profile)
                          .planStateChange(*spec.change, spec.grants, options.request.eventIds,
                              options.request.now, &error);
    if (!plan)
        return command.fail(reading(error), options.json);
    if (options.dryRun) {
        Cli::printLine(dryRunText(spec, *plan, options, auditLine(change, audit, verb)));
        return Cli::Ok;
    }
    OperatorRequest job = options.request;
    job.eventIds = plan->targets;
    const OperatorOutcome outcome
        = ActionPlanner::withPlanSkips(*plan, options.request.eventIds, change.run(job));
    if (!outcome.error.isEmpty())
        return command.failOutcome(*outbox, outcome, options.json);
    // Through a profile's statement, where its audit went ("audit" in the JSON).
    QString line = command.outcomeLine(outcome.done, outcome.skipped, options.json);
    if (change.isThroughStatement()) {
        if (options.json)
            line = line.chopped(1) + u",\"audit\":"_qs + OperatorCommand::jsonString(audit.where())
                + u'}';
        else
            line += u"; audited in "_qs + Cli::printable(audit.where());
    }
    Cli::printLine(line);
    return Cli::Ok;
}
