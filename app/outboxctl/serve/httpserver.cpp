#include "httpserver.h"

#include "fairqueue.h"
#include "httpheadparser.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QLocale>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>
#include <QTimer>
#include <utility>
#if QT_CONFIG(ssl)
#include <QSslSocket>
#endif
#include <sys/socket.h>

namespace {

// How long a connection being closed may keep sending before it is cut (its bytes are read
// and dropped, so that the client sees the answer rather than a reset).
constexpr int LingerMs = 2000;
// After the process ran out of descriptors, accepting resumes this much later.
constexpr int AcceptRetryMs = 100;

QByteArray reasonPhrase(int status)
{
    switch (status) {
    case 200:
        return "OK";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 409:
        return "Conflict";
    case 411:
        return "Length Required";
    case 413:
        return "Content Too Large";
    case 431:
        return "Request Header Fields Too Large";
    case 500:
        return "Internal Server Error";
    case 503:
        return "Service Unavailable";
    case 505:
        return "HTTP Version Not Supported";
    default:
        return "Status";
    }
}

// RFC 9110 5.6.7 IMF-fixdate.
QByteArray httpDate()
{
    return QLocale::c()
        .toString(QDateTime::currentDateTimeUtc(), u"ddd, dd MMM yyyy hh:mm:ss 'GMT'"_qs)
        .toLatin1();
}

bool isSafeHeader(const std::pair<QByteArray, QByteArray> &header)
{
    const auto unsafe
        = [](const QByteArray &text) { return text.contains('\r') || text.contains('\n'); };
    return !header.first.isEmpty() && !unsafe(header.first) && !unsafe(header.second);
}

void appendHeader(QByteArray *out, const QByteArray &name, const QByteArray &value)
{
    *out += name + ": " + value + "\r\n";
}

bool hasToken(const QByteArray &list, const QByteArray &token)
{
    for (const QByteArray &item : list.split(',')) {
        if (item.trimmed().toLower() == token)
            return true;
    }
    return false;
}

HttpResponse plain(int status, const QByteArray &text)
{
    HttpResponse response;
    response.status = status;
    response.body = text + '\n';
    return response;
}

} // namespace

QByteArray HttpRequest::header(const QByteArray &lowerCaseName) const
{
    for (const auto &[name, value] : headers) {
        if (name == lowerCaseName)
            return value;
    }
    return {};
}

// One client connection: reads one request head at a time (never more than the head limit is
// buffered: the socket's read buffer is capped too, so a client sending faster than it is
// answered is held back by TCP), hands it to the handler, writes the answer, and reads the
// next only when the answer is written and the client has taken most of what was sent.
class HttpServer::Connection : public QObject
{
public:
    Connection(QTcpSocket *socket, HttpServer *server);

    // Waiting for a request head (or being closed) with nothing unsent: may be closed to make
    // room for a new connection.
    bool isIdle() const;
    qint64 idleMs() const { return m_idleSince.elapsed(); }
    QHostAddress peerAddress() const { return m_socket->peerAddress(); }
    void abort() { m_socket->abort(); }

private:
    enum class State { Reading, Body, Handling, Closing };

    void process();
    void readBody();
    void fillBuffer();
    void handle(HttpRequest request);
    Respond responder(bool head);
    void answer(const HttpResponse &response, bool head);
    void refuse(const HttpHeadParser::Result &result);
    QByteArray head(const HttpResponse &response, qsizetype length) const;
    void beginClose();
    void bytesWritten();
    void timedOut();
    void processLater();

    QTcpSocket *m_socket;
    HttpServer *m_server;
    quint64 m_id;
    QByteArray m_buffer; // the start of the next request head
    HttpRequest m_request; // in State::Body: the request whose body is being read
    qsizetype m_bodyLength = 0;
    State m_state = State::Reading;
    bool m_closeAfterAnswer = false;
    // Of the request in the handler; a late Respond of an older one does nothing.
    quint64 m_serial = 0;
    QTimer m_timer;
    QElapsedTimer m_idleSince;
};

HttpServer::Connection::Connection(QTcpSocket *socket, HttpServer *server)
    : QObject(server)
    , m_socket(socket)
    , m_server(server)
    , m_id(++server->m_accepted)
{
    socket->setParent(this);
    socket->setReadBufferSize(server->m_limits.maxHeadBytes);
    m_timer.setSingleShot(true);
    m_timer.setInterval(server->m_limits.idleTimeoutMs);
    m_timer.start();
    m_idleSince.start();
    connect(&m_timer, &QTimer::timeout, this, &Connection::timedOut);
    connect(socket, &QTcpSocket::readyRead, this, &Connection::process);
    connect(socket, &QTcpSocket::bytesWritten, this, &Connection::bytesWritten);
    // Queued: Qt is still handling the socket when it reports the error.
    connect(socket, &QTcpSocket::errorOccurred, socket, &QTcpSocket::abort, Qt::QueuedConnection);
    connect(socket, &QTcpSocket::disconnected, this, [this] { m_server->forget(this); });
    processLater(); // bytes may have come with the connection (or the TLS handshake)
}

