// A benchmark mode of outbox-dashboard-bench (the dashboard with the benchmark drivers, never
// shipped) for tests/bench/fleet (--fleet FILE
// --bench-fleet-ms MS --bench-report FILE): keeps the fleet view open for MS ms while every
// outbox refreshes on its own worker, and writes one JSON object: the GUI thread's longest gap
// between two beats of a 5 ms heartbeat (its longest stall, from the inside) and its p99, and
// per outbox the snapshots taken and the database time they reported (HealthSnapshot::queryMs),
// both per minute, and whether it ended down.
#pragma once

#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QTimer>

class FleetWindow;

class FleetBench : public QObject
{
    Q_OBJECT
public:
    FleetBench(
        FleetWindow *fleet, int durationMs, const QString &reportPath, QObject *parent = nullptr);

    void start();

private:
    struct Outbox
    {
        QString name;
        int snapshots = 0;
        qint64 queryMs = 0;
    };
    void beat();
    bool allAnswered() const;
    void finish();
    QString report() const;

    QPointer<FleetWindow> m_fleet;
    int m_durationMs = 0;
    QString m_reportPath;
    QTimer m_heartbeat;
    QElapsedTimer m_clock;
    qint64 m_lastBeatNs = 0;
    QList<double> m_gapsMs; // once steady
    double m_startupMaxGapMs = 0;
    qint64 m_steadyStartMs = 0; // wall clock; 0 until every outbox answered once
    QList<Outbox> m_outboxes; // in the model's rows
    qint64 m_startMs = 0; // wall clock, for a probe outside
};
