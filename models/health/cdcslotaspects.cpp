#include "cdcslotaspects.h"

namespace CdcSlotAspects {

CdcSlotGrade grade(const CdcSlotReading &reading, Aspect aspect, const TileThresholds &thresholds)
{
    if (!reading.exists) // a missing slot is the consumer's tile; the others have no figure
        return aspect == Aspect::Consumer ? CdcSlotGrade::of(reading, thresholds) : CdcSlotGrade {};
    CdcSlotReading only = reading;
    if (aspect != Aspect::Consumer) {
        only.active = true;
        only.inactiveForMs.reset();
    }
    if (aspect != Aspect::Lag)
        only.lagBytes.reset();
    if (aspect != Aspect::Runway)
        only.runwayMs.reset();
    if (aspect != Aspect::WalStatus)
        only.walStatus = QStringLiteral("reserved");
    return CdcSlotGrade::of(only, thresholds);
}

} // namespace CdcSlotAspects
