// The one implementation of outboxctl resolve and reopen, the commands that move events between
// two states through a StateChange: options, the refusal before anything is read, which
// events, their plan (ActionPlanner::planStateChange, the window's too), a dry run printing it
// ({"would_resolve":[...]} with the plan's keys) or the change of its targets, and the outcome
// line (the plan's left-outs among the skipped), with
// OperatorCommand's words and exit codes (0 even when some were skipped, 2 on any error).
// A StateChangeCommand says what differs.
#pragma once

#include "operatorcommand.h"
#include "statechange.h"
#include "tablegrants.h"

struct StateChangeCommand
{
    OperatorCommand::Spec command; // "resolve", "resolved", why skipped, the log's words
    const StateChange::Spec *change = nullptr;
    QString profileNote; // --profile's help: what happens through another library's profile
    // Resolve: --event or --all-dead narrowed by age and category, an unknown --event refused
    // (exit 2). Otherwise --event only (eventHelp), an unknown one skipped as in another state.
    bool bulk = false;
    QString eventHelp; // "A RESOLVED event to reopen (repeat for more)."
    QString reasonHelp; // "Why they need no delivery"
    QString notFrom; // the dry run's "; 1 not DEAD"
    // The writes the database's grants must allow, else exit 2 before anything (even --dry-run).
    TableGrants::Operation grants = TableGrants::Operation::Resolve;
};

int runStateChange(const StateChangeCommand &spec, const QStringList &arguments);
// What outboxctl resolve and reopen are (the operator API takes the same).
const StateChangeCommand &resolveCommand();
const StateChangeCommand &reopenCommand();
