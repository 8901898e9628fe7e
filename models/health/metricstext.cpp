#include "metricstext.h"

#include "databaseurl.h"
#include "saturating.h"

#include <QStringList>
#include <cstdlib>

namespace {

// A sample value: whole numbers as integers, others with enough digits to round-trip.
QString number(double value)
{
    return QString::number(value, 'g', 17);
}

// Milliseconds as seconds, exactly: "601540.092", "1", "0.5".
QString seconds(qint64 ms)
{
    QString text = QString::number(ms / 1000);
    const qint64 fraction = std::abs(ms % 1000);
    if (ms < 0 && ms > -1000)
        text.prepend(QLatin1Char('-'));
    if (fraction == 0)
        return text;
    QString decimals = QStringLiteral("%1").arg(fraction, 3, 10, QLatin1Char('0'));
    while (decimals.endsWith(QLatin1Char('0')))
        decimals.chop(1);
    return text + QLatin1Char('.') + decimals;
}

struct Sample
{
    QString labels; // already formatted: outbox="a",state="due"
    QString value;
    QString suffix = {}; // of the sample's name: "_bucket", "_count"
};

class Writer
{
public:
    explicit Writer(MetricsText::Format format)
        : m_format(format)
    { }

    void family(const QString &name, const QString &help, const QList<Sample> &samples,
        const QString &type = u"gauge"_qs)
    {
        if (samples.isEmpty())
            return;
        m_text += QStringLiteral("# HELP %1 %2\n# TYPE %1 %3\n").arg(name, help, type);
        for (const Sample &sample : samples)
            m_text += QStringLiteral("%1%2{%3} %4\n")
                          .arg(name, sample.suffix, sample.labels, sample.value);
    }

    MetricsText::Format format() const { return m_format; }

