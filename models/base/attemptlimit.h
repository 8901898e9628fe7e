// How many attempts an event gets before it is parked DEAD (its "budget"), as every text that
// names it says it: given by the operator (`--budget`) or the relay's configuration, else read
// from the data (a profile's attempt_limit: per event, or the range an outbox holds), else
// unknown. Never worked out from a failure count: a failure count says what was spent, not
// what was allowed (a replay raises a library's limit, 3 -> 4). Plain values, no database.
#pragma once

#include <QString>
#include <QtGlobal>
#include <optional>

class AttemptLimit
{
public:
    AttemptLimit() = default; // unknown

    // The explicit limit when given, else the data's; unknown when neither is.
    static AttemptLimit of(std::optional<int> explicitLimit, std::optional<qint64> fromData);
    // The limits the data holds across an outbox's events (lowest and highest).
    static AttemptLimit range(std::optional<qint64> lowest, std::optional<qint64> highest);

    bool isKnown() const { return m_lowest.has_value(); }
    bool variesPerEvent() const { return m_lowest && m_highest && *m_lowest != *m_highest; }
    std::optional<qint64> value() const { return variesPerEvent() ? std::nullopt : m_lowest; }

    // "attempts 3 / 3", "attempts 3 / limit unknown" (`spent`: the attempts made or failed).
    QString usage(qint64 spent) const;
    // "budget 3", "budget 3 to 20 per event", "limit unknown": the failures chart's title.
    QString budget() const;

private:
    std::optional<qint64> m_lowest;
    std::optional<qint64> m_highest;
};
