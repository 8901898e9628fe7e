// What an operator asks for when resolving parked events (DEAD → RESOLVED) or reopening resolved
// ones (RESOLVED → DEAD, back among the events an operator can replay or resolve again), and what
// happened: the values passed between outboxctl resolve and reopen, the window and StateChange.
// Both ask for nothing beyond what every operator action does and answer with its outcome (done:
// the events moved, each with its audit row in resolve_log or reopen_log).
#pragma once

#include "operatorrequest.h"

using ResolveRequest = OperatorRequest;
using ResolveResult = OperatorOutcome;
using ReopenRequest = OperatorRequest;
using ReopenResult = OperatorOutcome;
