// outboxctl replay --db URL (--event ID ... | --all-dead | --error-group SIGNATURE)
// [--older-than DURATION] [--error-category C] [--payload-contains TEXT] --operator NAME
// --reason TEXT [--reset-budget]
// [--spread DURATION] [--now MS] [--dry-run] [--json]: releases parked (DEAD) events for another
// delivery under the same event ID, each in its own transaction with a replay_log row.
// --error-group takes the DEAD events whose last error has that signature (outboxctl errors);
// --payload-contains narrows to those whose payload contains a JSON fragment or a text.
// --dry-run changes nothing and prints the plan (ActionPlan: what would be replayed, what is left
// out and why, the spread); the real run executes that plan's targets. A dry run needs no
// operator or reason. Exit 0 even when some were skipped (someone else replayed them first,
// or they are not DEAD); 2 on any error, also on an --event ID that names no event (nothing is
// replayed then; with --json the JSON names it).
// --all-dead and --error-group leave out the events an on-hold note marker covers (on the event
// or its error group) and say how many, unless --include-on-hold.
// --profile NAME|PATH (default: detected) replays another schema's rows with the profile's
// fenced statement (no replay_log, no --reset-budget or --spread), audited in the audit store
// (--notes-db; refused without one, a dry run excepted), or refuses with what to run instead
// when the profile is read-only.
// --edit FILE (with one --event) edits the event's payload and replays it: replayeditcommand.cpp.
#include "actionplan.h"
#include "cli.h"
#include "notesaccess.h"
#include "numbertext.h"
#include "operatorcommand.h"
#include "replayer.h"
#include "timeformat.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

int runReplayEdit(const QCommandLineParser &parser, const OperatorCommand &command);

const OperatorCommand &replayCommand()
{
    static const OperatorCommand command({u"replay"_qs, u"replayed"_qs,
        u"already replayed by someone else, or not DEAD"_qs, Replayer::words(), true, true});
    return command;
}

