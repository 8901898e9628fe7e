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

// "exponential" for "exponential:initial=100,…": the legend is short, the tooltip has the spec.
QString kindOf(const QString &spec)
{
    return spec.section(u':', 0, 0);
}

} // namespace

StormChart::StormChart(QWidget *parent)
    : QWidget(parent)
    , m_chart(ChartStyle::newChart(QString()))
    , m_time(new QValueAxis)
    , m_count(ChartStyle::countAxis())

{
    m_outageTop = new QLineSeries; // the outage band's upper edge
    m_outage = new QAreaSeries(m_outageTop);
    m_outage->setName(tr("outage"));
    QColor band = ThemeColours::errorText();
    band.setAlpha(40);
    m_outage->setBrush(band);
    m_outage->setPen(Qt::NoPen);
    m_chart->addSeries(m_outage); // the chart owns the band, the band its edge
    m_outageTop->setParent(m_outage);
    m_mine = addSeries(PolicyLabColours::of(0));
    m_theirs = addSeries(PolicyLabColours::of(1));
    m_time->setLabelFormat(QStringLiteral("%.0f"));
    // A label per policy names it with its peak above the plot, as the Policy lab's legend does;
    // labels wrap where a legend would elide them in a short dock.
    m_chart->legend()->hide();
    ChartStyle::addAxis(m_chart, m_time, Qt::AlignBottom);
    ChartStyle::addAxis(m_chart, m_count, Qt::AlignLeft);
    for (QAbstractSeries *series :
        std::initializer_list<QAbstractSeries *> {m_outage, m_mine, m_theirs}) {
        series->attachAxis(m_time);
        series->attachAxis(m_count);
    }
    m_view = new QChartView(m_chart);
    m_view->setObjectName(QStringLiteral("stormChartView"));
    m_view->setAccessibleName(tr("Retries per instant"));
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumSize(320, 130);
    auto *names = new QHBoxLayout;
    for (int i = 0; i < 2; ++i) {
        auto *label = new QLabel;
        label->setObjectName(i == 0 ? QStringLiteral("stormPeakA") : QStringLiteral("stormPeakB"));
        label->setTextFormat(Qt::PlainText);
        label->setWordWrap(true);
        QPalette palette = label->palette();
        palette.setColor(QPalette::WindowText, PolicyLabColours::of(i));
        label->setPalette(palette);
        names->addWidget(label, 1);
        m_names[i] = label;
    }
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(names);
    layout->addWidget(m_view, 1);
    clear();
}

QLineSeries *StormChart::addSeries(const QColor &colour)
{
    auto *series = new QLineSeries;
    QPen pen(colour);
    pen.setWidth(2);
    series->setPen(pen);
    m_chart->addSeries(series);
    return series;
}

QString StormChart::legend()
{
    return tr("Each spike: the retries in one instant of the logical clock, under each policy "
              "(A: the one picked, B: the one it is compared with); shaded: the transport is "
              "down.");
}

void StormChart::clear()
{
    m_mine->clear();
    m_theirs->clear();
    setNames(tr("A: the picked policy"), tr("B: the policy it is compared with"));
    setOutage(0, 0);
    m_time->setRange(0, 1000);
    ChartStyle::setCountRange(m_count, 10);
    m_peakShown = 0;
    m_comparisonPeakShown = 0;
    m_peakText = tr("The storm runs on the session's worker…");
    m_view->setToolTip(m_peakText + u'\n' + legend());
    m_view->setAccessibleDescription(m_peakText);
}

void StormChart::setOutage(qint64 until, int height)
{
    m_outageTop->replace({QPointF(0, height), QPointF(qreal(until), height)});
    m_outage->setVisible(until > 0);
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
    m_peakShown = showRetries(m_mine, lesson.attempts, now);
    m_comparisonPeakShown = showRetries(m_theirs, lesson.comparisonAttempts, now);
    const bool ended = now >= lesson.endsAt();
    const auto name = [ended](int index, const QString &policy, int peak) -> QString {
        return PolicyLabColours::label(index, 2)
            + (ended ? tr("%1, peak %2 in one instant") : tr("%1, peak %2 so far"))
                  .arg(kindOf(policy))
                  .arg(peak);
    };
    setNames(name(0, lesson.policy, m_peakShown),
        name(1, lesson.comparisonPolicy, m_comparisonPeakShown));
    // Fixed for the run: to the thousand past the later run's last retry, every event high; few
    // ticks, so that their labels fit a short dock.
    const int thousands = int(std::ceil((lesson.endsAt() + 1) / 1000.0));
    m_time->setRange(0, thousands * 1000);
    m_time->setTickCount(thousands + 1);
    ChartStyle::setCountRange(m_count, lesson.events());
    m_count->setTickCount(3);
    setOutage(std::min(lesson.outageUntil, now), int(m_count->max()));
    m_peakText = ended ? tr("Peak: %1 retries in one instant under %2; %3 under %4.")
                             .arg(m_peakShown)
                             .arg(lesson.policy)
                             .arg(lesson.comparisonPeak)
                             .arg(lesson.comparisonPolicy)
                       : tr("Peak so far: %1 retries in one instant under %2, %3 under %4.")
                             .arg(m_peakShown)
                             .arg(lesson.policy)
                             .arg(m_comparisonPeakShown)
                             .arg(lesson.comparisonPolicy);
    m_view->setToolTip(m_peakText + u'\n' + legend());
    m_view->setAccessibleDescription(m_peakText); // the narration ends with it too
}

void StormChart::setNames(const QString &mine, const QString &theirs)
{
    m_mine->setName(mine);
    m_theirs->setName(theirs);
    m_names[0]->setText(u"■ "_qs + mine);
    m_names[1]->setText(u"■ "_qs + theirs);
}

QStringList StormChart::seriesNames() const
{
    return {m_mine->name(), m_theirs->name()};
}

QList<QPointF> StormChart::pointsOf(int index) const
{
    return (index == 0 ? m_mine : m_theirs)->points();
}
