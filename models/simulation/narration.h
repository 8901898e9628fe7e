// Plain-language sentences for trace events, for learners: the CLI prints them without
// --json and the Teach page shows them as the simulation steps.
#pragma once

#include "traceevent.h"

namespace Narration {
// `origin` is the wall-clock time shown as +0 s; simulator times are shown as they are.
QString describe(const TraceEvent &event, qint64 origin = 0);
} // namespace Narration
