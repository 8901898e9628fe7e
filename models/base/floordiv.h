// Integer division rounding toward minus infinity, as time buckets need: a time before 1970 (a
// negative count of milliseconds) falls in the bucket that holds it, not in the one after it.
#pragma once

#include <QtGlobal>

inline qint64 floorDiv(qint64 value, qint64 divisor)
{
    const qint64 quotient = value / divisor;
    return (value % divisor != 0 && value < 0) ? quotient - 1 : quotient;
}
