#include "findingfilter.h"

namespace {

FindingFilter onState(EventFilter::State state, bool oldestFirst, bool exact)
{
    FindingFilter result;
    result.filter.state = state;
    result.oldestFirst = oldestFirst;
    result.exact = exact;
    return result;
}

} // namespace

std::optional<FindingFilter> FindingFilter::of(const Finding &finding)
{
    using S = EventFilter::State;
    const QString &code = finding.code;
    if (code == DiagnosisCode::RelayStalled) // every due event, the longest due first
        return onState(S::Due, true, false);
    if (code == DiagnosisCode::LeaseExpiredUnclaimed)
        return onState(S::LeaseExpired, true, false);
    if (code == DiagnosisCode::DominantError) {
        FindingFilter result = onState(S::Dead, false, true);
        result.filter.errorSignature = finding.subject;
        return result;
    }
    if (code == DiagnosisCode::PoisonType) {
        FindingFilter result = onState(S::Dead, false, true);
        result.filter.eventType = finding.subject;
        return result;
    }
    if (code == DiagnosisCode::RetryHerd || code == DiagnosisCode::FutureSchedule)
        return onState(S::Scheduled, false, false);
    if (code == DiagnosisCode::DeadRising) // the newest DEAD first
        return onState(S::Dead, false, false);
    if (code == DiagnosisCode::DeadEvents) // every DEAD event, the newest first
        return onState(S::Dead, false, true);
    if (code == DiagnosisCode::CreatedInFuture) // negative ages: first in the newest-first order
        return onState(S::Any, false, false);
    if (code == DiagnosisCode::CreatedAtOnUpdate) // every event: their ages are too young
        return onState(S::Any, false, false);
    if (code == DiagnosisCode::BlockedAggregate) {
        const bool byDead = finding.evidence.value(u"blocked_by_dead"_qs).toLongLong() > 0;
        return onState(byDead ? S::Dead : S::LeaseExpired, true, false);
    }
    return std::nullopt;
}
