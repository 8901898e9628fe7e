// The Policy lab's step chart: for each policy compared, how many attempts an always-failing
// event has made by each moment since its first (the median for a jittered policy), ending in a
// red dot where the budget parks it DEAD. Steep early steps and long flat ones read at a glance.
#pragma once

#include "policyschedule.h"

#include <QChartView>

class QScatterSeries;
class QValueAxis;

class PolicyLabScheduleChart : public QChartView
{
    Q_OBJECT
public:
    explicit PolicyLabScheduleChart(QWidget *parent = nullptr);

    void setSchedules(const QList<PolicySchedule> &schedules);
    // The steps drawn for schedule `index`: (seconds since the first attempt, attempts made).
    QList<QPointF> stepsOf(int index) const;

private:
    QList<class QLineSeries *> m_lines;
    QScatterSeries *m_dead = nullptr;
    QValueAxis *m_time = nullptr;
    QValueAxis *m_attempts = nullptr;
};
