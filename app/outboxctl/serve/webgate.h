// What `--web.config.file` puts in front of serve's pages: basic authentication (401 with
// WWW-Authenticate: Basic on a missing or wrong Authorization header), the configured response
// headers, and HTTPS through a TlsListener. A password check that is not cached runs on a pool
// of one thread (bcrypt is slow on purpose) and the response follows when it is done, so the
// serving thread never waits. The checks wait in a FairQueue: round-robin between client
// addresses; an address whose check failed passed over for as long as that check took (one
// address sending only wrong passwords gets at most half of the thread); a connection whose
// check failed before waiting behind its address's other checks; an address over its bound
// answered 503, nobody else. A check is prepared when its turn comes, under the users then in
// force (one the users changed under is made again, first). The file, its folder and the
// certificate files are watched (editors and cert-manager replace files): a change is read
// again after ReloadDelayMs; a file that is no longer valid leaves the previous settings in
// place and is reported in one line on stderr.
#pragma once

#include "basicauth.h"
#include "fairqueue.h"
#include "httpserver.h"
#include "webconfig.h"

#include <QElapsedTimer>
#include <QFileSystemWatcher>
#include <QObject>
#include <QPointer>
#include <QSet>
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
    // Checks waiting: per peer, and in all (bounded also by the connection cap: one per
    // connection).
    static constexpr FairQueueLimits CheckLimits {32, 128, 1024};
    // A failed check pauses its peer for as long as it took, within these bounds.
    static constexpr int MinPauseMs = 10;
    static constexpr int MaxPauseMs = 2000;
    // Connections whose check failed, remembered so that their next checks wait behind their
    // address's other checks (at most 64 connections are open by default).
    static constexpr int FailedConnectionsRemembered = 1024;
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
    // A request waiting for its password check.
    struct PendingCheck
    {
        HttpRequest request;
        HttpServer::Respond respond;
        HttpServer::Handler inner;
    };

    void admit(
        const HttpRequest &request, HttpServer::Respond respond, const HttpServer::Handler &inner);
    void startNextCheck();
    void checkInPool(const QByteArray &peer, PendingCheck pending, const BasicAuthCheck &check);
    void checked(const BasicAuthCheck &check, bool allowed, quint64 generation, qint64 tookMs);
    void failed(const QByteArray &peer, const PendingCheck &pending, qint64 tookMs);
    std::optional<WebConfig> readAgain(std::optional<QSslConfiguration> *ssl, QString *error) const;
    void apply(const WebConfig &config, const std::optional<QSslConfiguration> &ssl);
    void watchFiles();
    void refuse(const QString &error);

    QString m_path;
    WebConfig m_config;
    std::optional<QSslConfiguration> m_ssl;
    BasicAuth m_auth;
    quint64 m_usersGeneration = 0; // a check started under older users is made again
    FairQueue<PendingCheck> m_checks {CheckLimits};
    // The one check on m_pool: its peer and request (kept on this thread).
    std::optional<std::pair<QByteArray, PendingCheck>> m_inCheck;
    QTimer m_pauseTimer; // the first paused peer's turn
    QElapsedTimer m_clock;
    QSet<quint64> m_failedConnections;
    QList<quint64> m_failedOrder; // oldest first, forgotten first
    QPointer<TlsListener> m_listener;
    QFileSystemWatcher m_watcher;
    QTimer m_reloadTimer;
    QString m_lastRefusal;
    QThreadPool m_pool; // last: its threads are joined before the rest goes
};
