// outboxctl serve [--listen HOST:PORT] (--outbox NAME=URL[;profile=P][;cdc-slot=S] ... |
// --config FILE) [--interval SECONDS] [--expose-db-url]: serves /metrics (the Prometheus text
// exposition of every outbox's last snapshot, with its replication slot's outbox_cdc_* for a
// `;cdc-slot=` line; OpenMetrics when the scraper asks for it; outbox_info with a db label only
// with --expose-db-url) and /healthz with HttpServer, serve's own
// bounded HTTP server (GET and HEAD, no bodies, limits on heads, connections and time). Each
// outbox is read by its own OutboxPoller on its own thread, once per interval whatever the
// number of scrapes; a failing outbox is outbox_up 0 with one log line on stderr (no password)
// and never stops the others. Loopback by default; HTTPS, passwords and headers with
// --web.config.file (WebGate). With --api (and --api.rights FILE) also the operator API under
// /api/v1 (OperatorApi). Runs until SIGINT or SIGTERM (exit 0); exit 2 on bad arguments, a bad
// fleet file, web config or rights file, or when it cannot listen, with nothing served.
#include "apioptions.h"
#include "apiroute.h"
#include "cli.h"
#include "durationtext.h"
#include "fleetconfig.h"
#include "httpserver.h"
#include "metricstext.h"
#include "operatorapi.h"
#include "outboxpoller.h"
#include "quitonsignal.h"
#include "webgate.h"
#include "workerthread.h"

#include <QHostAddress>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QSslServer>
#include <QTcpServer>
#include <QTextStream>

#include <algorithm>
#include <memory>
#include <optional>
#include <sys/resource.h>
#include <vector>

namespace {

constexpr quint16 DefaultPort = 9640;
constexpr double DefaultIntervalS = 15;
// Descriptors kept for what is not an HTTP client: the standard streams, the listener, Qt's
// event pipes, and per outbox its database connection (a socket, or a SQLite file with its
// journal) and thread.
constexpr int ReservedDescriptors = 24;
constexpr int DescriptorsPerOutbox = 4;
constexpr int MinConnections = 4;

// An outbox's line (FleetConfig): its name, URL, profile and replication slot.
const QString OutboxHelp
    = u"An outbox to serve (repeatable): NAME=URL[;profile=P][;cdc-slot=S], S the replication "
      "slot that relays it (outbox_cdc_* metrics)."_qs;
const QString ConfigHelp
    = u"A file of outboxes, one NAME=URL[;profile=P][;cdc-slot=S] per line (# comments)."_qs;

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
                                "127.0.0.1:%1 or [::1]:%1), not '%2'")
                     .arg(DefaultPort)
                     .arg(text);
        return false;
    }
    *port = quint16(number);
    return true;
}

bool readInterval(const QCommandLineParser &parser, qint64 *intervalMs, QString *error)
{
    if (!parser.isSet(u"interval"_qs))
        return true;
    // A plain number is seconds here (Prometheus's habit); with a unit, any duration (30s, 1m).
    const QString text = parser.value(u"interval"_qs).trimmed();
    bool ok = false;
    const double seconds = text.toDouble(&ok);
    const std::optional<qint64> ms
        = ok ? std::optional<qint64>(qint64(seconds * 1000)) : DurationText::parseMs(text);
    if (!ms || !(ok ? seconds >= 1 && seconds <= 86400 : *ms >= 1000 && *ms <= 86400000)) {
        *error = QStringLiteral("--interval must be from 1 s to 1 d, in seconds (15) or as a "
                                "duration (30s, 5m), not '%1'")
                     .arg(parser.value(u"interval"_qs));
        return false;
    }
    *intervalMs = *ms;
    return true;
}

bool readEntries(const QCommandLineParser &parser, QList<FleetEntry> *entries, QString *error)
{
    if (parser.isSet(u"config"_qs)
        && !FleetConfig::readFile(parser.value(u"config"_qs), entries, error))
        return false;
    if (!FleetConfig::parseLines(parser.values(u"outbox"_qs), {}, entries, error))
        return false;
    if (entries->isEmpty()) {
        *error = u"name at least one --outbox NAME=URL or a --config FILE"_qs;
        return false;
    }
    return true;
}

