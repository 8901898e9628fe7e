// What the event table shows for one diagnosis finding: the affected events as an EventFilter
// (a derived state, and the finding's subject: the error signature of dominant_error, the event
// type of poison_type) and which end of the age order comes first. The window's "Show events"
// button of a finding applies it; a filter can only approximate some findings (the first event
// of each blocked aggregate is not a state), so `exact` says whether every listed event is one
// the finding counted.
#pragma once

#include "diagnosisresult.h"
#include "eventfilter.h"

#include <optional>

struct FindingFilter
{
    EventFilter filter;
    bool oldestFirst = false; // the age column descending: the longest waiting first
    bool exact = true;

    // None for a code without a filter (an unknown one).
    static std::optional<FindingFilter> of(const Finding &finding);
};
