// Limits an operator sets on a health snapshot (`outboxctl check --max-dead 5`), and the
// violations found against them. A limit is the largest healthy value: exceeding it violates.
#pragma once

#include <QList>
#include <QString>
#include <optional>

struct HealthSnapshot;

struct HealthViolation
{
    QString threshold; // "max_oldest_pending_ms", "max_dead" or "max_lease_expired"
    qint64 limit = 0;
    qint64 value = 0;

    bool operator==(const HealthViolation &) const = default;
};

struct HealthThresholds
{
    std::optional<qint64> maxOldestPendingMs;
    std::optional<qint64> maxDead;
    std::optional<qint64> maxLeaseExpired;

    // In the order above; empty when the snapshot is healthy.
    QList<HealthViolation> evaluate(const HealthSnapshot &snapshot) const;
};
