#include "webgate.h"

#include "tlslistener.h"

#include <QFileInfo>
#include <QTcpServer>
#include <QTextStream>

namespace {

HttpResponse answer(
    int status, const QByteArray &body, const QByteArray &header, const QByteArray &value)
{
    HttpResponse response;
    response.status = status;
    response.body = body;
    response.headers.append(std::pair(header, value));
    return response;
}

HttpResponse unauthorized()
{
    return answer(401, "Unauthorized\n", "WWW-Authenticate", "Basic");
}

HttpResponse busy()
{
    return answer(
        503, "Too many password checks waiting from your address; try again\n", "Retry-After", "1");
}

void log(const QString &line)
{
    QTextStream(stderr) << "outboxctl serve: " << line << Qt::endl;
}

} // namespace

std::unique_ptr<WebGate> WebGate::open(const QString &path, QString *error)
{
    auto config = WebConfig::read(path, error);
    if (!config)
        return nullptr;
    std::optional<QSslConfiguration> ssl;
    if (config->tls.enabled) {
        ssl = TlsSettings::configuration(config->tls, error);
        if (!ssl) {
            *error = QStringLiteral("web config file %1: %2").arg(path, *error);
            return nullptr;
        }
    }
    return std::unique_ptr<WebGate>(new WebGate(path, std::move(*config), std::move(ssl)));
}

WebGate::WebGate(QString path, WebConfig config, std::optional<QSslConfiguration> ssl)
    : m_path(std::move(path))
    , m_config(std::move(config))
    , m_ssl(std::move(ssl))
    , m_auth(m_config.users)
{
    m_pool.setMaxThreadCount(1);
    m_clock.start();
    m_pauseTimer.setSingleShot(true);
    connect(&m_pauseTimer, &QTimer::timeout, this, &WebGate::startNextCheck);
    m_reloadTimer.setSingleShot(true);
    m_reloadTimer.setInterval(ReloadDelayMs);
    connect(&m_reloadTimer, &QTimer::timeout, this, &WebGate::reload);
    connect(
        &m_watcher, &QFileSystemWatcher::fileChanged, &m_reloadTimer, qOverload<>(&QTimer::start));
    connect(&m_watcher, &QFileSystemWatcher::directoryChanged, &m_reloadTimer,
        qOverload<>(&QTimer::start));
    watchFiles();
}

WebGate::~WebGate()
{
    m_pool.clear(); // checks not started yet are dropped; the running one is waited for
    m_pool.waitForDone();
}

QTcpServer *WebGate::createListener(HttpServer *server)
{
    if (!m_ssl)
        return new QTcpServer(server);
    auto *listener = new TlsListener(server);
    listener->apply(*m_ssl, m_config.tls.clientAuth);
    listener->countAgainst(server);
    connect(listener, &TlsListener::configurationError, this, [this](const QString &message) {
        log(QStringLiteral("TLS handshakes fail: %1 (check cert_file and key_file of %2)")
                .arg(message, m_path));
    });
    m_listener = listener;
    return listener;
}

HttpServer::Handler WebGate::guard(HttpServer::Handler inner)
{
    return [this, inner = std::move(inner)](const HttpRequest &request,
               HttpServer::Respond respond) { admit(request, std::move(respond), inner); };
}

void WebGate::attach(HttpServer *server)
{
    server->setResponseHeaders(m_config.headers);
    connect(this, &WebGate::responseHeadersChanged, server, &HttpServer::setResponseHeaders);
}

void WebGate::admit(
    const HttpRequest &request, HttpServer::Respond respond, const HttpServer::Handler &inner)
{
    if (!m_auth.isEnabled())
        return inner(request, std::move(respond));
    const auto credentials = BasicAuth::credentials(request.header("authorization"));
    if (!credentials)
        return respond(unauthorized());
    if (m_auth.prepare(credentials->first, credentials->second).cachedSuccess)
        return inner(request, std::move(respond));
    std::optional<PendingCheck> pushedOut;
    const bool failedBefore = m_failedConnections.contains(request.connection);
    const auto added
        = m_checks.push(peerOf(request.peer), {request, respond, inner}, &pushedOut, failedBefore);
    if (added == FairQueue<PendingCheck>::Added::PeerFull)
        return respond(busy());
    if (pushedOut)
        pushedOut->respond(busy());
    startNextCheck();
}

// Takes the next check in turn: answered at once when its password was verified meanwhile
// (e.g. a scraper's second connection), else verified on the pool.
void WebGate::startNextCheck()
{
    while (!m_inCheck) {
        auto next = m_checks.take(m_clock.elapsed());
        if (!next) {
            const qint64 wait = m_checks.readyIn(m_clock.elapsed());
            if (wait >= 0)
                m_pauseTimer.start(int(std::max<qint64>(wait, 1)));
            return;
        }
        auto &[peer, pending] = *next;
        if (!m_auth.isEnabled()) { // a reload removed the users meanwhile
            pending.inner(pending.request, pending.respond);
            continue;
        }
        const auto credentials = BasicAuth::credentials(pending.request.header("authorization"));
        const BasicAuthCheck check = m_auth.prepare(credentials->first, credentials->second);
        if (check.cachedSuccess)
            pending.inner(pending.request, pending.respond);
        else
            checkInPool(peer, std::move(pending), check);
    }
}

