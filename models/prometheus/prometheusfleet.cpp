#include "prometheusfleet.h"

#include <QMap>
#include <QSet>
#include <cmath>

namespace PrometheusFleet {

namespace {

const QString Outbox = QStringLiteral("outbox");

// The derived states as serve labels them, and where each goes in HealthCounts.
struct State
{
    const char *label;
    qint64 HealthCounts::*count;
};
constexpr State States[] = {
    {"due", &HealthCounts::due},
    {"scheduled", &HealthCounts::scheduled},
    {"in_flight", &HealthCounts::inFlight},
    {"lease_expired", &HealthCounts::leaseExpired},
    {"delivered", &HealthCounts::delivered},
    {"dead", &HealthCounts::dead},
    {"resolved", &HealthCounts::resolved},
};

qint64 whole(double value)
{
    return std::isfinite(value) ? qint64(std::llround(value)) : 0;
}

void addEvents(QMap<QString, PrometheusOutbox> *outboxes,
    const QList<PrometheusResponse::Sample> &events, QHash<QString, QSet<QString>> *seen)
{
    for (const PrometheusResponse::Sample &sample : events) {
        auto it = outboxes->find(sample.labels.value(Outbox));
        if (it == outboxes->end())
            continue; // no outbox_up: not an outbox serve reads
        const QString state = sample.labels.value(QStringLiteral("state"));
        for (const State &known : States) {
            if (state == QLatin1String(known.label)) {
                it->snapshot.counts.*known.count = whole(sample.value);
                (*seen)[it->name].insert(state);
            }
        }
    }
}

// A state serve did not export for an outbox that is up is one its schema cannot tell.
void markAbsent(PrometheusOutbox *outbox, const QSet<QString> &seen)
{
    for (const State &known : States) {
        const QString label = QLatin1String(known.label);
        if (!seen.contains(label) && label != QLatin1String("resolved"))
            outbox->snapshot.notAvailable.append(label);
    }
}

void addOldest(
    QMap<QString, PrometheusOutbox> *outboxes, const QList<PrometheusResponse::Sample> &oldest)
{
    QSet<QString> seen;
    for (const PrometheusResponse::Sample &sample : oldest) {
        auto it = outboxes->find(sample.labels.value(Outbox));
        if (it == outboxes->end())
            continue;
        seen.insert(it->name);
        // serve exports 0 when nothing is PENDING: "none pending", as the window says.
        if (it->snapshot.counts.pending() > 0)
            it->snapshot.oldestPendingAgeMs = whole(sample.value * 1000);
    }
    for (PrometheusOutbox &outbox : *outboxes) {
        if (outbox.up && !seen.contains(outbox.name))
            outbox.snapshot.notAvailable.append(QStringLiteral("oldest_pending_age_ms"));
    }
}

QHash<QString, QList<double>> valuesByOutbox(const QList<PrometheusResponse::Series> &series)
{
    QHash<QString, QList<double>> values;
    for (const PrometheusResponse::Series &one : series) {
        QList<double> &points = values[one.labels.value(Outbox)];
        for (const PrometheusResponse::Point &point : one.points)
            points.append(point.value);
    }
    return values;
}

} // namespace

QString query(Query which)
{
    switch (which) {
    case UpQuery:
        return QStringLiteral("max by (outbox) (outbox_up)");
    case ScrapedQuery:
        return QStringLiteral("max by (outbox) (timestamp(outbox_up))");
    case EventsQuery:
        return QStringLiteral("max by (outbox, state) (outbox_events)");
    case OldestQuery:
        return QStringLiteral("max by (outbox) (outbox_oldest_pending_age_seconds)");
    case QueryCount:
        break;
    }
    return {};
}

QString deadTrendQuery()
{
    return QStringLiteral("max by (outbox) (outbox_events{state=\"dead\"})");
}

QString oldestTrendQuery()
{
    return query(OldestQuery);
}

QString detailQuery(const QString &name)
{
    QString quoted = name;
    quoted.replace(QLatin1Char('\\'), QLatin1String("\\\\"))
        .replace(QLatin1Char('"'), QLatin1String("\\\""));
    return QStringLiteral("{outbox=\"%1\"}").arg(quoted);
}

QList<PrometheusOutbox> assemble(const QList<QList<PrometheusResponse::Sample>> &answers)
{
    QMap<QString, PrometheusOutbox> outboxes;
    for (const PrometheusResponse::Sample &sample : answers.value(UpQuery)) {
        PrometheusOutbox outbox;
        outbox.name = sample.labels.value(Outbox);
        outbox.up = sample.value == 1;
        outbox.scrapedAtMs = whole(sample.timestamp * 1000);
        if (!outbox.name.isEmpty())
            outboxes.insert(outbox.name, outbox);
    }
    for (const PrometheusResponse::Sample &sample : answers.value(ScrapedQuery)) {
        auto it = outboxes.find(sample.labels.value(Outbox));
        if (it != outboxes.end())
            it->scrapedAtMs = whole(sample.value * 1000);
    }
    QHash<QString, QSet<QString>> seen;
    addEvents(&outboxes, answers.value(EventsQuery), &seen);
    for (PrometheusOutbox &outbox : outboxes) {
        outbox.snapshot.now = outbox.scrapedAtMs;
        if (outbox.up)
            markAbsent(&outbox, seen.value(outbox.name));
    }
    addOldest(&outboxes, answers.value(OldestQuery));
    return outboxes.values();
}

QHash<QString, PrometheusTrend> trends(
    const QList<PrometheusResponse::Series> &dead, const QList<PrometheusResponse::Series> &oldest)
{
    QHash<QString, PrometheusTrend> trends;
    const QHash<QString, QList<double>> deadValues = valuesByOutbox(dead);
    for (auto it = deadValues.begin(); it != deadValues.end(); ++it)
        trends[it.key()].dead = it.value();
    const QHash<QString, QList<double>> oldestValues = valuesByOutbox(oldest);
    for (auto it = oldestValues.begin(); it != oldestValues.end(); ++it)
        trends[it.key()].oldestPendingSeconds = it.value();
    return trends;
}

} // namespace PrometheusFleet
