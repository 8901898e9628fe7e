// outboxctl resolve --db URL (--event ID ... | --all-dead [--older-than DURATION]
// [--error-category C]) --operator NAME --reason TEXT [--now MS] [--dry-run] [--json]: closes
// parked (DEAD) events without delivering them (DEAD → RESOLVED, kept in the table), each in
// its own transaction with a resolve_log row; the twin of `outboxctl replay`. --dry-run prints
// what would be resolved and changes nothing. Exit 0 even when some were skipped (someone
// else resolved or replayed them first, or they are not DEAD); 2 on any error, also on an
// --event ID that names no event (nothing is resolved then), on a
// schema older than version 2 (run `outboxctl migrate`) and on a profile for another schema
// (refused, naming that library's own action). What reopen shares is in runStateChange.
#include "resolver.h"
#include "statechangecommand.h"

const StateChangeCommand &resolveCommand()
{
    static const StateChangeCommand resolve {
        {u"resolve"_qs, u"resolved"_qs,
            u"already resolved or replayed by someone else, or not DEAD"_qs, Resolver::words()},
        &Resolver::spec(),
        u"Any but native is refused, naming that library's own way to settle an event."_qs, true,
        {}, u"Why they need no delivery"_qs, u"not DEAD"_qs};
    return resolve;
}

int runResolve(const QStringList &arguments)
{
    return runStateChange(resolveCommand(), arguments);
}
