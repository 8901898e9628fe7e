#include "policylabstormchart.h"

#include "chartstyle.h"
#include "policylabcolours.h"

#include <QLineSeries>
#include <QValueAxis>

namespace {

// Bars as one outline: second s holds its count from s to s + 1.
QList<QPointF> outline(const QList<int> &perSecond)
{
    QList<QPointF> points {{0, 0}};
    for (qsizetype s = 0; s < perSecond.size(); ++s)
        points << QPointF(qreal(s), perSecond.at(s)) << QPointF(qreal(s + 1), perSecond.at(s));
    points << QPointF(qreal(perSecond.size()), 0);
    return points;
}

} // namespace

PolicyLabStormChart::PolicyLabStormChart(QWidget *parent)
    : QChartView(parent)
{
    setObjectName(QStringLiteral("policyStormChart"));
    QChart *chart = ChartStyle::newChart(tr("Retries per second after the transport recovers"));
    QChart *defaultChart = this->chart(); // made by QChartView; setChart() releases it
    setChart(chart);
    delete defaultChart;
    setRenderHint(QPainter::Antialiasing);
    setAccessibleName(tr("Retries per second after the transport recovers"));
    setAccessibleDescription(tr("Waiting for the simulation."));
    m_time = new QValueAxis;
    m_time->setLabelFormat(QStringLiteral("+%.0f s"));
    m_retries = ChartStyle::countAxis();
    ChartStyle::addAxis(chart, m_time, Qt::AlignBottom);
    ChartStyle::addAxis(chart, m_retries, Qt::AlignLeft);
}

void PolicyLabStormChart::setRuns(const QList<StormRun> &runs)
{
    while (m_lines.size() > runs.size()) {
        QLineSeries *line = m_lines.takeLast();
        chart()->removeSeries(line); // gives it back
        delete line;
    }
    for (qsizetype i = m_lines.size(); i < runs.size(); ++i) {
        auto *line = new QLineSeries; // the chart owns it
        line->setPen(QPen(PolicyLabColours::of(int(i)), 2));
        chart()->addSeries(line);
        line->attachAxis(m_time);
        line->attachAxis(m_retries);
        m_lines << line;
    }
    qsizetype seconds = 1;
    int peak = 0;
    QStringList peaks; // in words, for a screen reader
    for (qsizetype i = 0; i < runs.size(); ++i) {
        peaks << tr("%1: a peak of %2 per second")
                     .arg(runs.at(i).policy)
                     .arg(runs.at(i).peakAfterRecovery());
        const QList<int> perSecond = runs.at(i).retriesPerSecondAfterRecovery();
        m_lines.at(i)->setName(PolicyLabColours::label(int(i), int(runs.size()))
            + tr("%1, peak %2/s").arg(runs.at(i).policy).arg(runs.at(i).peakAfterRecovery()));
        m_lines.at(i)->replace(outline(perSecond));
        seconds = std::max(seconds, perSecond.size());
        peak = std::max(peak, runs.at(i).peakAfterRecovery());
    }
    m_time->setRange(0, qreal(seconds));
    m_time->applyNiceNumbers();
    ChartStyle::setCountRange(m_retries, peak);
    setAccessibleDescription(tr("Retries per second after the transport recovers: %1.")
                                 .arg(peaks.join(QStringLiteral("; "))));
}

QList<QPointF> PolicyLabStormChart::outlineOf(int index) const
{
    return index < m_lines.size() ? m_lines.at(index)->points() : QList<QPointF>();
}
