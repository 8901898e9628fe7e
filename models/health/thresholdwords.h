// How a tile threshold and a figure judged against it read, in one place for the window (tile
// tooltips and descriptions) and `outboxctl check` (its verdict): "red from 10", "amber from 1,
// red from 10", ages humane ("10 min", "2 h 5 min"), counts with separators ("1,757"). The
// exact values stay in check's JSON (`violations`: limit and value in ms).
#pragma once

#include "healththresholds.h"

#include <QString>

namespace ThresholdWords {

// LogicalAge: a scenario's clock, "9 units"; Bytes: "2.1 GiB".
enum class Unit { Count, Age, LogicalAge, Bytes };

// "1,757", "10 min", "9 units".
QString value(qint64 value, Unit unit);
// "red from 10", "red from 10 min".
QString redFrom(const TileLimits &limits, Unit unit);
// "amber from 1, red from 10".
QString limits(const TileLimits &limits, Unit unit);

// The figure a HealthViolation's threshold judges, as the tile names it: "DEAD",
// "lease expired", "due", "oldest pending", "CDC lag", "slot inactive"; and whether it is an
// age, or a size in bytes.
QString figureName(const QString &threshold);
bool isAge(const QString &threshold);
bool isBytes(const QString &threshold);

// One violation in words. `tile`: the limit is the window's tile (no flag overrode it): "DEAD is
// 12, red from 10". Otherwise the limit an option set, said as the option does: "DEAD is 12,
// above 5 (--max-dead)".
QString violation(const HealthViolation &violation, const TileThresholds &tiles, bool tile,
    const QString &option);

} // namespace ThresholdWords
