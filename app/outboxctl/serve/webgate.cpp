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
    return answer(503, "Too many password checks at once; try again\n", "Retry-After", "1");
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
    const BasicAuthCheck check = m_auth.prepare(credentials->first, credentials->second);
    if (check.cachedSuccess)
        return inner(request, std::move(respond));
    if (m_waitingChecks >= MaxWaitingChecks)
        return respond(busy());
    checkInPool(check, request, std::move(respond), inner);
}

void WebGate::checkInPool(const BasicAuthCheck &check, const HttpRequest &request,
    HttpServer::Respond respond, const HttpServer::Handler &inner)
{
    ++m_waitingChecks;
    const quint64 generation = m_usersGeneration;
    m_pool.start([this, check, generation, request, respond, inner] {
        const bool allowed = BasicAuth::verify(check);
        QMetaObject::invokeMethod(
            this,
            [=, this] {
                --m_waitingChecks;
                if (generation != m_usersGeneration) // the users changed meanwhile
                    return admit(request, respond, inner);
                if (!allowed)
                    return respond(unauthorized());
                m_auth.remember(check);
                inner(request, respond);
            },
            Qt::QueuedConnection);
    });
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
