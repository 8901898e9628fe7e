#include "prometheusclient.h"

#include "prometheusresponse.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>

PrometheusClient::PrometheusClient(const QUrl &base, QObject *parent)
    : QObject(parent)
    , m_base(base)
    , m_network(new QNetworkAccessManager(this))
{ }

QUrl PrometheusClient::parseUrl(const QString &text, QString *error)
{
    const QUrl url(text.trimmed(), QUrl::StrictMode);
    if (!url.isValid()
        || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https"))
        || url.host().isEmpty() || url.hasQuery() || url.hasFragment()) {
        *error = QStringLiteral("not a Prometheus URL (http://HOST:PORT[/PATH] or https://…): %1")
                     .arg(displayUrl(QUrl(text.trimmed())));
        return {};
    }
    return url;
}

QString PrometheusClient::displayUrl(const QUrl &url)
{
    return url.toDisplayString(QUrl::RemovePassword);
}

void PrometheusClient::get(const QString &path, const QUrlQuery &query, Done done)
{
    QUrl url = m_base;
    QString base = url.path();
    while (base.endsWith(QLatin1Char('/')))
        base.chop(1);
    url.setPath(base + path);
    // Every value percent-encoded ('+', '=' and '&' of PromQL included), as a Go server decodes.
    QStringList pairs;
    for (const auto &[key, value] : query.queryItems(QUrl::FullyDecoded))
        pairs << QString::fromLatin1(
            QUrl::toPercentEncoding(key) + '=' + QUrl::toPercentEncoding(value));
    url.setQuery(pairs.join(QLatin1Char('&')), QUrl::StrictMode);
    QNetworkRequest request(url);
    request.setTransferTimeout(m_timeoutMs);
    request.setRawHeader("Accept", "application/json");
    QNetworkReply *reply = m_network->get(request);
    // Read as it arrives into a body of our own, the reply's buffer kept small: the socket is not
    // read past it (back-pressure), so a hostile server cannot make this buffer more than the
    // bound plus one chunk before it is aborted.
    reply->setReadBufferSize(ReadChunkBytes);
    auto state = std::make_shared<Body>();
    const auto take = [this, reply, state] {
        state->bytes += reply->readAll();
        if (!state->tooLarge && state->bytes.size() > m_maxBytes) {
            state->tooLarge = true;
            state->bytes.clear();
            reply->abort();
        }
    };
    connect(reply, &QNetworkReply::readyRead, reply, take);
    connect(reply, &QNetworkReply::metaDataChanged, reply, [this, reply, state] {
        if (reply->header(QNetworkRequest::ContentLengthHeader).toLongLong() > m_maxBytes) {
            state->tooLarge = true;
            reply->abort();
        }
    });
    connect(
        reply, &QNetworkReply::finished, this, [this, reply, done = std::move(done), state, take] {
            if (!state->tooLarge && reply->error() == QNetworkReply::NoError)
                take();
            finish(reply, done, *state);
        });
}

void PrometheusClient::finish(QNetworkReply *reply, const Done &done, const Body &body)
{
    reply->deleteLater();
    const QString where = QStringLiteral("Prometheus at %1").arg(displayUrl(m_base));
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (body.tooLarge) {
        done({},
            QStringLiteral("%1 answered more than %2 MiB; not read")
                .arg(where)
                .arg(m_maxBytes / (1024 * 1024)));
    } else if (reply->error() == QNetworkReply::OperationCanceledError
        || reply->error() == QNetworkReply::TimeoutError) {
        done({},
            QStringLiteral("%1 did not answer within %2 s").arg(where).arg(m_timeoutMs / 1000.0));
    } else if (status >= 400) {
        done({},
            QStringLiteral("%1 answered HTTP %2: %3")
                .arg(where)
                .arg(status)
                .arg(PrometheusResponse::errorText(body.bytes + reply->read(64 * 1024))));
    } else if (reply->error() != QNetworkReply::NoError) {
        done({}, QStringLiteral("cannot reach %1: %2").arg(where, reply->errorString()));
    } else {
        done(body.bytes, {});
    }
}
