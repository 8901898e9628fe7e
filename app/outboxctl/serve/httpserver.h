// A small, bounded HTTP/1.1 server for `outboxctl serve`: GET and HEAD, and POST with a
// Content-Length body only where HttpLimits::maxBodyBytes allows bodies (the operator API), a
// request head limit, one response in flight per connection, Connection: close and HTTP/1.0
// honoured, an idle timeout and a connection cap. Qt HTTP Server 6.4 sets no limits at all (one
// client could make it buffer gigabytes), so serve speaks HTTP itself; what it needs is small.
// The listener is any QTcpServer: a plain one, or a QSslServer for HTTPS (its connections are
// taken when they are ready, i.e. after the TLS handshake). Lives on one thread.
#pragma once

#include <QByteArray>
#include <QHostAddress>
#include <QList>
#include <QObject>
#include <functional>
#include <utility>

class QTcpServer;

struct HttpRequest
{
    // "GET" or "HEAD", or "POST" when bodies are allowed (others never reach the handler: 405)
    QByteArray method;
    QByteArray path; // the target before any '?'
    QByteArray query; // after the '?', without it
    int minorVersion = 1; // HTTP/1.minorVersion
    QList<std::pair<QByteArray, QByteArray>> headers; // names lower case, values trimmed
    QHostAddress peer;
    quint64 connection = 0; // the connection it came on: 1, 2, ... in the order accepted
    bool encrypted = false; // over TLS
    QByteArray body; // its Content-Length bytes (at most HttpLimits::maxBodyBytes)

    // The first value of a header (name in lower case), or an empty array.
    QByteArray header(const QByteArray &lowerCaseName) const;
};

struct HttpResponse
{
    int status = 200;
    QByteArray contentType = "text/plain; charset=utf-8";
    QByteArray body; // not sent for HEAD; Content-Length is
    QList<std::pair<QByteArray, QByteArray>> headers; // extra headers, e.g. WWW-Authenticate
};

struct HttpLimits
{
    qsizetype maxHeadBytes = 8 * 1024; // request line and headers; over it: 431 and close
    int maxHeaders = 100; // over it: 431 and close
    // No complete request within this (since the connection opened or the last answer), or no
    // progress sending an answer: closed.
    int idleTimeoutMs = 5000;
    // At the cap a new connection makes room at the expense of the client addresses (an IPv6
    // /64 as one) that hold at least as many connections as the new one's, counting it: the
    // one that has waited longest for a request head, of the address holding the most; when
    // none waits, the newest of an address holding more than the new one's; else the new one
    // is closed itself. So no address keeps another out; from one address, the longest idle
    // goes.
    int maxConnections = 64;
    // With more than this not yet taken by the client, no further request is read (a client
    // that pipelines and never reads is then closed by the idle timeout).
    qsizetype maxUnsentBytes = 256 * 1024;
    // 0: no request body (413) and no POST (405). Above 0: POST is served and a body with a
    // Content-Length of at most this is read (over it: 413 and close; chunked: 411 and close),
    // within the idle timeout like the head.
    qsizetype maxBodyBytes = 0;
};

class HttpServer : public QObject
{
    Q_OBJECT
public:
    // Called once per complete request on the server's thread, with one response in flight per
    // connection; call respond exactly once, now or later on the same thread (e.g. after a
    // password check ran on a pool). Calling it after the connection closed does nothing.
    using Respond = std::function<void(HttpResponse)>;
    using Handler = std::function<void(const HttpRequest &, Respond)>;

    explicit HttpServer(Handler handler, HttpLimits limits = {}, QObject *parent = nullptr);
    ~HttpServer() override;

    // Serves the listener's connections (already listening); takes ownership of it.
    void serve(QTcpServer *listener);

    // Headers added to every response (the web config's http_server_config.headers); replaces
    // the previous set.
    void setResponseHeaders(QList<std::pair<QByteArray, QByteArray>> headers);

    int openConnections() const;
    int maxConnections() const { return m_limits.maxConnections; }
    // Closes the connection that has waited longest for a request, to make room under the cap
    // (also for a connection the listener holds before handing it over: a TLS handshake);
    // false when every connection is busy.
    bool closeOldestIdle();
    // At the cap: closes a connection for one from newcomer (see HttpLimits::maxConnections);
    // false when the newcomer is to be refused.
    bool makeRoomFor(const QHostAddress &newcomer);

private:
    class Connection;
    void accept();
    void acceptFailed();
    void forget(Connection *connection);

    Handler m_handler;
    HttpLimits m_limits;
    QList<std::pair<QByteArray, QByteArray>> m_responseHeaders;
    QList<Connection *> m_connections;
    QTcpServer *m_listener = nullptr;
    quint64 m_accepted = 0;
};
