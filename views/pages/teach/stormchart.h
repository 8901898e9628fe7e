// The outage storm's charts on the Teach page: the retries in each instant up to the storm's
// clock, for the picked policy (A, in blue) and the one it is compared with (B, in amber), side
// by side on the same axes (each named with its peak above it), each over a shaded outage. Axes
// are fixed for the whole run (time to the later run's last retry, count to every event), so a
// herd stands as tall as all events and jitter flattens it.
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
    // The two series as the labels above the plots name them, e.g. "A: exponential, peak 200 in
    // one instant".
    QStringList seriesNames() const;
    QList<QPointF> pointsOf(int index) const; // spikes: (instant, 0), (instant, n), (instant, 0)
    QChartView *view(int index) const { return m_plots[index].view; }

private:
    struct Plot
    {
        QChart *chart = nullptr;
        QChartView *view = nullptr;
        QLineSeries *retries = nullptr;
        QLineSeries *outageTop = nullptr;
        QAreaSeries *outage = nullptr;
        QValueAxis *time = nullptr;
        QValueAxis *count = nullptr;
        QLabel *name = nullptr;
    };

    static QString legend(); // what a spike is, in the tooltip
    QWidget *createPlot(int index);
    void setOutage(qint64 until);
    void setRanges(qint64 timeMax, int thousands, int events);
    void setNames(const QString &mine, const QString &theirs);
    void setPeakText(const QString &text);
    static int showRetries(QLineSeries *series, const QList<StormInstant> &attempts, qint64 now);

    Plot m_plots[2];
    QString m_peakText;
    int m_peakShown = 0;
    int m_comparisonPeakShown = 0;
};
