// What `--web.config.file` puts in front of serve's pages: basic authentication (401 with
// WWW-Authenticate: Basic on a missing or wrong Authorization header), the configured response
// headers, and HTTPS through a TlsListener. A password check that is not cached runs on a pool
// of one thread (bcrypt is slow on purpose) and the response follows when it is done, so the
// serving thread never waits; at most MaxWaitingChecks wait at once, the next get 503. The
// file, its folder and the certificate files are watched (editors and cert-manager replace
// files): a change is read again after ReloadDelayMs; a file that is no longer valid leaves
// the previous settings in place and is reported in one line on stderr.
#pragma once

#include "basicauth.h"
#include "httpserver.h"
#include "webconfig.h"

#include <QFileSystemWatcher>
#include <QObject>
#include <QPointer>
#include <QSslConfiguration>
#include <QThreadPool>
#include <QTimer>
#include <memory>
#include <optional>

class QTcpServer;
class TlsListener;

class WebGate : public QObject
{
    Q_OBJECT
public:
    using Headers = QList<std::pair<QByteArray, QByteArray>>;
    static constexpr int MaxWaitingChecks = 16;
    static constexpr int ReloadDelayMs = 200;

    // Reads the file and loads its certificates; nothing, with the reason, when it is not valid.
    static std::unique_ptr<WebGate> open(const QString &path, QString *error);
    ~WebGate() override;

    const WebConfig &config() const { return m_config; }
    // A TlsListener with the file's TLS settings (later reloads reach it), its handshakes
    // counted against server's connection cap, else a QTcpServer; server is its parent.
    QTcpServer *createListener(HttpServer *server = nullptr);
    // The handler behind basic authentication.
    HttpServer::Handler guard(HttpServer::Handler inner);
    // Gives server the file's response headers, now and after each reload.
    void attach(HttpServer *server);
    // Reads the file again now (the watcher calls it after a change).
    void reload();

signals:
    void responseHeadersChanged(const WebGate::Headers &headers);
    void reloaded(bool used); // after each reload that found a change; false: previous kept

private:
    WebGate(QString path, WebConfig config, std::optional<QSslConfiguration> ssl);
    void admit(
        const HttpRequest &request, HttpServer::Respond respond, const HttpServer::Handler &inner);
    void checkInPool(const BasicAuthCheck &check, const HttpRequest &request,
        HttpServer::Respond respond, const HttpServer::Handler &inner);
    std::optional<WebConfig> readAgain(std::optional<QSslConfiguration> *ssl, QString *error) const;
    void apply(const WebConfig &config, const std::optional<QSslConfiguration> &ssl);
    void watchFiles();
    void refuse(const QString &error);

    QString m_path;
    WebConfig m_config;
    std::optional<QSslConfiguration> m_ssl;
    BasicAuth m_auth;
    quint64 m_usersGeneration = 0; // a check started under older users is made again
    int m_waitingChecks = 0;
    QPointer<TlsListener> m_listener;
    QFileSystemWatcher m_watcher;
    QTimer m_reloadTimer;
    QString m_lastRefusal;
    QThreadPool m_pool; // last: its threads are joined before the rest goes
};
