// The answers of Prometheus's HTTP API (/api/v1/query and /api/v1/query_range) read into plain
// values: an instant vector (a value per series) or a range matrix (points per series). Anything
// else (not JSON, "status": "error", another result type, a value that is not a number) is one
// line saying why; a response of more than MaxSeries series is refused rather than read.
#pragma once

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QString>
#include <optional>

namespace PrometheusResponse {

// A fleet is at most 1,000 outboxes of about ten series each per query.
constexpr qsizetype MaxSeries = 100000;

struct Sample
{
    QHash<QString, QString> labels; // __name__ included when the query keeps it
    double value = 0;
    double timestamp = 0; // seconds since the epoch, as Prometheus gives it
};

struct Point
{
    double timestamp = 0; // seconds since the epoch
    double value = 0;
};

struct Series
{
    QHash<QString, QString> labels;
    QList<Point> points;
};

// "vector" results; nothing with *error set otherwise.
std::optional<QList<Sample>> parseVector(const QByteArray &body, QString *error);
// "matrix" results; nothing with *error set otherwise.
std::optional<QList<Series>> parseMatrix(const QByteArray &body, QString *error);
// The "error" of an answer that has one (Prometheus's own words for a 4xx or 5xx), or the first
// line of the body (at most 200 characters) when it is not Prometheus's JSON.
QString errorText(const QByteArray &body);

} // namespace PrometheusResponse
