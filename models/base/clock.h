// Where the relay and the health snapshot read "now". The wall clock gives milliseconds since
// the epoch; a scaled clock runs faster or slower for teaching; the logical clock is set by
// the scenario runner. now() is safe to call from any thread.
#pragma once

#include <QElapsedTimer>
#include <QMutex>
#include <QtGlobal>

class Clock
{
public:
    virtual ~Clock() = default;
    virtual qint64 now() const = 0;
    // How many clock units pass per real millisecond (1 for the wall clock).
    virtual double speed() const { return 1.0; }
};

class SystemClock : public Clock
{
public:
    qint64 now() const override;
};

// Starts at the wall-clock time it was created and advances `speed` times as fast.
class ScaledClock : public Clock
{
public:
    explicit ScaledClock(double speed = 1.0);
    qint64 now() const override;
    double speed() const override;
    void setSpeed(double speed); // continues from the current time, without a jump

private:
    mutable QMutex m_mutex;
    QElapsedTimer m_elapsed;
    qint64 m_origin = 0;
    double m_speed = 1.0;
};

class LogicalClock : public Clock
{
public:
    qint64 now() const override;
    void set(qint64 now);

private:
    mutable QMutex m_mutex;
    qint64 m_now = 0;
};
