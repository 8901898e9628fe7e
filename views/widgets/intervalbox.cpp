#include "intervalbox.h"

#include "healthmonitor.h"

#include <QLocale>

namespace {

QString costText(qint64 ms)
{
    if (ms < 1000)
        return QObject::tr("%1 ms").arg(ms);
    return QObject::tr("%1 s").arg(QLocale(QLocale::English).toString(ms / 1000.0, 'f', 1));
}

int secondsOf(int ms)
{
    return qMax(1, (ms + 500) / 1000);
}

} // namespace

IntervalBox::IntervalBox(HealthMonitor *monitor, QWidget *parent)
    : QSpinBox(parent)
    , m_monitor(monitor)
{
    setObjectName(QStringLiteral("intervalBox"));
    setAccessibleName(tr("Refresh interval"));
    setRange(1, 600);
    setValue(monitor->interval() / 1000);
    setPrefix(tr("every "));
    connect(this, &QSpinBox::valueChanged, monitor, [this, monitor](int seconds) {
        if (!m_following)
            monitor->setInterval(seconds * 1000);
    });
    connect(monitor, &HealthMonitor::intervalChanged, this, &IntervalBox::follow);
    connect(monitor, &HealthMonitor::snapshotChanged, this, &IntervalBox::follow);
    follow();
}

int IntervalBox::shownSeconds(const HealthMonitor &monitor)
{
    return secondsOf(monitor.adaptedInterval());
}

bool IntervalBox::isStretched(const HealthMonitor &monitor)
{
    return shownSeconds(monitor) > secondsOf(monitor.interval());
}

QString IntervalBox::reason(const HealthMonitor &monitor)
{
    if (!isStretched(monitor))
        return {};
    return tr("Refreshed every %1 s instead of %2 s: the snapshot takes %3, and the health "
              "refresh keeps the database busy at most 1/%4 of the time. Back to %2 s as soon "
              "as two snapshots are quicker.")
        .arg(shownSeconds(monitor))
        .arg(secondsOf(monitor.interval()))
        .arg(costText(monitor.costBasisMs()))
        .arg(HealthMonitor::CostFactor);
}

// The operator's value stays what they set; the suffix names the interval kept meanwhile.
// Showing the monitor's interval never sets it: a sub-second one (a test's) shows as 1 s and
// stays what it is, instead of coming back from the box as 1 s. The View menu's choices still
// follow the value shown (valueChanged).
void IntervalBox::follow()
{
    m_following = true;
    setValue(m_monitor->interval() / 1000);
    m_following = false;
    setSuffix(
        isStretched(*m_monitor) ? tr(" s (now %1 s)").arg(shownSeconds(*m_monitor)) : tr(" s"));
    const QString why = reason(*m_monitor);
    setToolTip(why.isEmpty() ? tr("How often the health snapshot is refreshed")
                             : tr("How often the health snapshot is refreshed.\n%1").arg(why));
}
