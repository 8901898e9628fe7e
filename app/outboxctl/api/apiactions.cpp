#include "apiactions.h"

#include "actionplan.h"
#include "apireads.h"
#include "apireply.h"
#include "notesaccess.h"
#include "operatorcommand.h"
#include "replayer.h"
#include "statechangecommand.h"

#include <QJsonArray>

namespace {

HttpResponse planned(const QJsonObject &plan)
{
    return ApiReply::json(200, {{u"plan"_qs, plan}});
}

// The plan that was run says so ("dry_run": false); its other keys are the dry run's.
HttpResponse outcome(QJsonObject plan, const QJsonObject &done, const QString &error)
{
    plan.insert(u"dry_run"_qs, false);
    return ApiReply::json(
        error.isEmpty() ? 200 : 500, {{u"plan"_qs, plan}, {u"outcome"_qs, done}});
}

// What refuses a replay before its plan (CLI: runReplay's refusals, in its order).
QString replayRefusal(
    const Cli::Outbox &outbox, const Replayer &replayer, const ReplayRequest &request, bool dryRun)
{
    if (const QString refusal = replayer.refusal(request); !refusal.isEmpty())
        return u"replay: "_qs + refusal;
    const QString grants = Cli::grantsRefusal(outbox, TableGrants::Operation::Replay, u"replay"_qs);
    if (!grants.isEmpty())
        return grants;
    const QString unaudited = dryRun ? QString() : replayer.auditRefusal();
    return unaudited.isEmpty() ? QString() : u"replay: "_qs + unaudited;
}

HttpResponse planFailed(const QString &error)
{
    const bool noGroup = error.startsWith(u"no DEAD event has the error signature"_qs);
    return ApiReply::error(noGroup ? 404 : 500, u"replay: "_qs + error);
}

QJsonObject replayOutcome(const ReplayResult &result, const QStringList &onHold)
{
    const OperatorOutcome outcome {result.replayed, result.skipped, result.error, result.total,
        result.cancelled, result.unknown};
    QJsonObject json = ApiReply::parsed(replayCommand().outcomeJson(outcome, onHold, result.error));
    if (!result.notReleased.isEmpty())
        json.insert(u"not_released"_qs, QJsonArray::fromStringList(result.notReleased));
    return json;
}

HttpResponse replay(const Cli::Outbox &outbox, const ReplaySelection &selection,
    const ApiActionBody &body, const QString &user, qint64 now)
{
    ReplayRequest request;
    request.operatorName = user;
    request.reason = body.reason;
    request.now = now;
    request.resetBudget = body.resetBudget;
    Replayer replayer(outbox.database(), outbox.profile);
    const bool audited = outbox.profile.replayKind() == OutboxProfile::ReplayKind::Statement;
    const ProfileAudit audit
        = audited ? NotesAccess::audit(outbox.database(), outbox.profile) : ProfileAudit();
    replayer.setAudit(audit);
    if (const QString refused = replayRefusal(outbox, replayer, request, body.dryRun);
        !refused.isEmpty())
        return ApiReply::error(409, refused);
    QString error;
    const auto plan
        = ActionPlanner(outbox.database(), &outbox.profile).planReplay(selection, request, &error);
    if (!plan)
        return planFailed(error);
    QJsonObject planJson = plan->toJson();
    if (audited)
        planJson.insert(u"audit"_qs, audit.where());
    if (body.dryRun)
        return planned(planJson);
    // The plan's targets, each still guarded (one taken meanwhile by someone else is skipped).
    const ReplayResult result = ActionPlanner::withPlanSkips(
        *plan, replayer.replay(ActionPlanner::execution(*plan, request)));
    return outcome(planJson, replayOutcome(result, plan->leftOutIds(PlanLeftOut::Reason::OnHold)),
        result.error);
}

// Resolve or reopen one event (CLI: runStateChange, from its refusals on).
HttpResponse stateChange(const Cli::Outbox &outbox, const StateChangeCommand &spec,
    const QString &eventId, const ApiActionBody &body, const QString &user, qint64 now)
{
    const QString verb = spec.command.command;
    StateChange change(*spec.change, outbox.database(), outbox.profile);
    if (const QString refusal = change.refusal(); !refusal.isEmpty())
        return ApiReply::error(409, verb + u": "_qs + refusal);
    if (const QString refusal = Cli::grantsRefusal(outbox, spec.grants, verb); !refusal.isEmpty())
        return ApiReply::error(409, refusal);
    if (auto unknown = ApiReads::unknownEvent(outbox, eventId))
        return *unknown;
    QString error;
    const auto plan = ActionPlanner(outbox.database(), &outbox.profile)
                          .planStateChange(*spec.change, spec.grants, {eventId}, now, &error);
    if (!plan)
        return ApiReply::error(500, QStringLiteral("%1: reading: %2").arg(verb, error));
    QJsonObject planJson = plan->toJson();
    planJson.insert(u"would_"_qs + verb, QJsonArray::fromStringList(plan->targets));
    if (body.dryRun)
        return planned(planJson);
    const OperatorRequest job {plan->targets, user, body.reason, now};
    const OperatorOutcome done = ActionPlanner::withPlanSkips(*plan, {eventId}, change.run(job));
    return outcome(planJson,
        ApiReply::parsed(OperatorCommand(spec.command).outcomeJson(done, {}, done.error)),
        done.error);
}

} // namespace

namespace ApiActions {

HttpResponse onEvent(const Cli::Outbox &outbox, const ApiRoute &route, const ApiActionBody &body,
    const QString &user, qint64 now)
{
    if (route.action == u"resolve"_qs)
        return stateChange(outbox, resolveCommand(), route.eventId, body, user, now);
    if (route.action == u"reopen"_qs)
        return stateChange(outbox, reopenCommand(), route.eventId, body, user, now);
    if (auto unknown = ApiReads::unknownEvent(outbox, route.eventId))
        return *unknown;
    ReplaySelection selection;
    selection.eventIds = {route.eventId};
    return replay(outbox, selection, body, user, now);
}

HttpResponse bulkReplay(
    const Cli::Outbox &outbox, const ApiActionBody &body, const QString &user, qint64 now)
{
    ReplaySelection selection;
    selection.bulkFilter = body.filter;
    selection.errorGroup = body.errorGroup;
    selection.includeOnHold = body.includeOnHold;
    return replay(outbox, selection, body, user, now);
}

} // namespace ApiActions
