// Limits an operator sets on a health snapshot (`outboxctl check --max-dead 5`), and the
// violations found against them. A limit is the largest healthy value: exceeding it violates.
#pragma once

#include "tilethresholds.h"

#include <QList>
#include <QString>
#include <optional>

struct HealthSnapshot;

struct HealthViolation
{
    // "max_oldest_pending_ms", "max_dead", "max_lease_expired", "max_due", and with a
    // replication slot "max_cdc_lag_bytes" or "max_cdc_inactive_ms"
    QString threshold;
    qint64 limit = 0;
    qint64 value = 0;

    bool operator==(const HealthViolation &) const = default;
};

struct HealthThresholds
{
    std::optional<qint64> maxOldestPendingMs;
    std::optional<qint64> maxDead;
    std::optional<qint64> maxLeaseExpired;
    std::optional<qint64> maxDue;
    // The replication slot's (HealthSnapshot::cdc), judged only when the snapshot has one: the
    // consumer's lag in bytes, and how long the slot has been inactive where that is known
    // (PostgreSQL 17's inactive_since, or a monitor that watched it go idle).
    std::optional<qint64> maxCdcLagBytes;
    std::optional<qint64> maxCdcInactiveMs;

    // The limits at which the window's tiles turn red: a value reaching a tile's red limit
    // exceeds the threshold one below it. `outboxctl check` judges these unless told otherwise.
    static HealthThresholds fromTiles(const TileThresholds &tiles = {});

    // In the order above; empty when the snapshot is healthy.
    QList<HealthViolation> evaluate(const HealthSnapshot &snapshot) const;
};
