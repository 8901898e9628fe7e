// Ages and durations as an operator types them: "90s", "5m", "2h", "7d", "250ms" or plain
// milliseconds. The window's age filter and `outboxctl purge` read the same text.
#pragma once

#include <QString>
#include <optional>

class DurationText
{
public:
    // Milliseconds, or nothing for empty, negative or malformed text.
    static std::optional<qint64> parseMs(const QString &text);
};
