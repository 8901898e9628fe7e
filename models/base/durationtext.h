// Ages and durations as an operator types them: "90s", "5m", "2h", "7d", "250ms" or plain
// milliseconds. The window's age filter and every duration option of `outboxctl` read it.
#pragma once

#include <QString>
#include <optional>

class DurationText
{
public:
    // Milliseconds, or nothing for empty, negative or malformed text.
    static std::optional<qint64> parseMs(const QString &text);
    // The same text back, in the largest unit that holds `ms` whole: "7d", "90s", "250ms", "0".
    static QString format(qint64 ms);
};
