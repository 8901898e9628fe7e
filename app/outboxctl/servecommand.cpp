// outboxctl serve [--listen HOST:PORT] (--outbox NAME=URL[;profile=P] ... | --config FILE)
// [--interval-ms N]: serves /metrics (the Prometheus text exposition of every outbox's last
// snapshot; OpenMetrics when the scraper asks for it) and /healthz with Qt HTTP Server. Each
// outbox is read by its own OutboxPoller on its own thread, once per interval whatever the
// number of scrapes; a failing outbox is outbox_up 0 with one log line on stderr (no password)
// and never stops the others. Loopback by default. Runs until it is terminated; exit 2 on bad
// arguments or when it cannot listen.
#include "cli.h"
#include "fleetconfig.h"
#include "metricstext.h"
#include "outboxpoller.h"

#include <QHostAddress>
#include <QHttpServer>
#include <QHttpServerRequest>
#include <QHttpServerResponse>
#include <QMap>
#include <QTextStream>
#include <QThread>
#include <memory>

namespace {

constexpr qint64 DefaultIntervalMs = 15000;

bool parseListen(const QString &text, QHostAddress *host, quint16 *port, QString *error)
{
    const qsizetype colon = text.lastIndexOf(QLatin1Char(':'));
    bool ok = false;
    const uint number = colon > 0 ? text.mid(colon + 1).toUInt(&ok) : 0;
    QString address = colon > 0 ? text.left(colon) : QString();
    if (address.startsWith(QLatin1Char('[')) && address.endsWith(QLatin1Char(']')))
        address = address.mid(1, address.size() - 2);
    if (address == u"localhost"_qs)
        address = u"127.0.0.1"_qs;
    if (!ok || number > 65535 || !host->setAddress(address)) {
        *error = QStringLiteral("--listen must be HOST:PORT with an IP address (e.g. "
                                "127.0.0.1:9464), not '%1'")
                     .arg(text);
        return false;
    }
    *port = quint16(number);
    return true;
}

// The last figures of every outbox, kept on the main thread, rendered on each scrape.
class FleetCache : public QObject
{
public:
    void update(const OutboxMetrics &metrics, const QString &error)
    {
        if (!error.isEmpty())
            QTextStream(stderr) << "outboxctl serve: outbox " << metrics.outbox << ": "
                                << Cli::printable(error) << Qt::endl;
        m_last.insert(metrics.outbox, metrics);
    }
    QString render(MetricsText::Format format) const
    {
        return MetricsText::render(m_last.values(), QStringLiteral(OUTBOX_HEALTH_VERSION), format);
    }

private:
    QMap<QString, OutboxMetrics> m_last; // by name: a stable order
};

struct Fleet
{
    QList<QThread *> threads;
    ~Fleet()
    {
        for (QThread *thread : threads) {
            thread->quit();
            thread->wait();
            delete thread;
        }
    }
};

} // namespace

int runServe(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption({u"listen"_qs, u"Address and port to serve on (default 127.0.0.1:9464)."_qs,
        u"HOST:PORT"_qs, u"127.0.0.1:9464"_qs});
    parser.addOption({u"outbox"_qs, u"An outbox to serve (repeatable): NAME=URL[;profile=P]."_qs,
        u"NAME=URL"_qs});
    parser.addOption(
        {u"config"_qs, u"A file of outboxes, one NAME=URL[;profile=P] per line."_qs, u"FILE"_qs});
    parser.addOption({u"interval-ms"_qs,
        u"Read each outbox at most once per interval (default 15000, at least 1000)."_qs, u"N"_qs});
    int exitCode = Cli::Ok;
    if (!Cli::parse(parser, u"serve"_qs, arguments, &exitCode))
        return exitCode;

    QString error;
    QHostAddress host;
    quint16 port = 0;
    qint64 intervalMs = DefaultIntervalMs;
    if (!parseListen(parser.value(u"listen"_qs), &host, &port, &error)
        || !Cli::readNumber(parser, u"interval-ms"_qs, 1000, 24 * 3600 * 1000, &intervalMs, &error))
        return Cli::fail(u"serve: "_qs + error);
    QList<FleetEntry> entries;
    if (parser.isSet(u"config"_qs)
        && !FleetConfig::readFile(parser.value(u"config"_qs), &entries, &error))
        return Cli::fail(u"serve: "_qs + error);
    if (!FleetConfig::parseLines(parser.values(u"outbox"_qs), {}, &entries, &error))
        return Cli::fail(u"serve: "_qs + error);
    if (entries.isEmpty())
        return Cli::fail(u"serve: name at least one --outbox NAME=URL or a --config FILE"_qs);

    QHttpServer server;
    FleetCache cache;
    server.route(u"/metrics"_qs, QHttpServerRequest::Method::Get,
        [&cache](const QHttpServerRequest &request) {
            const bool open = request.value("Accept").contains("application/openmetrics-text");
            const auto format
                = open ? MetricsText::Format::OpenMetrics : MetricsText::Format::Prometheus;
            return QHttpServerResponse(
                MetricsText::contentType(format).toUtf8(), cache.render(format).toUtf8());
        });
    server.route(u"/healthz"_qs, QHttpServerRequest::Method::Get,
        [] { return QHttpServerResponse("text/plain", "ok\n"); });
    const quint16 listening = server.listen(host, port);
    if (listening == 0)
        return Cli::fail(
            QStringLiteral("serve: cannot listen on %1").arg(parser.value(u"listen"_qs)));

    Fleet fleet;
    for (const FleetEntry &entry : entries) {
        auto *thread = new QThread;
        thread->setObjectName(u"outbox-"_qs + entry.name);
        auto *poller = new OutboxPoller(entry, intervalMs);
        poller->moveToThread(thread);
        QObject::connect(thread, &QThread::finished, poller, &QObject::deleteLater);
        QObject::connect(poller, &OutboxPoller::polled, &cache, &FleetCache::update);
        QObject::connect(thread, &QThread::started, poller, &OutboxPoller::start);
        fleet.threads << thread;
        thread->start();
    }
    const QString address = host.protocol() == QAbstractSocket::IPv6Protocol
        ? u"["_qs + host.toString() + u"]"_qs
        : host.toString();
    QTextStream(stdout) << "outboxctl serve: " << entries.size() << " outbox(es) on http://"
                        << address << ":" << listening << "/metrics" << Qt::endl;
    return QCoreApplication::exec();
}
