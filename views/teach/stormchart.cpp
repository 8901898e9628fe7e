#include "stormchart.h"

#include "chartstyle.h"
#include "stormlesson.h"
#include "themecolours.h"

#include <QChart>
#include <QChartView>
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

{
    m_failing = addSeries(tr("fail (outage)"), ThemeColours::status(QStringLiteral("RETRY")));
    m_delivered = addSeries(tr("delivered"), ThemeColours::status(QStringLiteral("DELIVERED")));
    m_time->setLabelFormat(QStringLiteral("%.0f"));
    // A short dock (1366×768) leaves the plot a hundred pixels: no legend, the title says it.
    m_chart->legend()->hide();
    ChartStyle::addAxis(m_chart, m_time, Qt::AlignBottom);
    ChartStyle::addAxis(m_chart, m_count, Qt::AlignLeft);
    for (QLineSeries *series : {m_failing, m_delivered}) {
        series->attachAxis(m_time);
        series->attachAxis(m_count);
    }
    m_view = new QChartView(m_chart);
    m_view->setObjectName(QStringLiteral("stormChartView"));
    m_view->setAccessibleName(tr("Retries per instant"));
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumSize(320, 110);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view, 1);
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

QString StormChart::legend()
{
    return tr("Each spike: the retries in one instant of the logical clock (amber: they fail, the "
              "transport is down; green: they are delivered).");
}

void StormChart::clear()
{
    m_failing->clear();
    m_delivered->clear();
    m_time->setRange(0, 1000);
    ChartStyle::setCountRange(m_count, 10);
    m_peakShown = 0;
    m_chart->setTitle(tr("Retries per instant"));
    m_peakText = tr("The storm runs on the session's worker…");
    m_view->setToolTip(m_peakText + u'\n' + legend());
    m_view->setAccessibleDescription(m_peakText);
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
    // Fixed for the run: to the thousand past its last retry, every event high; few ticks, so
    // that their labels fit a short dock.
    const int thousands = int(std::ceil((lesson.finishedAt() + 1) / 1000.0));
    m_time->setRange(0, thousands * 1000);
    m_time->setTickCount(thousands + 1);
    ChartStyle::setCountRange(m_count, lesson.events());
    m_count->setTickCount(3);
    const bool ended = now >= lesson.finishedAt();
    m_chart->setTitle(ended ? tr("Retries per instant: peak %1").arg(m_peakShown)
                            : tr("Retries per instant: peak %1 so far").arg(m_peakShown));
    m_peakText = ended ? tr("Peak: %1 retries in one instant under %2; %3 under %4.")
                             .arg(m_peakShown)
                             .arg(lesson.policy)
                             .arg(lesson.comparisonPeak)
                             .arg(lesson.comparisonPolicy)
                       : tr("Peak so far: %1 retries in one instant under %2.")
                             .arg(m_peakShown)
                             .arg(lesson.policy);
    m_view->setToolTip(m_peakText + u'\n' + legend());
    m_view->setAccessibleDescription(m_peakText); // the narration ends with it too
}
