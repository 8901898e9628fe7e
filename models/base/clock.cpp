#include "clock.h"

#include <QDateTime>

qint64 SystemClock::now() const
{
    return QDateTime::currentMSecsSinceEpoch();
}

ScaledClock::ScaledClock(double speed)
    : m_origin(QDateTime::currentMSecsSinceEpoch())
    , m_speed(speed)
{
    m_elapsed.start();
}

qint64 ScaledClock::now() const
{
    QMutexLocker lock(&m_mutex);
    return m_origin + qint64(double(m_elapsed.elapsed()) * m_speed);
}

double ScaledClock::speed() const
{
    QMutexLocker lock(&m_mutex);
    return m_speed;
}

void ScaledClock::setSpeed(double speed)
{
    QMutexLocker lock(&m_mutex);
    m_origin += qint64(double(m_elapsed.restart()) * m_speed);
    m_speed = speed;
}

qint64 LogicalClock::now() const
{
    QMutexLocker lock(&m_mutex);
    return m_now;
}

void LogicalClock::set(qint64 now)
{
    QMutexLocker lock(&m_mutex);
    m_now = now;
}