    QString finish()
    {
        if (m_format == MetricsText::Format::OpenMetrics)
            m_text += u"# EOF\n"_qs;
        return m_text;
    }

private:
    MetricsText::Format m_format;
    QString m_text;
};

QString label(const QString &name, const QString &value)
{
    return QStringLiteral("%1=\"%2\"").arg(name, MetricsText::escapeLabel(value));
}

QString outboxLabel(const OutboxMetrics &outbox)
{
    return label(u"outbox"_qs, outbox.outbox);
}

// The states of outbox_events in a stable order, with the snapshot key that says whether the
// schema can tell it and whether it is estimated.
struct StateCount
{
    QString state;
    QString key;
    qint64 value;
};

QList<StateCount> states(const HealthSnapshot &snapshot)
{
    const HealthCounts &c = snapshot.counts;
    QList<StateCount> out
        = {{u"due"_qs, u"due"_qs, c.due}, {u"scheduled"_qs, u"scheduled"_qs, c.scheduled},
            {u"in_flight"_qs, u"in_flight"_qs, c.inFlight},
            {u"lease_expired"_qs, u"lease_expired"_qs, c.leaseExpired},
            {u"delivered"_qs, u"delivered"_qs, c.delivered}, {u"dead"_qs, u"dead"_qs, c.dead}};
    if (snapshot.hasResolved())
        out.append({u"resolved"_qs, u"resolved"_qs, c.resolved});
    QList<StateCount> available;
    for (const StateCount &state : out) {
        if (snapshot.isAvailable(state.key))
            available << state;
    }
    return available;
}

template <typename Each> QList<Sample> samples(const QList<OutboxMetrics> &outboxes, Each each)
{
    QList<Sample> out;
    for (const OutboxMetrics &outbox : outboxes) {
        if (outbox.snapshot)
            each(outbox, *outbox.snapshot, &out);
    }
    return out;
}

// The delivery latency of the last hour: the quantiles only when something was delivered (a
// quantile of nothing is no number), the count whenever the schema can tell it. The quantiles
// are typed `summary`, the one type that may carry a `quantile` label (promtool refuses it on a
// gauge); quantiles alone, without _sum and _count, which would have to be counters since
// start, where these are the last hour's. The hour's count is the gauge beside it.
void writeLatency(Writer &writer, const QList<OutboxMetrics> &outboxes)
{
    writer.family(u"outbox_delivery_latency_seconds"_qs,
        u"Created to delivered latency of the events delivered in the last hour, by nearest rank; "
        "absent when none was delivered."_qs,
        samples(outboxes,
            [](const OutboxMetrics &o, const HealthSnapshot &s, QList<Sample> *out) {
                if (!s.isAvailable(u"delivery_latency_ms"_qs) || s.latency.count == 0)
                    return;
                const DeliveryLatency &latency = s.latency;
                for (const auto &[quantile, value] :
                    {std::pair {u"0.5"_qs, latency.p50Ms}, std::pair {u"0.95"_qs, latency.p95Ms},
                        std::pair {u"0.99"_qs, latency.p99Ms}})
                    *out << Sample {outboxLabel(o) + u","_qs + label(u"quantile"_qs, quantile),
                        seconds(value.value_or(0))};
            }),
        u"summary"_qs);
    writer.family(u"outbox_delivered_last_hour"_qs,
        u"Events delivered in the last hour (delivered_at within the hour)."_qs,
        samples(outboxes, [](const OutboxMetrics &o, const HealthSnapshot &s, QList<Sample> *out) {
            if (s.isAvailable(u"delivery_latency_ms"_qs))
                *out << Sample {outboxLabel(o), QString::number(s.latency.count)};
        }));
}

// The scrape itself: the build, whether each outbox could be read, how long it took, and how
// many snapshots the server took.
void writeScrape(Writer &writer, const QList<OutboxMetrics> &outboxes, const QString &version)
{
    writer.family(u"outbox_build_info"_qs, u"Outbox Health's version; always 1."_qs,
        {{label(u"version"_qs, version), u"1"_qs}});
    QList<Sample> info;
    QList<Sample> up;
    QList<Sample> duration;
    for (const OutboxMetrics &outbox : outboxes) {
        QString infoLabels = outboxLabel(outbox);
        if (!outbox.db.isEmpty()) // only when the operator asked for it
            infoLabels += u","_qs + label(u"db"_qs, DatabaseUrl::maskPasswords(outbox.db));
        info << Sample {infoLabels, u"1"_qs};
        up << Sample {outboxLabel(outbox), outbox.snapshot ? u"1"_qs : u"0"_qs};
        duration << Sample {outboxLabel(outbox), number(outbox.snapshotSeconds)};
    }
    writer.family(u"outbox_info"_qs,
        u"The outbox, with its database URL (never a password) when the operator asked for it, "
        "for a link to the dashboard; always 1."_qs,
        info);
    writer.family(u"outbox_up"_qs, u"1 when the outbox's snapshot could be read, else 0."_qs, up);
    writer.family(u"outbox_snapshot_duration_seconds"_qs,
        u"How long reading the outbox's health snapshot took."_qs, duration);
    // A counter: OpenMetrics names the family without the samples' _total.
    const bool openCounter = writer.format() == MetricsText::Format::OpenMetrics;
    QList<Sample> taken;
    for (const OutboxMetrics &outbox : outboxes) {
        if (outbox.snapshotsTaken)
            taken << Sample {outboxLabel(outbox), QString::number(*outbox.snapshotsTaken),
                openCounter ? u"_total"_qs : QString()};
    }
    writer.family(openCounter ? u"outbox_snapshots"_qs : u"outbox_snapshots_total"_qs,
        u"Snapshots read (or tried) since the server started: at most one per interval, however "
        "many scrapes."_qs,
        taken, u"counter"_qs);
}

// One sample per outbox and state the schema can tell: `value(snapshot, state)`.
template <typename Value>
QList<Sample> stateSamples(const QList<OutboxMetrics> &outboxes, Value value)
{
    return samples(
        outboxes, [value](const OutboxMetrics &o, const HealthSnapshot &s, QList<Sample> *out) {
            for (const StateCount &state : states(s))
                *out << Sample {
                    outboxLabel(o) + u","_qs + label(u"state"_qs, state.state), value(s, state)};
        });
}

// outbox_events by derived state, and which of them are estimates.
void writeEvents(Writer &writer, const QList<OutboxMetrics> &outboxes)
{
    writer.family(u"outbox_events"_qs,
        u"Events by derived state: PENDING ones as due, scheduled, in_flight or lease_expired; "
        "delivered, dead and (schema version 2) resolved. A state the schema cannot tell is "
        "absent."_qs,
        stateSamples(outboxes, [](const HealthSnapshot &, const StateCount &state) {
            return QString::number(state.value);
        }));
    writer.family(u"outbox_events_estimated"_qs,
        u"1 where outbox_events of this state is an estimate (the catalogue's row count), else 0."_qs,
        stateSamples(outboxes, [](const HealthSnapshot &s, const StateCount &state) {
            return s.isEstimated(state.key) ? u"1"_qs : u"0"_qs;
        }));
}

void writeAges(Writer &writer, const QList<OutboxMetrics> &outboxes)
{
    writer.family(u"outbox_oldest_pending_age_seconds"_qs,
        u"Age of the oldest PENDING event (0 when nothing is PENDING)."_qs,
        samples(outboxes, [](const OutboxMetrics &o, const HealthSnapshot &s, QList<Sample> *out) {
            if (s.isAvailable(u"oldest_pending_age_ms"_qs))
                *out << Sample {outboxLabel(o), seconds(s.oldestPendingAgeMs.value_or(0))};
        }));
    // The age buckets are a histogram of the PENDING events as they are now: a gauge histogram
    // in OpenMetrics; Prometheus's text format has only `histogram` for buckets with `le`.
    const bool open = writer.format() == MetricsText::Format::OpenMetrics;
    writer.family(u"outbox_pending_age_seconds"_qs,
        u"PENDING events by age: at most `le` seconds old, cumulative (the snapshot's buckets)."_qs,
        samples(outboxes,
            [open](const OutboxMetrics &o, const HealthSnapshot &s, QList<Sample> *out) {
                if (!s.isAvailable(u"age_histogram"_qs))
                    return;
                qint64 cumulative = 0;
                for (const AgeBucket &bucket : s.ageHistogram) {
                    cumulative += bucket.count;
                    const QString le
                        = bucket.upperBoundMs ? seconds(*bucket.upperBoundMs) : u"+Inf"_qs;
                    *out << Sample {outboxLabel(o) + u","_qs + label(u"le"_qs, le),
                        QString::number(cumulative), u"_bucket"_qs};
                }
                *out << Sample {outboxLabel(o), QString::number(cumulative),
                    open ? u"_gcount"_qs : u"_count"_qs};
            }),
        open ? u"gaugehistogram"_qs : u"histogram"_qs);
}

// The known categories, then `other` for every value any other writer of last_error_category
// stored: a label value per distinct text would let that writer multiply Prometheus's series.
QList<CategoryCount> labelledCategories(const QList<CategoryCount> &categories)
{
    QList<CategoryCount> out;
    CategoryCount other {u"other"_qs, 0};
    for (const QString &known : HealthSnapshot::knownErrorCategories())
        out.append({known, 0});
    for (const CategoryCount &category : categories) {
        const qsizetype index = HealthSnapshot::knownErrorCategories().indexOf(category.category);
        CategoryCount &into = index >= 0 ? out[index] : other;
        into.count = Saturating::add(into.count, category.count);
    }
    out.append(other);
    return out;
}

void writeErrors(Writer &writer, const QList<OutboxMetrics> &outboxes)
{
    writer.family(u"outbox_error_events"_qs,
        u"PENDING and DEAD events by the category of their last error."_qs,
        samples(outboxes, [](const OutboxMetrics &o, const HealthSnapshot &s, QList<Sample> *out) {
            if (!s.isAvailable(u"error_categories"_qs))
                return;
            for (const CategoryCount &category : labelledCategories(s.errorCategories))
                *out << Sample {outboxLabel(o) + u","_qs + label(u"category"_qs, category.category),
                    QString::number(category.count)};
        }));
}

// The replication slot of an outbox relayed by change data capture (docs/cdc.md), for an
// outbox with a slot configured alone: whether the slot exists (a missing one must alert), and
// for one that does its consumer, lag, retained WAL, headroom, idle time, WAL status (all four
// states, 1 for the current one) and the server's WAL rate. A figure the server cannot tell
// (a lost slot's retained WAL, an unlimited safe_wal_size) is absent.
template <typename Value>
QList<Sample> cdcSamples(const QList<OutboxMetrics> &outboxes, bool missingToo, Value value)
{
    return samples(
        outboxes, [&](const OutboxMetrics &o, const HealthSnapshot &s, QList<Sample> *out) {
            if (!s.cdc || (!s.cdc->exists && !missingToo))
                return;
            const QString labels = outboxLabel(o) + u","_qs + label(u"slot"_qs, s.cdc->slot);
            if (const std::optional<QString> text = value(*s.cdc))
                *out << Sample {labels, *text};
        });
}

std::optional<QString> optionalBytes(const std::optional<qint64> &bytes)
{
    return bytes ? std::optional(QString::number(*bytes)) : std::nullopt;
}

// wal_status as a state set (every state, 1 for the current one), and the server's WAL rate.
void writeCdcWal(Writer &writer, const QList<OutboxMetrics> &outboxes)
{
    writer.family(u"outbox_cdc_wal_status"_qs,
        u"1 for the slot's wal_status (reserved, extended, unreserved, lost), 0 for the others."_qs,
        samples(outboxes, [](const OutboxMetrics &o, const HealthSnapshot &s, QList<Sample> *out) {
            if (!s.cdc || !s.cdc->exists || s.cdc->walStatus.isEmpty())
                return;
            for (const QString &status :
                {u"reserved"_qs, u"extended"_qs, u"unreserved"_qs, u"lost"_qs})
                *out << Sample {outboxLabel(o) + u","_qs + label(u"slot"_qs, s.cdc->slot) + u","_qs
                        + label(u"status"_qs, status),
                    status == s.cdc->walStatus ? u"1"_qs : u"0"_qs};
        }));
    writer.family(u"outbox_cdc_wal_rate_bytes_per_second"_qs,
        u"WAL the whole server writes per second: between the last snapshots, else its average "
        "since its statistics were reset."_qs,
        cdcSamples(outboxes, false, [](const CdcSlotReading &r) {
            return r.walRateBytesPerSec ? std::optional(number(*r.walRateBytesPerSec))
                                        : std::nullopt;
        }));
}

void writeCdcSlot(Writer &writer, const QList<OutboxMetrics> &outboxes)
{
    writer.family(u"outbox_cdc_slot_exists"_qs,
        u"1 when the outbox's replication slot exists on the server, else 0."_qs,
        cdcSamples(outboxes, true,
            [](const CdcSlotReading &r) { return std::optional(r.exists ? u"1"_qs : u"0"_qs); }));
    writer.family(u"outbox_cdc_slot_active"_qs,
        u"1 when a consumer (the CDC connector) is connected to the replication slot, else 0."_qs,
        cdcSamples(outboxes, false,
            [](const CdcSlotReading &r) { return std::optional(r.active ? u"1"_qs : u"0"_qs); }));
    writer.family(u"outbox_cdc_inactive_seconds"_qs,
        u"How long the slot has had no consumer (0 while active); absent when unknown."_qs,
        cdcSamples(outboxes, false, [](const CdcSlotReading &r) -> std::optional<QString> {
            if (r.active)
                return u"0"_qs;
            return r.inactiveForMs ? std::optional(seconds(*r.inactiveForMs)) : std::nullopt;
        }));
    writer.family(u"outbox_cdc_lag_bytes"_qs,
        u"WAL bytes from the consumer's confirmed position (confirmed_flush_lsn) to the server's."_qs,
        cdcSamples(
            outboxes, false, [](const CdcSlotReading &r) { return optionalBytes(r.lagBytes); }));
    writer.family(u"outbox_cdc_retained_bytes"_qs,
        u"WAL bytes the slot keeps on disk (from restart_lsn); absent once lost."_qs,
        cdcSamples(outboxes, false,
            [](const CdcSlotReading &r) { return optionalBytes(r.retainedBytes); }));
    writer.family(u"outbox_cdc_safe_wal_size_bytes"_qs,
        u"WAL bytes that may still be written before the slot passes max_slot_wal_keep_size "
        "(safe_wal_size); absent when unlimited."_qs,
        cdcSamples(outboxes, false,
            [](const CdcSlotReading &r) { return optionalBytes(r.safeWalSizeBytes); }));
    writeCdcWal(writer, outboxes);
}

} // namespace

namespace MetricsText {

QString escapeLabel(const QString &value)
{
    QString out;
    out.reserve(value.size());
    for (const QChar c : value) {
        if (c == QLatin1Char('\\'))
            out += u"\\\\"_qs;
        else if (c == QLatin1Char('"'))
            out += u"\\\""_qs;
        else if (c == QLatin1Char('\n'))
            out += u"\\n"_qs;
        else
            out += c;
    }
    return out;
}

QString contentType(Format format)
{
    return format == Format::OpenMetrics
        ? u"application/openmetrics-text; version=1.0.0; charset=utf-8"_qs
        : u"text/plain; version=0.0.4; charset=utf-8"_qs;
}

QString render(const QList<OutboxMetrics> &outboxes, const QString &version, Format format)
{
    Writer writer(format);
    writeScrape(writer, outboxes, version);
    writeEvents(writer, outboxes);
    writeAges(writer, outboxes);
    writeErrors(writer, outboxes);
    writeLatency(writer, outboxes);
    writeCdcSlot(writer, outboxes);
    return writer.finish();
}

} // namespace MetricsText
