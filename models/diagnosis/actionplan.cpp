#include "actionplan.h"

#include "errorgroups.h"
#include "notesaccess.h"
#include "numbertext.h"
#include "operatorjob.h"
#include "payloadeditor.h"
#include "queryerror.h"
#include "readonlytransaction.h"
#include "replayer.h"
#include "tablegrants.h"

#include <QJsonArray>
#include <QSet>
#include <QSqlQuery>

namespace {

// At most this many IDs named in a left-out line; the rest counted.
constexpr qsizetype LineIds = 5;

QString idsText(const QList<PlanLeftOut> &items)
{
    QStringList parts;
    for (qsizetype i = 0; i < items.size() && i < LineIds; ++i)
        parts << QStringLiteral("%1 (%2)").arg(items.at(i).eventId, items.at(i).why);
    if (items.size() > LineIds)
        parts << QStringLiteral("%1 more").arg(items.size() - LineIds);
    return parts.join(u", "_qs);
}

} // namespace

QString PlanLeftOut::key(Reason reason)
{
    switch (reason) {
    case Reason::OnHold:
        return u"on-hold"_qs;
    case Reason::NotInState:
        return u"not-in-state"_qs;
    case Reason::NotFound:
        return u"not-found"_qs;
    case Reason::Refused:
        return u"refused"_qs;
    }
    return {};
}

QStringList ActionPlan::leftOutIds(PlanLeftOut::Reason reason) const
{
    QStringList ids;
    for (const PlanLeftOut &item : leftOut) {
        if (item.reason == reason)
            ids << item.eventId;
    }
    return ids;
}

QStringList ActionPlan::skippedIds() const
{
    return leftOutIds(PlanLeftOut::Reason::NotInState) + leftOutIds(PlanLeftOut::Reason::NotFound);
}

QStringList ActionPlan::leftOutLines() const
{
    QList<PlanLeftOut> onHold, gone, refused;
    for (const PlanLeftOut &item : leftOut) {
        (item.reason == PlanLeftOut::Reason::OnHold           ? onHold
                : item.reason == PlanLeftOut::Reason::Refused ? refused
                                                              : gone)
            << item;
    }
    QStringList lines;
    if (!refused.isEmpty())
        lines << QStringLiteral("Left out %1, refused: %2")
                     .arg(NumberText::counted(refused.size(), u"event"_qs, u"events"_qs), refusal);
    if (!onHold.isEmpty())
        lines << QStringLiteral("Left out %1 on hold (an operator's marker on the event or its "
                                "error group)")
                     .arg(NumberText::counted(onHold.size(), u"event"_qs, u"events"_qs));
    if (!gone.isEmpty())
        lines << QStringLiteral("Left out %1 no longer %2 or not found: %3")
                     .arg(NumberText::counted(gone.size(), u"event"_qs, u"events"_qs), from,
                         idsText(gone));
    return lines;
}

QJsonObject ActionPlan::toJson() const
{
    QJsonObject json
        = action == u"replay"_qs ? replay.toJson() : QJsonObject {{u"dry_run"_qs, true}};
    QJsonArray left;
    for (const PlanLeftOut &item : leftOut)
        left.append(QJsonObject {{u"event_id"_qs, item.eventId},
            {u"reason"_qs, PlanLeftOut::key(item.reason)}, {u"why"_qs, item.why}});
    const QStringList onHold = leftOutIds(PlanLeftOut::Reason::OnHold);
    if (!onHold.isEmpty())
        json.insert(u"on_hold"_qs, QJsonArray::fromStringList(onHold));
    json.insert(u"action"_qs, action);
    json.insert(u"count"_qs, count());
    json.insert(u"matching"_qs, matching);
    json.insert(u"targets"_qs, QJsonArray::fromStringList(targets));
    json.insert(u"left_out"_qs, left);
    json.insert(u"refusal"_qs, refusal.isEmpty() ? QJsonValue() : QJsonValue(refusal));
    return json;
}

