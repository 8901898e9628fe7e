#include "resolveactions.h"

#include "resolvedialog.h"
#include "resolver.h"

ResolveActions::ResolveActions(
    const DatabaseUrl &url, QTableView *view, bool readOnly, Clock clock, QWidget *window)
    : StateChangeActions(spec(), url, view, readOnly, std::move(clock), window)
{
    connect(this, &StateChangeActions::finished, this,
        [this](const OperatorOutcome &outcome) { emit resolveFinished(outcome); });
    connect(this, &StateChangeActions::progressed, this, &ResolveActions::resolveProgressed,
        Qt::DirectConnection); // on the resolve's thread, as it comes
}

StateChangeActions::Spec ResolveActions::spec()
{
    return {&Resolver::spec(), QStringLiteral("resolve"), tr("Resolve selected…"),
        tr("Ctrl+Shift+X"),
        tr("Close the selected DEAD events without delivering them (recorded in resolve_log)"),
        tr("Select one or more DEAD events first."),
        [](const OutboxProfile &profile) {
            return tr("Resolve is not possible with the %1 profile: %2")
                .arg(profile.name(), Resolver::profileRefusal(profile));
        },
        tr("Resolve needs a newer schema: %1"), {tr("Resolving…"), tr("Resolving %1 of %2")},
        tr("Resolved %1 of %2"),
        [](const OperatorOutcome &outcome) -> OperatorRunner::ReportText {
            return {tr("Resolve"), tr("Resolve stopped: %1\nResolved before that: %2"),
                tr("Resolved %n event(s).", nullptr, int(outcome.done.size())),
                tr("Skipped %n, already resolved or replayed by someone else or no longer DEAD: "
                   "%1",
                    nullptr, int(outcome.skipped.size()))};
        },
        [](const QStringList &ids, QWidget *parent) -> std::unique_ptr<OperatorDialog> {
            return std::make_unique<ResolveDialog>(ids, ids.size(), parent);
        },
        TableGrants::Operation::Resolve};
}
