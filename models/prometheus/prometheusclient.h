// Prometheus's HTTP API on the thread it lives on (a QNetworkAccessManager's replies are
// asynchronous: nothing waits), with bounds: an answer larger than MaxResponseBytes is aborted as
// soon as it grows past it, one slower than TimeoutMs is abandoned, and every failure is one line
// naming Prometheus's URL (its password never): unreachable, an HTTP status with Prometheus's
// own error, too large, too slow.
#pragma once

#include <QObject>
#include <QUrl>
#include <QUrlQuery>
#include <functional>

class QNetworkAccessManager;
class QNetworkReply;

class PrometheusClient : public QObject
{
    Q_OBJECT
public:
    static constexpr qint64 MaxResponseBytes = 32 * 1024 * 1024;
    static constexpr int TimeoutMs = 10000;

    // The body, or an error (empty body).
    using Done = std::function<void(const QByteArray &body, const QString &error)>;

    explicit PrometheusClient(const QUrl &base, QObject *parent = nullptr);

    // `base` must be http:// or https:// with a host (a path prefix is kept, as behind a proxy).
    static QUrl parseUrl(const QString &text, QString *error);
    // The URL without its password, for messages.
    static QString displayUrl(const QUrl &url);

    // GET base + path?query; `done` is called once, on this object's thread.
    void get(const QString &path, const QUrlQuery &query, Done done);
    void setTimeoutMs(int ms) { m_timeoutMs = ms; }
    void setMaxResponseBytes(qint64 bytes) { m_maxBytes = bytes; }

private:
    static constexpr qint64 ReadChunkBytes = 256 * 1024;
    struct Body
    {
        QByteArray bytes;
        bool tooLarge = false;
    };
    void finish(QNetworkReply *reply, const Done &done, const Body &body);

    QUrl m_base;
    QNetworkAccessManager *m_network = nullptr;
    int m_timeoutMs = TimeoutMs;
    qint64 m_maxBytes = MaxResponseBytes;
};