ActionPlanner::ActionPlanner(const QSqlDatabase &db, const OutboxProfile *profile)
    : m_db(db)
    , m_profile(profile && !profile->isNative() ? profile : nullptr)
{ }

std::optional<QStringList> ActionPlanner::select(
    const ReplaySelection &selection, qint64 now, QString *error)
{
    if (!selection.isBulk())
        return OperatorJob::distinct(selection.eventIds);
    Replayer replayer = m_profile ? Replayer(m_db, *m_profile) : Replayer(m_db);
    QStringList ids;
    if (selection.bulkFilter) {
        error->clear();
        ids = replayer.matchingDeadEvents(*selection.bulkFilter, now, error);
        if (!error->isEmpty())
            return std::nullopt;
    }
    if (selection.errorGroup.isEmpty())
        return ids;
    const auto group = ErrorGroups::deadEventIds(m_db, m_profile, selection.errorGroup, error);
    if (!group)
        return std::nullopt;
    if (group->isEmpty()) {
        *error = QStringLiteral("no DEAD event has the error signature '%1'")
                     .arg(selection.errorGroup);
        return std::nullopt;
    }
    if (!selection.bulkFilter)
        return *group;
    const QSet<QString> matched(ids.cbegin(), ids.cend());
    ids.clear();
    for (const QString &id : *group) {
        if (matched.contains(id))
            ids << id;
    }
    return ids;
}

// The profile's refusal (a read-only profile, a spread it cannot make), then the grants'.
QString ActionPlanner::replayRefusal(const ReplayRequest &request) const
{
    const Replayer replayer = m_profile ? Replayer(m_db, *m_profile) : Replayer(m_db);
    QString refusal = replayer.refusal(request);
    if (refusal.isEmpty() && !m_profile) {
        const auto operation = TableGrants::Operation::Replay;
        refusal = TableGrants::read(m_db, TableGrants::needs(operation)).refusal(operation);
    }
    return refusal;
}

std::optional<ActionPlan> ActionPlanner::planReplay(
    const ReplaySelection &selection, const ReplayRequest &request, QString *error)
{
    ActionPlan plan;
    plan.action = u"replay"_qs;
    plan.now = request.now;
    const auto selected = select(selection, request.now, error);
    if (!selected)
        return std::nullopt;
    QStringList ids = *selected;
    plan.matching = ids.size();
    plan.refusal = replayRefusal(request);
    if (!plan.refusal.isEmpty()) {
        for (const QString &id : std::as_const(ids))
            plan.leftOut.append({id, PlanLeftOut::Reason::Refused, plan.refusal});
        plan.replay.now = request.now;
        return plan;
    }
    if (selection.isBulk() && !selection.includeOnHold) {
        const auto held = NotesAccess::open(m_db, m_profile).leaveOutOnHold(&ids, error);
        if (!held)
            return std::nullopt;
        for (const QString &id : *held)
            plan.leftOut.append({id, PlanLeftOut::Reason::OnHold, u"on hold"_qs});
    }
    ReplayRequest considered = request;
    considered.eventIds = ids;
    const auto preview = ReplayPreview::compute(m_db, m_profile, considered, error);
    if (!preview)
        return std::nullopt;
    plan.replay = *preview;
    QSet<QString> skipped;
    for (const ReplaySkip &skip : preview->skipped) {
        skipped.insert(skip.eventId);
        const bool found = skip.reason != QLatin1String("not found");
        plan.leftOut.append({skip.eventId,
            found ? PlanLeftOut::Reason::NotInState : PlanLeftOut::Reason::NotFound, skip.reason});
    }
    for (const QString &id : std::as_const(ids)) {
        if (!skipped.contains(id))
            plan.targets << id;
    }
    plan.replay.onHold = plan.leftOutIds(PlanLeftOut::Reason::OnHold);
    return plan;
}

ReplayRequest ActionPlanner::execution(const ActionPlan &plan, const ReplayRequest &request)
{
    ReplayRequest job = request;
    job.eventIds = plan.targets;
    return job;
}