// The last figures of every outbox, kept on the main thread, rendered on each scrape. Logs an
// outbox going down (and why) and coming back, once per change, not once per poll.
class FleetCache : public QObject
{
public:
    explicit FleetCache(bool exposeDbUrl)
        : m_exposeDbUrl(exposeDbUrl)
    { }

    void update(OutboxMetrics metrics, const QString &error)
    {
        if (!m_exposeDbUrl)
            metrics.db.clear(); // outbox_info{outbox} only
        const QString previous = m_errors.value(metrics.outbox);
        if (!error.isEmpty() && error != previous)
            log(QStringLiteral("outbox %1 is down (outbox_up 0): %2").arg(metrics.outbox, error));
        else if (error.isEmpty() && !previous.isEmpty())
            log(QStringLiteral("outbox %1 is up again").arg(metrics.outbox));
        m_errors.insert(metrics.outbox, error);
        if (metrics.snapshot)
            noteSlot(metrics.outbox, metrics.snapshot->cdc);
        m_last.insert(metrics.outbox, metrics);
    }
    // The API's list: each named outbox with its last snapshot (`check --json`'s keys), or
    // "up": false and its error, or "up": null before its first poll.
    QJsonArray health(const QStringList &names) const
    {
        QJsonArray list;
        for (const QString &name : names) {
            QJsonObject item {{u"name"_qs, name}, {u"up"_qs, QJsonValue()}};
            const auto last = m_last.constFind(name);
            if (last != m_last.cend() && last->snapshot) {
                item.insert(u"up"_qs, true);
                item.insert(u"health"_qs,
                    QJsonDocument::fromJson(last->snapshot->toJson().toUtf8()).object());
            } else if (last != m_last.cend()) {
                item.insert(u"up"_qs, false);
                item.insert(u"error"_qs, m_errors.value(name));
            }
            list.append(item);
        }
        return list;
    }
    QByteArray render(MetricsText::Format format) const
    {
        return MetricsText::render(m_last.values(), QStringLiteral(OUTBOX_HEALTH_VERSION), format)
            .toUtf8();
    }

private:
    static void log(const QString &line)
    {
        QTextStream(stderr) << "outboxctl serve: " << Cli::printable(line) << Qt::endl;
    }
    // A `;cdc-slot=` the server lacks (a typo, a dropped slot): logged once, with the slots it
    // has, and again when it is back.
    void noteSlot(const QString &outbox, const std::optional<CdcSlotReading> &cdc)
    {
        const QString missing = cdc && !cdc->exists ? cdc->missingText() : QString();
        const QString previous = m_missingSlots.value(outbox);
        if (!missing.isEmpty() && missing != previous)
            log(QStringLiteral("outbox %1: %2 (outbox_cdc_slot_exists 0)").arg(outbox, missing));
        else if (missing.isEmpty() && !previous.isEmpty())
            log(QStringLiteral("outbox %1: replication slot \"%2\" exists again")
                    .arg(outbox, cdc ? cdc->slot : QString()));
        m_missingSlots.insert(outbox, missing);
    }

    bool m_exposeDbUrl;
    QMap<QString, OutboxMetrics> m_last; // by name: a stable order
    QHash<QString, QString> m_errors; // the last error logged per outbox; empty when up
    QHash<QString, QString> m_missingSlots; // the last missing slot logged per outbox
};

// One thread per outbox, each with its poller; stopped and joined when it goes out of scope.
class Fleet
{
public:
    Fleet(const QList<FleetEntry> &entries, qint64 intervalMs, FleetCache *cache)
    {
        for (const FleetEntry &entry : entries) {
            auto *poller = new OutboxPoller(entry, intervalMs);
            auto thread
                = std::make_unique<WorkerThread<OutboxPoller>>(u"outbox-"_qs + entry.name, poller);
            QObject::connect(poller, &OutboxPoller::polled, cache, &FleetCache::update);
            QObject::connect(thread->thread(), &QThread::started, poller, &OutboxPoller::start);
            thread->start();
            m_threads.push_back(std::move(thread));
        }
    }
    ~Fleet()
    {
        for (const auto &thread : m_threads)
            thread->quit(); // a poll under way ends within its connect and statement timeouts
        m_threads.clear(); // each waits for its thread
    }
    Fleet(const Fleet &) = delete;
    Fleet &operator=(const Fleet &) = delete;

private:
    std::vector<std::unique_ptr<WorkerThread<OutboxPoller>>> m_threads;
};

