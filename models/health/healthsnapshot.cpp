#include "healthsnapshot.h"

#include "sumof.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <algorithm>

namespace {

// QJsonObject sorts its keys; the contract wants them in a fixed, readable order, so the
// snapshot is written by hand from these few pieces.
QString quoted(const QString &text)
{
    // Through a one-element array so that the string is escaped exactly as JSON wants.
    const QByteArray array = QJsonDocument(QJsonArray {text}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(array.mid(1, array.size() - 2));
}

QString member(const QString &key, const QString &json)
{
    return quoted(key) + QLatin1Char(':') + json;
}

QString member(const QString &key, qint64 value)
{
    return member(key, QString::number(value));
}

QString member(const QString &key, std::optional<qint64> value)
{
    return member(key, value ? QString::number(*value) : QStringLiteral("null"));
}

QString object(const QStringList &members)
{
    return QLatin1Char('{') + members.join(QLatin1Char(',')) + QLatin1Char('}');
}

QString array(const QStringList &items)
{
    return QLatin1Char('[') + items.join(QLatin1Char(',')) + QLatin1Char(']');
}

// A count the schema cannot tell is null, never 0. "resolved" exists from schema version 2.
QString countsJson(const HealthCounts &counts, const QStringList &notAvailable, bool resolved)
{
    QList<std::pair<QString, qint64>> values
        = {{u"due"_qs, counts.due}, {u"scheduled"_qs, counts.scheduled},
            {u"in_flight"_qs, counts.inFlight}, {u"lease_expired"_qs, counts.leaseExpired},
            {u"delivered"_qs, counts.delivered}, {u"dead"_qs, counts.dead}};
    if (resolved)
        values.append({u"resolved"_qs, counts.resolved});
    QStringList members;
    for (const auto &[key, value] : values)
        members << (notAvailable.contains(key) ? member(key, u"null"_qs) : member(key, value));
    return object(members);
}

// The replication slot (docs/cdc.md): what one read tells, null where it cannot, and the
// figures from the WAL rate listed as estimates.
QString cdcJson(const CdcSlotReading &slot)
{
    const auto truth = [](bool value) { return value ? u"true"_qs : u"false"_qs; };
    const QString rate
        = slot.walRateBytesPerSec ? QString::number(*slot.walRateBytesPerSec, 'f', 1) : u"null"_qs;
    return object({member(u"slot"_qs, quoted(slot.slot)), member(u"exists"_qs, truth(slot.exists)),
        member(u"active"_qs, truth(slot.active)), member(u"active_pid"_qs, slot.activePid),
        member(u"inactive_for_ms"_qs, slot.inactiveForMs), member(u"lag_bytes"_qs, slot.lagBytes),
        member(u"retained_bytes"_qs, slot.retainedBytes),
        member(u"wal_status"_qs, slot.walStatus.isEmpty() ? u"null"_qs : quoted(slot.walStatus)),
        member(u"safe_wal_size_bytes"_qs, slot.safeWalSizeBytes),
        member(u"wal_rate_bytes_per_s"_qs, rate), member(u"lag_estimate_ms"_qs, slot.lagEstimateMs),
        member(u"runway_ms"_qs, slot.runwayMs),
        member(u"estimated"_qs, u"[\"lag_estimate_ms\",\"runway_ms\"]"_qs)});
}

QString namesJson(const QStringList &names)
{
    QStringList items;
    for (const QString &name : names)
        items << quoted(name);
    return array(items);
}

QString ageHistogramJson(const QList<AgeBucket> &buckets)
{
    QStringList items;
    for (const AgeBucket &bucket : buckets)
        items << object(
            {member(u"le_ms"_qs, bucket.upperBoundMs), member(u"count"_qs, bucket.count)});
    return array(items);
}

QString attemptsHistogramJson(const QList<FailuresBucket> &buckets)
{
    QStringList items;
    for (const FailuresBucket &bucket : buckets)
        items << object(
            {member(u"failures"_qs, bucket.failures), member(u"count"_qs, bucket.total())});
    return array(items);
}

QString errorCategoriesJson(const QList<CategoryCount> &categories)
{
    QStringList members;
    for (const CategoryCount &category : categories)
        members << member(category.category, category.count);
    return object(members);
}

QString throughputJson(const QList<ThroughputMinute> &minutes)
{
    QStringList items;
    for (const ThroughputMinute &minute : minutes)
        items << object({member(u"minute_start"_qs, minute.minuteStart),
            member(u"delivered"_qs, minute.delivered), member(u"failed"_qs, minute.failed)});
    return array(items);
}

QString latencyJson(const DeliveryLatency &latency)
{
    return object({member(u"p50"_qs, latency.p50Ms), member(u"p95"_qs, latency.p95Ms),
        member(u"p99"_qs, latency.p99Ms), member(u"count"_qs, latency.count)});
}

QString violationsJson(const QList<HealthViolation> &violations)
{
    QStringList items;
    for (const HealthViolation &violation : violations)
        items << object({member(u"threshold"_qs, quoted(violation.threshold)),
            member(u"limit"_qs, violation.limit), member(u"value"_qs, violation.value)});
    return array(items);
}

} // namespace

const QList<qint64> &HealthSnapshot::ageBoundsMs()
{
    static const QList<qint64> bounds = {1000, 10000, 60000, 600000, 3600000, 86400000};
    return bounds;
}

const QStringList &HealthSnapshot::knownErrorCategories()
{
    static const QStringList categories = {u"TRANSIENT"_qs, u"PERMANENT"_qs};
    return categories;
}

// The slot's figures a tile shows, without those that move with the clock or the WAL
// position alone (the idle time, the rate, the estimates).
static bool sameSlotFigures(
    const std::optional<CdcSlotReading> &a, const std::optional<CdcSlotReading> &b)
{
    if (!a || !b)
        return a.has_value() == b.has_value();
    return a->slot == b->slot && a->exists == b->exists && a->active == b->active
        && a->lagBytes == b->lagBytes && a->retainedBytes == b->retainedBytes
        && a->walStatus == b->walStatus && a->safeWalSizeBytes == b->safeWalSizeBytes;
}

bool HealthSnapshot::sameFigures(const HealthSnapshot &other) const
{
    // The throughput per minute back from now, without the minutes' starts, which move with
    // the clock alone: the same figures a minute later draw the same chart.
    const auto sameMinute = [](const ThroughputMinute &a, const ThroughputMinute &b) {
        return a.delivered == b.delivered && a.failed == b.failed;
    };
    return counts == other.counts && schemaVersion == other.schemaVersion
        && resolvedMapped == other.resolvedMapped && estimated == other.estimated
        && notAvailable == other.notAvailable && ageHistogram == other.ageHistogram
        && attemptsHistogram == other.attemptsHistogram && errorCategories == other.errorCategories
        && std::equal(throughput.cbegin(), throughput.cend(), other.throughput.cbegin(),
            other.throughput.cend(), sameMinute)
        && latency == other.latency && implausible == other.implausible
        && isSummary == other.isSummary && sameSlotFigures(cdc, other.cdc);
}

qint64 HealthSnapshot::deliveredLastHour() const
{
    return sumOf(throughput, &ThroughputMinute::delivered);
}

qint64 HealthSnapshot::failedLastHour() const
{
    return sumOf(throughput, &ThroughputMinute::failed);
}

QString HealthSnapshot::toJson(const HealthThresholds &thresholds) const
{
    const QList<HealthViolation> violations = thresholds.evaluate(*this);
    // What the schema cannot tell is null.
    const auto unlessNotAvailable = [this](const QString &key, const QString &json) {
        return member(key, notAvailable.contains(key) ? u"null"_qs : json);
    };
    QStringList members = {
        member(u"now"_qs, now),
        member(u"counts"_qs, countsJson(counts, notAvailable, hasResolved())),
        member(u"estimated"_qs, namesJson(estimated)),
        member(u"not_available"_qs, namesJson(notAvailable)),
        notAvailable.contains(u"oldest_pending_age_ms"_qs)
            ? member(u"oldest_pending_age_ms"_qs, u"null"_qs)
            : member(u"oldest_pending_age_ms"_qs, oldestPendingAgeMs),
        unlessNotAvailable(u"age_histogram"_qs, ageHistogramJson(ageHistogram)),
        unlessNotAvailable(u"attempts_histogram"_qs, attemptsHistogramJson(attemptsHistogram)),
        unlessNotAvailable(u"error_categories"_qs, errorCategoriesJson(errorCategories)),
        unlessNotAvailable(u"throughput_per_minute"_qs, throughputJson(throughput)),
        unlessNotAvailable(u"delivery_latency_ms"_qs, latencyJson(latency)),
        member(u"healthy"_qs, violations.isEmpty() ? u"true"_qs : u"false"_qs),
        member(u"violations"_qs, violationsJson(violations)),
    };
    if (implausible.any())
        members << member(u"implausible_created_at"_qs,
            object({member(u"before_1970"_qs, implausible.createdBefore1970),
                member(u"in_future"_qs, implausible.createdInFuture)}));
    if (cdc)
        members << member(u"cdc"_qs, cdcJson(*cdc));
    return object(members);
}

QString ImplausibleTimes::sentence() const
{
    QStringList parts;
    const auto part = [&parts](qint64 rows, const QString &when) {
        if (rows > 0)
            parts << QStringLiteral("%1 PENDING %2 created_at %3")
                         .arg(rows)
                         .arg(rows == 1 ? u"row has"_qs : u"rows have"_qs, when);
    };
    part(createdBefore1970, u"before 1970"_qs);
    part(createdInFuture,
        QStringLiteral("in the future (more than %1 after now)")
            .arg(formatDurationMs(HealthSnapshot::FutureToleranceMs)));
    return parts.join(u"; "_qs);
}

QString formatDurationMs(qint64 ms)
{
    static const QList<std::pair<qint64, QString>> units
        = {{86400000, u"d"_qs}, {3600000, u"h"_qs}, {60000, u"min"_qs}, {1000, u"s"_qs}};
    for (const auto &[size, name] : units) {
        if (ms != 0 && ms % size == 0)
            return QString::number(ms / size) + QLatin1Char(' ') + name;
    }
    return QString::number(ms) + u" ms"_qs;
}

QString ageBucketLabel(const AgeBucket &bucket)
{
    if (bucket.upperBoundMs)
        return u"<= "_qs + formatDurationMs(*bucket.upperBoundMs);
    return u"> "_qs + formatDurationMs(HealthSnapshot::ageBoundsMs().constLast());
}
