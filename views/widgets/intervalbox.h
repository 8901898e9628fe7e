// The toolbar's refresh interval, in step with the health monitor. It holds the operator's
// interval ("every 2 s"); when the adaptive interval keeps a longer one because the snapshot is
// costly, it says so in the control itself ("every 2 s (now 6 s)") and why in its tooltip
// ("…the snapshot takes 80 ms…"). The status bar's "every 6 s" comes from the same functions,
// so the two never show different numbers.
#pragma once

#include <QSpinBox>

class HealthMonitor;

class IntervalBox : public QSpinBox
{
    Q_OBJECT
public:
    explicit IntervalBox(HealthMonitor *monitor, QWidget *parent = nullptr);

    // The interval the snapshot is refreshed at, in whole seconds as shown (at least 1).
    static int shownSeconds(const HealthMonitor &monitor);
    // Whether the adaptive interval keeps a longer one than the operator's, as shown.
    static bool isStretched(const HealthMonitor &monitor);
    // Why, in one sentence, or empty when the operator's interval is kept: "Refreshed every 6 s
    // instead of 2 s: the snapshot takes 80 ms, and the health refresh keeps the database busy
    // at most 1/75 of the time. Back to 2 s as soon as two snapshots are quicker."
    static QString reason(const HealthMonitor &monitor);

private:
    void follow();

    HealthMonitor *m_monitor;
    bool m_following = false; // follow() shows the monitor's interval: not the operator's
};
