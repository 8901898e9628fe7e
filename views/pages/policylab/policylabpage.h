// The Policy lab tab: pick or type one or two retry policies and a budget, and see (a) each
// schedule as a table and a step chart, (b) an outage what-if: N events failing for T seconds,
// then the transport recovering, simulated by the real relay logic on a scratch in-memory
// database, as retries per second after recovery with the peak, and (c) both policies in the
// same table and charts, so the herd and the jitter are one picture. It reads and writes no
// database of the window's, so it works on any, read-only and profiles included. The work runs
// on PolicyLab's thread; while a storm runs the tab says so and stays usable. The first
// computation waits until the tab is first shown. Wide, the table and the two charts stand in
// a row; narrow, in a column.
#pragma once

#include "page.h"

#include "policylabworker.h"

#include <QWidget>

class PolicyLab;
class PolicyLabScheduleChart;
class PolicyLabStormChart;
class PolicyScheduleModel;
class QComboBox;
class QLabel;
class QProgressBar;
class QSpinBox;
class QTableView;
class QTimer;

class PolicyLabPage : public QWidget, public Page
{
    Q_OBJECT
public:
    static inline const QString Key = QStringLiteral("policy");

    static constexpr int SettleMs = 250; // typing settles this long before the lab computes
    // From this width the table and the two charts stand side by side; below, one above the
    // other (the page scrolls). Side by side at a laptop's width, the schedule chart cut its
    // title and legend ("B: exponential-rand...").
    static constexpr int WideWidth = 1500;
    static constexpr int ChartHeight = 240; // at 170 the storm chart cut its axis labels to "..."

    explicit PolicyLabPage(QWidget *parent = nullptr);
    ~PolicyLabPage() override;

    // The specs offered in the policy boxes (any other can be typed).
    static QStringList knownPolicies();
    // What the boxes say now; false with *error naming a malformed spec.
    bool readInput(PolicyLabInput *input, QString *error) const;

    QComboBox *policyBox(int index) const { return index == 0 ? m_policyA : m_policyB; }
    QSpinBox *budgetBox() const { return m_budget; }
    QSpinBox *eventsBox() const { return m_events; }
    QSpinBox *outageBox() const { return m_outage; }
    PolicyScheduleModel *scheduleModel() const { return m_model; }
    QTableView *scheduleView() const { return m_table; }
    PolicyLabScheduleChart *scheduleChart() const { return m_scheduleChart; }
    PolicyLabStormChart *stormChart() const { return m_stormChart; }
    QString errorText() const;
    QString deadText() const;
    QString peakText() const;
    QString statusText() const; // "Simulating…", what the last simulation cost, or its error
    bool isSimulating() const;
    const QList<StormRun> &runs() const { return m_runs; }

    // The page contract (page.h).
    QWidget *focusTarget() const override; // policy A

public slots:
    // Computes what the boxes say now (after SettleMs when called through an edit).
    void compute();

signals:
    void simulated(); // the newest simulation answered (its runs shown, or its error)

protected:
    void showEvent(QShowEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    QWidget *setupInputs();
    class QLayout *setupOutageRow();
    QWidget *setupSchedule();
    QWidget *setupStorm();
    void connectInputs();
    void connectLab();
    void showSchedules(const QList<PolicySchedule> &schedules);
    void showRuns(const QList<StormRun> &runs, qint64 elapsedMs);
    void showSimulating(bool simulating);
    static QString describe(const StormRun &run, const QString &label);

    PolicyLab *m_lab = nullptr;
    QTimer *m_settle = nullptr;
    class QBoxLayout *m_body = nullptr; // the table and the charts: a row when wide enough
    bool m_started = false;
    QComboBox *m_policyA = nullptr;
    QComboBox *m_policyB = nullptr;
    QSpinBox *m_budget = nullptr;
    QSpinBox *m_events = nullptr;
    QSpinBox *m_outage = nullptr;
    QLabel *m_error = nullptr;
    QLabel *m_dead = nullptr;
    QLabel *m_peak = nullptr;
    QLabel *m_status = nullptr;
    QProgressBar *m_busy = nullptr;
    PolicyScheduleModel *m_model = nullptr;
    QTableView *m_table = nullptr;
    PolicyLabScheduleChart *m_scheduleChart = nullptr;
    PolicyLabStormChart *m_stormChart = nullptr;
    QList<StormRun> m_runs;
};
