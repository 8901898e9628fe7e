#include "healthgrade.h"

#include "cdcslot.h"
#include "healthsnapshot.h"
#include "timeformat.h"

#include <QLocale>

namespace {

QString count(qint64 n, const char *one, const char *many)
{
    return QLocale().toString(n) + QLatin1Char(' ') + QLatin1String(n == 1 ? one : many);
}

void consider(HealthGrade *grade, HealthGrade::Level level, const QString &figure)
{
    if (level > grade->level) {
        grade->level = level;
        grade->figure = figure;
    }
}

} // namespace

HealthGrade::Level HealthGrade::levelOf(qint64 value, const TileLimits &limits)
{
    if (value >= limits.red)
        return Level::Red;
    if (value >= limits.amber)
        return Level::Amber;
    return Level::Normal;
}

HealthGrade HealthGrade::of(const HealthSnapshot &snapshot, const TileThresholds &thresholds)
{
    HealthGrade grade;
    const HealthCounts &counts = snapshot.counts;
    if (snapshot.isAvailable(QStringLiteral("dead")))
        consider(&grade, levelOf(counts.dead, thresholds.dead),
            count(counts.dead, "DEAD event", "DEAD events"));
    if (snapshot.isAvailable(QStringLiteral("lease_expired")))
        consider(&grade, levelOf(counts.leaseExpired, thresholds.leaseExpired),
            count(counts.leaseExpired, "expired lease", "expired leases"));
    if (snapshot.isAvailable(QStringLiteral("oldest_pending_age_ms"))) {
        if (snapshot.oldestPendingAgeMs)
            consider(&grade, levelOf(*snapshot.oldestPendingAgeMs, thresholds.oldestPendingMs),
                QStringLiteral("oldest pending %1")
                    .arg(TimeFormat::span(*snapshot.oldestPendingAgeMs, snapshot.now)));
        if (snapshot.implausible.any())
            consider(&grade, Level::Amber, snapshot.implausible.sentence());
    }
    if (snapshot.isAvailable(QStringLiteral("due")))
        consider(&grade, levelOf(counts.due, thresholds.due), count(counts.due, "due", "due"));
    // An outbox relayed by change data capture is as bad as its replication slot: a stopped
    // connector turns the fleet row and the desktop alert red as DEAD events do.
    if (snapshot.cdc) {
        const CdcSlotGrade slot = CdcSlotGrade::of(*snapshot.cdc, thresholds);
        consider(&grade, slot.level, slot.figure);
    }
    return grade;
}
