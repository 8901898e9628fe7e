#include "policyschedule.h"

#include "saturating.h"

#include <QJsonArray>
#include <QRandomGenerator>
#include <algorithm>

namespace {

// Min, median and max of the draws (reordered: the median is found in place).
Spread spreadOf(QList<qint64> &draws)
{
    const auto [low, high] = std::minmax_element(draws.begin(), draws.end());
    Spread spread {*low, 0, *high};
    const auto middle = draws.begin() + draws.size() / 2;
    std::nth_element(draws.begin(), middle, draws.end());
    spread.median = *middle;
    return spread;
}

Spread fixed(qint64 value)
{
    return {value, value, value};
}

QJsonValue spreadJson(const Spread &spread, bool random)
{
    if (!random)
        return spread.median;
    return QJsonObject {{QStringLiteral("min"), spread.min},
        {QStringLiteral("median"), spread.median}, {QStringLiteral("max"), spread.max}};
}

QString spreadMs(const Spread &spread, bool random)
{
    return random
        ? QStringLiteral("%1 / %2 / %3 ms").arg(spread.min).arg(spread.median).arg(spread.max)
        : QStringLiteral("%1 ms").arg(spread.median);
}

} // namespace

bool PolicySchedule::isRandom(const RetryPolicy &policy)
{
    return policy.kind() == RetryPolicy::Kind::ExponentialRandom
        || policy.kind() == RetryPolicy::Kind::FullJitter;
}

PolicySchedule PolicySchedule::compute(const RetryPolicy &policy, int budget, quint32 seed)
{
    Q_ASSERT(budget >= 1 && budget <= MaxBudget);
    PolicySchedule schedule;
    schedule.m_policy = policy.spec();
    schedule.m_seed = seed;
    schedule.m_random = isRandom(policy);
    if (schedule.m_random)
        schedule.computeDrawn(policy, budget);
    else
        schedule.computeFixed(policy, budget);
    return schedule;
}

void PolicySchedule::computeFixed(const RetryPolicy &policy, int budget)
{
    qint64 since = 0;
    for (int attempt = 1; attempt <= budget; ++attempt) {
        ScheduleStep step {attempt, std::nullopt, fixed(since)};
        if (attempt < budget) {
            const qint64 delay = policy.minimumDelayAfter(attempt);
            step.delay = fixed(delay);
            since = Saturating::add(since, delay);
        }
        m_steps << step;
    }
}

// Draws whole schedules: draw d's delay after each failure comes from one seeded generator,
// and draw d's time since the first attempt sums its own delays.
void PolicySchedule::computeDrawn(const RetryPolicy &policy, int budget)
{
    QRandomGenerator random(m_seed);
    QList<qint64> since(Draws, 0);
    QList<qint64> scratch;
    for (int attempt = 1; attempt <= budget; ++attempt) {
        scratch = since;
        ScheduleStep step {attempt, std::nullopt, spreadOf(scratch)};
        if (attempt < budget) {
            QList<qint64> delays(Draws);
            for (int d = 0; d < Draws; ++d) {
                delays[d] = policy.delayAfter(attempt, random);
                since[d] = Saturating::add(since[d], delays[d]);
            }
            step.delay = spreadOf(delays);
        }
        m_steps << step;
    }
}

QJsonObject PolicySchedule::toJson() const
{
    QJsonArray attempts;
    for (const ScheduleStep &step : m_steps) {
        attempts.append(QJsonObject {{QStringLiteral("attempt"), step.attempt},
            {QStringLiteral("delay_ms"),
                step.delay ? spreadJson(*step.delay, m_random) : QJsonValue(QJsonValue::Null)},
            {QStringLiteral("cumulative_ms"), spreadJson(step.sinceFirst, m_random)}});
    }
    QJsonObject json {{QStringLiteral("policy"), m_policy}, {QStringLiteral("budget"), budget()},
        {QStringLiteral("attempts"), attempts},
        {QStringLiteral("dead_after_ms"), spreadJson(deadAfter(), m_random)}};
    if (m_random) {
        json.insert(QStringLiteral("seed"), qint64(m_seed));
        json.insert(QStringLiteral("draws"), Draws);
    }
    return json;
}

QStringList PolicySchedule::toText() const
{
    QStringList lines {QStringLiteral("%1, budget %2 attempt%3, every attempt failing:")
                           .arg(m_policy)
                           .arg(budget())
                           .arg(budget() == 1 ? QString() : QStringLiteral("s"))};
    if (m_random)
        lines
            << QStringLiteral("(min / median / max over %1 draws, seed %2)").arg(Draws).arg(m_seed);
    const int width = m_random ? 30 : 14;
    lines << QStringLiteral("attempt  %1  %2")
                 .arg(QStringLiteral("next after"), -width)
                 .arg(QStringLiteral("since the first attempt"));
    for (const ScheduleStep &step : m_steps) {
        const QString delay
            = step.delay ? spreadMs(*step.delay, m_random) : QStringLiteral("parked DEAD");
        lines << QStringLiteral("%1  %2  %3")
                     .arg(step.attempt, 7)
                     .arg(delay, -width)
                     .arg(spreadMs(step.sinceFirst, m_random));
    }
    const Spread dead = deadAfter();
    lines << (m_random
            ? QStringLiteral("Parked DEAD %1 after the first attempt (median %2).")
                  .arg(spreadMs(dead, true), humanMs(dead.median))
            : QStringLiteral("Parked DEAD %1 ms%2 after the first attempt.")
                  .arg(dead.median)
                  .arg(dead.median < 1000 ? QString()
                                          : QStringLiteral(" (%1)").arg(humanMs(dead.median))));
    return lines;
}

QString PolicySchedule::humanMs(qint64 ms)
{
    if (ms < 1000)
        return QStringLiteral("%1 ms").arg(ms);
    if (ms < 60000)
        return QStringLiteral("%1 s").arg(QString::number(double(ms) / 1000.0, 'g', 3));
    const qint64 s = ms / 1000;
    if (s < 3600)
        return s % 60 ? QStringLiteral("%1 min %2 s").arg(s / 60).arg(s % 60)
                      : QStringLiteral("%1 min").arg(s / 60);
    const qint64 minutes = s / 60;
    if (minutes < 24 * 60)
        return minutes % 60 ? QStringLiteral("%1 h %2 min").arg(minutes / 60).arg(minutes % 60)
                            : QStringLiteral("%1 h").arg(minutes / 60);
    return QStringLiteral("%1 d %2 h").arg(minutes / (24 * 60)).arg(minutes / 60 % 24);
}

QString PolicySchedule::spreadText(const Spread &spread)
{
    if (spread.min == spread.max)
        return humanMs(spread.median);
    const QString low = humanMs(spread.min);
    const QString high = humanMs(spread.max);
    // "100–200 ms" when both ends are plain numbers of one unit, else "800 ms – 1.6 s".
    const qsizetype space = low.indexOf(QLatin1Char(' '));
    const QString unit = low.mid(space);
    if (low.count(QLatin1Char(' ')) == 1 && high.count(QLatin1Char(' ')) == 1
        && high.endsWith(unit))
        return low.left(space) + QStringLiteral("–") + high;
    return low + QStringLiteral(" – ") + high;
}
