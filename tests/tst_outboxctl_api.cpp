// `outboxctl serve --api` as an operator's script uses it: the real binary serving a PostgreSQL
// and a SQLite outbox, asked over HTTP with basic auth. 401 without or with wrong credentials
// (WWW-Authenticate), 403 without the right (nothing written), 400 with one line for bad input,
// 404 for an unknown outbox or event, 413 for a body over the bound, writes refused over plain
// HTTP unless --api.allow-plain-http-writes; the outboxes with their health, keyset pages of
// events, one event explained, the error groups; a replay, resolve and reopen through the API
// land in replay_log / resolve_log / reopen_log with the authenticated user as the operator (on
// both engines), a dry run writes nothing, over HTTPS without the flag; a bulk replay of an error
// group; bad --api options and hostile rights files exit 2; serve returns the shipped OpenAPI
// document, whose every operationId is unique and every path placeholder declared (below).
#include "hostilefile.h"
#include "outboxctlrun.h"
#include "outboxrows.h"
#include "testdata.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QSqlQuery>
#include <QTemporaryDir>

namespace {

// htpasswd -nbBC 4 (cheap: every request checks it once, then it is cached).
const QByteArray Hash = "$2y$04$1lRTCST5Ij3KQQ40QBrrUuI/li/Hd8nN2HnjOGmHGJGr6oITR.B/e";
const QByteArray Password = "scrape-secret";

// `dead` DEAD events D-0.., HTTP 400 each, created an hour ago.
bool populate(const QSqlDatabase &db, int dead)
{
    return insertDeadAndDue(db, dead, 3600000, std::nullopt, u"HTTP 400"_qs);
}

QString queried(const QSqlDatabase &db, const QString &sql)
{
    QSqlQuery query(db);
    return query.exec(sql) && query.next() ? query.value(0).toString() : u"<failed>"_qs;
}

// One `outboxctl serve --listen 127.0.0.1:0 ...`, its port read from its first line.
class Serve
{
public:
    explicit Serve(const QStringList &arguments, const QString &scheme = u"http"_qs)
        : m_scheme(scheme)
    {
        m_process.start(qEnvironmentVariable("OUTBOXCTL"),
            QStringList {u"serve"_qs, u"--listen"_qs, u"127.0.0.1:0"_qs} + arguments);
        QElapsedTimer timer;
        timer.start();
        const QRegularExpression listening(
            u"on "_qs + scheme + u"://127\\.0\\.0\\.1:(\\d+)/metrics"_qs);
        QString out;
        while (
            m_port == 0 && timer.elapsed() < 30000 && m_process.state() != QProcess::NotRunning) {
            m_process.waitForReadyRead(1000);
            out += QString::fromUtf8(m_process.readAllStandardOutput());
            if (const auto match = listening.match(out); match.hasMatch())
                m_port = match.captured(1).toInt();
        }
    }
    ~Serve() { stop(); }
    // SIGTERM; its exit code (0: clean, no sanitizer report), -1 when it did not end in 20 s.
    int stop()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.terminate();
            if (!m_process.waitForFinished(20000)) {
                m_process.kill();
                m_process.waitForFinished();
                return -1;
            }
        }
        const int code = m_process.exitStatus() == QProcess::NormalExit ? m_process.exitCode() : -1;
        if (code != 0)
            qWarning("serve exited with %d: %s", code,
                m_process.readAllStandardError().right(6000).constData());
        return code;
    }
    int port() const { return m_port; }
    QUrl url(const QString &path) const
    {
        return QUrl(QStringLiteral("%1://127.0.0.1:%2%3").arg(m_scheme).arg(m_port).arg(path));
    }

private:
    QProcess m_process;
    QString m_scheme;
    int m_port = 0;
};

struct Answer
{
    int status = 0;
    QByteArray body;
    QByteArray authenticate; // WWW-Authenticate
    QJsonObject json() const { return QJsonDocument::fromJson(body).object(); }
    QString error() const { return json().value(u"error"_qs).toString(); }
};