HttpResponse text(int status, const QByteArray &body)
{
    HttpResponse response;
    response.status = status;
    response.contentType = "text/plain";
    response.body = body;
    return response;
}

HttpResponse route(const HttpRequest &request, const FleetCache &cache)
{
    if (request.method == "POST") {
        HttpResponse response = text(405, "only GET and HEAD are served here\n");
        response.headers.append(std::pair<QByteArray, QByteArray>("Allow", "GET, HEAD"));
        return response;
    }
    if (request.path == "/metrics") {
        const bool open = request.header("accept").contains("application/openmetrics-text");
        const auto format
            = open ? MetricsText::Format::OpenMetrics : MetricsText::Format::Prometheus;
        HttpResponse response = text(200, cache.render(format));
        response.contentType = MetricsText::contentType(format).toUtf8();
        return response;
    }
    if (request.path == "/healthz")
        return text(200, "ok\n");
    if (request.path == "/")
        return text(
            200, "outboxctl serve: the outboxes' health is at /metrics, liveness at /healthz\n");
    return text(404, "not found\n");
}

// The descriptors the process may open: the soft limit raised to the hard one first, as the Go
// runtime does for Prometheus's exporters (a soft limit of 1024 is a default, not a choice).
// -1 when unlimited or unknown.
qint64 raiseDescriptorLimit()
{
    rlimit files {};
    if (getrlimit(RLIMIT_NOFILE, &files) != 0)
        return -1;
    if (files.rlim_cur < files.rlim_max) {
        rlimit raised = files;
        raised.rlim_cur = files.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &raised) == 0)
            files = raised;
    }
    return files.rlim_cur == RLIM_INFINITY ? -1 : qint64(files.rlim_cur);
}

// The connection cap (TLS handshakes included): the default, or what the descriptor limit
// leaves after the pollers' database connections. A limit under what the pollers need is
// refused (empty, *refusal set): a poller whose thread cannot open its wakeup descriptor
// aborts the whole process, so serving anyway would end in a crash, not in a down outbox. With
// too little left for MinConnections one line on stderr names the numbers; serve still runs
// (one scrape needs one connection).
std::optional<HttpLimits> limitsFor(qsizetype outboxes, qint64 descriptors, QString *refusal)
{
    HttpLimits limits;
    if (descriptors < 0)
        return limits;
    const qint64 needed = ReservedDescriptors + DescriptorsPerOutbox * qint64(outboxes);
    const qint64 room = descriptors - needed;
    if (room >= MinConnections) {
        limits.maxConnections = int(std::min<qint64>(room, limits.maxConnections));
        return limits;
    }
    const qint64 enough = needed + HttpLimits {}.maxConnections;
    const QString numbers
        = QStringLiteral("too few file descriptors: the limit (ulimit -n) is %1, %2 outbox(es)"
                         " need about %3 (%4 + %5 each) and HTTP clients at least %6 more")
              .arg(descriptors)
              .arg(outboxes)
              .arg(needed)
              .arg(ReservedDescriptors)
              .arg(DescriptorsPerOutbox)
              .arg(MinConnections);
    const QString raise = QStringLiteral("raise it to %1 or more (ulimit -n %1, or LimitNOFILE= in"
                                         " a systemd unit)")
                              .arg(enough);
    if (room < 0) {
        *refusal = QStringLiteral("serve: %1; not started, as a poller without its descriptors"
                                  " stops the process: %2")
                       .arg(numbers, raise);
        return std::nullopt;
    }
    limits.maxConnections = MinConnections;
    QTextStream(stderr) << "outboxctl serve: " << numbers << "; serving anyway with at most "
                        << limits.maxConnections << " connections, but scrapes may fail: " << raise
                        << Qt::endl;
    return limits;
}

QString addressOf(const QTcpServer &listener)
{
    const QHostAddress host = listener.serverAddress();
    const QString address = host.protocol() == QAbstractSocket::IPv6Protocol
        ? u"["_qs + host.toString() + u"]"_qs
        : host.toString();
    return QStringLiteral("%1:%2").arg(address).arg(listener.serverPort());
}

QString urlOf(const QTcpServer &listener)
{
    const bool tls = qobject_cast<const QSslServer *>(&listener) != nullptr;
    return (tls ? u"https://"_qs : u"http://"_qs) + addressOf(listener);
}

