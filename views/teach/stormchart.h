// The outage storm's chart in the teaching panel: the retries in each instant up to the
// storm's clock, for the picked policy and the one it is compared with, side by side on the same
// axes as the Policy lab shows two policies (A in blue, B in amber; each named with its peak),
// over a shaded outage. Axes are fixed for the whole run (time to the later run's last retry,
// count to every event), so a herd stands as tall as all events and jitter flattens it.
#pragma once

#include <QWidget>

class QAreaSeries;
class QChart;
class QChartView;
class QLabel;
class QLineSeries;
class QValueAxis;
class StormLesson;
struct StormInstant;

class StormChart : public QWidget
{
    Q_OBJECT
public:
    explicit StormChart(QWidget *parent = nullptr);

    // Shows `lesson`'s retries, and its comparison's, in the instants up to `now`.
    void setStorm(const StormLesson &lesson, qint64 now);
    void clear();

    int peakShown() const { return m_peakShown; } // the picked policy's most retries in one instant
    int comparisonPeakShown() const { return m_comparisonPeakShown; }
    QString peakText() const { return m_peakText; } // the peak against the other policy
    // The two series as the labels above the plot name them, e.g. "A: exponential, peak 200 in
    // one instant".
    QStringList seriesNames() const;
    QList<QPointF> pointsOf(int index) const; // spikes: (instant, 0), (instant, n), (instant, 0)

private:
    static QString legend(); // what a spike is, in the tooltip
    QLineSeries *addSeries(const QColor &colour);
    void setOutage(qint64 until, int height);
    void setNames(const QString &mine, const QString &theirs);
    int showRetries(QLineSeries *series, const QList<StormInstant> &attempts, qint64 now);

    QChart *m_chart = nullptr;
    QChartView *m_view = nullptr;
    QLineSeries *m_mine = nullptr;
    QLineSeries *m_theirs = nullptr;
    QLineSeries *m_outageTop = nullptr;
    QAreaSeries *m_outage = nullptr;
    QValueAxis *m_time = nullptr;
    QValueAxis *m_count = nullptr;
    QLabel *m_names[2] = {};
    QString m_peakText;
    int m_peakShown = 0;
    int m_comparisonPeakShown = 0;
};
