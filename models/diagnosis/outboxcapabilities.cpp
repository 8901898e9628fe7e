#include "outboxcapabilities.h"

#include "outboxprofile.h"

OutboxCapabilities OutboxCapabilities::of(const OutboxProfile *profile)
{
    if (!profile || profile->isNative())
        return {};
    OutboxCapabilities can;
    can.replay = profile->replayKind() == OutboxProfile::ReplayKind::Statement;
    can.replayInstead = can.replay ? QString() : profile->replayUnavailableReason();
    // The profile's statement decides the budget; resolve and reopen exist where the profile
    // maps them to statements of its own (`resolve`, `reopen`).
    can.resetBudget = false;
    can.resolve = profile->hasStatement(OutboxProfile::Action::Resolve);
    can.reopen = profile->hasStatement(OutboxProfile::Action::Reopen);
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
