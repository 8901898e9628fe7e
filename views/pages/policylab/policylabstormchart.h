// The Policy lab's outage what-if as one picture: for each policy compared, the retries that
// land in each second after the transport recovers (OutageStorm, per-second buckets). Plain
// exponential backoff stands as one tall spike per round (the herd); jitter lays it flat.
#pragma once

#include "outagestorm.h"

#include <QChartView>

class QLineSeries;
class QValueAxis;

class PolicyLabStormChart : public QChartView
{
    Q_OBJECT
public:
    explicit PolicyLabStormChart(QWidget *parent = nullptr);

    void setRuns(const QList<StormRun> &runs);
    // The outline drawn for run `index`: (seconds after recovery, retries in that second).
    QList<QPointF> outlineOf(int index) const;

private:
    QList<QLineSeries *> m_lines;
    QValueAxis *m_time = nullptr;
    QValueAxis *m_retries = nullptr;
};
