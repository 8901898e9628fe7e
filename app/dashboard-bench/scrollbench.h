// A benchmark mode of outbox-dashboard-bench (the dashboard with the benchmark drivers, never
// shipped) for tests/bench/scale (--bench-scroll-pages N
// --bench-report FILE [--bench-idle-ms MS]). A 5 ms heartbeat timer on the GUI thread records
// every gap between its ticks: a long gap is the GUI thread stalled. The window first stays
// open for the idle time (the health monitor refreshing as usual), then the event table is
// scrolled down through its scroll bar one page at a time (each step one keyset fetch below,
// the bounded window dropping a page at the top) while the monitor keeps refreshing. Writes
// one JSON object with the gaps, page fetch times, resident memory and the longest time
// between two snapshots (how old the figures shown got), then quits.
#pragma once

#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QTimer>

class MainWindow;

class ScrollBench : public QObject
{
    Q_OBJECT
public:
    ScrollBench(MainWindow *window, int pages, int idleMs, const QString &reportPath,
        QObject *parent = nullptr);

    void start();

private:
    void beat();
    void startScrolling();
    void step();
    void finish();
    QString report() const;

    QPointer<MainWindow> m_window;
    int m_pages = 0;
    int m_idleMs = 0;
    QString m_reportPath;
    QTimer m_heartbeat;
    QTimer m_stepper;
    QElapsedTimer m_clock;
    qint64 m_lastBeatNs = 0;
    bool m_scrolling = false;
    QList<double> m_idleGapsMs;
    QList<double> m_scrollGapsMs;
    QList<double> m_fetchMs;
    double m_firstPageMs = 0;
    int m_snapshots = 0;
    qint64 m_lastSnapshotQueryMs = 0;
    qint64 m_lastSnapshotAtMs = 0; // since start()
    qint64 m_maxSnapshotGapMs = 0;
};
