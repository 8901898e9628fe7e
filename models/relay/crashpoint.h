// Fault injection for the crash tests: when OUTBOX_CRASH_AT names a point and this is its
// OUTBOX_CRASH_AFTER-th occurrence (default 1), the process kills itself with SIGKILL, exactly
// as `kill -9` would at that moment. Unset, reached() costs one branch.
#pragma once

namespace CrashPoint {
// "after-claim", "after-consumer-commit" or "mid-batch".
void reached(const char *point);
} // namespace CrashPoint
