// What the benchmark drivers share: the heartbeat timer's interval, whose late ticks measure
// how long the event loop was held, and milliseconds as their JSON lines print them.
#pragma once

#include <QString>

namespace BenchText {

constexpr int HeartbeatMs = 5;

inline QString number(double value)
{
    return QString::number(value, 'f', 2);
}

} // namespace BenchText
