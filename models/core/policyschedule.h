// The schedule a retry policy gives one event whose every attempt fails: for attempt 1..budget
// the delay before the next attempt and the time since the first attempt, and when the budget's
// last failure parks it DEAD. A jittered policy's figures are the minimum, median and maximum
// over many seeded draws, so the same seed gives the same schedule. Shared by `outboxctl policy`
// and the window's Policy lab.
#pragma once

#include "retrypolicy.h"

#include <QJsonObject>
#include <QList>
#include <QStringList>
#include <optional>

// One figure of a schedule; min == median == max for a deterministic policy.
struct Spread
{
    qint64 min = 0;
    qint64 median = 0;
    qint64 max = 0;
    bool operator==(const Spread &) const = default;
};

struct ScheduleStep
{
    int attempt = 0; // 1 = the first attempt
    std::optional<Spread> delay; // before the next attempt; none after the last: parked DEAD
    Spread sinceFirst; // when this attempt runs, counted from the first attempt
};

class PolicySchedule
{
public:
    static constexpr int MaxBudget = 1000;
    static constexpr int Draws = 10001; // odd, so that the median is one of the draws

    // The budget must be from 1 to MaxBudget (checked by the caller: bad input is refused there).
    static PolicySchedule compute(const RetryPolicy &policy, int budget, quint32 seed = 1);
    // Whether the policy's delays are drawn at random (its figures are spreads).
    static bool isRandom(const RetryPolicy &policy);

    QString policy() const { return m_policy; }
    int budget() const { return int(m_steps.size()); }
    quint32 seed() const { return m_seed; }
    bool isRandom() const { return m_random; }
    const QList<ScheduleStep> &steps() const { return m_steps; }
    // When the last allowed attempt fails and the event is parked DEAD.
    Spread deadAfter() const { return m_steps.isEmpty() ? Spread() : m_steps.last().sinceFirst; }

    // {"policy","budget","attempts":[...],"dead_after_ms"} (see `outboxctl policy --help`).
    QJsonObject toJson() const;
    QStringList toText() const; // a table, a line per attempt, and the parking time
    // "250 ms", "1.5 s", "2 min 5 s", "1 h 3 min": what a person reads in a table cell.
    static QString humanMs(qint64 ms);
    static QString spreadText(const Spread &spread); // "150 ms", "100–200 ms", "800 ms – 1.6 s"

private:
    void computeFixed(const RetryPolicy &policy, int budget);
    void computeDrawn(const RetryPolicy &policy, int budget);

    QString m_policy;
    quint32 m_seed = 1;
    bool m_random = false;
    QList<ScheduleStep> m_steps;
};