bool HttpServer::Connection::isIdle() const
{
    return m_state != State::Handling && m_socket->bytesToWrite() == 0;
}

void HttpServer::Connection::process()
{
    if (m_socket->state() != QAbstractSocket::ConnectedState)
        return; // closed (e.g. to make room) while this call was queued
    if (m_state == State::Closing) {
        m_socket->skip(m_socket->bytesAvailable());
        return;
    }
    if (m_state == State::Body)
        return readBody();
    if (m_state != State::Reading || m_socket->bytesToWrite() > m_server->m_limits.maxUnsentBytes)
        return; // bytesWritten or the answer calls again
    fillBuffer();
    HttpHeadParser::skipBlankLines(&m_buffer);
    const qsizetype length = HttpHeadParser::headLength(m_buffer);
    const qsizetype limit = m_server->m_limits.maxHeadBytes;
    if (length > limit || (length < 0 && m_buffer.size() > limit))
        return refuse({431, "request head too large"});
    if (length < 0)
        return;
    HttpRequest request;
    const auto result = HttpHeadParser::parse(m_buffer.left(length), m_server->m_limits.maxHeaders,
        &request, m_server->m_limits.maxBodyBytes);
    m_buffer.remove(0, length);
    if (result.status != 0)
        return refuse(result);
    if (result.bodyLength == 0)
        return handle(std::move(request));
    m_state = State::Body;
    m_bodyLength = result.bodyLength;
    m_request = std::move(request);
    m_request.body = m_buffer.left(m_bodyLength);
    m_buffer.remove(0, m_request.body.size());
    readBody();
}

// The body of m_request, up to its Content-Length (bounded by maxBodyBytes), within the idle
// timeout; then the request is handled.
void HttpServer::Connection::readBody()
{
    m_request.body += m_socket->read(m_bodyLength - m_request.body.size());
    if (m_request.body.size() < m_bodyLength)
        return;
    m_state = State::Reading;
    handle(std::exchange(m_request, {}));
}

// Reads at most until the buffer holds one byte over the head limit: enough to tell that a
// head is too large.
void HttpServer::Connection::fillBuffer()
{
    const qsizetype room = m_server->m_limits.maxHeadBytes + 1 - m_buffer.size();
    if (room > 0)
        m_buffer += m_socket->read(room);
}

void HttpServer::Connection::handle(HttpRequest request)
{
    m_state = State::Handling;
    m_timer.stop();
    m_closeAfterAnswer
        = request.minorVersion == 0 || hasToken(request.header("connection"), "close");
    request.peer = m_socket->peerAddress();
    request.connection = m_id;
#if QT_CONFIG(ssl)
    const auto *ssl = qobject_cast<QSslSocket *>(m_socket);
    request.encrypted = ssl && ssl->isEncrypted();
#endif
    const bool head = request.method == "HEAD";
    const bool post = m_server->m_limits.maxBodyBytes > 0;
    if (request.method != "GET" && !head && !(post && request.method == "POST")) {
        HttpResponse response = plain(
            405, post ? "only GET, HEAD and POST are served" : "only GET and HEAD are served");
        response.headers.append(
            std::pair<QByteArray, QByteArray>("Allow", post ? "GET, HEAD, POST" : "GET, HEAD"));
        return answer(response, false);
    }
    m_server->m_handler(request, responder(head));
}

HttpServer::Respond HttpServer::Connection::responder(bool head)
{
    const quint64 serial = ++m_serial;
    return [connection = QPointer<Connection>(this), serial, head](HttpResponse response) {
        if (!connection)
            return;
        Q_ASSERT(QThread::currentThread() == connection->thread());
        if (connection->m_state == State::Handling && connection->m_serial == serial)
            connection->answer(response, head);
    };
}

void HttpServer::Connection::answer(const HttpResponse &response, bool head)
{
    if (m_socket->state() != QAbstractSocket::ConnectedState)
        return; // the client left; the connection is being deleted
    m_socket->write(this->head(response, response.body.size()));
    if (!head)
        m_socket->write(response.body);
    m_idleSince.restart();
    if (m_closeAfterAnswer)
        return beginClose();
    m_state = State::Reading;
    m_timer.start();
    processLater(); // a pipelined request may be waiting
}

void HttpServer::Connection::refuse(const HttpHeadParser::Result &result)
{
    m_state = State::Handling;
    m_closeAfterAnswer = true;
    answer(plain(result.status, result.reason), false);
}

QByteArray HttpServer::Connection::head(const HttpResponse &response, qsizetype length) const
{
    QByteArray out = "HTTP/1.1 " + QByteArray::number(response.status) + ' '
        + reasonPhrase(response.status) + "\r\n";
    appendHeader(&out, "Date", httpDate());
    appendHeader(&out, "Content-Type", response.contentType);
    appendHeader(&out, "Content-Length", QByteArray::number(length));
    if (m_closeAfterAnswer)
        appendHeader(&out, "Connection", "close");
    for (const auto &list : {m_server->m_responseHeaders, response.headers}) {
        for (const auto &header : list) {
            if (isSafeHeader(header))
                appendHeader(&out, header.first, header.second);
        }
    }
    return out + "\r\n";
}

