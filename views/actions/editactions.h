// Edit and replay from the window: "Edit and replay…" (enabled while exactly one DEAD event is
// selected) reads the event's payload and its plan (ActionPlanner::planEdit) on a worker; when
// the plan leaves the event out (no longer DEAD, not found, refused) it says so with the plan's
// line and opens nothing; otherwise it opens the PayloadEditDialog with it (redacted
// values masked), and saves the edit on the worker (PayloadEditor: the original kept in
// payload_revision, the event replayed under the same ID). Another operator who got there first
// is a clear message and nothing is written. Disabled, its tooltip saying why, in read-only
// mode, through a profile, when the role's grants refuse the writes and on a schema older than
// version 3 (`outboxctl migrate` adds payload_revision): the guards of WriteActions, the shell
// it shares with the other write actions.
#pragma once

#include "actionplan.h"
#include "payloadedittypes.h"
#include "writeactions.h"

class QAction;

class EditActions : public WriteActions
{
    Q_OBJECT
public:
    EditActions(
        const DatabaseUrl &url, QTableView *view, bool readOnly, Clock clock, QWidget *window);

    QAction *editSelectedAction() const { return m_selected; }

    // Reads `eventId`'s payload on the worker, then asks with the dialog and saves the edit.
    void editEvent(const QString &eventId);
    // Saves an edit in the background; editFinished follows (also when refused).
    void startEdit(const PayloadEditRequest &request);

signals:
    // The plan the dialog was asked from (ActionPlanner::planEdit), read with the payload.
    void planned(const ActionPlan &plan);
    void editFinished(const PayloadEditResult &result);

protected:
    QString profileRefusal(const OutboxProfile &profile) const override;
    QString newerSchema(const QString &outdated) const override;
    void updateEnabled() override;

private:
    void ask(const ActionPlan &plan, const QString &payload);

    QAction *m_selected = nullptr;
};