void WebGate::checkInPool(const QByteArray &peer, PendingCheck pending, const BasicAuthCheck &check)
{
    m_inCheck.emplace(peer, std::move(pending)); // stays on this thread
    const quint64 generation = m_usersGeneration;
    m_pool.start([this, check, generation] {
        QElapsedTimer took;
        took.start();
        const bool allowed = BasicAuth::verify(check);
        const qint64 tookMs = took.elapsed();
        QMetaObject::invokeMethod(
            this, [=, this] { checked(check, allowed, generation, tookMs); }, Qt::QueuedConnection);
    });
}

void WebGate::checked(const BasicAuthCheck &check, bool allowed, quint64 generation, qint64 tookMs)
{
    auto [peer, pending] = std::move(*m_inCheck);
    m_inCheck.reset();
    if (generation != m_usersGeneration) { // the users changed meanwhile: check again, first
        m_checks.pushFront(peer, std::move(pending));
    } else if (allowed) {
        m_auth.remember(check);
        pending.inner(pending.request, pending.respond);
    } else {
        failed(peer, pending, tookMs);
        pending.respond(unauthorized());
    }
    startNextCheck();
}

// The peer waits as long as the check took; the connection's next checks wait behind.
void WebGate::failed(const QByteArray &peer, const PendingCheck &pending, qint64 tookMs)
{
    const qint64 now = m_clock.elapsed();
    m_checks.penalise(peer, now, now + std::clamp<qint64>(tookMs, MinPauseMs, MaxPauseMs));
    const quint64 connection = pending.request.connection;
    if (connection == 0 || m_failedConnections.contains(connection))
        return;
    if (m_failedOrder.size() >= FailedConnectionsRemembered)
        m_failedConnections.remove(m_failedOrder.takeFirst());
    m_failedConnections.insert(connection);
    m_failedOrder.append(connection);
}

void WebGate::reload()
{
    QString error;
    std::optional<QSslConfiguration> ssl;
    const auto config = readAgain(&ssl, &error);
    watchFiles(); // a replaced file is a new file to the watcher
    if (!config)
        return refuse(error);
    m_lastRefusal.clear();
    if (*config == m_config && ssl == m_ssl)
        return; // another file of the folder changed
    apply(*config, ssl);
    log(QStringLiteral("web config file %1 read again: now in use").arg(m_path));
    emit reloaded(true);
}

std::optional<WebConfig> WebGate::readAgain(
    std::optional<QSslConfiguration> *ssl, QString *error) const
{
    auto config = WebConfig::read(m_path, error);
    if (!config)
        return std::nullopt;
    if (config->tls.enabled != m_config.tls.enabled) {
        *error = QStringLiteral("web config file %1: turning TLS %2 needs a restart of outboxctl "
                                "serve")
                     .arg(m_path, config->tls.enabled ? u"on"_qs : u"off"_qs);
        return std::nullopt;
    }
    if (config->tls.enabled) {
        *ssl = TlsSettings::configuration(config->tls, error);
        if (!*ssl) {
            *error = QStringLiteral("web config file %1: %2").arg(m_path, *error);
            return std::nullopt;
        }
    }
    return config;
}

void WebGate::apply(const WebConfig &config, const std::optional<QSslConfiguration> &ssl)
{
    const bool headersChanged = config.headers != m_config.headers;
    if (config.users != m_config.users) {
        m_auth = BasicAuth(config.users);
        ++m_usersGeneration;
    }
    m_config = config;
    m_ssl = ssl;
    if (m_listener && m_ssl)
        m_listener->apply(*m_ssl, m_config.tls.clientAuth);
    if (headersChanged)
        emit responseHeadersChanged(m_config.headers);
}

void WebGate::refuse(const QString &error)
{
    if (error == m_lastRefusal)
        return; // one line per problem, not one per save
    m_lastRefusal = error;
    log(error + u" (the previous settings stay in use)"_qs);
    emit reloaded(false);
}

void WebGate::watchFiles()
{
    QStringList files {m_path};
    if (m_config.tls.enabled)
        files << m_config.tls.certFile << m_config.tls.keyFile << m_config.tls.clientCaFile;
    files.removeAll(QString());
    QStringList wanted;
    for (const QString &file : std::as_const(files))
        wanted << file << QFileInfo(file).absolutePath();
    wanted.removeDuplicates();
    const QStringList watched = m_watcher.files() + m_watcher.directories();
    for (const QString &path : std::as_const(wanted)) {
        if (!watched.contains(path) && QFileInfo::exists(path))
            m_watcher.addPath(path);
    }
}
