// HttpServer, serve's bounded HTTP server, driven in-process by raw QTcpSocket clients on
// loopback with small limits: keep-alive and pipelining in order, HTTP/1.0 and Connection: close
// ending in EOF, HEAD, each refusal (400, 405, 413, 431, 505; a missing, repeated or malformed
// Host) and whether it closes, any well-formed Host accepted, the idle timeout (also for a
// slowloris head), the connection cap closing the oldest idle connection, a client that never
// reads being held back, and a late answer after the client left; where bodies are allowed
// (serve --api), a POST body read to its Content-Length with the connection serving on, 413
// over the bound, 411 for chunked, and a body that never completes closed by the idle timeout.
#include "httpserver.h"
#include "testmain.h"

#include <QTcpServer>
#include <QTcpSocket>
#include <memory>

namespace {

struct Reply
{
    int status = 0;
    QByteArray head;
    QByteArray body;
};

// The answers in `bytes`, each framed by its Content-Length (none for a HEAD: `heads` says which).
QList<Reply> parseReplies(QByteArray bytes, const QList<bool> &heads = {})
{
    QList<Reply> replies;
    for (qsizetype end = bytes.indexOf("\r\n\r\n"); end >= 0; end = bytes.indexOf("\r\n\r\n")) {
        Reply reply;
        reply.head = bytes.left(end + 2);
        reply.status = reply.head.mid(9, 3).toInt();
        const qsizetype at = reply.head.toLower().indexOf("content-length: ");
        const qsizetype length = at < 0 ? 0 : reply.head.mid(at + 16).split('\r').first().toInt();
        const bool head = heads.value(replies.size(), false);
        reply.body = head ? QByteArray() : bytes.mid(end + 4, length);
        bytes.remove(0, end + 4 + reply.body.size());
        replies << reply;
    }
    return replies;
}

// A raw client: what it sends goes out as is; everything received is kept.
class Client
{
public:
    // From a loopback address of its own when `from` is given.
    explicit Client(quint16 port, const QHostAddress &from = {})
    {
        if (!from.isNull())
            m_socket.bind(from);
        m_socket.connectToHost(QHostAddress::LocalHost, port);
        m_socket.waitForConnected(5000);
        m_reading = QObject::connect(
            &m_socket, &QTcpSocket::readyRead, [this] { m_in += m_socket.readAll(); });
        QObject::connect(&m_socket, &QTcpSocket::disconnected, [this] { m_closed = true; });
    }
    void send(const QByteArray &bytes) { m_socket.write(bytes); }
    // From now on nothing is read (the kernel's buffers fill up, then the server's).
    void stopReading()
    {
        QObject::disconnect(m_reading);
        m_socket.setReadBufferSize(1);
    }
    QList<Reply> replies(const QList<bool> &heads = {}) const { return parseReplies(m_in, heads); }
    const QByteArray &received() const { return m_in; }
    bool closed() const { return m_closed; }

private:
    QTcpSocket m_socket;
    QMetaObject::Connection m_reading;
    QByteArray m_in;
    bool m_closed = false;
};

QByteArray get(const QByteArray &path, const QByteArray &extra = {})
{
    return "GET " + path + " HTTP/1.1\r\nHost: test\r\n" + extra + "\r\n";
}

// A request for / with `host` as its only Host header's value.
QByteArray withHost(const QByteArray &host)
{
    return "GET / HTTP/1.1\r\nHost: " + host + "\r\n\r\n";
}

} // namespace