namespace {

constexpr qint64 MaxSpreadMs = 7LL * 24 * 3600 * 1000; // a week

struct ReplayOptions
{
    OperatorCommand::Selection selection;
    bool dryRun = false;
    ReplayRequest request;
    bool json = false;
    bool includeOnHold = false;
};

const OperatorCommand &command()
{
    return replayCommand();
}

void addReplayOptions(QCommandLineParser &parser)
{
    Cli::addDatabaseOptions(parser);
    Cli::addNotesDbOption(parser);
    command().addSelectionOptions(parser);
    parser.addOption(
        {u"operator"_qs, u"Who releases the events (recorded in replay_log)."_qs, u"NAME"_qs});
    parser.addOption({u"reason"_qs, u"Why (recorded in replay_log)."_qs, u"TEXT"_qs});
    parser.addOption(
        {u"reset-budget"_qs, u"Reset failures to 0 (default: keep them, one more attempt)."_qs});
    Cli::addDurationOption(parser, u"spread"_qs,
        u"Spread the due times evenly over this window (default 0: all due now)."_qs);
    parser.addOption({u"include-on-hold"_qs,
        u"With --all-dead or --error-group: replay the events an on-hold marker covers too "
        "(default: left out, and counted)."_qs});
    Cli::addNowOption(parser, u"The replay time"_qs);
    parser.addOption({u"dry-run"_qs,
        u"Change nothing: show how many events, by type and error group, which would be "
        "skipped and why, and when they would become due."_qs});
    Cli::addJsonOption(parser, u"Print {\"replayed\":[...],\"skipped\":[...]}."_qs);
    parser.addOption({u"edit"_qs,
        u"With one --event: replace its payload with the JSON in FILE (- for standard input, at "
        "most 1 MiB) and replay it under the same event ID; the payload before the edit is kept "
        "in payload_revision. A redacted key left as \"***\" keeps its value."_qs,
        u"FILE"_qs});
    parser.addOption({u"reveal-redacted"_qs,
        u"With --edit: the redacted values may change (recorded in payload_revision)."_qs});
}

bool readOptions(const QCommandLineParser &parser, ReplayOptions *options, QString *error)
{
    options->dryRun = parser.isSet(u"dry-run"_qs);
    if (!Cli::requireDatabase(parser, error)
        || !command().readSelection(parser, &options->selection, error))
        return false;
    // A dry run records nothing, so it needs no operator or reason.
    if (!options->dryRun && !command().readOperator(parser, &options->request, error))
        return false;
    if (!Cli::readDuration(parser, u"spread"_qs, 0, MaxSpreadMs, &options->request.spreadMs, error)
        || !Cli::readNow(parser, &options->request.now, error))
        return false;
    options->request.resetBudget = parser.isSet(u"reset-budget"_qs);
    options->json = parser.isSet(u"json"_qs);
    options->includeOnHold = parser.isSet(u"include-on-hold"_qs);
    if (options->includeOnHold && !options->selection.isBulk()) {
        *error = u"--include-on-hold is for --all-dead or --error-group; an --event is "
                 "replayed whatever its marker"_qs;
        return false;
    }
    return true;
}

QString countsText(const QMap<QString, qint64> &counts)
{
    QStringList parts;
    for (auto it = counts.cbegin(); it != counts.cend(); ++it)
        parts << QStringLiteral("%1 %2").arg(
            Cli::printable(it.key()), NumberText::count(it.value()));
    return parts.isEmpty() ? u"none"_qs : parts.join(u", "_qs);
}

// "1 min 10 s", "1 min" (not "1 min 0 s"), or "60 units" on a simulation's logical clock.
QString spreadText(qint64 spreadMs, qint64 now)
{
    if (TimeFormat::isLogical(now))
        return QStringLiteral("%1 units").arg(spreadMs);
    static const QRegularExpression noSmallerUnit(QStringLiteral(" 0 (d|h|min|s)$"));
    return TimeFormat::ageInTwoUnits(spreadMs).remove(noSmallerUnit);
}

// `byStatement`: through a profile, whose replay statement decides the budget (River's adds an
// attempt only to a job that spent its own).
QString previewText(const ReplayPreview &preview, bool byStatement)
{
    const QString how = byStatement ? u" with the profile's replay statement"_qs
        : preview.resetBudget       ? u" with a fresh budget"_qs
                                    : u" with one more attempt each"_qs;
    QString text = QStringLiteral("dry run, nothing changed: would replay %1 event%2%3\n")
                       .arg(NumberText::count(preview.events))
                       .arg(preview.events == 1 ? QString() : u"s"_qs)
                       .arg(how);
    text += u"  by type: "_qs + countsText(preview.byType) + u"\n"_qs;
    text += u"  by error group: "_qs + countsText(preview.byErrorGroup) + u"\n"_qs;
    if (preview.firstDue && preview.spreadMs > 0)
        text += QStringLiteral("  due: from %1 to %2 (spread over %3)\n")
                    .arg(Cli::timeText(*preview.firstDue), Cli::timeText(*preview.lastDue),
                        spreadText(preview.spreadMs, preview.now));
    else if (preview.firstDue)
        text += QStringLiteral("  due: all at %1 (no spread)\n")
                    .arg(Cli::timeText(*preview.firstDue));
    QStringList skips;
    for (const ReplaySkip &skip : preview.skipped)
        skips << QStringLiteral("%1 (%2)").arg(Cli::printable(skip.eventId), skip.reason);
    if (!skips.isEmpty())
        text += QStringLiteral("  would skip %1: %2\n")
                    .arg(NumberText::count(skips.size()), skips.join(u", "_qs));
    if (!preview.warning.isEmpty())
        text += u"  warning: "_qs + Cli::printable(preview.warning) + u"\n"_qs;
    return text.trimmed();
}

// The library's selection for the command line's: the --event IDs, or --all-dead (narrowed)
// and/or --error-group, with --include-on-hold.
ReplaySelection planSelection(const ReplayOptions &options)
{
    const OperatorCommand::Selection &chosen = options.selection;
    ReplaySelection selection;
    selection.eventIds = chosen.eventIds;
    if (chosen.allDead || chosen.narrowed)
        selection.bulkFilter = chosen.filter;
    selection.errorGroup = chosen.errorGroup;
    selection.includeOnHold = options.includeOnHold;
    return selection;
}

// The plan (ActionPlanner), as the window's replay dialog gets it.
std::optional<ActionPlan> plan(const Cli::Outbox &outbox, const ReplayOptions &options)
{
    QString error;
    const auto planned = ActionPlanner(outbox.database(), &outbox.profile)
                             .planReplay(planSelection(options), options.request, &error);
    if (planned)
        return planned;
    if (error.startsWith(u"no DEAD event has the error signature"_qs))
        error += u" (outboxctl errors lists them)"_qs;
    command().fail(u"replay: "_qs + error, options.json);
    return std::nullopt;
}

// Through a profile: where the replay's audit goes, or why the real run would be refused.
QString auditLine(const Replayer &replayer, const ProfileAudit &audit)
{
    const QString refused = replayer.auditRefusal();
    return refused.isEmpty() ? audit.where() : u"the replay would be refused: "_qs + refused;
}

// --dry-run: the plan, changing nothing; `audit`: auditLine() through a profile.
int printPlan(const ActionPlan &plan, const ReplayOptions &options, const QString &audit)
{
    QString text = previewText(plan.replay, !audit.isEmpty());
    if (!audit.isEmpty())
        text += u"\n  audit: "_qs + audit;
    const QStringList onHold = plan.leftOutIds(PlanLeftOut::Reason::OnHold);
    if (!onHold.isEmpty())
        text += QStringLiteral("\n  left out %1 on hold (--include-on-hold replays them)")
                    .arg(NumberText::count(onHold.size()));
    if (!plan.leftOut.isEmpty())
        text += QStringLiteral("\n  plan: %1 of %2 selected event%3, %4 left out")
                    .arg(NumberText::count(plan.count()))
                    .arg(NumberText::count(plan.matching))
                    .arg(OperatorCommand::plural(plan.matching))
                    .arg(NumberText::count(plan.leftOut.size()));
    QJsonObject json = plan.toJson();
    if (!audit.isEmpty())
        json.insert(u"audit"_qs, audit);
    Cli::printLine(options.json
            ? QString::fromUtf8(QJsonDocument(json).toJson(QJsonDocument::Compact))
            : text);
    return Cli::Ok;
}

// The outcome line; through a profile with where its audit went ("audit" in the JSON) and the
// events its statement did not release ("not_released").
QString resultLine(const ReplayResult &result, const ReplayOptions &options,
    const QStringList &onHold, const QString &audit)
{
    QString line = command().outcomeLine(result.replayed, result.skipped, options.json, onHold);
    if (options.json) {
        line.chop(1);
        if (!result.notReleased.isEmpty())
            line += u",\"not_released\":"_qs + OperatorCommand::jsonArray(result.notReleased);
        if (!audit.isEmpty())
            line += u",\"audit\":"_qs + OperatorCommand::jsonString(audit);
        return line + u'}';
    }
    if (!result.notReleased.isEmpty())
        line += QStringLiteral("; not released by the profile's replay statement %1 (still DEAD "
                               "after it ran: its WHERE leaves their state out): %2")
                    .arg(NumberText::count(result.notReleased.size()),
                        Cli::printable(result.notReleased.join(u", "_qs)));
    if (!audit.isEmpty())
        line += u"; audited in "_qs + audit;
    return line;
}

} // namespace

