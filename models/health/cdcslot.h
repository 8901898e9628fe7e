// The health of an outbox relayed by change data capture: the logical replication slot its
// connector (Debezium, or any logical-decoding client) reads, as PostgreSQL's own catalogue
// tells it (docs/cdc.md). Read only: the slot is never advanced, peeked or consumed, since a
// monitor that consumes a connector's changes loses them for the connector.
//
// CdcSlotQuery reads one CdcSlotReading in one bounded statement (the connection's statement
// timeout applies); CdcSlotTracker, kept by whoever reads again and again (one per connection,
// like ThroughputCache), adds what only two reads tell: the WAL rate and since when the slot
// is idle, and from them the estimates; CdcSlotGrade is the one rule for how bad a reading is.
#pragma once

#include "healthgrade.h"
#include "tilethresholds.h"

#include <QMetaType>
#include <QSqlDatabase>
#include <QString>
#include <QStringList>
#include <optional>

class ReadOnlyTransaction;

struct CdcSlotReading
{
    QString slot;
    bool exists = false;
    bool active = false;
    std::optional<qint64> activePid;
    QString plugin;
    qint64 currentWalLsn = 0; // the server's WAL position, in bytes
    // The consumer's confirmed position behind the current one; none for a physical slot.
    std::optional<qint64> lagBytes;
    // The WAL the slot keeps from being removed (current - restart_lsn); none once lost.
    std::optional<qint64> retainedBytes;
    QString walStatus; // reserved | extended | unreserved | lost
    std::optional<qint64> safeWalSizeBytes; // none when unlimited
    std::optional<qint64> maxSlotWalKeepBytes; // none = unlimited (the setting's -1)
    // How long the slot has been inactive: the server's inactive_since (PostgreSQL 17), else
    // since the first read that saw it inactive (CdcSlotTracker; at least that long when the
    // tracker never saw it active); none = unknown or active.
    std::optional<qint64> inactiveForMs;
    // WAL written per second: between two reads (CdcSlotTracker), else the server's average
    // since its statistics were reset (rateFromAverage).
    std::optional<double> walRateBytesPerSec;
    bool rateFromAverage = false;
    // ESTIMATES from that rate: how far behind the consumer is in time, and how long until the
    // slot's WAL passes max_slot_wal_keep_size (none when unlimited or without a rate).
    std::optional<qint64> lagEstimateMs;
    std::optional<qint64> runwayMs;
    // The slots the server has, by name: what a missing slot's message lists.
    QStringList existingSlots;

    // "replication slot "dbz" does not exist; the slots on this server: a, b" (or "it has
    // none"): the one line for a missing slot.
    QString missingText() const;
    // Fills lagEstimateMs and runwayMs from walRateBytesPerSec.
    void estimate();

    friend bool operator==(const CdcSlotReading &, const CdcSlotReading &) = default;
};

namespace CdcSlotQuery {

// Reads `slot` in a read-only transaction of its own (call it with no transaction open).
// A missing slot is a reading with exists false. None, with *error set to one line, when the
// statement fails or the engine has no replication slots (SQLite, MySQL, MariaDB).
std::optional<CdcSlotReading> read(
    const QSqlDatabase &db, const QString &slot, qint64 now, QString *error);
// The same inside the caller's read-only transaction (HealthQuery's snapshot).
std::optional<CdcSlotReading> read(const QSqlDatabase &db, ReadOnlyTransaction &transaction,
    const QString &slot, qint64 now, QString *error);
// Why an engine cannot say: "replication slots are PostgreSQL's; ...".
QString unsupportedText(const QSqlDatabase &db);

} // namespace CdcSlotQuery

// What only successive reads of one slot tell, kept between them: the WAL rate and the start
// of an idle spell. Reset it when the slot or the server changes.
class CdcSlotTracker
{
public:
    // The span the rate is measured over: the oldest read kept is at most this old.
    static constexpr qint64 RateSpanMs = 5 * 60 * 1000;
    // A rate needs reads at least this far apart; before, the server's average stands.
    static constexpr qint64 MinRateSpanMs = 1000;

    // Adds the rate, the idle time and the estimates to `reading`, taken at `now`.
    void update(CdcSlotReading *reading, qint64 now);
    void reset();

private:
    struct Point
    {
        qint64 at = 0;
        qint64 lsn = 0;
    };
    void updateRate(CdcSlotReading *reading, qint64 now);
    void updateInactive(CdcSlotReading *reading, qint64 now);

    QString m_slot;
    QList<Point> m_points; // oldest first, within RateSpanMs but for the oldest kept
    std::optional<qint64> m_inactiveSince;
    bool m_sawActive = false;
};

// How bad a reading is, by the tiles' limits (TileThresholds): the worst of a missing or lost
// slot, the WAL status, the idle time, the lag and the runway, named in words.
struct CdcSlotGrade
{
    HealthGrade::Level level = HealthGrade::Level::Normal;
    QString figure; // the worst figure in words; empty when normal

    static CdcSlotGrade of(const CdcSlotReading &reading, const TileThresholds &thresholds = {});
};

Q_DECLARE_METATYPE(CdcSlotReading)
