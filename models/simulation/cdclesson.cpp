#include "cdclesson.h"

#include "bytetext.h"
#include "saturating.h"

#include <QLocale>

#include <algorithm>

CdcLesson::CdcLesson(QObject *parent)
    : CdcLesson(SimulatedCdcRelay::Settings(), parent)
{ }

CdcLesson::CdcLesson(const SimulatedCdcRelay::Settings &settings, QObject *parent)
    : QObject(parent)
    , m_settings(settings)
    , m_relay(settings)
{
    connect(&m_playTimer, &QTimer::timeout, this, &CdcLesson::step);
}

// As every size an operator reads (ByteText::format: the CDC tiles, check, diagnose), with a
// minus sign for a size below zero.
QString CdcLesson::bytesText(qint64 bytes)
{
    const QString sign = bytes < 0 ? QStringLiteral("−") : QString();
    return sign + ByteText::format(Saturating::abs(bytes));
}

void CdcLesson::start()
{
    pause();
    m_relay = SimulatedCdcRelay(m_settings);
    m_clock.set(0);
    m_relay.advance(0);
    m_started = true;
    const QString limit = m_settings.maxSlotWalKeepBytes
        ? bytesText(*m_settings.maxSlotWalKeepBytes)
        : tr("-1 (unlimited)");
    emit narrated({
        tr("Change data capture: the service inserts %1 events a second into its outbox, each in "
           "the transaction of the change it records; PostgreSQL writes them to the WAL; the "
           "replication slot keeps that WAL until the connector (Debezium) confirms it; the "
           "connector publishes each event to the broker.")
            .arg(InsertsPerStep),
        tr("The simulated server is scaled down so that this takes a minute: max_wal_size %1, "
           "max_slot_wal_keep_size %2, a checkpoint every %3 s (PostgreSQL's defaults: 1 GB, "
           "and -1: no limit, the disk fills instead).")
            .arg(bytesText(m_settings.maxWalSizeBytes), limit)
            .arg(m_settings.checkpointEveryMs / 1000),
        tr("Press Stall connector to see what a stopped or stuck connector does."),
    });
    emit changed();
}

void CdcLesson::play()
{
    if (!m_started || m_playing)
        return;
    m_playing = true;
    m_playTimer.start(playInterval());
    emit changed();
}

void CdcLesson::pause()
{
    if (!m_playing)
        return;
    m_playing = false;
    m_playTimer.stop();
    emit changed();
}

void CdcLesson::setSpeed(double speed)
{
    m_speed = std::clamp(speed, 0.05, 100.0);
    if (m_playTimer.isActive())
        m_playTimer.start(playInterval());
    emit changed();
}

int CdcLesson::playInterval() const
{
    return int(double(StepMs) / m_speed);
}

void CdcLesson::step()
{
    if (!m_started)
        return;
    const SimulatedCdcRelay before = m_relay;
    const qint64 to = m_clock.now() + StepMs;
    m_relay.insert(InsertsPerStep);
    m_relay.advance(to);
    m_clock.set(to);
    tellStep(before);
    emit changed();
}

void CdcLesson::tell(const QString &sentence)
{
    emit narrated({QStringLiteral("t=%1 s  ").arg(m_clock.now() / 1000) + sentence});
}

// What the second just simulated changed, in a sentence or two: the status the slot passed
// into, the connector catching up, and while it is inactive its figures every few seconds.
void CdcLesson::tellStep(const SimulatedCdcRelay &before)
{
    using S = SimulatedCdcRelay::WalStatus;
    const S status = m_relay.walStatus();
    if (status != before.walStatus()) {
        if (status == S::Extended)
            tell(tr("wal_status extended: the slot retains more than max_wal_size; the WAL on "
                    "disk grows past what the checkpoints would keep."));
        else if (status == S::Unreserved)
            tell(tr("wal_status unreserved: past max_slot_wal_keep_size, the next checkpoint "
                    "removes WAL this slot still needs."));
        else if (status == S::Lost)
            tell(tr("Checkpoint: the WAL the slot needed is removed; wal_status lost, the slot "
                    "is invalidated and the connector cannot resume from it (\"requested WAL "
                    "segment … has already been removed\"). ")
                + lossCost());
        else
            tell(tr("wal_status reserved again: the retained WAL is within max_wal_size."));
    }
    if (m_relay.slotActive() && before.lagBytes() > 0 && m_relay.lagBytes() == 0)
        tell(tr("The connector caught up: lag 0 bytes. The next checkpoint frees the WAL the "
                "slot retained."));
    if (!m_relay.slotActive() && !m_relay.isLost() && m_clock.now() % ToldEveryMs == 0)
        tell(figures());
}

// The figures an operator reads from pg_replication_slots, in a sentence.
QString CdcLesson::figures() const
{
    const SimulatedCdcRelay &r = m_relay;
    QString runway = tr("no limit: the disk fills");
    if (r.runwayMs() && r.walRateBytesPerSecond())
        runway = tr("at %1/s about %2 s of runway")
                     .arg(bytesText(qint64(*r.walRateBytesPerSecond())))
                     .arg(*r.runwayMs() / 1000);
    return tr("Slot inactive for %1 s: lag %2 (%3 events not yet published), retained WAL %4, "
              "wal_status %5, safe_wal_size %6: %7.")
        .arg(r.inactiveForMs(m_clock.now()).value_or(0) / 1000)
        .arg(bytesText(r.lagBytes()))
        .arg(QLocale().toString(r.eventsBehind()))
        .arg(bytesText(r.retainedBytes()), r.walStatusName(),
            r.safeWalSizeBytes() ? bytesText(*r.safeWalSizeBytes()) : tr("none"), runway);
}

QString CdcLesson::lossCost() const
{
    return tr("The %1 events written since the connector's confirmed position %2 never reach "
              "the broker: with the outbox event router the service deleted each row in its own "
              "transaction, so a re-snapshot finds nothing to publish (where rows are kept, a "
              "re-snapshot publishes the whole table again: duplicates for every consumer). "
              "Press Recreate slot to go on.")
        .arg(QLocale().toString(m_relay.eventsBehind()),
            SimulatedCdcRelay::lsnText(m_relay.confirmedFlushLsn()));
}

void CdcLesson::stallConnector()
{
    if (!m_started || !m_relay.connectorRunning())
        return;
    m_relay.stallConnector(m_clock.now());
    tell(tr("The connector stops reading (a failed task, a rebalance that never ends, a broker it "
            "cannot reach). The slot turns inactive and keeps every byte of WAL from its restart "
            "position on: the whole database's WAL, not only the outbox's."));
    emit changed();
}

void CdcLesson::resumeConnector()
{
    if (!m_started || m_relay.connectorRunning() || m_relay.isLost())
        return;
    m_relay.resumeConnector(m_clock.now());
    tell(tr("The connector resumes from its confirmed position %1 and reads the retained WAL "
            "faster than it is written (%2/s): the lag falls.")
             .arg(SimulatedCdcRelay::lsnText(m_relay.confirmedFlushLsn()),
                 bytesText(m_settings.connectorBytesPerSecond)));
    emit changed();
}

void CdcLesson::recreateSlot()
{
    if (!m_started || !m_relay.isLost())
        return;
    const qint64 lost = m_relay.eventsBehind();
    m_relay.recreateSlot(m_clock.now());
    tell(tr("The slot is dropped and the connector creates a new one at %1 and runs again: "
            "%n event(s) are lost for good.",
        nullptr, int(lost))
             .arg(SimulatedCdcRelay::lsnText(m_relay.walLsn())));
    emit changed();
}
