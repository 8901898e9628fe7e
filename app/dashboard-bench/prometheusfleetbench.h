// A benchmark mode of outbox-dashboard-bench for tests/bench/fleet-prometheus
// (--fleet-prometheus URL --bench-fleet-ms MS --bench-expect N --bench-report FILE): from the
// fleet view's opening, the time until its rows hold N outboxes that are up (the fill); then, left
// alone for MS ms, the process's CPU time (user + system, getrusage) as a share of one core, and
// the database connections it holds (Qt SQL connections and open SQLite files: both should be
// 0). Writes one JSON object and quits.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>

class FleetWindow;

class PrometheusFleetBench : public QObject
{
    Q_OBJECT
public:
    PrometheusFleetBench(FleetWindow *fleet, int idleMs, int expected, const QString &reportPath,
        QObject *parent = nullptr);

    void start();

private:
    void onRefreshed();
    void finish();
    static double cpuSeconds();
    static int openDatabaseFiles();

    QPointer<FleetWindow> m_fleet;
    int m_idleMs = 0;
    int m_expected = 0;
    QString m_reportPath;
    QElapsedTimer m_clock;
    qint64 m_fillMs = -1;
    double m_cpuAtFill = 0;
    qint64 m_idleStartMs = 0;
    int m_readsAtFill = 0;
};
