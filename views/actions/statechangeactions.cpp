#include "statechangeactions.h"

#include "jobstatus.h"
#include "notesaccess.h"
#include "operatordialog.h"
#include "outboxcapabilities.h"
#include "plainmessage.h"
#include "schema.h"

#include <QAction>

StateChangeActions::StateChangeActions(Spec spec, const DatabaseUrl &url, QTableView *view,
    bool readOnly, Clock clock, QWidget *window)
    : WriteActions(
        {spec.grants, Schema::ResolveVersion}, url, view, readOnly, std::move(clock), window)
    , m_spec(std::move(spec))
    , m_selected(new QAction(m_spec.action, this))
{
    m_selected->setObjectName(m_spec.name + QStringLiteral("SelectedAction"));
    status()->setObjectName(m_spec.name + QStringLiteral("Status"));
    connect(runner(), &OperatorRunner::progressed, this, &StateChangeActions::progressed,
        Qt::DirectConnection); // passed on from the change's thread, as the runner emits it
    if (!m_spec.shortcut.isEmpty())
        m_selected->setShortcut(m_spec.shortcut);
    connect(m_selected, &QAction::triggered, this, &StateChangeActions::startSelected);
    updateEnabled();
}

// Through a profile: its own statement for the change, refused only without an audit store;
// without one, the change's own words (the action is hidden then: updateEnabled).
QString StateChangeActions::profileRefusal(const OutboxProfile &profile) const
{
    const QString verb = m_spec.change->verb;
    if (!OutboxCapabilities::of(&profile).offers(verb))
        return m_spec.profileRefusal(profile);
    return NotesAccess::auditWhere().isEmpty() ? ProfileAudit().unavailable(profile.name(), verb)
                                               : QString();
}

QString StateChangeActions::newerSchema(const QString &outdated) const
{
    return m_spec.newerSchema.arg(outdated);
}

void StateChangeActions::updateEnabled()
{
    // An action the outbox does not have (resolve through a profile) is not offered at all.
    const OutboxCapabilities can = OutboxCapabilities::of(profile() ? &*profile() : nullptr);
    m_selected->setVisible(can.offers(m_spec.change->verb));
    const QString why = refusal();
    m_selected->setEnabled(
        why.isEmpty() && !isBusy() && runner()->selectionHas(m_spec.change->from));
    emit availabilityChanged();
    m_selected->setToolTip(why.isEmpty() ? m_spec.tip : why);
}

void StateChangeActions::startSelected()
{
    const QStringList ids = runner()->selectedIdsIn(m_spec.change->from);
    if (ids.isEmpty()) {
        PlainMessage::information(
            window(), m_spec.report(OperatorOutcome {}).title, m_spec.selectFirst);
        return;
    }
    askAndStart(ids);
}

void StateChangeActions::askAndStart(const QStringList &ids)
{
    if (ids.isEmpty() || !refusal().isEmpty() || isBusy())
        return; // the action is disabled then; a shortcut pressed at that moment does nothing
    auto plan = std::make_shared<std::optional<ActionPlan>>();
    // The plan reads each event's state: never on the GUI thread.
    runner()->start(
        QStringLiteral("outbox-") + m_spec.name + QStringLiteral("-plan"),
        [plan, ids, change = m_spec.change, grants = m_spec.grants, now = now()](
            const QSqlDatabase &db, const std::optional<OutboxProfile> &profile,
            const std::atomic_bool *, QString *error) {
            *plan = ActionPlanner(db, profile ? &*profile : nullptr)
                        .planStateChange(*change, grants, ids, now, error);
        },
        [this, plan, ids](const QString &error) {
            if (!error.isEmpty() || !*plan) {
                PlainMessage::warning(window(), m_spec.report(OperatorOutcome {}).title,
                    tr("Could not read the events to plan the change: %1").arg(error));
                return;
            }
            ask(**plan, ids);
        });
}

// The plan's count in the dialog's title, typed count and button; its left-out lines below the
// events. Confirming executes the plan: its targets, the left-outs reported as skipped.
void StateChangeActions::ask(const ActionPlan &plan, const QStringList &ids)
{
    emit planned(plan);
    const std::unique_ptr<OperatorDialog> dialog = m_spec.dialog(plan.targets, window());
    dialog->setLeftOut(plan.leftOutLines());
    if (dialog->exec() != QDialog::Accepted || !refusal().isEmpty() || isBusy())
        return;
    OperatorRequest request;
    request.eventIds = ids;
    request.operatorName = dialog->operatorName();
    request.reason = dialog->reason();
    markInteractive();
    startPlan(request, plan);
}

void StateChangeActions::start(const OperatorRequest &request)
{
    startPlan(request, std::nullopt);
}

void StateChangeActions::startPlan(
    const OperatorRequest &request, const std::optional<ActionPlan> &plan)
{
    if (isBusy())
        return;
    OperatorRequest job = request;
    job.now = now();
    if (plan)
        job.eventIds = plan->targets;
    auto outcome = std::make_shared<OperatorOutcome>();
    // One event per transaction: never on the GUI thread.
    runner()->start(
        QStringLiteral("outbox-") + m_spec.name,
        [job, outcome, change = m_spec.change, readOnly = isReadOnly(),
            report = runner()->progress()](const QSqlDatabase &db,
            const std::optional<OutboxProfile> &profile, const std::atomic_bool *stop, QString *) {
            StateChange changer(*change, db, profile, readOnly);
            if (profile)
                changer.setAudit(NotesAccess::audit(db, *profile));
            changer.setStopFlag(stop);
            changer.setProgress(report);
            *outcome = changer.run(job);
        },
        [this, outcome, plan, selection = request.eventIds](const QString &error) {
            if (!error.isEmpty())
                outcome->error = error;
            if (plan)
                *outcome = ActionPlanner::withPlanSkips(*plan, selection, *outcome);
            const OperatorRunner::ReportText text = m_spec.report(*outcome);
            runner()->finish(*outcome, text.title, m_spec.did);
            if (takeInteractive())
                runner()->report(
                    {outcome->done, outcome->skipped, outcome->error, 0, false, outcome->unknown},
                    text);
            emit finished(*outcome);
        },
        m_spec.progress);
}
