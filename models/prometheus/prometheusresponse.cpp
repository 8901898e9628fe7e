#include "prometheusresponse.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace PrometheusResponse {

namespace {

// The "data" object of a successful answer of `type`; nothing with *error set otherwise.
std::optional<QJsonArray> results(const QByteArray &body, const QString &type, QString *error)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(body, &parseError);
    if (document.isNull() || !document.isObject()) {
        *error = QStringLiteral("not a Prometheus API answer (no JSON object): %1")
                     .arg(errorText(body));
        return std::nullopt;
    }
    const QJsonObject root = document.object();
    if (root.value(u"status").toString() != QLatin1String("success")) {
        *error = QStringLiteral("Prometheus refused the query: %1").arg(errorText(body));
        return std::nullopt;
    }
    const QJsonObject data = root.value(u"data").toObject();
    if (data.value(u"resultType").toString() != type || !data.value(u"result").isArray()) {
        *error = QStringLiteral("Prometheus answered a %1 where a %2 was expected")
                     .arg(data.value(u"resultType").toString(QStringLiteral("nothing")), type);
        return std::nullopt;
    }
    const QJsonArray result = data.value(u"result").toArray();
    if (result.size() > MaxSeries) {
        *error = QStringLiteral("Prometheus answered %1 series, more than the %2 read")
                     .arg(result.size())
                     .arg(MaxSeries);
        return std::nullopt;
    }
    return result;
}

QHash<QString, QString> labelsOf(const QJsonObject &metric)
{
    QHash<QString, QString> labels;
    for (auto it = metric.begin(); it != metric.end(); ++it)
        labels.insert(it.key(), it.value().toString());
    return labels;
}

// [timestamp, "value"]; false when it is not one ("NaN" and "+Inf" are numbers).
bool pointOf(const QJsonValue &pair, Point *point)
{
    const QJsonArray array = pair.toArray();
    if (array.size() != 2 || !array.at(0).isDouble() || !array.at(1).isString())
        return false;
    bool ok = false;
    point->timestamp = array.at(0).toDouble();
    point->value = array.at(1).toString().toDouble(&ok);
    const QString text = array.at(1).toString();
    return ok || text == QLatin1String("NaN") || text.endsWith(QLatin1String("Inf"));
}

} // namespace

std::optional<QList<Sample>> parseVector(const QByteArray &body, QString *error)
{
    const std::optional<QJsonArray> result = results(body, QStringLiteral("vector"), error);
    if (!result)
        return std::nullopt;
    QList<Sample> samples;
    samples.reserve(result->size());
    for (const QJsonValue &item : *result) {
        Point point;
        if (!pointOf(item.toObject().value(u"value"), &point)) {
            *error = QStringLiteral("Prometheus answered a sample that is not [time, \"value\"]");
            return std::nullopt;
        }
        samples.append(
            {labelsOf(item.toObject().value(u"metric").toObject()), point.value, point.timestamp});
    }
    return samples;
}

std::optional<QList<Series>> parseMatrix(const QByteArray &body, QString *error)
{
    const std::optional<QJsonArray> result = results(body, QStringLiteral("matrix"), error);
    if (!result)
        return std::nullopt;
    QList<Series> series;
    series.reserve(result->size());
    for (const QJsonValue &item : *result) {
        Series one;
        one.labels = labelsOf(item.toObject().value(u"metric").toObject());
        for (const QJsonValue &pair : item.toObject().value(u"values").toArray()) {
            Point point;
            if (!pointOf(pair, &point)) {
                *error
                    = QStringLiteral("Prometheus answered a point that is not [time, \"value\"]");
                return std::nullopt;
            }
            one.points.append(point);
        }
        series.append(std::move(one));
    }
    return series;
}

QString errorText(const QByteArray &body)
{
    const QJsonObject root = QJsonDocument::fromJson(body).object();
    QString text = root.value(u"error").toString();
    if (text.isEmpty())
        text = QString::fromUtf8(body.left(400)).section(QLatin1Char('\n'), 0, 0).trimmed();
    if (text.isEmpty())
        text = QStringLiteral("(empty body)");
    return text.left(200);
}

} // namespace PrometheusResponse