// One request as `user` (empty: no credentials); a POST when `body` is set.
Answer call(const QUrl &url, const QByteArray &user, const std::optional<QByteArray> &body = {},
    const QByteArray &password = Password)
{
    QNetworkAccessManager manager;
    QNetworkRequest request(url);
    if (!user.isEmpty())
        request.setRawHeader(
            "Authorization", "Basic " + QByteArray(user + ':' + password).toBase64());
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("application/json"));
    QNetworkReply *reply = body ? manager.post(request, *body) : manager.get(request);
    // tests/fixtures/tls's server certificate is for a test CA this client does not trust.
    QObject::connect(
        reply, &QNetworkReply::sslErrors, reply, [reply] { reply->ignoreSslErrors(); });
    if (!reply->isFinished())
        QSignalSpy(reply, &QNetworkReply::finished).wait(30000);
    Answer answer {reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(),
        reply->readAll(), reply->rawHeader("WWW-Authenticate")};
    reply->deleteLater();
    return answer;
}

QStringList ids(const QJsonArray &array)
{
    QStringList list;
    for (const QJsonValue &value : array)
        list << (value.isObject() ? value[u"event_id"_qs].toString() : value.toString());
    return list;
}

} // namespace

class TestOutboxctlApi : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void cleanup()
    {
        if (m_serve)
            QCOMPARE(m_serve->stop(), 0);
        m_serve.reset();
    }
    void credentials();
    void outboxesWithTheirHealth();
    void keysetPagesOfEvents();
    void eventDetailAndErrors();
    void replayThroughTheApi_data();
    void replayThroughTheApi();
    void withoutTheRightNothingIsWritten();
    void badInputIsOneLine_data();
    void badInputIsOneLine();
    void resolveAndReopen();
    void replayOfAnErrorGroup();
    void plainHttpWritesRefusedByDefault();
    void writesOverHttps();
    void openApiDocument();
    void badOptionsServeNothing_data();
    void badOptionsServeNothing();

private:
    // alice reads and acts on every outbox; bob only reads pg.
    void startServe(const QStringList &extra = {u"--api.allow-plain-http-writes"_qs});
    QSqlDatabase pg() const { return m_pgConnection->database(); }
    QSqlDatabase lite() const { return m_liteConnection->database(); }
    QSqlDatabase db(const QString &outbox) const { return outbox == u"pg"_qs ? pg() : lite(); }
    QUrl url(const QString &path) const { return m_serve->url(u"/api/v1"_qs + path); }
    void writeFile(const QString &name, const QByteArray &text)
    {
        QFile file(m_dir.filePath(name));
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(text);
    }

    QTemporaryDir m_dir;
    std::unique_ptr<TestDatabase> m_pg;
    std::unique_ptr<TestDatabase> m_sqlite;
    std::unique_ptr<DbConnection> m_pgConnection;
    std::unique_ptr<DbConnection> m_liteConnection;
    std::unique_ptr<Serve> m_serve;
};

// Two fresh outboxes, PostgreSQL (14 DEAD) and SQLite (5 DEAD); the web config and rights.
void TestOutboxctlApi::init()
{
    m_serve.reset();
    m_pgConnection.reset();
    m_liteConnection.reset();
    writeFile(u"web.yml"_qs, "basic_auth_users:\n  alice: " + Hash + "\n  bob: " + Hash + "\n");
    writeFile(u"rights.yml"_qs,
        "alice:\n  \"*\": [read, replay, resolve]\nbob:\n  pg: [read]\n  lite: [note]\n");
    if (QTest::currentTestFunction() == QByteArray("badOptionsServeNothing"))
        return;
    QString skip, fail;
    m_sqlite = TestDatabase::create(u"sqlite"_qs, &skip, &fail);
    m_pg = TestDatabase::create(u"postgresql"_qs, &skip, &fail);
    if (!fail.isEmpty())
        QFAIL(qPrintable(fail));
    if (!m_pg)
        QSKIP(qPrintable(skip));
    m_pgConnection = m_pg->initialise();
    m_liteConnection = m_sqlite->initialise();
    QVERIFY(m_pgConnection && populate(pg(), 14));
    QVERIFY(m_liteConnection && populate(lite(), 5));
    const QByteArray test = QTest::currentTestFunction();
    if (test != "plainHttpWritesRefusedByDefault" && test != "writesOverHttps")
        startServe();
}

