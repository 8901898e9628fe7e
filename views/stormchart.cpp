#include "stormchart.h"

#include "chartstyle.h"
#include "stormlesson.h"
#include "themecolours.h"

#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QLineSeries>
#include <QVBoxLayout>
#include <QValueAxis>
#include <cmath>

namespace {

// A spike per instant: up to the count and back to the baseline.
void addSpike(QList<QPointF> *points, qint64 at, int count)
{
    *points << QPointF(at, 0) << QPointF(at, count) << QPointF(at, 0);
}

} // namespace

StormChart::StormChart(QWidget *parent)
    : QWidget(parent)
    , m_chart(ChartStyle::newChart(tr("Retries per instant")))
    , m_time(new QValueAxis)
    , m_count(ChartStyle::countAxis())
    , m_peak(new QLabel)
{
    m_failing = addSeries(tr("fail (outage)"), ThemeColours::status(QStringLiteral("RETRY")));
    m_delivered = addSeries(tr("delivered"), ThemeColours::status(QStringLiteral("DELIVERED")));
    m_time->setLabelFormat(QStringLiteral("%.0f"));
    m_time->setTitleText(tr("logical time t"));
    ChartStyle::addAxis(m_chart, m_time, Qt::AlignBottom);
    ChartStyle::addAxis(m_chart, m_count, Qt::AlignLeft);
    for (QLineSeries *series : {m_failing, m_delivered}) {
        series->attachAxis(m_time);
        series->attachAxis(m_count);
    }
    m_view = new QChartView(m_chart);
    m_view->setObjectName(QStringLiteral("stormChartView"));
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumSize(320, 200);
    m_peak->setObjectName(QStringLiteral("stormPeak"));
    m_peak->setWordWrap(true);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_peak);
    clear();
}

QLineSeries *StormChart::addSeries(const QString &name, const QColor &colour)
{
    auto *series = new QLineSeries;
    series->setName(name);
    QPen pen(colour);
    pen.setWidth(3);
    series->setPen(pen);
    m_chart->addSeries(series);
    return series;
}

void StormChart::clear()
{
    m_failing->clear();
    m_delivered->clear();
    m_time->setRange(0, 1000);
    ChartStyle::setCountRange(m_count, 10);
    m_peakShown = 0;
    m_peak->setText(tr("The storm runs on the session's worker…"));
}

void StormChart::setStorm(const StormLesson &lesson, qint64 now)
{
    QMap<qint64, std::pair<int, int>> perInstant; // failing, delivered
    for (const StormInstant &instant : lesson.attempts) {
        if (instant.attemptNo > 1 && instant.at <= now) {
            perInstant[instant.at].first += instant.retried + instant.dead;
            perInstant[instant.at].second += instant.delivered;
        }
    }
    QList<QPointF> failing, delivered;
    m_peakShown = 0;
    for (auto it = perInstant.cbegin(); it != perInstant.cend(); ++it) {
        if (it->first > 0)
            addSpike(&failing, it.key(), it->first);
        if (it->second > 0)
            addSpike(&delivered, it.key(), it->second);
        m_peakShown = std::max(m_peakShown, it->first + it->second);
    }
    m_failing->replace(failing);
    m_delivered->replace(delivered);
    // Fixed for the run: a step of 500 units past its last retry, every event high.
    m_time->setRange(0, std::ceil((lesson.finishedAt() + 1) / 500.0) * 500);
    ChartStyle::setCountRange(m_count, lesson.events());
    const bool ended = now >= lesson.finishedAt();
    m_peak->setText(ended ? tr("Peak: %1 retries in one instant under %2; %3 under %4.")
                                .arg(m_peakShown)
                                .arg(lesson.policy)
                                .arg(lesson.comparisonPeak)
                                .arg(lesson.comparisonPolicy)
                          : tr("Peak so far: %1 retries in one instant under %2.")
                                .arg(m_peakShown)
                                .arg(lesson.policy));
}

QString StormChart::peakText() const
{
    return m_peak->text();
}
