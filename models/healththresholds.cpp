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
    QList<HealthViolation> violations;
    check(&violations, QStringLiteral("max_oldest_pending_ms"), maxOldestPendingMs,
        snapshot.oldestPendingAgeMs);
    check(&violations, QStringLiteral("max_dead"), maxDead, snapshot.counts.dead);
    check(&violations, QStringLiteral("max_lease_expired"), maxLeaseExpired,
        snapshot.counts.leaseExpired);
    return violations;
}
