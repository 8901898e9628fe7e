// Where the health tiles turn amber and red: a tile whose value reaches a limit takes that
// limit's colour. The defaults are also what `outboxctl check` judges without limits of its
// own (HealthThresholds::fromTiles): a figure the window shows red fails the check.
#pragma once

#include <QtGlobal>

struct TileLimits
{
    qint64 amber = 0;
    qint64 red = 0;
};

struct TileThresholds
{
    TileLimits leaseExpired {1, 10};
    TileLimits dead {1, 10};
    TileLimits oldestPendingMs {60000, 600000};
    TileLimits due {1000, 10000};
    // The replication slot of an outbox relayed by change data capture (CdcSlotGrade): the
    // consumer's lag in bytes, the time the slot has been inactive (amber at once), and red
    // when the WAL it keeps reaches max_slot_wal_keep_size in less than this (an estimate).
    TileLimits cdcLagBytes {256LL * 1024 * 1024, 1024LL * 1024 * 1024};
    TileLimits cdcInactiveMs {0, 300000};
    qint64 cdcRunwayRedBelowMs = 3600000;
};
