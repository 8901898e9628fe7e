// Plain-language sentences for trace events, for learners: the CLI prints them without
// --json and the teaching panel shows them as the simulation steps.
#pragma once

#include "traceevent.h"

namespace Narration {
QString describe(const TraceEvent &event);
}