class TestHttpServer : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        m_calls = 0;
        m_deferred.clear();
        HttpLimits limits;
        limits.maxHeadBytes = 1024;
        limits.maxHeaders = 10;
        limits.idleTimeoutMs = 400;
        limits.maxConnections = 3;
        limits.maxUnsentBytes = 16 * 1024;
        m_server = std::make_unique<HttpServer>(
            [this](const HttpRequest &request, HttpServer::Respond respond) {
                handle(request, std::move(respond));
            },
            limits);
        auto *listener = new QTcpServer;
        QVERIFY(listener->listen(QHostAddress::LocalHost));
        m_port = listener->serverPort();
        m_server->serve(listener);
    }
    void cleanup()
    {
        m_deferred.clear();
        m_server.reset();
    }

    void keepAliveTwoRequestsOnOneConnection()
    {
        Client client(m_port);
        client.send(get("/one"));
        QTRY_COMPARE(client.replies().size(), 1);
        client.send(get("/two?x=1"));
        QTRY_COMPARE(client.replies().size(), 2);
        QCOMPARE(client.replies().at(0).body, QByteArray("GET /one"));
        QCOMPARE(client.replies().at(1).body, QByteArray("GET /two x=1"));
        QVERIFY(!client.closed());
        QCOMPARE(m_server->openConnections(), 1);
    }

    void pipelinedRequestsAnsweredInOrder()
    {
        Client client(m_port);
        client.send(get("/a") + get("/b") + "\r\n" + get("/c"));
        QTRY_COMPARE(client.replies().size(), 3);
        QCOMPARE(client.replies().at(0).body, QByteArray("GET /a"));
        QCOMPARE(client.replies().at(1).body, QByteArray("GET /b"));
        QCOMPARE(client.replies().at(2).body, QByteArray("GET /c"));
    }

    void closingRequestsEndInEof_data()
    {
        QTest::addColumn<QByteArray>("request");
        QTest::addRow("HTTP/1.0") << QByteArray("GET /old HTTP/1.0\r\n\r\n");
        QTest::addRow("Connection: close") << get("/old", "Connection: close\r\n");
        QTest::addRow("Connection: Keep-Alive, Close") << get("/old", "Connection: x, Close\r\n");
    }
    void closingRequestsEndInEof()
    {
        QFETCH(QByteArray, request);
        Client client(m_port);
        client.send(request + get("/never"));
        QTRY_VERIFY(client.closed());
        QCOMPARE(client.replies().size(), 1);
        QCOMPARE(client.replies().constFirst().status, 200);
        QCOMPARE(client.replies().constFirst().body, QByteArray("GET /old"));
        QVERIFY(client.replies().constFirst().head.contains("Connection: close\r\n"));
        QCOMPARE(m_calls, 1);
    }

    // HEAD: the Content-Length GET would have, no body: the next answer follows at once.
    void headAnsweredLikeGetWithoutBody()
    {
        Client client(m_port);
        client.send("HEAD /thing HTTP/1.1\r\nHost: test\r\n\r\n" + get("/after"));
        QTRY_COMPARE(client.replies({true, false}).size(), 2);
        const Reply head = client.replies({true, false}).at(0);
        QCOMPARE(head.status, 200);
        QVERIFY2(head.head.contains("Content-Length: 10\r\n"), head.head.constData());
        QCOMPARE(client.replies({true, false}).at(1).body, QByteArray("GET /after"));
        QVERIFY(client.received().startsWith(QByteArray(head.head + "\r\nHTTP/1.1 200")));
    }

    void refusals_data()
    {
        QTest::addColumn<QByteArray>("request");
        QTest::addColumn<int>("status");
        QTest::addColumn<bool>("closes");
        QTest::addRow("no version") << QByteArray("GET /\r\n\r\n") << 400 << true;
        QTest::addRow("two spaces") << QByteArray("GET  / HTTP/1.1\r\n\r\n") << 400 << true;
        QTest::addRow("not a path") << QByteArray("GET x HTTP/1.1\r\n\r\n") << 400 << true;
        QTest::addRow("header without colon") << get("/", "Host\r\n") << 400 << true;
        QTest::addRow("space before colon") << get("/", "Host : x\r\n") << 400 << true;
        QTest::addRow("folded header") << get("/", "X-A: 1\r\n  2\r\n") << 400 << true;
        QTest::addRow("control character") << get("/", "X-A: a\rb\r\n") << 400 << true;
        QTest::addRow("HTTP/2.0") << QByteArray("GET / HTTP/2.0\r\n\r\n") << 505 << true;
        QTest::addRow("head too large")
            << get("/", "X-Big: " + QByteArray(2000, 'a') + "\r\n") << 431 << true;
        QTest::addRow("head too large, unfinished")
            << QByteArray("GET / HTTP/1.1\r\nX-Big: " + QByteArray(2000, 'a')) << 431 << true;
        QByteArray many;
        for (int i = 0; i < 11; ++i)
            many += "X-" + QByteArray::number(i) + ": 1\r\n";
        QTest::addRow("too many headers") << get("/", many) << 431 << true;
        QTest::addRow("a body") << get("/", "Content-Length: 5\r\n") + "hello" << 413 << true;
        QTest::addRow("chunked") << get("/", "Transfer-Encoding: chunked\r\n") << 413 << true;
        QTest::addRow("two lengths")
            << get("/", "Content-Length: 0\r\nContent-Length: 7\r\n") << 400 << true;
        QTest::addRow("length list") << get("/", "Content-Length: 0, 2\r\n") << 400 << true;
        QTest::addRow("length not a number") << get("/", "Content-Length: -1\r\n") << 400 << true;
        QTest::addRow("HTTP/1.1 without Host")
            << QByteArray("GET / HTTP/1.1\r\n\r\n") << 400 << true;
        QTest::addRow("two Host headers") << get("/", "Host: test\r\n") << 400 << true;
        QTest::addRow("two Host headers, HTTP/1.0")
            << QByteArray("GET / HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n") << 400 << true;
        QTest::addRow("empty Host") << withHost("") << 400 << true;
        QTest::addRow("Host with a space") << withHost("a b") << 400 << true;
        QTest::addRow("Host with a tab") << withHost("a\tb") << 400 << true;
        QTest::addRow("Host with userinfo") << withHost("user:pw@test") << 400 << true;
        QTest::addRow("Host with a path") << withHost("test/x") << 400 << true;
        QTest::addRow("Host with a port over 65535") << withHost("test:65536") << 400 << true;
        QTest::addRow("Host with a named port") << withHost("test:http") << 400 << true;
        QTest::addRow("Host with an empty port") << withHost("test:") << 400 << true;
        QTest::addRow("Host with two ports") << withHost("test:1:2") << 400 << true;
        QTest::addRow("Host with a bad percent") << withHost("te%zzst") << 400 << true;
        QTest::addRow("Host IPv6 unbracketed") << withHost("::1") << 400 << true;
        QTest::addRow("Host IPv6 not an address") << withHost("[::g]") << 400 << true;
        QTest::addRow("Host IPv6 unclosed") << withHost("[::1:80") << 400 << true;
        QTest::addRow("POST") << QByteArray("POST / HTTP/1.1\r\nHost: test\r\n\r\n") << 405
                              << false;
        QTest::addRow("DELETE") << QByteArray("DELETE / HTTP/1.1\r\nHost: test\r\n\r\n") << 405
                                << false;
    }
    void refusals()
    {
        QFETCH(QByteArray, request);
        QFETCH(int, status);
        QFETCH(bool, closes);
        Client client(m_port);
        client.send(request);
        QTRY_COMPARE(client.replies().size(), 1);
        const Reply reply = client.replies().constFirst();
        QCOMPARE(reply.status, status);
        QCOMPARE(m_calls, 0); // never reaches the handler
        if (status == 405)
            QVERIFY2(reply.head.contains("\r\nAllow: GET, HEAD\r\n"), reply.head.constData());
        if (closes) {
            QTRY_VERIFY(client.closed());
            return;
        }
        client.send(get("/next")); // the same connection still serves
        QTRY_COMPARE(client.replies().size(), 2);
        QCOMPARE(client.replies().at(1).body, QByteArray("GET /next"));
    }

    // Any well-formed host is served: serve does not know the names it is reached by.
    void wellFormedHostsAccepted_data()
    {
        QTest::addColumn<QByteArray>("request");
        QTest::addRow("any name") << withHost("metrics.example.org");
        QTest::addRow("name and port") << withHost("outbox-1.internal:9640");
        QTest::addRow("IPv4 and port") << withHost("127.0.0.1:9640");
        QTest::addRow("IPv6 and port") << withHost("[::1]:9640");
        QTest::addRow("IPv6 with a zone") << withHost("[fe80::1%25eth0]");
        QTest::addRow("percent-encoded") << withHost("caf%C3%A9.example");
        QTest::addRow("HTTP/1.0 without Host") << QByteArray("GET / HTTP/1.0\r\n\r\n");
    }
    void wellFormedHostsAccepted()
    {
        QFETCH(QByteArray, request);
        Client client(m_port);
        client.send(request);
        QTRY_COMPARE(client.replies().size(), 1);
        QCOMPARE(client.replies().constFirst().status, 200);
        QCOMPARE(client.replies().constFirst().body, QByteArray("GET /"));
    }

    void zeroLengthIsNoBody()
    {
        Client client(m_port);
        client.send(get("/", "Content-Length: 0\r\nContent-Length: 0\r\n"));
        QTRY_COMPARE(client.replies().size(), 1);
        QCOMPARE(client.replies().constFirst().status, 200);
    }

    void idleConnectionClosed_data()
    {
        QTest::addColumn<QByteArray>("sent");
        QTest::addRow("nothing sent") << QByteArray();
        QTest::addRow("unfinished head") << QByteArray("GET / HTTP/1.1\r\nX-Slow: ");
        QTest::addRow("after an answer") << get("/done");
    }
    void idleConnectionClosed()
    {
        QFETCH(QByteArray, sent);
        Client client(m_port);
        client.send(sent);
        QTRY_VERIFY_WITH_TIMEOUT(client.closed(), 3000);
        QTRY_COMPARE(m_server->openConnections(), 0);
    }

    // At the cap a new client is served: the connection that has waited longest goes.
    void capClosesTheOldestIdleConnection()
    {
        Client first(m_port);
        QTRY_COMPARE(m_server->openConnections(), 1);
        Client second(m_port);
        Client third(m_port);
        QTRY_COMPARE(m_server->openConnections(), 3);
        Client fourth(m_port);
        fourth.send(get("/late"));
        QTRY_COMPARE(fourth.replies().size(), 1);
        QCOMPARE(fourth.replies().constFirst().body, QByteArray("GET /late"));
        QTRY_VERIFY(first.closed());
        QVERIFY(!second.closed());
        QCOMPARE(m_server->openConnections(), 3);
    }

    // When every connection waits for its answer, a new one is closed instead.
    void capRefusesWhenAllBusy()
    {
        QList<std::shared_ptr<Client>> busy;
        for (int i = 0; i < 3; ++i) {
            busy << std::make_shared<Client>(m_port);
            busy.last()->send(get("/later"));
        }
        QTRY_COMPARE(m_deferred.size(), 3);
        Client extra(m_port);
        QTRY_VERIFY(extra.closed());
        for (const auto &respond : std::as_const(m_deferred))
            respond(HttpResponse {200, "text/plain", "done", {}});
        for (const auto &client : std::as_const(busy))
            QTRY_COMPARE(client->replies().size(), 1);
    }

    // When every connection waits for its answer and they all come from one address, a new
    // client from another address is served: the flood's newest connection goes.
    void capMakesRoomForAnotherAddress()
    {
        QList<std::shared_ptr<Client>> busy;
        for (int i = 0; i < 3; ++i) {
            busy << std::make_shared<Client>(m_port, QHostAddress(u"127.0.0.2"_qs));
            busy.last()->send(get("/later"));
            QTRY_COMPARE(m_deferred.size(), i + 1);
        }
        Client other(m_port);
        other.send(get("/late"));
        QTRY_COMPARE(other.replies().size(), 1);
        QCOMPARE(other.replies().constFirst().body, QByteArray("GET /late"));
        QTRY_VERIFY(busy.last()->closed());
        QVERIFY(!busy.first()->closed());
        QCOMPARE(m_server->openConnections(), 3);
    }

    // A new connection from the address holding the most, when all of its connections are
    // busy, is closed itself: another address's connection waiting for its request stays.
    void capKeepsAnotherAddressesIdleConnection()
    {
        Client scraper(m_port);
        QTRY_COMPARE(m_server->openConnections(), 1);
        QList<std::shared_ptr<Client>> busy;
        for (int i = 0; i < 2; ++i) {
            busy << std::make_shared<Client>(m_port, QHostAddress(u"127.0.0.2"_qs));
            busy.last()->send(get("/later"));
            QTRY_COMPARE(m_deferred.size(), i + 1);
        }
        Client extra(m_port, QHostAddress(u"127.0.0.2"_qs));
        QTRY_VERIFY(extra.closed());
        scraper.send(get("/late"));
        QTRY_COMPARE(scraper.replies().size(), 1);
        QVERIFY(!scraper.closed());
    }

    // A client that pipelines big answers and never reads: the server stops reading its
    // requests once the unsent bytes pass the cap, and the idle timeout closes it.
    void neverReadingClientHeldBack()
    {
        Client client(m_port);
        client.stopReading();
        QByteArray flood;
        for (int i = 0; i < 3000; ++i)
            flood += get("/big");
        client.send(flood);
        QTRY_VERIFY(m_calls > 0);
        QTRY_VERIFY_WITH_TIMEOUT(m_server->openConnections() == 0, 10000);
        // What the kernel's buffers hold (45 answers of 64 KiB measured), far from all 3000.
        QVERIFY2(m_calls < 500, qPrintable(QString::number(m_calls)));
    }

    void lateAnswerAfterClientLeft()
    {
        {
            Client client(m_port);
            client.send(get("/later"));
            QTRY_COMPARE(m_deferred.size(), 1);
        }
        QTRY_COMPARE(m_server->openConnections(), 0);
        m_deferred.constFirst()(HttpResponse {}); // does nothing
        Client next(m_port);
        next.send(get("/fine"));
        QTRY_COMPARE(next.replies().size(), 1);
    }

    void extraResponseHeaders()
    {
        m_server->setResponseHeaders({{"X-Frame-Options", "DENY"}, {"X-Bad", "a\r\nInjected: 1"}});
        Client client(m_port);
        client.send(get("/"));
        QTRY_COMPARE(client.replies().size(), 1);
        const QByteArray head = client.replies().constFirst().head;
        QVERIFY2(head.contains("\r\nX-Frame-Options: DENY\r\n"), head.constData());
        QVERIFY(!head.contains("Injected"));
    }

    // With maxBodyBytes (serve --api): POST with a Content-Length body, read even when it comes
    // in pieces, and the connection still serves; over the bound 413, chunked 411 (closed); a
    // body that never completes is closed by the idle timeout.
    void bodiesWhereAllowed()
    {
        HttpLimits limits;
        limits.idleTimeoutMs = 400;
        limits.maxBodyBytes = 32;
        HttpServer server(
            [](const HttpRequest &request, const HttpServer::Respond &respond) {
                HttpResponse response;
                response.body = request.method + ' ' + request.body;
                respond(response);
            },
            limits);
        auto *listener = new QTcpServer;
        QVERIFY(listener->listen(QHostAddress::LocalHost));
        server.serve(listener);
        const QByteArray post = "POST / HTTP/1.1\r\nHost: test\r\nContent-Length: ";
        Client client(listener->serverPort());
        client.send(post + "11\r\n\r\nhello");
        client.send(" world" + get("/next"));
        QTRY_COMPARE(client.replies().size(), 2);
        QCOMPARE(client.replies().at(0).body, QByteArray("POST hello world"));
        QCOMPARE(client.replies().at(1).body, QByteArray("GET "));
        const QList<std::pair<QByteArray, int>> refused = {{post + "33\r\n\r\n", 413},
            {"POST / HTTP/1.1\r\nHost: test\r\nTransfer-Encoding: chunked\r\n\r\n", 411},
            {"PUT / HTTP/1.1\r\nHost: test\r\n\r\n", 405}, {post + "5\r\n\r\nhel", 0}};
        for (const auto &[request, status] : refused) {
            Client other(listener->serverPort());
            other.send(request);
            QTRY_VERIFY(other.closed() || other.replies().size() == 1);
            if (status == 0) { // no answer: closed by the idle timeout, unanswered
                QTRY_VERIFY(other.closed());
                QCOMPARE(other.replies().size(), 0);
                continue;
            }
            QCOMPARE(other.replies().constFirst().status, status);
            if (status == 405)
                QVERIFY(other.replies().constFirst().head.contains("Allow: GET, HEAD, POST"));
            else
                QTRY_VERIFY(other.closed());
        }
    }

private:
    void handle(const HttpRequest &request, HttpServer::Respond respond)
    {
        ++m_calls;
        if (request.path == "/later")
            return m_deferred.append(std::move(respond));
        HttpResponse response;
        response.body = request.path == "/big" ? QByteArray(64 * 1024, 'x')
                                               : "GET " + request.path
                + (request.query.isEmpty() ? QByteArray() : QByteArray(" " + request.query));
        respond(response);
    }

    std::unique_ptr<HttpServer> m_server;
    quint16 m_port = 0;
    int m_calls = 0;
    QList<HttpServer::Respond> m_deferred;
};

OUTBOX_TEST_MAIN(TestHttpServer, QCoreApplication)
#include "tst_httpserver.moc"
