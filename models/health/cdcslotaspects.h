// The slot's grade figure by figure, for a tile each (the window's CDC row): CdcSlotGrade's one
// rule applied to one aspect of the reading at a time, the others set to what it never judges,
// so a tile is coloured by the very limits the fleet row and the desktop alert are.
#pragma once

#include "cdcslot.h"

namespace CdcSlotAspects {

enum class Aspect {
    Consumer, // exists, active, idle time
    Lag, // the consumer's lag in bytes
    Runway, // the time until max_slot_wal_keep_size (an estimate)
    WalStatus, // unreserved, lost
};

CdcSlotGrade grade(
    const CdcSlotReading &reading, Aspect aspect, const TileThresholds &thresholds = {});

} // namespace CdcSlotAspects
