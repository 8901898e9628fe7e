#include "eventtablecadence.h"

#include "eventlistmodel.h"
#include "healthmonitor.h"

#include <utility>

EventTableCadence::EventTableCadence(EventListModel *model)
    : QObject(model)
    , m_model(model)
{
    m_due.setSingleShot(true);
    connect(&m_due, &QTimer::timeout, this, &EventTableCadence::refreshNow);
    connect(model, &EventListModel::refreshCost, this, &EventTableCadence::noteCost);
    connect(model, &EventListModel::loadingChanged, this, [this](bool loading) {
        if (loading)
            return;
        m_sinceRead.start();
        if (std::exchange(m_again, false))
            refreshNow();
    });
}

int EventTableCadence::spacingMs() const
{
    return HealthMonitor::adaptiveIntervalMs(m_costMs, 0);
}

void EventTableCadence::noteCost(qint64 ms)
{
    const int before = spacingMs();
    m_costMs = std::max<qint64>(0, ms);
    if (spacingMs() != before)
        emit spacingChanged(spacingMs());
}

void EventTableCadence::refreshSoon()
{
    if (m_model->isLoading() || m_due.isActive())
        return; // the answer that comes, or the refresh already due, is as fresh
    const qint64 left = m_sinceRead.isValid() ? spacingMs() - m_sinceRead.elapsed() : qint64(0);
    if (left <= 0)
        refreshNow();
    else
        m_due.start(int(left));
}

void EventTableCadence::readNow()
{
    if (m_model->isLoading())
        m_again = true;
    else
        refreshNow();
}

void EventTableCadence::refreshNow()
{
    m_due.stop();
    m_model->refresh();
}
