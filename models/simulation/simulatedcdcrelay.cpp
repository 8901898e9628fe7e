#include "simulatedcdcrelay.h"

#include <algorithm>

SimulatedCdcRelay::SimulatedCdcRelay()
    : SimulatedCdcRelay(Settings())
{ }

SimulatedCdcRelay::SimulatedCdcRelay(const Settings &settings)
    : m_settings(settings)
{
    m_settings.walPerInsert = std::max<qint64>(1, m_settings.walPerInsert);
    m_settings.checkpointEveryMs = std::max<qint64>(1, m_settings.checkpointEveryMs);
    m_nextCheckpoint = m_settings.checkpointEveryMs;
}

void SimulatedCdcRelay::insert(int events)
{
    m_inserted += std::max(0, events);
}

void SimulatedCdcRelay::advance(qint64 nowMs)
{
    const qint64 elapsed = m_lastAdvance ? nowMs - *m_lastAdvance : 0;
    if (elapsed > 0)
        m_rate = double(m_inserted - m_insertedAtLastAdvance) * m_settings.walPerInsert * 1000.0
            / double(elapsed);
    if (elapsed > 0 && slotActive())
        read(elapsed);
    while (nowMs >= m_nextCheckpoint) {
        checkpoint(m_nextCheckpoint);
        m_nextCheckpoint += m_settings.checkpointEveryMs;
    }
    m_lastAdvance = nowMs;
    m_insertedAtLastAdvance = m_inserted;
}

// The connector decodes what the slot sends, publishes it and confirms it: whole events, at
// most its pace allows in the time that passed.
void SimulatedCdcRelay::read(qint64 elapsedMs)
{
    const qint64 bytes = m_settings.connectorBytesPerSecond * elapsedMs / 1000;
    m_confirmed += std::min(eventsBehind(), bytes / m_settings.walPerInsert);
}

// The slot's restart position moves to what the connector confirmed (PostgreSQL moves it with
// the running-transactions records a checkpoint writes); WAL before it is removed. Past
// max_slot_wal_keep_size the checkpoint removes WAL the slot still holds: it is lost.
void SimulatedCdcRelay::checkpoint(qint64 atMs)
{
    if (m_lost)
        return;
    m_restart = m_confirmed;
    if (m_settings.maxSlotWalKeepBytes && retainedBytes() > *m_settings.maxSlotWalKeepBytes) {
        m_lost = true;
        if (!m_inactiveSince)
            m_inactiveSince = atMs; // nothing can read from it any more
    }
}

void SimulatedCdcRelay::stallConnector(qint64 nowMs)
{
    if (!m_running)
        return;
    m_running = false;
    if (!m_inactiveSince)
        m_inactiveSince = nowMs;
}

void SimulatedCdcRelay::resumeConnector(qint64 nowMs)
{
    Q_UNUSED(nowMs)
    if (m_lost || m_running)
        return;
    m_running = true;
    m_inactiveSince.reset();
}

void SimulatedCdcRelay::recreateSlot(qint64 nowMs)
{
    Q_UNUSED(nowMs)
    if (!m_lost)
        return;
    m_lostEvents += eventsBehind();
    m_confirmed = m_restart = m_inserted;
    m_lost = false;
    m_running = true;
    m_inactiveSince.reset();
}

std::optional<qint64> SimulatedCdcRelay::restartLsn() const
{
    if (m_lost)
        return std::nullopt;
    return position(m_restart);
}

qint64 SimulatedCdcRelay::retainedBytes() const
{
    return m_lost ? 0 : walLsn() - position(m_restart);
}

SimulatedCdcRelay::WalStatus SimulatedCdcRelay::walStatus() const
{
    if (m_lost)
        return WalStatus::Lost;
    if (retainedBytes() <= m_settings.maxWalSizeBytes)
        return WalStatus::Reserved;
    if (!m_settings.maxSlotWalKeepBytes || retainedBytes() <= *m_settings.maxSlotWalKeepBytes)
        return WalStatus::Extended;
    return WalStatus::Unreserved;
}

QString SimulatedCdcRelay::walStatusName() const
{
    switch (walStatus()) {
    case WalStatus::Reserved:
        return QStringLiteral("reserved");
    case WalStatus::Extended:
        return QStringLiteral("extended");
    case WalStatus::Unreserved:
        return QStringLiteral("unreserved");
    case WalStatus::Lost:
        break;
    }
    return QStringLiteral("lost");
}

std::optional<qint64> SimulatedCdcRelay::safeWalSizeBytes() const
{
    if (m_lost || !m_settings.maxSlotWalKeepBytes)
        return std::nullopt;
    return *m_settings.maxSlotWalKeepBytes - retainedBytes();
}

std::optional<qint64> SimulatedCdcRelay::inactiveForMs(qint64 nowMs) const
{
    if (slotActive() || !m_inactiveSince)
        return std::nullopt;
    return std::max<qint64>(0, nowMs - *m_inactiveSince);
}

std::optional<qint64> SimulatedCdcRelay::runwayMs() const
{
    const std::optional<qint64> safe = safeWalSizeBytes();
    if (!safe || !m_rate || *m_rate <= 0)
        return std::nullopt;
    return qint64(double(std::max<qint64>(0, *safe)) * 1000.0 / *m_rate);
}

QString SimulatedCdcRelay::lsnText(qint64 lsn)
{
    return QStringLiteral("%1/%2")
        .arg(quint32(quint64(lsn) >> 32), 0, 16)
        .arg(quint32(quint64(lsn) & 0xFFFFFFFFu), 0, 16)
        .toUpper();
}
