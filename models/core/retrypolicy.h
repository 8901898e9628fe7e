// Retry delay policies named by spec strings shared by the GUI and the CLI:
// seed, capped:D1,...,Dn, fixed:D, exponential:initial=..,multiplier=..,max=..,
// exponential-random:..., full-jitter:base=..,max=...
#pragma once

#include <QList>
#include <QString>

class QRandomGenerator;

class RetryPolicy
{
public:
    enum class Kind { Capped, Fixed, Exponential, ExponentialRandom, FullJitter };

    RetryPolicy(); // the seed policy: capped:10,20,40

    // Returns false and sets *error naming what is wrong with the spec.
    static bool parse(const QString &spec, RetryPolicy *policy, QString *error);

    // Delay after the failure numbered `failures` (1 = first failure). Deterministic kinds
    // ignore the generator; jittered kinds draw from it.
    qint64 delayAfter(int failures, QRandomGenerator &random) const;

    // Smallest and largest delay delayAfter() can return for that failure.
    qint64 minimumDelayAfter(int failures) const;
    qint64 maximumDelayAfter(int failures) const;

    Kind kind() const { return m_kind; }
    QString spec() const { return m_spec; }

private:
    qint64 exponentialBase(int failures) const;

    Kind m_kind = Kind::Capped;
    QString m_spec;
    QList<qint64> m_delays; // Capped and Fixed
    qint64 m_initial = 100; // Exponential kinds; `base` for FullJitter
    double m_multiplier = 2.0;
    qint64 m_max = 30000;
};

// How many attempts an event gets before it is parked DEAD, and an optional elapsed budget.
struct RetryBudget
{
    int maxAttempts = 3;
    qint64 maxElapsed = 0; // 0 = no elapsed budget; measured from the event's created_at
};
