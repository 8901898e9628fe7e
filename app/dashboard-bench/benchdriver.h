// A benchmark mode of outbox-dashboard-bench (the dashboard with the benchmark drivers, never
// shipped) for tests/bench/scale (--bench-script STEPS
// --bench-report FILE [--bench-hold-ms MS]): drives the open window through the widgets a user
// touches, one step after the other, and writes one JSON object with a time window (wall
// clock, ms since the epoch) per step, so that a probe outside the program (ping-probe) can
// tell the GUI thread's longest stall during each. STEPS, separated by commas:
//   idle:MS          stay open MS ms
//   sort-type        click the event table's "Type" header
//   type-search:TEXT type TEXT into the search field, one key every 150 ms
//   id-search:ID     set the search field to ID at once; done when the row with that ID shows
//   export:N:FILE    filter by age to about N rows of a generated outbox, then export them as
//                    the "Export events…" action does, to FILE
//   payload-search:TEXT  paste TEXT (a JSON fragment; no comma) into the payload field; done
//                    when the table's read with it answered (rows, or its error: a timeout)
//   restart:MS       create REPORT.restart (for the script to restart the server), stay MS ms
// Each step waits until what it triggered shows (or a timeout), then holds --bench-hold-ms
// (default two refresh intervals) so that the refreshes after it count too. A 5 ms heartbeat
// timer records the longest gap of each step from the inside. Every snapshot and every change
// of the table is logged with its time, for the recovery time after a restart.
#pragma once

#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QPointer>
#include <QTimer>
#include <functional>

class MainWindow;
class QAbstractItemModel;

class BenchDriver : public QObject
{
    Q_OBJECT
public:
    struct Step
    {
        QString kind;
        QString text; // type-search, id-search, payload-search: the text; export: the file
        qint64 number = 0; // idle, restart: ms; export: rows
    };
    static constexpr int DefaultHoldMs = 4000;
    static constexpr int StepTimeoutMs = 180000;
    static constexpr int KeyIntervalMs = 150;

    // Empty on a script that does not parse; *error says why.
    static QList<Step> parse(const QString &script, QString *error);

    BenchDriver(MainWindow *window, const QList<Step> &steps, const QString &reportPath, int holdMs,
        QObject *parent = nullptr);

    void start();

private:
    struct Phase
    {
        QString step;
        qint64 startMs = 0; // wall clock
        qint64 endMs = 0;
        double doneMs = -1; // from the action until what it triggered showed
        double maxGapMs = 0;
        QString extra; // more JSON members, each with a leading comma
    };

    void beat();
    void nextStep();
    void perform(const Step &step);
    void cueRestart(int holdMs);
    void sortByType();
    void typeSearch(const QString &text);
    void searchId(const QString &id);
    void exportRows(qint64 rows, const QString &path);
    void searchPayload(const QString &text);
    void watch(std::function<bool()> done);
    void check();
    void hold();
    void endPhase();
    void typeDueKeys();
    void startExport();
    void finish();
    QString report() const;

    QPointer<MainWindow> m_window;
    QList<Step> m_steps;
    QString m_reportPath;
    int m_holdMs = DefaultHoldMs;
    int m_next = 0;
    QTimer m_heartbeat;
    QTimer m_timeout;
    QTimer m_typer;
    QElapsedTimer m_clock; // since start()
    qint64 m_lastBeatNs = 0;
    qint64 m_actionNs = 0;
    bool m_changed = false; // the table changed since the action
    std::function<bool()> m_done;
    QString m_typing;
    int m_typed = 0;
    qint64 m_exportStartNs = -1;
    double m_exportMs = -1;
    QString m_exportError;
    Phase m_phase;
    QList<Phase> m_phases;
    QList<qint64> m_snapshotsMs;
    QList<qint64> m_tableChangesMs;
};
