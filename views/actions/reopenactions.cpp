#include "reopenactions.h"

#include "reopendialog.h"
#include "reopener.h"

ReopenActions::ReopenActions(
    const DatabaseUrl &url, QTableView *view, bool readOnly, Clock clock, QWidget *window)
    : StateChangeActions(spec(), url, view, readOnly, std::move(clock), window)
{
    connect(this, &StateChangeActions::finished, this,
        [this](const OperatorOutcome &outcome) { emit reopenFinished(outcome); });
}

StateChangeActions::Spec ReopenActions::spec()
{
    return {&Reopener::spec(), QStringLiteral("reopen"), tr("Reopen selected…"), {},
        tr("Put the selected RESOLVED events back to DEAD, to replay or resolve them again "
           "(recorded in reopen_log)"),
        tr("Select one or more RESOLVED events first."),
        [](const OutboxProfile &profile) {
            return tr("Reopen is not available: %1").arg(Reopener::profileRefusal(profile));
        },
        tr("Reopen needs a newer schema: %1"), {tr("Reopening…"), tr("Reopening %1 of %2")},
        tr("Reopened %1 of %2"),
        [](const OperatorOutcome &outcome) -> OperatorRunner::ReportText {
            return {tr("Reopen"), tr("Reopen stopped: %1\nReopened before that: %2"),
                tr("Reopened %n event(s): DEAD again.", nullptr, int(outcome.done.size())),
                tr("Skipped %n, already reopened by someone else or no longer RESOLVED: %1",
                    nullptr, int(outcome.skipped.size()))};
        },
        [](const QStringList &ids, QWidget *parent) -> std::unique_ptr<OperatorDialog> {
            return std::make_unique<ReopenDialog>(ids, ids.size(), parent);
        },
        TableGrants::Operation::Reopen};
}
