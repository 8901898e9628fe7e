// Edit and replay from the window: "Edit and replay…" (enabled while exactly one DEAD event is
// selected) reads the event's payload on a worker, opens the PayloadEditDialog with it (redacted
// values masked), and saves the edit on the worker (PayloadEditor: the original kept in
// payload_revision, the event replayed under the same ID). Another operator who got there first
// is a clear message and nothing is written. Disabled, its tooltip saying why, in read-only
// mode, through a profile, when the role's grants refuse the writes and on a schema older than
// version 3 (`outboxctl migrate` adds payload_revision): the guards of WriteActions, the shell
// it shares with the other write actions.
#pragma once

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
    void editFinished(const PayloadEditResult &result);

protected:
    QString profileRefusal(const OutboxProfile &profile) const override;
    QString newerSchema(const QString &outdated) const override;
    void updateEnabled() override;

private:
    void ask(const QString &eventId, const QString &status, const QString &payload);

    QAction *m_selected = nullptr;
};
