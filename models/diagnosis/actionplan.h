// One plan per operator action: what an action on a selection of events will do, computed once
// in the library and then shown and executed by every surface (the window's dialogs,
// `outboxctl ... --dry-run` and its real run). A plan holds the exact events that will be acted
// on, in order, what is left out of the selection and why (an on-hold marker on the event or on
// its error group, no longer in the state the action takes, not found, refused by the grants or
// by a profile without a statement for the action), the count, and for a replay its details
// (ReplayPreview: by type, by error group, the spread schedule, the PERMANENT warning). The
// on-hold rule is OperatorNotes::leaveOutOnHold's; a bulk selection (all matching a filter, an
// error group) leaves on-hold events out unless the operator opts in, events named one by one are
// taken whatever their marker. Executing a plan acts on its targets only, each still guarded
// by its own transaction (an event another operator took meanwhile is skipped then).
// Resolve (DEAD → RESOLVED) and reopen (RESOLVED → DEAD) are planned by planStateChange: the
// events named (a bulk selection already resolved to IDs), those still in the state the action
// takes as targets, the others left out as not in that state or not found. On-hold does not
// apply to them: an operator's "do not replay until the fix deploys" forbids a replay, not
// closing the events (resolve) or parking them again (reopen).
// Edit and replay is planned by planEdit with the same state rule: its one event a target while
// it is DEAD, else left out (not DEAD: it is PENDING, not found); PayloadEditor's refusal (a
// profile, a read-only connection, an old schema) or the grants' refuses it.
// Lives in the diagnosis layer because the on-hold rule and error groups live here. Call it
// on the thread that owns the connection; it returns values.
#pragma once

#include "eventfilter.h"
#include "outboxprofile.h"
#include "replaypreview.h"
#include "replaytypes.h"
#include "statechange.h"
#include "tablegrants.h"

#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QSqlDatabase>
#include <QStringList>
#include <optional>

// The events a replay would take: these IDs, or every DEAD event matching `bulkFilter`, or the
// DEAD events of the error group `errorGroup` (both set: those of the group the filter matches),
// found at the request's `now` as the replay will find them.
struct ReplaySelection
{
    QStringList eventIds;
    std::optional<EventFilter> bulkFilter;
    QString errorGroup {}; // a signature (Errors › Replay group…, `--error-group`)
    // A bulk selection leaves out the events an on-hold marker covers unless this is set
    // (OperatorNotes::leaveOutOnHold); a list of IDs is taken as it is.
    bool includeOnHold = false;

    bool isBulk() const { return bulkFilter.has_value() || !errorGroup.isEmpty(); }
};

// One event of the selection that the action will not touch, and why.
struct PlanLeftOut
{
    enum class Reason { OnHold, NotInState, NotFound, Refused };
    QString eventId;
    Reason reason = Reason::NotInState;
    QString why; // "on hold", "not DEAD: it is PENDING", "not found", the refusal

    // "on-hold", "not-in-state", "not-found", "refused": the JSON's "reason"
    static QString key(Reason reason);
};

struct ActionPlan
{
    QString action; // "replay", "resolve", "reopen", "edit-and-replay"
    QString from = QStringLiteral("DEAD"); // the state the action takes
    qint64 now = 0;
    qint64 matching = 0; // the distinct events the selection named or matched
    QStringList targets; // what will be acted on, in order, each once
    QList<PlanLeftOut> leftOut; // the rest of the selection, in its order
    QString refusal; // the whole action refused (grants, profile): no target then
    ReplayPreview replay; // a replay's details, its `events` the targets' count

    qsizetype count() const { return targets.size(); }
    QStringList leftOutIds(PlanLeftOut::Reason reason) const;
    // Left-out events that the job would also have skipped (no longer in the state, not found),
    // reported with its own skips.
    QStringList skippedIds() const;
    // One line per reason: "Left out 208 on hold (an operator's marker)", "Left out 1 not DEAD
    // any more: P-1 (it is PENDING)", ...; empty when nothing is left out.
    QStringList leftOutLines() const;
    // The replay preview's keys ("dry_run", "events", "by_type", ...; "on_hold" when some are;
    // only "dry_run" for another action) with "action", "count", "matching", "targets",
    // "left_out":[{"event_id","reason","why"}] and "refusal" (null when none).
    QJsonObject toJson() const;
};
Q_DECLARE_METATYPE(ActionPlan)

class ActionPlanner
{
public:
    ActionPlanner(const QSqlDatabase &db, const OutboxProfile *profile);

    // The plan of `request` (its operator and reason are not needed) on `selection`. Nothing
    // with *error set when a statement fails, or when an error group has no DEAD event.
    std::optional<ActionPlan> planReplay(
        const ReplaySelection &selection, const ReplayRequest &request, QString *error);

    // The plan of a resolve or reopen (`change`) of these events: those in change.from now, in
    // their order, each once; the rest left out (not in the state, not found). The change's
    // refusal (a profile, an old schema) or the grants' (`grants`) refuses the whole plan.
    // Nothing with *error set when the read fails.
    std::optional<ActionPlan> planStateChange(const StateChange::Spec &change,
        TableGrants::Operation grants, const QStringList &eventIds, qint64 now, QString *error);

    // The plan of an edit and replay of `eventId` (action "edit-and-replay"): the event a target
    // while it is DEAD, else left out as planStateChange leaves it out; refused by PayloadEditor's
    // refusal or the grants' (TableGrants::Operation::Edit). Nothing with *error set.
    std::optional<ActionPlan> planEdit(const QString &eventId, qint64 now, QString *error);

    // The IDs a selection names (a bulk one resolved as the replay resolves it), each once.
    std::optional<QStringList> select(const ReplaySelection &selection, qint64 now, QString *error);

    // The request with the plan's targets as its events: what every surface executes.
    static ReplayRequest execution(const ActionPlan &plan, const ReplayRequest &request);
    // The job's result with the plan's left-out skips (no longer DEAD, not found) added to its
    // own, so that a surface reports the whole selection.
    static ReplayResult withPlanSkips(const ActionPlan &plan, ReplayResult result);

    // A state change's outcome with the plan's left-out skips added to its own, in the order of
    // `selection` (what was asked for), and its total the selection's.
    static OperatorOutcome withPlanSkips(
        const ActionPlan &plan, const QStringList &selection, OperatorOutcome outcome);

private:
    // Each of `ids` a target while it is in plan->from, else left out (not in it, not found).
    bool classify(ActionPlan *plan, const QStringList &ids, QString *error);
    QString replayRefusal(const ReplayRequest &request) const;

    QSqlDatabase m_db;
    const OutboxProfile *m_profile = nullptr;
};
