#include "prometheusfleetworker.h"

#include "prometheusclient.h"

#include <QThread>

PrometheusFleetWorker::PrometheusFleetWorker(const QUrl &url)
    : m_url(url)
{ }

PrometheusClient *PrometheusFleetWorker::client()
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (!m_client) {
        m_client = new PrometheusClient(m_url, this);
        if (m_timeoutMs > 0)
            m_client->setTimeoutMs(m_timeoutMs);
        if (m_maxBytes > 0)
            m_client->setMaxResponseBytes(m_maxBytes);
    }
    return m_client;
}

void PrometheusFleetWorker::setTimeoutMs(int ms)
{
    m_timeoutMs = ms;
    if (m_client)
        m_client->setTimeoutMs(ms);
}

void PrometheusFleetWorker::setMaxResponseBytes(qint64 bytes)
{
    m_maxBytes = bytes;
    if (m_client)
        m_client->setMaxResponseBytes(bytes);
}

void PrometheusFleetWorker::refresh()
{
    if (m_pending > 0)
        return; // the refresh under way answers this tick too
    m_pending = PrometheusFleet::QueryCount;
    m_answers = QList<QList<PrometheusResponse::Sample>>(PrometheusFleet::QueryCount);
    m_error.clear();
    for (int q = 0; q < PrometheusFleet::QueryCount; ++q) {
        QUrlQuery query;
        query.addQueryItem(
            QStringLiteral("query"), PrometheusFleet::query(PrometheusFleet::Query(q)));
        client()->get(QStringLiteral("/api/v1/query"), query,
            [this, q](const QByteArray &body, const QString &error) { answered(q, body, error); });
    }
}

void PrometheusFleetWorker::answered(int query, const QByteArray &body, const QString &error)
{
    QString parseError = error;
    if (error.isEmpty()) {
        if (auto samples = PrometheusResponse::parseVector(body, &parseError))
            m_answers[query] = std::move(*samples);
    }
    if (m_error.isEmpty() && !parseError.isEmpty())
        m_error = parseError;
    if (--m_pending > 0)
        return;
    if (!m_error.isEmpty())
        emit failed(m_error);
    else
        emit read(PrometheusFleet::assemble(m_answers));
    m_answers.clear();
}

void PrometheusFleetWorker::refreshTrends(qint64 nowMs)
{
    if (m_trendsPending > 0)
        return;
    m_trendsPending = 2;
    m_trendAnswers = QList<QList<PrometheusResponse::Series>>(2);
    m_trendError.clear();
    const qint64 end = nowMs / 1000;
    const QStringList queries
        = {PrometheusFleet::deadTrendQuery(), PrometheusFleet::oldestTrendQuery()};
    for (int i = 0; i < 2; ++i) {
        QUrlQuery query;
        query.addQueryItem(QStringLiteral("query"), queries.at(i));
        query.addQueryItem(
            QStringLiteral("start"), QString::number(end - PrometheusFleet::TrendHours * 3600));
        query.addQueryItem(QStringLiteral("end"), QString::number(end));
        query.addQueryItem(
            QStringLiteral("step"), QString::number(PrometheusFleet::TrendStepSeconds));
        client()->get(QStringLiteral("/api/v1/query_range"), query,
            [this, i](
                const QByteArray &body, const QString &error) { trendAnswered(i, body, error); });
    }
}

void PrometheusFleetWorker::trendAnswered(int which, const QByteArray &body, const QString &error)
{
    QString parseError = error;
    if (error.isEmpty()) {
        if (auto series = PrometheusResponse::parseMatrix(body, &parseError))
            m_trendAnswers[which] = std::move(*series);
    }
    if (m_trendError.isEmpty() && !parseError.isEmpty())
        m_trendError = parseError;
    if (--m_trendsPending > 0)
        return;
    if (!m_trendError.isEmpty())
        emit failed(m_trendError);
    else
        emit trendsRead(PrometheusFleet::trends(m_trendAnswers.at(0), m_trendAnswers.at(1)));
    m_trendAnswers.clear();
}

void PrometheusFleetWorker::readDetail(const QString &name)
{
    QUrlQuery query;
    query.addQueryItem(QStringLiteral("query"), PrometheusFleet::detailQuery(name));
    client()->get(QStringLiteral("/api/v1/query"), query,
        [this, name](const QByteArray &body, const QString &error) {
            QString why = error;
            QList<PrometheusResponse::Sample> samples;
            if (why.isEmpty()) {
                if (auto parsed = PrometheusResponse::parseVector(body, &why))
                    samples = std::move(*parsed);
            }
            if (why.isEmpty() && samples.isEmpty())
                why = QStringLiteral("no data for outbox %1").arg(name);
            emit detailRead(name, samples, why);
        });
}