void TestOutboxctlApi::startServe(const QStringList &extra)
{
    m_serve = std::make_unique<Serve>(
        QStringList {u"--outbox"_qs, u"pg="_qs + m_pg->url(), u"--outbox"_qs,
            u"lite="_qs + m_sqlite->url(), u"--interval"_qs, u"1"_qs, u"--web.config.file"_qs,
            m_dir.filePath(u"web.yml"_qs), u"--api"_qs, u"--api.rights"_qs,
            m_dir.filePath(u"rights.yml"_qs)}
        + extra);
    QVERIFY(m_serve->port() > 0);
}

void TestOutboxctlApi::credentials()
{
    const Answer none = call(url(u"/outboxes"_qs), {});
    QCOMPARE(none.status, 401);
    QCOMPARE(none.authenticate, QByteArray("Basic"));
    QCOMPARE(call(url(u"/outboxes"_qs), "alice", {}, "wrong").status, 401);
    QCOMPARE(call(url(u"/outboxes"_qs), "mallory").status, 401);
    const Answer post = call(url(u"/outboxes/pg/events/D-1/replay"_qs), {}, "{\"reason\":\"x\"}");
    QCOMPARE(post.status, 401);
    QCOMPARE(queried(pg(), u"SELECT COUNT(*) FROM replay_log"_qs), u"0"_qs);
    QCOMPARE(call(url(u"/outboxes"_qs), "alice").status, 200);
    QCOMPARE(call(url(u"/nothing"_qs), "alice").status, 404);
    // /metrics stays as it was: GET only.
    QCOMPARE(call(m_serve->url(u"/metrics"_qs), "alice", "{}").status, 405);
}

void TestOutboxctlApi::outboxesWithTheirHealth()
{
    QJsonArray outboxes;
    QTRY_VERIFY_WITH_TIMEOUT(
        (outboxes = call(url(u"/outboxes"_qs), "alice").json()[u"outboxes"_qs].toArray()).size()
                == 2
            && outboxes.at(0)[u"up"_qs].toBool() && outboxes.at(1)[u"up"_qs].toBool(),
        20000);
    QCOMPARE(outboxes.at(0)[u"name"_qs].toString(), u"pg"_qs);
    QCOMPARE(outboxes.at(0)[u"health"_qs][u"counts"_qs][u"dead"_qs].toInt(), 14);
    QCOMPARE(outboxes.at(1)[u"health"_qs][u"counts"_qs][u"dead"_qs].toInt(), 5);
    // bob reads pg only; lite (a note right, no read) is not listed.
    const QJsonArray bobs = call(url(u"/outboxes"_qs), "bob").json()[u"outboxes"_qs].toArray();
    QCOMPARE(bobs.size(), 1);
    QCOMPARE(bobs.at(0)[u"name"_qs].toString(), u"pg"_qs);
}

void TestOutboxctlApi::keysetPagesOfEvents()
{
    QStringList seen;
    QString after;
    int pages = 0;
    do {
        const QString query = u"/outboxes/pg/events?state=dead&limit=5"_qs
            + (after.isEmpty() ? QString() : u"&after="_qs + after);
        const Answer page = call(url(query), "bob");
        QCOMPARE(page.status, 200);
        const QJsonArray events = page.json()[u"events"_qs].toArray();
        QVERIFY(events.size() <= 5);
        seen << ids(events);
        after = page.json()[u"next"_qs].toString();
        ++pages;
    } while (!after.isEmpty() && pages < 10);
    QCOMPARE(seen.size(), 14);
    QCOMPARE(pages, 3);
    QStringList sorted = seen;
    sorted.sort();
    QCOMPARE(seen, sorted);
    QCOMPARE(call(url(u"/outboxes/pg/events?state=pending"_qs), "bob")
                 .json()[u"events"_qs]
                 .toArray()
                 .size(),
        0);
    QCOMPARE(call(url(u"/outboxes/nope/events"_qs), "alice").status, 404);
}

