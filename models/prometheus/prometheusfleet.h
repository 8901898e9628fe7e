// A fleet's figures as Prometheus holds them: the series `outboxctl serve` exports, read with a
// few queries whatever the number of outboxes (one per figure, each a vector over every
// `outbox` label, `max by (outbox)` so that two Prometheus jobs scraping the same serve count
// once), and turned into each outbox's HealthSnapshot, so that the fleet view grades it with the
// same HealthGrade as an outbox read from its database. A state or figure the outbox's schema
// cannot tell is absent from serve's metrics, and so not available here either, never 0.
#pragma once

#include "healthsnapshot.h"
#include "prometheusresponse.h"

#include <QHash>
#include <QList>
#include <QMetaType>
#include <QString>

struct PrometheusOutbox
{
    QString name;
    bool up = false; // outbox_up 1: serve read its last snapshot
    qint64 scrapedAtMs = 0; // when Prometheus last scraped it
    HealthSnapshot snapshot; // the figures; meaningless unless up
};

// The DEAD count and the oldest pending age (seconds) over the last hours, oldest point first.
struct PrometheusTrend
{
    QList<double> dead;
    QList<double> oldestPendingSeconds;
};

namespace PrometheusFleet {

// The instant queries of one refresh, in the order assemble() takes their answers.
enum Query { UpQuery, ScrapedQuery, EventsQuery, OldestQuery, QueryCount };
QString query(Query which);
// The range queries of the trends: DEAD, then the oldest pending age.
QString deadTrendQuery();
QString oldestTrendQuery();
constexpr int TrendHours = 3;
constexpr int TrendStepSeconds = 300; // 36 points over three hours
// Every series of one outbox (the read-only detail): {outbox="NAME"}.
QString detailQuery(const QString &name);

// One outbox per `outbox` label of the answers, sorted by name.
QList<PrometheusOutbox> assemble(const QList<QList<PrometheusResponse::Sample>> &answers);
QHash<QString, PrometheusTrend> trends(
    const QList<PrometheusResponse::Series> &dead, const QList<PrometheusResponse::Series> &oldest);

} // namespace PrometheusFleet

Q_DECLARE_METATYPE(QList<PrometheusOutbox>)
