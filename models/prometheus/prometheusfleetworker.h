// The fleet's reads of Prometheus, on a worker thread of their own (WorkerThread): the
// QNetworkAccessManager lives there, the JSON of a thousand outboxes is parsed there, and the
// GUI thread receives plain values over queued signals. A refresh asked while one is under way is
// skipped (the next tick reads anyway), so a slow Prometheus never piles requests up.
#pragma once

#include "prometheusfleet.h"

#include <QObject>
#include <QUrl>

class PrometheusClient;

class PrometheusFleetWorker : public QObject
{
    Q_OBJECT
public:
    explicit PrometheusFleetWorker(const QUrl &url);

    // The instant queries (PrometheusFleet::Query): read() or failed().
    void refresh();
    // The last hours of DEAD and the oldest pending age: trendsRead(), or failed().
    void refreshTrends(qint64 nowMs);
    // Every series of one outbox: detailRead(name, samples, error).
    void readDetail(const QString &name);
    void setTimeoutMs(int ms);
    void setMaxResponseBytes(qint64 bytes);

signals:
    void read(const QList<PrometheusOutbox> &outboxes);
    void trendsRead(const QHash<QString, PrometheusTrend> &trends);
    void failed(const QString &error);
    void detailRead(const QString &name, const QList<PrometheusResponse::Sample> &samples,
        const QString &error);

private:
    PrometheusClient *client();
    void answered(int query, const QByteArray &body, const QString &error);
    void trendAnswered(int which, const QByteArray &body, const QString &error);

    QUrl m_url;
    PrometheusClient *m_client = nullptr; // created on the worker's thread
    int m_timeoutMs = 0;
    qint64 m_maxBytes = 0;
    // The refresh under way: its answers so far and the first error.
    int m_pending = 0;
    QList<QList<PrometheusResponse::Sample>> m_answers;
    QString m_error;
    int m_trendsPending = 0;
    QList<QList<PrometheusResponse::Series>> m_trendAnswers;
    QString m_trendError;
};