// Ends the connection once the answer is sent: our side of TCP is shut (the client reading to
// the end sees it end), what the client still sends is dropped, and after LingerMs it is cut.
void HttpServer::Connection::beginClose()
{
    m_state = State::Closing;
    m_buffer.clear();
    m_timer.start(std::min(LingerMs, m_server->m_limits.idleTimeoutMs));
    bytesWritten();
    process(); // drops what already came
}

void HttpServer::Connection::bytesWritten()
{
    if (m_state == State::Reading) {
        m_timer.start(); // the client is taking the answer: progress
        if (m_socket->bytesToWrite() <= m_server->m_limits.maxUnsentBytes)
            processLater();
    } else if (m_state == State::Closing && m_socket->bytesToWrite() == 0) {
#if QT_CONFIG(ssl)
        if (qobject_cast<QSslSocket *>(m_socket))
            return m_socket->disconnectFromHost(); // TLS has its own close
#endif
        ::shutdown(int(m_socket->socketDescriptor()), SHUT_WR);
    }
}

void HttpServer::Connection::timedOut()
{
    if (m_state != State::Handling)
        m_socket->abort();
}

void HttpServer::Connection::processLater()
{
    QMetaObject::invokeMethod(this, &Connection::process, Qt::QueuedConnection);
}

HttpServer::HttpServer(Handler handler, HttpLimits limits, QObject *parent)
    : QObject(parent)
    , m_handler(std::move(handler))
    , m_limits(limits)
{ }

HttpServer::~HttpServer()
{
    // Before the members go: a closing socket reports it, and forget() must find a list.
    qDeleteAll(std::exchange(m_connections, {}));
}

void HttpServer::serve(QTcpServer *listener)
{
    Q_ASSERT(!m_listener);
    m_listener = listener;
    listener->setParent(this);
    connect(listener, &QTcpServer::pendingConnectionAvailable, this, &HttpServer::accept);
    connect(listener, &QTcpServer::acceptError, this, &HttpServer::acceptFailed);
    accept();
}

void HttpServer::setResponseHeaders(QList<std::pair<QByteArray, QByteArray>> headers)
{
    m_responseHeaders = std::move(headers);
}

int HttpServer::openConnections() const
{
    return int(m_connections.size());
}

void HttpServer::accept()
{
    while (QTcpSocket *socket = m_listener->nextPendingConnection()) {
        if (m_connections.size() >= m_limits.maxConnections
            && !makeRoomFor(socket->peerAddress())) {
            socket->abort();
            socket->deleteLater();
            continue;
        }
        m_connections.append(new Connection(socket, this));
    }
}

// Out of descriptors (EMFILE): QTcpServer has paused; make room and try again a little later,
// rather than never again or at once in a loop.
void HttpServer::acceptFailed()
{
    m_listener->pauseAccepting();
    closeOldestIdle();
    QTimer::singleShot(AcceptRetryMs, m_listener, &QTcpServer::resumeAccepting);
}

bool HttpServer::closeOldestIdle()
{
    Connection *oldest = nullptr;
    for (Connection *connection : std::as_const(m_connections)) {
        if (connection->isIdle() && (!oldest || connection->idleMs() > oldest->idleMs()))
            oldest = connection;
    }
    if (!oldest)
        return false;
    forget(oldest);
    oldest->abort();
    return true;
}

// Among the addresses holding at least as many connections as the newcomer's (counting it),
// the longest idle connection of the one holding the most; else, when another address holds
// more, its newest connection; else none. With one address this is the longest idle.
bool HttpServer::makeRoomFor(const QHostAddress &newcomer)
{
    const QByteArray own = peerOf(newcomer);
    QHash<QByteArray, int> held {{own, 1}};
    for (const Connection *connection : std::as_const(m_connections))
        ++held[peerOf(connection->peerAddress())];
    const auto count
        = [&held](const Connection *c) { return held.value(peerOf(c->peerAddress())); };
    Connection *idle = nullptr;
    Connection *busiestNewest = nullptr;
    for (Connection *connection : std::as_const(m_connections)) {
        const int n = count(connection);
        if (n > held.value(own) && (!busiestNewest || n >= count(busiestNewest)))
            busiestNewest = connection; // the list is in the order accepted
        if (n < held.value(own) || !connection->isIdle())
            continue;
        if (!idle || n > count(idle) || (n == count(idle) && connection->idleMs() > idle->idleMs()))
            idle = connection;
    }
    Connection *victim = idle ? idle : busiestNewest;
    if (!victim)
        return false;
    forget(victim);
    victim->abort();
    return true;
}

void HttpServer::forget(Connection *connection)
{
    if (m_connections.removeOne(connection))
        connection->deleteLater();
}