void TestOutboxctlApi::eventDetailAndErrors()
{
    const Answer detail = call(url(u"/outboxes/pg/events/D-3"_qs), "bob");
    QCOMPARE(detail.status, 200);
    QCOMPARE(detail.json()[u"event_id"_qs].toString(), u"D-3"_qs);
    QCOMPARE(detail.json()[u"state"_qs].toString(), u"DEAD"_qs);
    QVERIFY(!detail.json()[u"explanation"_qs].toString().isEmpty());
    const Answer missing = call(url(u"/outboxes/pg/events/NOPE"_qs), "bob");
    QCOMPARE(missing.status, 404);
    QVERIFY2(missing.error().contains(u"NOPE"_qs), missing.body.constData());
    const QJsonArray groups
        = call(url(u"/outboxes/pg/errors"_qs), "bob").json()[u"groups"_qs].toArray();
    QCOMPARE(groups.size(), 1);
    QCOMPARE(groups.at(0)[u"dead"_qs].toInt(), 14);
    QCOMPARE(call(url(u"/outboxes/lite/errors"_qs), "bob").status, 403);
}

void TestOutboxctlApi::replayThroughTheApi_data()
{
    QTest::addColumn<QString>("outbox");
    QTest::addRow("PostgreSQL") << u"pg"_qs;
    QTest::addRow("SQLite") << u"lite"_qs;
}

// A dry run plans and writes nothing; the real run is audited under the signed-in user.
void TestOutboxctlApi::replayThroughTheApi()
{
    QFETCH(QString, outbox);
    const QUrl replay = url(u"/outboxes/"_qs + outbox + u"/events/D-1/replay"_qs);
    const Answer dry = call(replay, "alice", R"({"dry_run": true})");
    QCOMPARE(dry.status, 200);
    QCOMPARE(dry.json()[u"plan"_qs][u"count"_qs].toInt(), 1);
    QVERIFY(!dry.json().contains(u"outcome"_qs));
    QCOMPARE(queried(db(outbox), u"SELECT COUNT(*) FROM replay_log"_qs), u"0"_qs);
    QCOMPARE(queried(db(outbox), u"SELECT status FROM delivery_outbox WHERE event_id = 'D-1'"_qs),
        u"DEAD"_qs);
    const Answer done
        = call(replay, "alice", R"({"reason": "fix deployed", "operator": "mallory"})");
    QCOMPARE(done.status, 400); // no name from the client
    const Answer real = call(replay, "alice", R"({"reason": "fix deployed"})");
    QCOMPARE(real.status, 200);
    QCOMPARE(ids(real.json()[u"outcome"_qs][u"replayed"_qs].toArray()), QStringList {u"D-1"_qs});
    QCOMPARE(real.json()[u"plan"_qs][u"dry_run"_qs].toBool(true), false);
    QCOMPARE(queried(db(outbox), u"SELECT operator || ':' || reason FROM replay_log"_qs),
        u"alice:fix deployed"_qs);
    QCOMPARE(queried(db(outbox), u"SELECT status FROM delivery_outbox WHERE event_id = 'D-1'"_qs),
        u"PENDING"_qs);
    // Again: no longer DEAD, skipped, nothing more written.
    const Answer again = call(replay, "alice", R"({"reason": "twice"})");
    QCOMPARE(ids(again.json()[u"outcome"_qs][u"skipped"_qs].toArray()), QStringList {u"D-1"_qs});
    QCOMPARE(queried(db(outbox), u"SELECT COUNT(*) FROM replay_log"_qs), u"1"_qs);
}

void TestOutboxctlApi::withoutTheRightNothingIsWritten()
{
    for (const QString &action : {u"replay"_qs, u"resolve"_qs}) {
        const Answer refused = call(
            url(u"/outboxes/pg/events/D-2/"_qs + action), "bob", R"({"reason": "not mine"})");
        QCOMPARE(refused.status, 403);
        QVERIFY2(refused.error().contains(u"bob may not"_qs), refused.body.constData());
    }
    const Answer bulk
        = call(url(u"/outboxes/pg/replay"_qs), "bob", R"({"reason":"x","filter":{}})");
    QCOMPARE(bulk.status, 403);
    QCOMPARE(queried(pg(), u"SELECT COUNT(*) FROM replay_log"_qs), u"0"_qs);
    QCOMPARE(queried(pg(), u"SELECT COUNT(*) FROM resolve_log"_qs), u"0"_qs);
    QCOMPARE(
        queried(pg(), u"SELECT COUNT(*) FROM delivery_outbox WHERE status = 'DEAD'"_qs), u"14"_qs);
}

