// A change-data-capture relay in miniature, for the Teach page: a service's inserts into its
// outbox move the write-ahead log's position, a logical replication slot keeps the WAL from its
// restart position on, and a connector (Debezium) reads it and confirms what it published. Stall
// the connector and the slot turns inactive while the lag and the retained WAL grow with every
// insert; resume it and it catches up; let the retained WAL pass max_slot_wal_keep_size and the
// next checkpoint removes WAL the slot still needs: the slot is lost, and so are the events the
// connector had not published. A plain value driven by a clock it is told (CdcLesson); no
// database. Figures are named as PostgreSQL's pg_replication_slots names them.
#pragma once

#include <QString>
#include <optional>

class SimulatedCdcRelay
{
public:
    struct Settings
    {
        // An outbox row (payload, index entries) and its commit, as WAL.
        qint64 walPerInsert = 2 * 1024;
        // Beyond it the slot's WAL is "extended": more than the checkpoints would keep.
        qint64 maxWalSizeBytes = 2 * 1024 * 1024;
        // max_slot_wal_keep_size; none: -1, unlimited (PostgreSQL's default: the disk fills).
        std::optional<qint64> maxSlotWalKeepBytes = 4 * 1024 * 1024;
        qint64 checkpointEveryMs = 5000; // WAL the slot no longer holds is removed at these
        qint64 connectorBytesPerSecond = 1024 * 1024; // how fast a running connector reads
    };
    enum class WalStatus { Reserved, Extended, Unreserved, Lost };

    // The WAL position a fresh cluster starts near, so that LSNs read as PostgreSQL's do.
    static constexpr qint64 StartLsn = 0x16B3D88;

    SimulatedCdcRelay(); // the Teach page's scaled-down server
    explicit SimulatedCdcRelay(const Settings &settings);

    const Settings &settings() const { return m_settings; }

    // The service commits `events` inserts into its outbox: the WAL position moves on.
    void insert(int events);
    // The clock moved to `nowMs`: a running connector reads and confirms (at its pace), and each
    // checkpoint passed moves the slot's restart position to what was confirmed and removes
    // older WAL, beyond max_slot_wal_keep_size WAL the slot still needs (the slot is lost).
    void advance(qint64 nowMs);
    void stallConnector(qint64 nowMs);
    void resumeConnector(qint64 nowMs); // nothing on a lost slot: it cannot be resumed from
    // After a loss: a new slot at the current position, the connector reading from it; what the
    // old slot had not published is counted lost.
    void recreateSlot(qint64 nowMs);

    bool connectorRunning() const { return m_running; }
    bool slotActive() const { return m_running && !m_lost; }
    bool isLost() const { return m_lost; }
    qint64 walLsn() const { return position(m_inserted); }
    qint64 confirmedFlushLsn() const { return position(m_confirmed); }
    std::optional<qint64> restartLsn() const; // none once lost, as PostgreSQL shows it
    qint64 lagBytes() const { return walLsn() - confirmedFlushLsn(); }
    qint64 retainedBytes() const; // current − restart_lsn; 0 once lost (nothing is held)
    WalStatus walStatus() const;
    QString walStatusName() const; // reserved, extended, unreserved, lost
    // max_slot_wal_keep_size − retained (negative once past it); none if unlimited or lost.
    std::optional<qint64> safeWalSizeBytes() const;
    std::optional<qint64> inactiveForMs(qint64 nowMs) const; // none while active
    // WAL written per second over the last advance; none before the clock moved.
    std::optional<double> walRateBytesPerSecond() const { return m_rate; }
    // safe_wal_size at the current WAL rate: how long until the slot is in danger. An estimate.
    std::optional<qint64> runwayMs() const;

    qint64 eventsInserted() const { return m_inserted; }
    qint64 eventsPublished() const { return m_confirmed - m_lostEvents; }
    qint64 eventsBehind() const { return m_inserted - m_confirmed; } // written, not published
    qint64 eventsLost() const { return m_lostEvents; }

    static QString lsnText(qint64 lsn); // "0/16B3D88"

private:
    qint64 position(qint64 events) const { return StartLsn + events * m_settings.walPerInsert; }
    void read(qint64 elapsedMs);
    void checkpoint(qint64 atMs);

    Settings m_settings;
    qint64 m_inserted = 0; // events, in WAL order: their WAL ends at position(n)
    qint64 m_confirmed = 0; // events the connector confirmed (confirmed_flush_lsn)
    qint64 m_restart = 0; // events before the slot's restart_lsn
    qint64 m_lostEvents = 0;
    bool m_running = true;
    bool m_lost = false;
    std::optional<qint64> m_inactiveSince; // the connector stalled, or the slot was lost
    std::optional<qint64> m_lastAdvance;
    qint64 m_insertedAtLastAdvance = 0;
    qint64 m_nextCheckpoint = 0;
    std::optional<double> m_rate;
};
