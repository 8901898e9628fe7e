#include "policylabschedulechart.h"

#include "chartstyle.h"
#include "policylabcolours.h"
#include "themecolours.h"

#include <QLegendMarker>
#include <QLineSeries>
#include <QLocale>
#include <QScatterSeries>
#include <QValueAxis>

namespace {

// A staircase: attempt k runs at since_k, so the count steps from k-1 to k there.
QList<QPointF> staircase(const PolicySchedule &schedule)
{
    QList<QPointF> points {{0, 0}};
    for (const ScheduleStep &step : schedule.steps()) {
        const qreal seconds = qreal(step.sinceFirst.median) / 1000.0;
        points << QPointF(seconds, step.attempt - 1) << QPointF(seconds, step.attempt);
    }
    return points;
}

} // namespace

PolicyLabScheduleChart::PolicyLabScheduleChart(QWidget *parent)
    : QChartView(parent)
{
    setObjectName(QStringLiteral("policyScheduleChart"));
    QChart *chart = ChartStyle::newChart(tr("Attempts made, by seconds since the first"));
    QChart *defaultChart = this->chart(); // made by QChartView; setChart() releases it
    setChart(chart);
    delete defaultChart;
    setRenderHint(QPainter::Antialiasing);
    setAccessibleName(tr("Attempts made, by seconds since the first"));
    setAccessibleDescription(tr("Waiting for the simulation."));
    setToolTip(tr("A jittered policy's line is its median schedule; the table gives its range."));
    m_time = new QValueAxis;
    m_time->setLabelFormat(QStringLiteral("%g"));
    m_attempts = ChartStyle::countAxis();
    ChartStyle::addAxis(chart, m_time, Qt::AlignBottom);
    ChartStyle::addAxis(chart, m_attempts, Qt::AlignLeft);
    m_dead = new QScatterSeries;
    m_dead->setName(tr("parked DEAD"));
    m_dead->setMarkerSize(9);
    m_dead->setColor(ThemeColours::status(QStringLiteral("DEAD")));
    m_dead->setBorderColor(ThemeColours::status(QStringLiteral("DEAD")));
    chart->addSeries(m_dead);
    // The red dot is explained under the table; the legend names the policies only.
    chart->legend()->markers(m_dead).constFirst()->setVisible(false);
    m_dead->attachAxis(m_time);
    m_dead->attachAxis(m_attempts);
}

void PolicyLabScheduleChart::setSchedules(const QList<PolicySchedule> &schedules)
{
    while (m_lines.size() > schedules.size()) {
        QLineSeries *line = m_lines.takeLast();
        chart()->removeSeries(line); // gives it back
        delete line;
    }
    for (qsizetype i = m_lines.size(); i < schedules.size(); ++i) {
        auto *line = new QLineSeries; // the chart owns it
        line->setPen(QPen(PolicyLabColours::of(int(i)), 2));
        chart()->addSeries(line);
        line->attachAxis(m_time);
        line->attachAxis(m_attempts);
        m_lines << line;
    }
    QList<QPointF> dead;
    qreal lastSecond = 0;
    int budget = 0;
    QStringList parked; // in words, for a screen reader
    for (qsizetype i = 0; i < schedules.size(); ++i) {
        const PolicySchedule &schedule = schedules.at(i);
        parked << tr("%1: parked DEAD at attempt %2, %3 s after the first")
                      .arg(schedule.policy())
                      .arg(schedule.budget())
                      .arg(QLocale().toString(qreal(schedule.deadAfter().median) / 1000.0, 'g', 4));
        m_lines.at(i)->setName(
            PolicyLabColours::label(int(i), int(schedules.size())) + schedule.policy());
        m_lines.at(i)->replace(staircase(schedule));
        const qreal deadAt = qreal(schedule.deadAfter().median) / 1000.0;
        dead << QPointF(deadAt, schedule.budget());
        lastSecond = std::max(lastSecond, deadAt);
        budget = std::max(budget, schedule.budget());
    }
    m_dead->replace(dead);
    m_time->setRange(0, std::max<qreal>(lastSecond * 1.05, 0.01));
    m_time->applyNiceNumbers();
    ChartStyle::setCountRange(m_attempts, budget);
    setAccessibleDescription(tr("Attempts made, by seconds since the first: %1.")
                                 .arg(parked.join(QStringLiteral("; "))));
}

QList<QPointF> PolicyLabScheduleChart::stepsOf(int index) const
{
    return index < m_lines.size() ? m_lines.at(index)->points() : QList<QPointF>();
}