void TestOutboxctlApi::badInputIsOneLine_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("says");
    QTest::addRow("not JSON") << u"/outboxes/pg/events/D-1/replay"_qs << QByteArray("{reason")
                              << 400 << u"not JSON"_qs;
    QTest::addRow("no reason") << u"/outboxes/pg/events/D-1/replay"_qs << QByteArray("{}") << 400
                               << u"\"reason\" is required"_qs;
    QTest::addRow("reason not text")
        << u"/outboxes/pg/events/D-1/resolve"_qs << QByteArray(R"({"reason": 5})") << 400
        << u"must be a string"_qs;
    QTest::addRow("bulk without selection")
        << u"/outboxes/pg/replay"_qs << QByteArray(R"({"reason": "x"})") << 400
        << u"say which events"_qs;
    QTest::addRow("unknown state") << u"/outboxes/pg/events?state=lost"_qs << QByteArray() << 400
                                   << u"unknown state 'lost'"_qs;
    QTest::addRow("limit over the bound")
        << u"/outboxes/pg/events?limit=100000"_qs << QByteArray() << 400 << u"limit must be"_qs;
    QTest::addRow("unknown event") << u"/outboxes/pg/events/NOPE/replay"_qs
                                   << QByteArray(R"({"reason": "x"})") << 404 << u"NOPE"_qs;
    QTest::addRow("unknown outbox") << u"/outboxes/nope/events/D-1/replay"_qs
                                    << QByteArray(R"({"reason": "x"})") << 404 << u"nope"_qs;
    QTest::addRow("body over 64 KiB")
        << u"/outboxes/pg/events/D-1/replay"_qs
        << QByteArray(R"({"reason": ")") + QByteArray(70000, 'x') + QByteArray(R"("})") << 413
        << QString();
}

void TestOutboxctlApi::badInputIsOneLine()
{
    QFETCH(QString, path);
    QFETCH(QByteArray, body);
    QFETCH(int, status);
    QFETCH(QString, says);
    const bool get = body.isEmpty();
    const Answer answer = call(url(path), "alice", get ? std::nullopt : std::optional(body));
    QCOMPARE(answer.status, status);
    if (!says.isEmpty()) {
        QVERIFY2(answer.error().contains(says), answer.body.constData());
        QCOMPARE(answer.body.count('\n'), 1);
    }
    QCOMPARE(queried(pg(), u"SELECT COUNT(*) FROM replay_log"_qs), u"0"_qs);
    QCOMPARE(
        queried(pg(), u"SELECT COUNT(*) FROM delivery_outbox WHERE status = 'DEAD'"_qs), u"14"_qs);
}

void TestOutboxctlApi::resolveAndReopen()
{
    const QUrl resolve = url(u"/outboxes/pg/events/D-4/resolve"_qs);
    const Answer dry = call(resolve, "alice", R"({"dry_run": true})");
    QCOMPARE(dry.status, 200);
    QCOMPARE(ids(dry.json()[u"plan"_qs][u"would_resolve"_qs].toArray()), QStringList {u"D-4"_qs});
    QCOMPARE(queried(pg(), u"SELECT COUNT(*) FROM resolve_log"_qs), u"0"_qs);
    const Answer resolved = call(resolve, "alice", R"({"reason": "duplicate"})");
    QCOMPARE(resolved.status, 200);
    QCOMPARE(
        ids(resolved.json()[u"outcome"_qs][u"resolved"_qs].toArray()), QStringList {u"D-4"_qs});
    QCOMPARE(queried(pg(), u"SELECT operator || ':' || reason FROM resolve_log"_qs),
        u"alice:duplicate"_qs);
    const Answer reopened = call(
        url(u"/outboxes/pg/events/D-4/reopen"_qs), "alice", R"({"reason": "not a duplicate"})");
    QCOMPARE(reopened.status, 200);
    QCOMPARE(
        ids(reopened.json()[u"outcome"_qs][u"reopened"_qs].toArray()), QStringList {u"D-4"_qs});
    QCOMPARE(queried(pg(), u"SELECT operator FROM reopen_log"_qs), u"alice"_qs);
    QCOMPARE(
        queried(pg(), u"SELECT status FROM delivery_outbox WHERE event_id = 'D-4'"_qs), u"DEAD"_qs);
}

