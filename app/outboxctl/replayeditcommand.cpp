// outboxctl replay --db URL --event ID --edit FILE --operator NAME --reason TEXT
// [--reveal-redacted] [--reset-budget] [--now MS] [--dry-run] [--json]: edit and replay. FILE
// (`-`: standard input) holds the event's new payload as JSON, at most 1 MiB; a FIFO, a device
// or a larger file is refused before it is read. The event keeps its event ID; its payload
// before the edit is kept in payload_revision and the event is replayed as `replay` does
// (PayloadEditor). A redacted key whose value is still "***" keeps its stored value; changing a
// redacted value needs --reveal-redacted (recorded). Planned as the window plans it
// (ActionPlanner::planEdit: refused, the event left out when not DEAD, else edited); --dry-run
// prints the diff (with --json the plan's keys too) and changes nothing. Exit codes as replay's: 0
// when edited, and when the event was not DEAD (any more: skipped, nothing written); 2 on any
// refusal or error. Refused on a schema older than version 3, through a profile for another schema,
// and when the role may not write what it writes.
#include "actionplan.h"
#include "boundedfile.h"
#include "cli.h"
#include "operatorcommand.h"
#include "payloaddiff.h"
#include "payloadeditor.h"
#include "redaction.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace {

constexpr auto MaxBytes = PayloadEditor::MaxPayloadBytes;

// The new payload from FILE or standard input ("-"), bounded.
std::optional<QString> readPayload(const QString &path, QString *error)
{
    if (path != QLatin1String("-")) {
        const std::optional<QByteArray> bytes
            = BoundedFile::read(path, MaxBytes, u"payload file"_qs, error);
        return bytes ? std::optional<QString>(QString::fromUtf8(*bytes)) : std::nullopt;
    }
    QFile in;
    if (!in.open(stdin, QIODevice::ReadOnly)) {
        *error = u"cannot read the payload from standard input: "_qs + in.errorString();
        return std::nullopt;
    }
    const QByteArray bytes = in.read(MaxBytes + 1);
    if (bytes.size() > MaxBytes) {
        *error = u"the payload on standard input is larger than "_qs
            + BoundedFile::limitText(MaxBytes);
        return std::nullopt;
    }
    return QString::fromUtf8(bytes);
}

bool readRequest(const QCommandLineParser &parser, const OperatorCommand &command,
    PayloadEditRequest *request, QString *error)
{
    const QStringList events = parser.values(u"event"_qs);
    if (events.size() != 1 || parser.isSet(u"all-dead"_qs) || parser.isSet(u"error-group"_qs)) {
        *error = u"--edit takes exactly one --event ID: an edit is one event's payload"_qs;
        return false;
    }
    if (Cli::isDurationSet(parser, u"spread"_qs)) {
        *error = u"--spread has no meaning with --edit: the edited event is due at once"_qs;
        return false;
    }
    request->eventId = events.constFirst();
    const bool dryRun = parser.isSet(u"dry-run"_qs);
    OperatorRequest who;
    if (!dryRun && !command.readOperator(parser, &who, error))
        return false;
    request->operatorName = who.operatorName;
    request->reason = who.reason;
    if (!Cli::readNow(parser, &request->now, error))
        return false;
    const std::optional<QString> payload = readPayload(parser.value(u"edit"_qs), error);
    if (!payload)
        return false;
    request->newPayload = *payload;
    request->revealed = parser.isSet(u"reveal-redacted"_qs);
    request->resetBudget = parser.isSet(u"reset-budget"_qs);
    request->sensitiveKeys = Redaction::dashboardSensitiveKeys();
    return true;
}

// `out` with the plan's keys (action, count, matching, targets, left_out, refusal) added when
// there is a plan (a dry run), as one compact line.
QString withPlan(QJsonObject out, const ActionPlan *plan)
{
    if (plan) {
        const QJsonObject keys = plan->toJson();
        for (auto it = keys.begin(); it != keys.end(); ++it) {
            if (!out.contains(it.key()))
                out.insert(it.key(), it.value());
        }
    }
    return QString::fromUtf8(QJsonDocument(out).toJson(QJsonDocument::Compact));
}