int runReplay(const QStringList &arguments)
{
    QCommandLineParser parser;
    addReplayOptions(parser);
    int exitCode = Cli::Ok;
    if (!Cli::parse(parser, u"replay"_qs, arguments, &exitCode))
        return exitCode;
    if (parser.isSet(u"edit"_qs))
        return runReplayEdit(parser, command());
    if (parser.isSet(u"reveal-redacted"_qs))
        return Cli::fail(u"replay: --reveal-redacted needs --edit FILE"_qs);
    ReplayOptions options;
    QString error;
    if (!readOptions(parser, &options, &error) || !Cli::applyNotesDb(parser, &error))
        return Cli::fail(u"replay: "_qs + error);
    const auto outbox = Cli::openOutbox(parser, Cli::outboxOptions(options.dryRun), &error);
    if (!outbox)
        return command().fail(error, options.json);
    if (error = Cli::unusableNotesDb(parser, *outbox, u"replay"_qs); !error.isEmpty())
        return command().fail(error, options.json);
    Replayer replayer(outbox->database(), outbox->profile);
    const bool audited = outbox->profile.replayKind() == OutboxProfile::ReplayKind::Statement;
    const ProfileAudit audit
        = audited ? NotesAccess::audit(outbox->database(), outbox->profile) : ProfileAudit();
    replayer.setAudit(audit);
    // A dry run records nothing; a real one through a profile is refused unless audited (below,
    // after the refusals of the command line's own choices).
    const QString refusal = replayer.refusal(options.request);
    if (!refusal.isEmpty())
        return command().fail(u"replay: "_qs + refusal, options.json);
    error = Cli::grantsRefusal(*outbox, TableGrants::Operation::Replay, u"replay"_qs);
    if (!error.isEmpty())
        return command().fail(error, options.json);
    if (!options.selection.filter.payloadContains.isEmpty()) {
        if (error = Cli::payloadSearchRefusal(outbox->profile); !error.isEmpty())
            return command().fail(u"replay: "_qs + error, options.json);
    }
    if (const int refused = command().refuseUnknown(*outbox, options.selection, options.json))
        return refused;
    if (const QString unaudited = replayer.auditRefusal(); !options.dryRun && !unaudited.isEmpty())
        return command().fail(u"replay: "_qs + unaudited, options.json);
    const std::optional<ActionPlan> planned = plan(*outbox, options);
    if (!planned)
        return Cli::Error;
    const QString auditText = audited ? auditLine(replayer, audit) : QString();
    if (options.dryRun)
        return printPlan(*planned, options, auditText);
    // The plan's targets, each still guarded (one taken meanwhile by someone else is skipped).
    const ReplayResult result = ActionPlanner::withPlanSkips(
        *planned, replayer.replay(ActionPlanner::execution(*planned, options.request)));
    const QStringList onHold = planned->leftOutIds(PlanLeftOut::Reason::OnHold);
    if (!result.error.isEmpty())
        return command().failOutcome(*outbox,
            {result.replayed, result.skipped, result.error, result.total, result.cancelled,
                result.unknown},
            options.json, onHold);
    Cli::printLine(resultLine(result, options, onHold, auditText));
    return Cli::Ok;
}
