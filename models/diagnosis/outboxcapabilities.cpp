#include "outboxcapabilities.h"

#include "outboxprofile.h"

OutboxCapabilities OutboxCapabilities::of(const OutboxProfile *profile)
{
    if (!profile || profile->isNative())
        return {};
    OutboxCapabilities can;
    can.replay = profile->replayKind() == OutboxProfile::ReplayKind::Statement;
    can.replayInstead = can.replay ? QString() : profile->replayUnavailableReason();
    // The profile's statement decides the budget; resolve and reopen are the native schema's.
    can.resetBudget = false;
    can.resolve = false;
    can.reopen = false;
    return can;
}

bool OutboxCapabilities::offers(const QString &verb) const
{
    if (verb == QLatin1String("resolve"))
        return resolve;
    if (verb == QLatin1String("reopen"))
        return reopen;
    return verb != QLatin1String("replay") || replay;
}