void TestOutboxctlApi::replayOfAnErrorGroup()
{
    const QUrl replay = url(u"/outboxes/lite/replay"_qs);
    const Answer dry = call(replay, "alice", R"({"dry_run": true, "error_group": "HTTP <n>"})");
    QCOMPARE(dry.status, 200);
    QCOMPARE(dry.json()[u"plan"_qs][u"count"_qs].toInt(), 5);
    QCOMPARE(queried(lite(), u"SELECT COUNT(*) FROM replay_log"_qs), u"0"_qs);
    const Answer none = call(replay, "alice", R"({"reason": "x", "error_group": "no such"})");
    QCOMPARE(none.status, 404);
    const Answer real = call(replay, "alice",
        R"({"reason": "upstream fixed", "error_group": "HTTP <n>", "filter": {"error_category": "PERMANENT"}})");
    QCOMPARE(real.status, 200);
    QCOMPARE(real.json()[u"outcome"_qs][u"replayed"_qs].toArray().size(), 5);
    QCOMPARE(
        queried(lite(), u"SELECT COUNT(*) FROM replay_log WHERE operator = 'alice'"_qs), u"5"_qs);
}

void TestOutboxctlApi::plainHttpWritesRefusedByDefault()
{
    startServe({});
    const Answer refused
        = call(url(u"/outboxes/pg/events/D-1/replay"_qs), "alice", R"({"reason": "x"})");
    QCOMPARE(refused.status, 403);
    QVERIFY2(refused.error().contains(u"HTTPS"_qs), refused.body.constData());
    QCOMPARE(queried(pg(), u"SELECT COUNT(*) FROM replay_log"_qs), u"0"_qs);
    QCOMPARE(call(url(u"/outboxes/pg/events/D-1"_qs), "alice").status, 200); // reads are fine
}

// Over HTTPS (tls_server_config) writes need no flag; the user is still the operator.
void TestOutboxctlApi::writesOverHttps()
{
    for (const QString &name : {u"server.crt"_qs, u"server.key"_qs}) {
        QFile::remove(m_dir.filePath(name));
        QVERIFY(QFile::copy(TestData::path(u"fixtures/tls/"_qs + name), m_dir.filePath(name)));
    }
    writeFile(u"tls.yml"_qs,
        "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n"
        "basic_auth_users:\n  alice: "
            + Hash + "\n");
    m_serve = std::make_unique<Serve>(
        QStringList {u"--outbox"_qs, u"pg="_qs + m_pg->url(), u"--web.config.file"_qs,
            m_dir.filePath(u"tls.yml"_qs), u"--api"_qs, u"--api.rights"_qs,
            m_dir.filePath(u"rights.yml"_qs)},
        u"https"_qs);
    QVERIFY(m_serve->port() > 0);
    const Answer real
        = call(url(u"/outboxes/pg/events/D-7/replay"_qs), "alice", R"({"reason": "over TLS"})");
    QCOMPARE(real.status, 200);
    QCOMPARE(queried(pg(), u"SELECT operator || ':' || reason FROM replay_log"_qs),
        u"alice:over TLS"_qs);
}

