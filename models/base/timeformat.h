// How times read on screen. Real outboxes store milliseconds since the epoch; the logical
// clock of the simulator counts small abstract units from 0, shown as "t=30".
#pragma once

#include <QString>

namespace TimeFormat {
bool isLogical(qint64 time); // below year 1973 in ms: a simulator time
QString time(qint64 time);
QString age(qint64 ms); // "850 ms", "12 s", "3 min", "2 h", "4 d"
QString units(qint64 units); // "1 unit", "9 units": a span of the simulator's logical clock
// A span (an age, a wait) measured on the clock that reads `now`: in units on a simulator's
// logical clock ("9 units"), as age() on the wall clock ("9 ms"). One unit wherever it shows.
QString span(qint64 span, qint64 now);
QString relative(qint64 time, qint64 now);
// A duration as the window and outboxctl's text say it: two units where the first alone rounds
// too much: "7 d 3 h", "2 h 5 min", "3 min 12 s", "9.5 s", "850 ms" (whole units, rounded
// down), one where the second is 0: "10 min", "2 h". JSON keeps the exact milliseconds.
QString ageInTwoUnits(qint64 ms);
// Local ISO 8601 with the offset: "2026-11-30T17:05:00.000+01:00" ("Z" where local is UTC).
QString isoLocal(qint64 time); // "in 12 s", "3 min ago", "now"; units for logical times
} // namespace TimeFormat