ReplayResult ActionPlanner::withPlanSkips(const ActionPlan &plan, ReplayResult result)
{
    const QStringList planned = plan.skippedIds();
    result.skipped = planned + result.skipped;
    result.total += planned.size();
    return result;
}

// Each event's state now, in one read-only transaction: in `from` (a target), another state, or
// not found.
std::optional<ActionPlan> ActionPlanner::planStateChange(const StateChange::Spec &change,
    TableGrants::Operation grants, const QStringList &eventIds, qint64 now, QString *error)
{
    ActionPlan plan;
    plan.action = change.verb;
    plan.from = change.from;
    plan.now = now;
    const QStringList ids = OperatorJob::distinct(eventIds);
    plan.matching = ids.size();
    std::optional<OutboxProfile> profile;
    if (m_profile)
        profile = *m_profile;
    // A plan records nothing: the audit store is the run's to check (StateChange::run).
    plan.refusal = StateChange(change, m_db, profile).refusal(false);
    if (plan.refusal.isEmpty() && !m_profile)
        plan.refusal = TableGrants::read(m_db, TableGrants::needs(grants)).refusal(grants);
    if (!plan.refusal.isEmpty()) {
        for (const QString &id : ids)
            plan.leftOut.append({id, PlanLeftOut::Reason::Refused, plan.refusal});
        return plan;
    }
    if (!classify(&plan, ids, error))
        return std::nullopt;
    return plan;
}

bool ActionPlanner::classify(ActionPlan *plan, const QStringList &ids, QString *error)
{
    ReadOnlyTransaction transaction(m_db);
    QSqlQuery *query = transaction.prepare(QStringLiteral("SELECT status FROM ")
        + OutboxProfile::sourceOf(m_profile, m_db) + QStringLiteral(" WHERE event_id = :id"));
    if (!query) {
        *error = transaction.errorText();
        return false;
    }
    for (const QString &id : ids) {
        query->bindValue(QStringLiteral(":id"), id);
        if (!query->exec()) {
            *error = QueryError::text(*query);
            return false;
        }
        const QString status = query->next() ? query->value(0).toString() : QString();
        query->finish();
        if (status == plan->from)
            plan->targets << id;
        else if (status.isEmpty())
            plan->leftOut.append({id, PlanLeftOut::Reason::NotFound, u"not found"_qs});
        else
            plan->leftOut.append({id, PlanLeftOut::Reason::NotInState,
                QStringLiteral("not %1: it is %2").arg(plan->from, status)});
    }
    return true;
}

std::optional<ActionPlan> ActionPlanner::planEdit(
    const QString &eventId, qint64 now, QString *error)
{
    ActionPlan plan;
    plan.action = u"edit-and-replay"_qs;
    plan.now = now;
    plan.matching = 1;
    std::optional<OutboxProfile> profile;
    if (m_profile)
        profile = *m_profile;
    plan.refusal = PayloadEditor(m_db, profile).refusal();
    const auto grants = TableGrants::Operation::Edit;
    if (plan.refusal.isEmpty() && !m_profile)
        plan.refusal = TableGrants::read(m_db, TableGrants::needs(grants)).refusal(grants);
    if (!plan.refusal.isEmpty()) {
        plan.leftOut.append({eventId, PlanLeftOut::Reason::Refused, plan.refusal});
        return plan;
    }
    if (!classify(&plan, {eventId}, error))
        return std::nullopt;
    return plan;
}

OperatorOutcome ActionPlanner::withPlanSkips(
    const ActionPlan &plan, const QStringList &selection, OperatorOutcome outcome)
{
    QSet<QString> skipped(outcome.skipped.cbegin(), outcome.skipped.cend());
    for (const QString &id : plan.skippedIds())
        skipped.insert(id);
    outcome.skipped.clear();
    const QStringList ids = OperatorJob::distinct(selection);
    for (const QString &id : ids) {
        if (skipped.contains(id))
            outcome.skipped << id;
    }
    outcome.total = ids.size();
    return outcome;
}
