#include "stormchart.h"

#include "chartstyle.h"
#include "policylabcolours.h"
#include "stormlesson.h"
#include "themecolours.h"

#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QVBoxLayout>
#include <QValueAxis>
#include <cmath>

namespace {

// "exponential" for "exponential:initial=100,…": the label is short, the tooltip has the spec.
QString kindOf(const QString &spec)
{
    return spec.section(u':', 0, 0);
}

} // namespace

StormChart::StormChart(QWidget *parent)
    : QWidget(parent)
{
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    for (int i = 0; i < 2; ++i)
        layout->addWidget(createPlot(i), 1);
    clear();
}

// One policy's plot: its name and peak above, the retries per instant over the shaded outage.
QWidget *StormChart::createPlot(int index)
{
    Plot &plot = m_plots[index];
    plot.chart = ChartStyle::newChart(QString());
    plot.time = new QValueAxis;
    plot.count = ChartStyle::countAxis();
    plot.outageTop = new QLineSeries; // the outage band's upper edge
    plot.outage = new QAreaSeries(plot.outageTop);
    plot.outage->setName(tr("outage"));
    QColor band = ThemeColours::errorText();
    band.setAlpha(40);
    plot.outage->setBrush(band);
    plot.outage->setPen(Qt::NoPen);
    plot.chart->addSeries(plot.outage); // the chart owns the band, the band its edge
    plot.outageTop->setParent(plot.outage);
    plot.retries = new QLineSeries;
    QPen pen(PolicyLabColours::of(index));
    pen.setWidth(2);
    plot.retries->setPen(pen);
    plot.chart->addSeries(plot.retries);
    plot.chart->legend()->hide(); // the label above names the policy, wrapped, never elided
    plot.time->setLabelFormat(QStringLiteral("%.0f"));
    ChartStyle::addAxis(plot.chart, plot.time, Qt::AlignBottom);
    ChartStyle::addAxis(plot.chart, plot.count, Qt::AlignLeft);
    for (QAbstractSeries *series : std::initializer_list<QAbstractSeries *> {plot.outage, plot.retries}) {
        series->attachAxis(plot.time);
        series->attachAxis(plot.count);
    }
    plot.view = new QChartView(plot.chart);
    plot.view->setObjectName(index == 0 ? QStringLiteral("stormChartView")
                                        : QStringLiteral("stormComparisonView"));
    plot.view->setAccessibleName(index == 0 ? tr("Retries per instant, picked policy")
                                            : tr("Retries per instant, compared policy"));
    plot.view->setRenderHint(QPainter::Antialiasing);
    plot.view->setMinimumSize(240, 170);
    plot.name = new QLabel;
    plot.name->setObjectName(index == 0 ? QStringLiteral("stormPeakA") : QStringLiteral("stormPeakB"));
    plot.name->setTextFormat(Qt::PlainText);
    plot.name->setWordWrap(true);
    QPalette palette = plot.name->palette();
    palette.setColor(QPalette::WindowText, PolicyLabColours::of(index));
    plot.name->setPalette(palette);
    auto *column = new QWidget;
    auto *layout = new QVBoxLayout(column);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(plot.name);
    layout->addWidget(plot.view, 1);
    return column;
}

QString StormChart::legend()
{
    return tr("Each spike: the retries in one instant of the logical clock, under each policy "
              "(A: the one picked, B: the one it is compared with); shaded: the transport is "
              "down.");
}

void StormChart::clear()
{
    for (Plot &plot : m_plots)
        plot.retries->clear();
    setNames(tr("A: the picked policy"), tr("B: the policy it is compared with"));
    setOutage(0);
    setRanges(1000, 1, 10);
    m_peakShown = 0;
    m_comparisonPeakShown = 0;
    setPeakText(tr("The storm runs on the session's worker…"));
}

void StormChart::setOutage(qint64 until)
{
    for (Plot &plot : m_plots) {
        const qreal height = plot.count->max();
        plot.outageTop->replace({QPointF(0, height), QPointF(qreal(until), height)});
        plot.outage->setVisible(until > 0);
    }
}

// The same axes on both plots: a herd and its spread compare at a glance.
void StormChart::setRanges(qint64 timeMax, int thousands, int events)
{
    for (Plot &plot : m_plots) {
        plot.time->setRange(0, qreal(timeMax));
        plot.time->setTickCount(std::min(thousands, 4) + 1);
        ChartStyle::setCountRange(plot.count, events);
        plot.count->setTickCount(3);
    }
}

// Draws the retries (attempts after the first) of each instant up to `now` as spikes; returns
// the most in one instant.
int StormChart::showRetries(QLineSeries *series, const QList<StormInstant> &attempts, qint64 now)
{
    QList<QPointF> points;
    int peak = 0;
    const QMap<qint64, int> perInstant = StormLesson::retriesPerInstant(attempts);
    for (auto it = perInstant.cbegin(); it != perInstant.cend() && it.key() <= now; ++it) {
        points << QPointF(qreal(it.key()), 0) << QPointF(qreal(it.key()), it.value())
               << QPointF(qreal(it.key()), 0);
        peak = std::max(peak, it.value());
    }
    series->replace(points);
    return peak;
}

void StormChart::setStorm(const StormLesson &lesson, qint64 now)
{
    m_peakShown = showRetries(m_plots[0].retries, lesson.attempts, now);
    m_comparisonPeakShown = showRetries(m_plots[1].retries, lesson.comparisonAttempts, now);
    const bool ended = now >= lesson.endsAt();
    const auto name = [ended](int index, const QString &policy, int peak) -> QString {
        return PolicyLabColours::label(index, 2)
            + (ended ? tr("%1, peak %2 in one instant") : tr("%1, peak %2 so far"))
                  .arg(kindOf(policy))
                  .arg(peak);
    };
    setNames(name(0, lesson.policy, m_peakShown),
        name(1, lesson.comparisonPolicy, m_comparisonPeakShown));
    // Fixed for the run: to the thousand past the later run's last retry, every event high.
    const int thousands = int(std::ceil((lesson.endsAt() + 1) / 1000.0));
    setRanges(thousands * 1000, thousands, lesson.events());
    setOutage(std::min(lesson.outageUntil, now));
    setPeakText(ended ? tr("Peak: %1 retries in one instant under %2; %3 under %4.")
                            .arg(m_peakShown)
                            .arg(lesson.policy)
                            .arg(lesson.comparisonPeak)
                            .arg(lesson.comparisonPolicy)
                      : tr("Peak so far: %1 retries in one instant under %2, %3 under %4.")
                            .arg(m_peakShown)
                            .arg(lesson.policy)
                            .arg(m_comparisonPeakShown)
                            .arg(lesson.comparisonPolicy));
}

void StormChart::setPeakText(const QString &text)
{
    m_peakText = text;
    for (Plot &plot : m_plots) {
        plot.view->setToolTip(m_peakText + u'\n' + legend());
        plot.view->setAccessibleDescription(m_peakText); // the narration ends with it too
    }
}

void StormChart::setNames(const QString &mine, const QString &theirs)
{
    m_plots[0].retries->setName(mine);
    m_plots[1].retries->setName(theirs);
    m_plots[0].name->setText(u"■ "_qs + mine);
    m_plots[1].name->setText(u"■ "_qs + theirs);
}

QStringList StormChart::seriesNames() const
{
    return {m_plots[0].retries->name(), m_plots[1].retries->name()};
}

QList<QPointF> StormChart::pointsOf(int index) const
{
    return m_plots[index == 0 ? 0 : 1].retries->points();
}
