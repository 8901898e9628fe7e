#include "editactions.h"

#include "actionplan.h"
#include "jobstatus.h"
#include "payloadeditdialog.h"
#include "payloadeditor.h"
#include "plainmessage.h"
#include "redaction.h"

#include <QAction>
#include <QSettings>
#include <memory>

EditActions::EditActions(
    const DatabaseUrl &url, QTableView *view, bool readOnly, Clock clock, QWidget *window)
    : WriteActions({TableGrants::Operation::Edit, PayloadEditor::NeededVersion}, url, view,
        readOnly, std::move(clock), window)
    , m_selected(new QAction(tr("Edit and replay…"), this))
{
    m_selected->setObjectName(QStringLiteral("editSelectedAction"));
    status()->setObjectName(QStringLiteral("editStatus"));
    connect(m_selected, &QAction::triggered, this, [this] {
        const QStringList ids = runner()->selectedDeadIds();
        if (ids.size() == 1)
            editEvent(ids.constFirst());
    });
    updateEnabled();
}

QString EditActions::profileRefusal(const OutboxProfile &profile) const
{
    return tr("Edit and replay is not available: %1 has no revision table to keep the "
              "original payload in")
        .arg(profile.name());
}

QString EditActions::newerSchema(const QString &outdated) const
{
    return tr("Edit and replay needs a newer schema: %1").arg(outdated);
}

void EditActions::updateEnabled()
{
    const QString why = refusal();
    const bool one = runner()->selectedDeadIds().size() == 1;
    m_selected->setEnabled(why.isEmpty() && !isBusy() && one);
    m_selected->setToolTip(why.isEmpty()
            ? (one ? tr("Edit the selected DEAD event's payload and replay it under the same "
                        "event ID (the original is kept)")
                   : tr("Select exactly one DEAD event to edit its payload"))
            : why);
    emit availabilityChanged();
}

void EditActions::editEvent(const QString &eventId)
{
    if (eventId.isEmpty() || !refusal().isEmpty() || isBusy())
        return;
    auto found = std::make_shared<PayloadEditor::Current>();
    auto plan = std::make_shared<ActionPlan>();
    runner()->start(
        QStringLiteral("outbox-edit-read"),
        [eventId, found, plan, now = now()](const QSqlDatabase &db,
            const std::optional<OutboxProfile> &profile, const std::atomic_bool *, QString *error) {
            const auto planned
                = ActionPlanner(db, profile ? &*profile : nullptr).planEdit(eventId, now, error);
            if (!planned)
                return;
            *plan = *planned;
            if (const auto current = PayloadEditor(db, profile).current(eventId, error))
                *found = *current;
        },
        [this, eventId, found, plan](const QString &error) {
            if (!error.isEmpty()) {
                PlainMessage::warning(window(), tr("Edit and replay"),
                    tr("Reading %1 failed: %2").arg(eventId, error));
                return;
            }
            emit planned(*plan);
            ask(*plan, found->payload);
        });
}

// The plan's event, or its left-out line when it has none (the dialog is not opened then).
void EditActions::ask(const ActionPlan &plan, const QString &payload)
{
    if (plan.targets.isEmpty()) {
        const PlanLeftOut left = plan.leftOut.value(0);
        PlainMessage::information(window(), tr("Edit and replay"),
            plan.refusal.isEmpty()
                ? tr("Nothing to edit: %1 is left out (%2); only a DEAD event's payload can be "
                     "edited.")
                      .arg(left.eventId, left.why)
                : plan.refusal);
        return;
    }
    const QString eventId = plan.targets.constFirst();
    const QStringList keys = Redaction::sensitiveKeys(QSettings());
    PayloadEditDialog dialog(eventId, PayloadEditor::editableText(payload, keys, false),
        PayloadEditor::editableText(payload, keys, true), window());
    if (dialog.exec() != QDialog::Accepted)
        return;
    PayloadEditRequest request;
    request.eventId = eventId;
    request.newPayload = dialog.payloadText();
    request.baseDigest = PayloadEditor::digest(payload);
    request.revealed = dialog.isRevealed();
    request.sensitiveKeys = keys;
    request.operatorName = dialog.operatorName();
    request.reason = dialog.reason();
    markInteractive();
    startEdit(request);
}

void EditActions::startEdit(const PayloadEditRequest &request)
{
    if (isBusy())
        return;
    PayloadEditRequest job = request;
    job.now = now();
    auto result = std::make_shared<PayloadEditResult>();
    // The lock, the checks and the writes: never on the GUI thread.
    runner()->start(
        QStringLiteral("outbox-edit"),
        [job, result, readOnly = isReadOnly()](const QSqlDatabase &db,
            const std::optional<OutboxProfile> &profile, const std::atomic_bool *,
            QString *) { *result = PayloadEditor(db, profile, readOnly).edit(job); },
        [this, result, id = job.eventId](const QString &error) {
            if (!error.isEmpty() && result->ok())
                *result = {PayloadEditResult::Outcome::Failed, error, 0, {}, {}};
            const bool interactive = takeInteractive();
            if (result->ok())
                status()->finish(
                    tr("Edited %1 (revision %2) and replayed it").arg(id).arg(result->revisionNo));
            else if (interactive && result->outcome == PayloadEditResult::Outcome::Unknown)
                PlainMessage::warning(window(), tr("Outcome unknown"),
                    tr("Outcome unknown: %1 — check it on the Audit page or with outboxctl "
                       "explain %1. Editing it again edits it only if this edit did not "
                       "(it is still DEAD then).\n%2")
                        .arg(id, result->error));
            else if (interactive)
                PlainMessage::warning(window(),
                    result->outcome == PayloadEditResult::Outcome::Conflict
                        ? tr("Someone else got there first")
                        : tr("Edit and replay"),
                    result->error);
            emit editFinished(*result);
        });
}