void warnIfReachable(const QTcpServer &listener)
{
    if (listener.serverAddress().isLoopback())
        return;
    QTextStream(stderr) << "outboxctl serve: serving on " << addressOf(listener)
                        << ", reachable from other hosts: anyone who can connect reads the "
                           "metrics unless TLS and a password (or a firewall) protect them"
                        << Qt::endl;
}

} // namespace

int runServe(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption({u"listen"_qs,
        QStringLiteral("Address and port to serve on (default 127.0.0.1:%1; port 0 picks a free "
                       "one).")
            .arg(DefaultPort),
        u"HOST:PORT"_qs, QStringLiteral("127.0.0.1:%1").arg(DefaultPort)});
    parser.addOption({u"outbox"_qs, OutboxHelp, u"NAME=URL"_qs});
    parser.addOption({u"config"_qs, ConfigHelp, u"FILE"_qs});
    parser.addOption({u"interval"_qs,
        u"Read each outbox at most once per interval: seconds, or a duration such as 30s or 5m "
        "(default 15, at least 1 s)."_qs,
        u"SECONDS"_qs});
    parser.addOption({u"expose-db-url"_qs,
        u"Give outbox_info a db label: each database URL without its password (for the alert "
        "rules' links to the dashboard)."_qs});
    parser.addOption({u"web.config.file"_qs,
        u"HTTPS, basic auth users and headers: a web config in the Prometheus exporter-toolkit's "
        "format, read again when it changes."_qs,
        u"FILE"_qs});
    ApiOptions::add(parser);
    int exitCode = Cli::Ok;
    if (!Cli::parse(parser, u"serve"_qs, arguments, &exitCode))
        return exitCode;

    QString error;
    QHostAddress host;
    quint16 port = 0;
    qint64 intervalMs = qint64(DefaultIntervalS * 1000);
    QList<FleetEntry> entries;
    if (!parseListen(parser.value(u"listen"_qs), &host, &port, &error)
        || !readInterval(parser, &intervalMs, &error) || !readEntries(parser, &entries, &error))
        return Cli::fail(u"serve: "_qs + error);
    Cli::warnOfPasswordInArguments(arguments);
    const auto gate = parser.isSet(u"web.config.file"_qs)
        ? WebGate::open(parser.value(u"web.config.file"_qs), &error)
        : nullptr;
    if (parser.isSet(u"web.config.file"_qs) && !gate)
        return Cli::fail(u"serve: "_qs + error);

    FleetCache cache(parser.isSet(u"expose-db-url"_qs));
    error.clear();
    const auto api = ApiOptions::open(
        parser, gate.get(), entries,
        [&cache](const QStringList &names) { return cache.health(names); }, &error);
    if (!error.isEmpty())
        return Cli::fail(u"serve: "_qs + error);
    const HttpServer::Handler pages = [&cache, api = api.get()](const HttpRequest &request,
                                          const HttpServer::Respond &respond) {
        if (api && ApiRoute::isApiPath(request.path))
            return api->handle(request, respond);
        respond(route(request, cache));
    };
    QString refusal;
    std::optional<HttpLimits> fitted = limitsFor(entries.size(), raiseDescriptorLimit(), &refusal);
    if (!fitted)
        return Cli::fail(refusal);
    HttpLimits limits = *fitted;
    limits.maxBodyBytes = api ? OperatorApi::MaxBodyBytes : 0;
    HttpServer server(gate ? gate->guard(pages) : pages, limits);
    QTcpServer *listener = gate ? gate->createListener(&server) : new QTcpServer(&server);
    if (!listener->listen(host, port))
        return Cli::fail(QStringLiteral("serve: cannot listen on %1: %2")
                             .arg(parser.value(u"listen"_qs), listener->errorString()));
    server.serve(listener);
    if (gate)
        gate->attach(&server);
    warnIfReachable(*listener);
    QuitOnSignal::install(&server);

    const Fleet fleet(entries, intervalMs, &cache);
    QTextStream(stdout) << "outboxctl serve: " << entries.size() << " outbox(es), every "
                        << double(intervalMs) / 1000 << " s, on " << urlOf(*listener) << "/metrics"
                        << Qt::endl;
    return QCoreApplication::exec();
}
