// The outage storm's chart in the teaching panel: the retries in each instant up to the
// storm's clock, as spikes (amber: they fail during the outage; green: they are delivered;
// the tooltip says so, the title names the peak),
// on axes fixed for the whole run (time to its last retry, count to every event), so a herd
// stands as tall as all events and jitter flattens it.
#pragma once

#include <QWidget>

class QChart;
class QChartView;
class QLineSeries;
class QValueAxis;
class StormLesson;

class StormChart : public QWidget
{
    Q_OBJECT
public:
    explicit StormChart(QWidget *parent = nullptr);

    // Shows `lesson`'s retries in the instants up to `now`.
    void setStorm(const StormLesson &lesson, qint64 now);
    void clear();

    int peakShown() const { return m_peakShown; } // the most retries in one instant shown
    QString peakText() const { return m_peakText; } // the peak against the other policy

private:
    static QString legend(); // a short dock has no room for the chart's own
    QLineSeries *addSeries(const QString &name, const QColor &colour);

    QChart *m_chart = nullptr;
    QChartView *m_view = nullptr;
    QLineSeries *m_failing = nullptr;
    QLineSeries *m_delivered = nullptr;
    QValueAxis *m_time = nullptr;
    QValueAxis *m_count = nullptr;
    QString m_peakText;
    int m_peakShown = 0;
};
