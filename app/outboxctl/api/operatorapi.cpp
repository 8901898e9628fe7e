#include "operatorapi.h"

#include "apiactions.h"
#include "apireads.h"
#include "apireply.h"
#include "apiroute.h"
#include "basicauth.h"
#include "cli.h"
#include "healthworker.h"
#include "profileconnection.h"

#include <QDateTime>
#include <QFile>
#include <QThread>

namespace {

using Right = ApiRights::Right;

Right rightFor(const ApiRoute &route)
{
    if (route.kind == ApiRoute::Kind::BulkReplay || route.action == u"replay"_qs)
        return Right::Replay;
    return route.isWrite() ? Right::Resolve : Right::Read;
}

HttpResponse openApi()
{
    QFile file(u":/api/openapi.json"_qs);
    HttpResponse response;
    response.contentType = "application/json";
    response.body = file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("{}");
    return response;
}

// The outbox's database, opened on the calling thread for one request (read-only for reads).
HttpResponse openAndRun(const FleetEntry &entry, bool write,
    const std::function<HttpResponse(const Cli::Outbox &)> &work)
{
    OpenOptions options = HealthWorker::defaultOpenOptions();
    options.readOnly = !write;
    options.statementTimeoutMs = 30000;
    Cli::Outbox outbox;
    outbox.url = entry.url;
    QString error;
    std::optional<OutboxProfile> profile;
    outbox.connection
        = ProfileConnection::open(entry.url, options, entry.profile, &profile, &error);
    if (!outbox.connection)
        return ApiReply::error(
            503, QStringLiteral("outbox %1 cannot be reached now: %2").arg(entry.name, error));
    outbox.profile = *profile;
    return work(outbox);
}

} // namespace

OperatorApi::OperatorApi(Options options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
{
    m_pool.setMaxThreadCount(PoolThreads);
}

OperatorApi::~OperatorApi()
{
    m_pool.clear(); // requests not started are dropped; those running are waited for
    m_pool.waitForDone();
}

// WebGate let the request through only with a password it verified; without users (a reload
// removed them) nobody is anybody.
QString OperatorApi::user(const HttpRequest &request) const
{
    const auto credentials = BasicAuth::credentials(request.header("authorization"));
    if (!credentials || !m_options.isUser(credentials->first))
        return {};
    return QString::fromUtf8(credentials->first);
}

void OperatorApi::handle(const HttpRequest &request, const HttpServer::Respond &respond)
{
    Q_ASSERT(QThread::currentThread() == thread());
    const ApiRoute route = ApiRoute::of(request.path);
    if (route.kind == ApiRoute::Kind::NotFound)
        return respond(ApiReply::error(404, u"no such API path (see /api/v1/openapi.json)"_qs));
    const bool head = request.method == "HEAD" && route.method() == "GET";
    if (request.method != route.method() && !head)
        return respond(ApiReply::wrongMethod(route.method()));
    const QString who = user(request);
    if (who.isEmpty())
        return respond(ApiReply::unauthorized(u"sign in with a user of the web config"_qs));
    if (route.kind == ApiRoute::Kind::OpenApi)
        return respond(openApi());
    if (route.kind == ApiRoute::Kind::Outboxes)
        return respond(outboxes(who));
    if (const auto refused = refusal(request, route, who))
        return respond(*refused);
    dispatch(request, route, who, respond);
}

// Unknown outbox (404), no right (403), a write over plain HTTP (403): nothing is read.
std::optional<HttpResponse> OperatorApi::refusal(
    const HttpRequest &request, const ApiRoute &route, const QString &user) const
{
    if (!entry(route.outbox))
        return ApiReply::error(404, QStringLiteral("no outbox named '%1'").arg(route.outbox));
    const Right right = rightFor(route);
    if (!m_options.rights.allows(user, route.outbox, right))
        return ApiReply::error(403,
            QStringLiteral("%1 may not %2 on outbox %3 (--api.rights)")
                .arg(user, ApiRights::name(right), route.outbox));
    if (route.isWrite() && !request.encrypted && !m_options.allowPlainHttpWrites)
        return ApiReply::error(403,
            u"writes need HTTPS (tls_server_config in the web config), or serve started with "
            "--api.allow-plain-http-writes"_qs);
    return std::nullopt;
}

HttpResponse OperatorApi::outboxes(const QString &user) const
{
    QStringList names;
    for (const FleetEntry &entry : m_options.entries) {
        if (m_options.rights.allows(user, entry.name, Right::Read))
            names << entry.name;
    }
    return ApiReply::json(200, {{u"outboxes"_qs, m_options.health(names)}});
}

const FleetEntry *OperatorApi::entry(const QString &name) const
{
    for (const FleetEntry &entry : m_options.entries) {
        if (entry.name == name)
            return &entry;
    }
    return nullptr;
}

// The input read here (400 before any database); the work on the pool.
void OperatorApi::dispatch(const HttpRequest &request, const ApiRoute &route, const QString &user,
    const HttpServer::Respond &respond)
{
    using Kind = ApiRoute::Kind;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const FleetEntry &outbox = *entry(route.outbox);
    QString error;
    if (route.kind == Kind::Events) {
        const auto query = ApiEventsQuery::parse(request.query, &error);
        if (!query)
            return respond(ApiReply::error(400, error));
        return run(
            outbox, false,
            [query = *query, now](const Cli::Outbox &o) { return ApiReads::events(o, query, now); },
            respond);
    }
    if (route.kind == Kind::Event)
        return run(
            outbox, false,
            [id = route.eventId, now](const Cli::Outbox &o) { return ApiReads::event(o, id, now); },
            respond);
    if (route.kind == Kind::Errors)
        return run(outbox, false, &ApiReads::errors, respond);
    const auto body = ApiActionBody::parse(request.body, route, &error);
    if (!body)
        return respond(ApiReply::error(400, error));
    run(
        outbox, true,
        [route, body = *body, user, now](const Cli::Outbox &o) {
            return route.kind == Kind::BulkReplay ? ApiActions::bulkReplay(o, body, user, now)
                                                  : ApiActions::onEvent(o, route, body, user, now);
        },
        respond);
}

void OperatorApi::run(
    const FleetEntry &entry, bool write, Work work, const HttpServer::Respond &respond)
{
    if (m_waiting >= MaxWaiting) {
        HttpResponse busy = ApiReply::error(503, u"too many API requests waiting; try again"_qs);
        busy.headers.append(std::pair<QByteArray, QByteArray>("Retry-After", "1"));
        return respond(busy);
    }
    ++m_waiting;
    m_pool.start([this, entry, write, work = std::move(work), respond] {
        const HttpResponse response = openAndRun(entry, write, work);
        QMetaObject::invokeMethod(
            this,
            [this, respond, response] {
                --m_waiting;
                respond(response);
            },
            Qt::QueuedConnection);
    });
}
