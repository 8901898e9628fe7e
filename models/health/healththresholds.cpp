#include "healththresholds.h"

#include "healthsnapshot.h"

namespace {

void check(QList<HealthViolation> *violations, const QString &name, std::optional<qint64> limit,
    std::optional<qint64> value)
{
    if (limit && value && *value > *limit)
        violations->append({name, *limit, *value});
}

} // namespace

QList<HealthViolation> HealthThresholds::evaluate(const HealthSnapshot &snapshot) const
{
    // A value the schema cannot tell is never judged (outboxctl check refuses such a limit).
    const auto known = [&snapshot](const QString &key, std::optional<qint64> value) {
        return snapshot.isAvailable(key) ? value : std::nullopt;
    };
    QList<HealthViolation> violations;
    check(&violations, QStringLiteral("max_oldest_pending_ms"), maxOldestPendingMs,
        known(QStringLiteral("oldest_pending_age_ms"), snapshot.oldestPendingAgeMs));
    check(&violations, QStringLiteral("max_dead"), maxDead,
        known(QStringLiteral("dead"), snapshot.counts.dead));
    check(&violations, QStringLiteral("max_lease_expired"), maxLeaseExpired,
        known(QStringLiteral("lease_expired"), snapshot.counts.leaseExpired));
    check(&violations, QStringLiteral("max_due"), maxDue,
        known(QStringLiteral("due"), snapshot.counts.due));
    if (snapshot.cdc && snapshot.cdc->exists) {
        check(&violations, QStringLiteral("max_cdc_lag_bytes"), maxCdcLagBytes,
            snapshot.cdc->lagBytes);
        if (!snapshot.cdc->active)
            check(&violations, QStringLiteral("max_cdc_inactive_ms"), maxCdcInactiveMs,
                snapshot.cdc->inactiveForMs);
    }
    return violations;
}

HealthThresholds HealthThresholds::fromTiles(const TileThresholds &tiles)
{
    HealthThresholds thresholds;
    thresholds.maxOldestPendingMs = tiles.oldestPendingMs.red - 1;
    thresholds.maxDead = tiles.dead.red - 1;
    thresholds.maxLeaseExpired = tiles.leaseExpired.red - 1;
    thresholds.maxDue = tiles.due.red - 1;
    thresholds.maxCdcLagBytes = tiles.cdcLagBytes.red - 1;
    thresholds.maxCdcInactiveMs = tiles.cdcInactiveMs.red - 1;
    return thresholds;
}
