// The window's side of a StateChange (resolve, reopen): "… selected" (enabled while the
// selection holds a row in the state the change takes) first plans the change on an
// OperatorRunner's thread (ActionPlanner::planStateChange, the plan `outboxctl resolve
// --dry-run` prints), then asks with the action's dialog who and why, its title, typed count
// and button naming the plan's count and its left-out lines shown, then runs the change on the
// plan's targets on an OperatorRunner's thread, the plan's left-outs reported as skipped: deleting
// the actions (closing the window) stops it between two events and waits; its progress, rate and
// Cancel show in a part of the status bar (status()), then its outcome. Disabled, its tooltip
// saying why, in read-only mode, through a profile (the change's own words) and on a native schema
// older than version 2 (the guards of WriteActions, the shell it shares with the other write
// actions). ResolveActions and ReopenActions are its two configurations: a Spec and their own
// signals.
#pragma once

#include "actionplan.h"
#include "statechange.h"
#include "writeactions.h"

#include <functional>
#include <memory>

class OperatorDialog;
class QAction;
class QTableView;
class QWidget;

class StateChangeActions : public WriteActions
{
    Q_OBJECT
public:
    // What differs between two actions; the texts are the action's own (its tr()).
    struct Spec
    {
        const StateChange::Spec *change = nullptr; // from, to, the log, the words
        QString name; // "resolve": "resolveSelectedAction", "resolveStatus", "outbox-resolve"
        QString action; // "Resolve selected…"
        QString shortcut; // empty: none
        QString tip; // the action's tooltip while it is possible
        QString selectFirst; // said when nothing in the from-state is selected
        std::function<QString(const OutboxProfile &)> profileRefusal; // the tooltip then
        QString newerSchema; // "Resolve needs a newer schema: %1"
        OperatorRunner::ProgressText progress; // "Resolving…", "Resolving %1 of %2"
        QString did; // the status bar's end: "Resolved %1 of %2"
        // The outcome's title and sentences, with the outcome's counts.
        std::function<OperatorRunner::ReportText(const OperatorOutcome &outcome)> report;
        // The confirmation for these events.
        std::function<std::unique_ptr<OperatorDialog>(const QStringList &ids, QWidget *parent)>
            dialog;
        TableGrants::Operation grants = TableGrants::Operation::Resolve; // the writes it makes
    };

    StateChangeActions(Spec spec, const DatabaseUrl &url, QTableView *view, bool readOnly,
        Clock clock, QWidget *window);

    QAction *selectedAction() const { return m_selected; }

    // Changes in the background; finished follows (also when refused).
    void start(const OperatorRequest &request);
    // Plans the change of these events, asks with the dialog (who and why, the plan's count and
    // left-out lines), then changes the plan's targets (an error group's DEAD
    // events, say); nothing when the change is refused here or one already runs.
    void askAndStart(const QStringList &ids);

signals:
    // The plan the dialog is about to show (before it opens).
    void planned(const ActionPlan &plan);
    void finished(const OperatorOutcome &outcome);
    // Events taken (done or skipped) of the total, on the change's thread, as
    // OperatorActions::replayProgressed.
    void progressed(qint64 taken, qint64 total);

protected:
    QString profileRefusal(const OutboxProfile &profile) const override;
    QString newerSchema(const QString &outdated) const override;
    void updateEnabled() override;

private:
    void startSelected();
    void ask(const ActionPlan &plan, const QStringList &ids);
    void startPlan(const OperatorRequest &request, const std::optional<ActionPlan> &plan);

    Spec m_spec;
    QAction *m_selected = nullptr;
};
