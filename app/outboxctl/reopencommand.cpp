// outboxctl reopen --db URL --event ID... --operator NAME --reason TEXT [--now MS] [--dry-run]
// [--json]: puts resolved events back among the parked ones (RESOLVED → DEAD), each in its own
// transaction with a reopen_log row; the undo of `outboxctl resolve`, with its exit codes. A
// reopened event is DEAD again: replay or resolve it as any other. --dry-run prints what would be
// reopened and changes nothing. Exit 0 even when some were skipped (someone else reopened them
// first, or they are not RESOLVED, or not found); 2 on any error, also on a schema older than
// version 2 or without reopen_log (run `outboxctl migrate` or `outboxctl init`) and on a
// profile for another schema (reopen is not available there). What resolve shares is in
// runStateChange.
#include "reopener.h"
#include "statechangecommand.h"

const StateChangeCommand &reopenCommand()
{
    static const StateChangeCommand reopen {
        {u"reopen"_qs, u"reopened"_qs, u"already reopened by someone else, or not RESOLVED"_qs,
            Reopener::words()},
        &Reopener::spec(),
        u"Any but native is refused: reopen undoes Outbox Health's own resolve."_qs, false,
        u"A RESOLVED event to reopen (repeat for more)."_qs, u"Why they need an operator again"_qs,
        u"not RESOLVED or not found"_qs, TableGrants::Operation::Reopen};
    return reopen;
}

int runReopen(const QStringList &arguments)
{
    return runStateChange(reopenCommand(), arguments);
}