// The validity of the document is the static test openapi_document's (a real OpenAPI 3.0
// validator on resources/api/openapi.json). Here: serve returns exactly that file, every route
// serve answers is documented under /api/v1, and what the validator's schema cannot express:
// operationIds are unique and every {placeholder} of a path is a declared parameter.
void TestOutboxctlApi::openApiDocument()
{
    const Answer answer = call(url(u"/openapi.json"_qs), "bob");
    QCOMPARE(answer.status, 200);
    QFile shipped(TestData::sourceDir() + u"/resources/api/openapi.json"_qs);
    QVERIFY(shipped.open(QIODevice::ReadOnly));
    QCOMPARE(answer.body, shipped.readAll());
    const QJsonObject paths = answer.json()[u"paths"_qs].toObject();
    QCOMPARE(paths.size(), 9);
    QSet<QString> operations;
    for (auto path = paths.begin(); path != paths.end(); ++path) {
        QVERIFY2(path.key().startsWith(u"/api/v1/"_qs), qPrintable(path.key()));
        QStringList declared;
        const QJsonObject item = path->toObject();
        for (const QJsonValue &parameter : item[u"parameters"_qs].toArray())
            declared << parameter[u"name"_qs].toString();
        for (const QString &method : {u"get"_qs, u"post"_qs}) {
            const QJsonObject operation = item[method].toObject();
            if (operation.isEmpty())
                continue;
            for (const QJsonValue &parameter : operation[u"parameters"_qs].toArray())
                declared << parameter[u"name"_qs].toString();
            const QString id = operation[u"operationId"_qs].toString();
            QVERIFY2(!id.isEmpty() && !operations.contains(id), qPrintable(path.key()));
            operations.insert(id);
        }
        static const QRegularExpression placeholder(u"\\{(\\w+)\\}"_qs);
        for (const auto &match : placeholder.globalMatch(path.key()))
            QVERIFY2(declared.contains(match.captured(1)), qPrintable(path.key()));
    }
}

void TestOutboxctlApi::badOptionsServeNothing_data()
{
    QTest::addColumn<QStringList>("options");
    QTest::addColumn<QString>("message");
    QTest::addRow("--api without a web config") << QStringList {u"--api"_qs, u"--api.rights"_qs,
        u"@rights.yml"_qs} << u"--api needs --web.config.file with basic_auth_users"_qs;
    QTest::addRow("--api without rights") << QStringList {u"--api"_qs, u"--web.config.file"_qs,
        u"@web.yml"_qs} << u"--api needs --api.rights FILE"_qs;
    QTest::addRow("--api.rights without --api")
        << QStringList {u"--api.rights"_qs, u"@rights.yml"_qs} << u"need --api"_qs;
    QTest::addRow("an unknown right") << QStringList {u"--api"_qs, u"--web.config.file"_qs,
        u"@web.yml"_qs, u"--api.rights"_qs, u"@bad.yml"_qs}
                                      << u"line 2: unknown right 'delete'"_qs;
    QTest::addRow("rights a FIFO") << QStringList {u"--api"_qs, u"--web.config.file"_qs,
        u"@web.yml"_qs, u"--api.rights"_qs, u"fifo"_qs}
                                   << u"is a FIFO, not a file"_qs;
    QTest::addRow("rights over 256 KiB") << QStringList {u"--api"_qs, u"--web.config.file"_qs,
        u"@web.yml"_qs, u"--api.rights"_qs, u"big"_qs}
                                         << u"is larger than 256 KiB"_qs;
}

void TestOutboxctlApi::badOptionsServeNothing()
{
    QFETCH(QStringList, options);
    QFETCH(QString, message);
    writeFile(u"bad.yml"_qs, "alice:\n  \"*\": [read, delete]\n");
    QStringList arguments {u"serve"_qs, u"--outbox"_qs, u"lite=sqlite:/tmp/never.sqlite"_qs};
    for (const QString &option : std::as_const(options)) {
        if (option.startsWith(u'@'))
            arguments << m_dir.filePath(option.mid(1));
        else if (option == u"fifo"_qs || option == u"big"_qs)
            arguments << HostileFile::make(m_dir, option);
        else
            arguments << option;
    }
    const Run run = outboxctl(arguments);
    QCOMPARE(run.exitCode, 2);
    QVERIFY(run.out.isEmpty());
    QVERIFY2(run.err.join(u'\n').contains(message), qPrintable(run.err.join(u'\n')));
}

OUTBOX_TEST_MAIN(TestOutboxctlApi, QCoreApplication)
#include "tst_outboxctl_api.moc"