QString jsonOf(
    const PayloadEditRequest &request, const PayloadEditResult &result, const ActionPlan *plan)
{
    const bool dryRun = plan != nullptr;
    QJsonObject out;
    out.insert(dryRun ? u"would_replay"_qs : u"replayed"_qs,
        QJsonArray::fromStringList({request.eventId}));
    out.insert(u"skipped"_qs, QJsonArray());
    out.insert(u"revision"_qs, result.revisionNo);
    out.insert(u"diff"_qs, QJsonArray::fromStringList(result.diff));
    return withPlan(out, plan);
}

QString textOf(const PayloadEditRequest &request, const PayloadEditResult &result, bool dryRun)
{
    QString text = dryRun
        ? QStringLiteral("dry run, nothing changed: would edit %1 (revision %2: %3) and replay it")
        : QStringLiteral("edited %1 (revision %2: %3) and replayed it");
    text = text.arg(Cli::printable(request.eventId))
               .arg(result.revisionNo)
               .arg(PayloadDiff::summary(result.diff));
    for (const QString &line : result.diff)
        text += u"\n  "_qs + Cli::printable(line);
    return text;
}

QString skipJson(const OperatorCommand &command, const QString &eventId, const ActionPlan *plan)
{
    const QString line = command.outcomeLine({}, {eventId}, true);
    return withPlan(QJsonDocument::fromJson(line.toUtf8()).object(), plan);
}

// The plan has no target (the event is not DEAD any more): a skip as replay's, exit 0, nothing
// written, saying why.
int printSkip(const OperatorCommand &command, const ActionPlan &plan, bool dryRun, bool json)
{
    const PlanLeftOut &left = plan.leftOut.constFirst();
    Cli::printLine(json ? skipJson(command, left.eventId, dryRun ? &plan : nullptr)
                        : QStringLiteral("replayed 0 events; skipped 1: %1 (%2): nothing edited")
                              .arg(Cli::printable(left.eventId), left.why));
    return Cli::Ok;
}

} // namespace

// Called by runReplay when --edit is set, its options already parsed.
int runReplayEdit(const QCommandLineParser &parser, const OperatorCommand &command)
{
    PayloadEditRequest request;
    QString error;
    if (!Cli::requireDatabase(parser, &error) || !readRequest(parser, command, &request, &error))
        return Cli::fail(u"replay: "_qs + error);
    const bool dryRun = parser.isSet(u"dry-run"_qs);
    const bool json = parser.isSet(u"json"_qs);
    const auto outbox = Cli::openOutbox(parser, Cli::outboxOptions(dryRun), &error);
    if (!outbox)
        return command.fail(error, json);
    const auto plan = ActionPlanner(outbox->database(), &outbox->profile)
                          .planEdit(request.eventId, request.now, &error);
    if (!plan)
        return command.fail(u"replay: "_qs + error, json);
    if (!plan->refusal.isEmpty())
        return command.fail(u"replay: "_qs + plan->refusal, json);
    OperatorCommand::Selection selection;
    selection.eventIds = {request.eventId};
    if (const int refused = command.refuseUnknown(*outbox, selection, json))
        return refused;
    if (plan->targets.isEmpty())
        return printSkip(command, *plan, dryRun, json);
    PayloadEditor editor(outbox->database(), outbox->profile);
    const PayloadEditResult result = dryRun ? editor.preview(request) : editor.edit(request);
    switch (result.outcome) {
    case PayloadEditResult::Outcome::Replayed:
        Cli::printLine(json ? jsonOf(request, result, dryRun ? &*plan : nullptr)
                            : textOf(request, result, dryRun));
        return Cli::Ok;
    case PayloadEditResult::Outcome::Conflict: // as replay's skip: nothing written, exit 0
        Cli::printLine(json ? skipJson(command, request.eventId, dryRun ? &*plan : nullptr)
                            : u"replayed 0 events; skipped 1: "_qs + Cli::printable(result.error));
        return Cli::Ok;
    case PayloadEditResult::Outcome::Unknown: {
        OperatorOutcome unknown;
        unknown.total = 1;
        unknown.unknown = {request.eventId};
        unknown.error = QStringLiteral("editing %1: %2").arg(request.eventId, result.error);
        return command.failOutcome(*outbox, unknown, json);
    }
    case PayloadEditResult::Outcome::Refused:
    case PayloadEditResult::Outcome::Failed:
        break;
    }
    return command.fail(u"replay: "_qs + result.error, json);
}
