#include "windowalerts.h"

#include "desktopalerts.h"
#include "healthgrade.h"
#include "healthmonitor.h"
#include "healthtiles.h"

WindowAlerts::WindowAlerts(HealthMonitor *monitor, HealthTiles *tiles, const QString &outbox,
    AlertBar *bar, QObject *parent)
    : QObject(parent)
    , m_monitor(monitor)
    , m_tiles(tiles)
    , m_outbox(outbox)
    , m_alerts(new DesktopAlerts(bar, this))
{
    connect(monitor, &HealthMonitor::snapshotChanged, this, &WindowAlerts::update);
    connect(monitor, &HealthMonitor::healthStateChanged, this, &WindowAlerts::update);
}

void WindowAlerts::rebase()
{
    m_alerts->rebase(m_outbox);
}

void WindowAlerts::update()
{
    using State = AlertDecider::State;
    if (m_monitor->isStale()) {
        // The cause as the stale banner says it; the driver's words behind it.
        m_alerts->observe(m_outbox, State::Down, m_monitor->failureHeadline(),
            m_monitor->lastFailureDetail());
        return;
    }
    if (!m_monitor->hasSnapshot())
        return;
    const HealthGrade grade = HealthGrade::of(m_monitor->snapshot(), m_tiles->thresholds());
    const State state = grade.level == HealthGrade::Level::Red ? State::Red
        : grade.level == HealthGrade::Level::Amber             ? State::Amber
                                                               : State::Healthy;
    m_alerts->observe(m_outbox, state, grade.figure);
}
