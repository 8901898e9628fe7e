// The operator API's actions, on a thread of its pool with a connection of their own: a replay
// (of one event, an error group or a filter), a resolve or a reopen, planned by the library's
// ActionPlanner and run through its OperatorJob exactly as `outboxctl replay|resolve|reopen`
// run them (the same refusals, grants, on-hold rule and audit rows), the authenticated user as
// the operator. The answer is {"plan":{...}} for a dry run (the CLI's --dry-run --json), and
// {"plan":{...},"outcome":{...}} otherwise, the outcome as the CLI's --json prints it.
// 409 when the outbox refuses the action as a whole (its profile, its grants, no audit store),
// 404 for an unknown event or error group, 500 when a statement fails (what was done before it
// stays done and is in the outcome).
#pragma once

#include "apiinput.h"
#include "cli.h"
#include "httpserver.h"

namespace ApiActions {

// POST .../events/ID/{replay,resolve,reopen}
HttpResponse onEvent(const Cli::Outbox &outbox, const ApiRoute &route, const ApiActionBody &body,
    const QString &user, qint64 now);
// POST .../replay with an error group and/or a filter.
HttpResponse bulkReplay(
    const Cli::Outbox &outbox, const ApiActionBody &body, const QString &user, qint64 now);

} // namespace ApiActions
