// `outboxctl serve` as an operator runs it: the real binary on a free loopback port serving a
// PostgreSQL and a SQLite outbox. /metrics holds each outbox's exact DEAD count; concurrent
// scrapes share one snapshot per interval (outbox_snapshots_total); an unreachable outbox is
// outbox_up 0 with one log line and no password while the others stay up; the PostgreSQL
// outbox heals after a server restart; /healthz answers; HEAD like GET without the body, other
// methods 405; a warning when listening beyond loopback; OpenMetrics when asked for; bad
// arguments, a bad fleet file, a repeated name and a port in use exit 2 with nothing served;
// so do a device, FIFO or oversized file as --config or ;profile=, more than 1,000 outboxes and
// a fleet file with a password that others may read; a wrong password backs off; SIGTERM ends
// it cleanly (exit 0, no sanitizer report) whatever it is doing; 1,000 made-up error categories are
// one `other` series; a low soft descriptor limit is raised to the hard one, a low hard one is
// named in one warning.
#include "databaseurl.h"
#include "hostilefile.h"
#include "outboxctlrun.h"
#include "outboxrows.h"
#include "passwordrole.h"
#include "testdata.h"
#include "testdatabase.h"
#include "testmain.h"
#include "testserver.h"

#include <QElapsedTimer>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <sys/resource.h>

namespace {

// `dead` DEAD events and one due event.
bool populate(const QSqlDatabase &db, int dead)
{
    return insertDeadAndDue(db, dead, 3600000, 60000, u"HTTP 400"_qs);
}

// One running `outboxctl serve --listen 127.0.0.1:0 ...`; its port is read from the line it
// prints once it listens. Terminated (SIGTERM) when it goes out of scope.
class Serve
{
public:
    // `ulimit`: the shell's ulimit arguments to run it under (e.g. "-n 40"), or none.
    // `scheme`: what its first line says it serves ("https" with TLS in a web config).
    explicit Serve(const QStringList &arguments, const QString &ulimit = {},
        const QString &scheme = u"http"_qs)
    {
        const QStringList serve = QStringList {qEnvironmentVariable("OUTBOXCTL"), u"serve"_qs,
                                      u"--listen"_qs, u"127.0.0.1:0"_qs}
            + arguments;
        if (ulimit.isEmpty())
            m_process.start(serve.constFirst(), serve.mid(1));
        else
            m_process.start(u"sh"_qs,
                QStringList {u"-c"_qs, u"ulimit "_qs + ulimit + u" && exec \"$0\" \"$@\""_qs}
                    + serve);
        QElapsedTimer timer;
        timer.start();
        const QRegularExpression listening(
            u"on "_qs + scheme + u"://127\\.0\\.0\\.1:(\\d+)/metrics"_qs);
        // A second without a line is no failure: a loaded machine (or a sanitizer build) may
        // take longer to start it.
        while (m_port == 0 && timer.elapsed() < 30000
            && m_process.state() != QProcess::NotRunning) {
            m_process.waitForReadyRead(1000);
            m_out += QString::fromUtf8(m_process.readAllStandardOutput());
            const QRegularExpressionMatch match = listening.match(m_out);
            if (match.hasMatch())
                m_port = match.captured(1).toInt();
        }
    }
    ~Serve() { stop(); }

    int port() const { return m_port; }
    qint64 pid() const { return m_process.processId(); }
    QString url(const QString &path) const
    {
        return QStringLiteral("http://127.0.0.1:%1%2").arg(m_port).arg(path);
    }
    // SIGTERM; the exit code, or -1 when it did not end cleanly within 20 s.
    int stop()
    {
        if (m_process.state() == QProcess::NotRunning)
            return m_process.exitStatus() == QProcess::NormalExit ? m_process.exitCode() : -1;
        m_process.terminate();
        if (!m_process.waitForFinished(20000)) {
            m_process.kill();
            m_process.waitForFinished();
            return -1;
        }
        const int code = m_process.exitStatus() == QProcess::NormalExit ? m_process.exitCode() : -1;
        if (code != 0) // what it said, a sanitizer's report included, for the failure's reader
            qWarning(
                "serve exited with %d; its stderr ends:\n%s", code, qPrintable(err().right(6000)));
        return code;
    }
    QString out() { return m_out += QString::fromUtf8(m_process.readAllStandardOutput()); }
    QString err() { return m_err += QString::fromUtf8(m_process.readAllStandardError()); }

private:
    QProcess m_process;
    QString m_out;
    QString m_err;
    int m_port = 0;
};

struct Answer
{
    int status = 0;
    QByteArray contentType;
    QString body;
};

// Sends every request at once and waits for all the answers.
QList<Answer> get(const QList<QNetworkRequest> &requests)
{
    QNetworkAccessManager manager;
    QList<QNetworkReply *> replies;
    for (const QNetworkRequest &request : requests)
        replies << manager.get(request);
    QList<Answer> answers;
    for (QNetworkReply *reply : std::as_const(replies)) {
        if (!reply->isFinished())
            QSignalSpy(reply, &QNetworkReply::finished).wait(30000);
        answers << Answer {reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(),
            reply->header(QNetworkRequest::ContentTypeHeader).toByteArray(),
            QString::fromUtf8(reply->readAll())};
        reply->deleteLater();
    }
    return answers;
}

Answer get(const QString &url)
{
    return get(QList<QNetworkRequest> {QNetworkRequest(QUrl(url))}).constFirst();
}

// The value of the sample line `name{labels}`; empty when there is none.
QString sample(const QString &text, const QString &series)
{
    for (const QString &line : text.split(QLatin1Char('\n'))) {
        if (line.startsWith(series + QLatin1Char(' ')))
            return line.mid(series.size() + 1);
    }
    return {};
}

QString up(const QString &text, const QString &outbox)
{
    return sample(text, QStringLiteral("outbox_up{outbox=\"%1\"}").arg(outbox));
}

QString dead(const QString &text, const QString &outbox)
{
    return sample(text, QStringLiteral("outbox_events{outbox=\"%1\",state=\"dead\"}").arg(outbox));
}

QString taken(const QString &text, const QString &outbox)
{
    return sample(text, QStringLiteral("outbox_snapshots_total{outbox=\"%1\"}").arg(outbox));
}

QByteArray basicAuthorization(const QByteArray &user, const QByteArray &password)
{
    return "Basic " + QByteArray(user + ':' + password).toBase64();
}

// tests/fixtures/tls's server certificate and key, copied into folder.
bool copyTlsFixtures(const QString &folder)
{
    for (const QString &name : {u"server.crt"_qs, u"server.key"_qs}) {
        if (!QFile::copy(TestData::path(u"fixtures/tls/"_qs + name), folder + u'/' + name))
            return false;
    }
    return true;
}

} // namespace

class TestOutboxctlServe : public QObject
{
    Q_OBJECT

private slots:
    // Two fresh outboxes, PostgreSQL (14 DEAD) and SQLite (5 DEAD), for every test that serves.
    void init()
    {
        m_pg.reset();
        m_sqlite.reset();
        if (QTest::currentTestFunction() == QByteArray("badInputServesNothing")
            || QTest::currentTestFunction() == QByteArray("hostileFilesServeNothing"))
            return; // refused before any database is opened
        QString skip, fail;
        m_sqlite = TestDatabase::create(u"sqlite"_qs, &skip, &fail);
        m_pg = TestDatabase::create(u"postgresql"_qs, &skip, &fail);
        if (!fail.isEmpty())
            QFAIL(qPrintable(fail));
        if (!m_pg)
            QSKIP(qPrintable(skip));
        const auto pg = m_pg->initialise();
        const auto sqlite = m_sqlite->initialise();
        QVERIFY(pg && populate(pg->database(), 14));
        QVERIFY(sqlite && populate(sqlite->database(), 5));
    }

    void servesBothOutboxes()
    {
        Serve serve(fleet());
        QVERIFY(serve.port() > 0);
        QString text;
        QTRY_VERIFY_WITH_TIMEOUT(
            !up(text = get(serve.url(u"/metrics"_qs)).body, u"lite"_qs).isEmpty()
                && !up(text, u"pg"_qs).isEmpty(),
            20000);
        QCOMPARE(up(text, u"pg"_qs), u"1"_qs);
        QCOMPARE(up(text, u"lite"_qs), u"1"_qs);
        QCOMPARE(dead(text, u"pg"_qs), u"14"_qs);
        QCOMPARE(dead(text, u"lite"_qs), u"5"_qs);
        QCOMPARE(sample(text, u"outbox_events{outbox=\"pg\",state=\"due\"}"_qs), u"1"_qs);
        QVERIFY(text.contains(u"# TYPE outbox_events gauge\n"_qs));
        // The outbox's name; its database only with --expose-db-url (configFile).
        QCOMPARE(sample(text, u"outbox_info{outbox=\"pg\"}"_qs), u"1"_qs);
        QVERIFY2(!text.contains(u"db=\""_qs), qPrintable(text));

        const Answer health = get(serve.url(u"/healthz"_qs));
        QCOMPARE(health.status, 200);
        QCOMPARE(health.body, u"ok\n"_qs);
        QCOMPARE(get(serve.url(u"/nothing-here"_qs)).status, 404);
        QVERIFY2(serve.err().isEmpty(), qPrintable(serve.err()));
        QCOMPARE(serve.stop(), 0); // SIGTERM: a clean exit
    }

    // 1,000 made-up error categories written by another writer: at most the known ones plus
    // `other` per outbox, however many distinct values the table holds.
    void hostileCategoriesAreOther()
    {
        const auto pg = m_pg->connect(false);
        QVERIFY(pg
            && insertHostileCategories(pg->database(), 1000, QDateTime::currentMSecsSinceEpoch()));
        Serve serve(fleet());
        QVERIFY(serve.port() > 0);
        QString text;
        QTRY_VERIFY_WITH_TIMEOUT(
            up(text = get(serve.url(u"/metrics"_qs)).body, u"pg"_qs) == u"1"_qs, 20000);
        QStringList series;
        for (const QString &line : text.split(u'\n')) {
            if (line.startsWith(u"outbox_error_events{outbox=\"pg\","_qs))
                series << line;
        }
        QCOMPARE(series,
            QStringList({u"outbox_error_events{outbox=\"pg\",category=\"TRANSIENT\"} 0"_qs,
                u"outbox_error_events{outbox=\"pg\",category=\"PERMANENT\"} 14"_qs,
                u"outbox_error_events{outbox=\"pg\",category=\"other\"} 1000"_qs}));
        QVERIFY(!text.contains(u"EVIL"_qs));
    }

    // HEAD on every route is GET without the body; other methods are 405 with Allow.
    void headAndOtherMethods()
    {
        Serve serve(
            fleet() + QStringList {u"--interval"_qs, u"3600"_qs}); // one snapshot: same length
        QVERIFY(serve.port() > 0);
        QTRY_VERIFY_WITH_TIMEOUT(!dead(get(serve.url(u"/metrics"_qs)).body, u"pg"_qs).isEmpty()
                && !dead(get(serve.url(u"/metrics"_qs)).body, u"lite"_qs).isEmpty(),
            20000);
        QNetworkAccessManager manager;
        for (const QString &path : {u"/metrics"_qs, u"/healthz"_qs, u"/"_qs}) {
            const Answer full = get(serve.url(path));
            QNetworkReply *head = manager.head(QNetworkRequest(QUrl(serve.url(path))));
            QVERIFY(QSignalSpy(head, &QNetworkReply::finished).wait(10000));
            QCOMPARE(head->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
            QCOMPARE(head->header(QNetworkRequest::ContentLengthHeader).toInt(),
                int(full.body.toUtf8().size()));
            QVERIFY(head->readAll().isEmpty());
            delete head;
        }
        QNetworkReply *post
            = manager.post(QNetworkRequest(QUrl(serve.url(u"/metrics"_qs))), QByteArray());
        QVERIFY(QSignalSpy(post, &QNetworkReply::finished).wait(10000));
        QCOMPARE(post->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 405);
        QCOMPARE(post->rawHeader("Allow"), QByteArray("GET, HEAD"));
        delete post;
    }

    // Listening beyond loopback is allowed, with a warning that other hosts can reach it.
    void warnsWhenNotLoopback()
    {
        QProcess process;
        process.start(qEnvironmentVariable("OUTBOXCTL"),
            {u"serve"_qs, u"--listen"_qs, u"0.0.0.0:0"_qs, u"--outbox"_qs,
                u"lite="_qs + m_sqlite->url()});
        QString err;
        QTRY_VERIFY_WITH_TIMEOUT(
            (err += QString::fromUtf8(process.readAllStandardError())).contains(u"\n"_qs), 20000);
        process.terminate();
        QVERIFY(process.waitForFinished(20000));
        QVERIFY2(err.startsWith(u"outboxctl serve: serving on 0.0.0.0:"_qs), qPrintable(err));
        QVERIFY2(err.contains(u"reachable from other hosts"_qs), qPrintable(err));
        QCOMPARE(process.exitCode(), 0);
    }

    // What Prometheus sends when it prefers OpenMetrics gets OpenMetrics.
    void openMetricsByAcceptHeader()
    {
        Serve serve(fleet());
        QVERIFY(serve.port() > 0);
        QNetworkRequest request(QUrl(serve.url(u"/metrics"_qs)));
        request.setRawHeader(
            "Accept", "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5");
        Answer answer;
        QTRY_VERIFY_WITH_TIMEOUT(
            !dead((answer = get(QList<QNetworkRequest> {request}).constFirst()).body, u"pg"_qs)
                 .isEmpty(),
            20000);
        QVERIFY2(answer.contentType.startsWith("application/openmetrics-text"),
            answer.contentType.constData());
        QVERIFY(answer.body.endsWith(u"# EOF\n"_qs));
        QVERIFY(answer.body.contains(u"# TYPE outbox_snapshots counter\n"_qs));
        const Answer plain = get(serve.url(u"/metrics"_qs));
        QVERIFY2(plain.contentType.startsWith("text/plain"), plain.contentType.constData());
        QVERIFY(!plain.body.contains(u"# EOF"_qs));
    }

    // Ten scrapes at once, and more later within the interval, read the same snapshot: the
    // databases are not read once per scrape. A row added meanwhile shows only in the next one.
    void scrapesShareOneSnapshotPerInterval()
    {
        Serve serve(fleet() + QStringList {u"--interval"_qs, u"3600"_qs});
        QVERIFY(serve.port() > 0);
        QTRY_VERIFY_WITH_TIMEOUT(!taken(get(serve.url(u"/metrics"_qs)).body, u"pg"_qs).isEmpty()
                && !taken(get(serve.url(u"/metrics"_qs)).body, u"lite"_qs).isEmpty(),
            20000);
        const auto pg = m_pg->connect();
        QVERIFY(pg);
        OutboxRow extra;
        extra.id = u"D-extra"_qs;
        extra.status = u"DEAD"_qs;
        extra.failures = 3;
        QVERIFY(insertRow(pg->database(), extra));
        const QList<Answer> answers
            = get(QList<QNetworkRequest>(10, QNetworkRequest(QUrl(serve.url(u"/metrics"_qs)))));
        for (const Answer &answer : answers) {
            QCOMPARE(answer.status, 200);
            QCOMPARE(taken(answer.body, u"pg"_qs), u"1"_qs);
            QCOMPARE(taken(answer.body, u"lite"_qs), u"1"_qs);
            QCOMPARE(dead(answer.body, u"pg"_qs), u"14"_qs); // the cached snapshot's
        }
    }

    // With a 1 s interval the snapshots keep coming, but never faster than one a second.
    void atMostOneSnapshotPerInterval()
    {
        // Timed from before the process starts: its first snapshot comes after that, the
        // third at least two intervals after the first.
        QElapsedTimer timer;
        timer.start();
        Serve serve(fleet() + QStringList {u"--interval"_qs, u"1"_qs});
        QVERIFY(serve.port() > 0);
        QTRY_VERIFY_WITH_TIMEOUT(
            taken(get(serve.url(u"/metrics"_qs)).body, u"lite"_qs).toInt() >= 3, 20000);
        QVERIFY2(timer.elapsed() >= 2000, qPrintable(QString::number(timer.elapsed())));
        const int count = taken(get(serve.url(u"/metrics"_qs)).body, u"lite"_qs).toInt();
        const qint64 elapsed = timer.elapsed();
        QVERIFY2(count <= elapsed / 1000 + 1,
            qPrintable(QStringLiteral("%1 snapshots in %2 ms").arg(count).arg(elapsed)));
    }

    // An outbox whose server refuses connections is outbox_up 0, logged once without its
    // password; the others are served as before.
    void unreachableOutboxIsDownOthersUp()
    {
        Serve serve(fleet()
            + QStringList {u"--outbox"_qs, u"orders=postgresql://op:hunter2@127.0.0.1:1/orders"_qs,
                u"--interval"_qs, u"1"_qs});
        QVERIFY(serve.port() > 0);
        QString text;
        QTRY_VERIFY_WITH_TIMEOUT(
            taken(text = get(serve.url(u"/metrics"_qs)).body, u"orders"_qs).toInt() >= 2
                && !up(text, u"pg"_qs).isEmpty() && !up(text, u"lite"_qs).isEmpty(),
            20000);
        QCOMPARE(up(text, u"orders"_qs), u"0"_qs);
        QCOMPARE(up(text, u"pg"_qs), u"1"_qs);
        QCOMPARE(up(text, u"lite"_qs), u"1"_qs);
        QCOMPARE(dead(text, u"pg"_qs), u"14"_qs);
        QVERIFY(dead(text, u"orders"_qs).isEmpty());
        QCOMPARE(serve.stop(), 0);
        const QStringList log = serve.err().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        // The warning that the password is visible in ps, then the outage once, though it
        // failed at every poll.
        QCOMPARE(log.size(), 2);
        QVERIFY2(log.constFirst().startsWith(
                     u"outboxctl: warning: a password on the command line is visible"_qs),
            qPrintable(log.constFirst()));
        QVERIFY2(log.constLast().contains(u"orders is down"_qs), qPrintable(log.constLast()));
        QVERIFY2(
            log.constLast().contains(u"op:***@127.0.0.1:1/orders"_qs), qPrintable(log.constLast()));
        QVERIFY(!serve.err().contains(u"hunter2"_qs));
        QVERIFY(!serve.out().contains(u"hunter2"_qs));
        QVERIFY(!text.contains(u"hunter2"_qs));
    }

    // A wrong password (a real SQLSTATE 28P01) is not tried every interval: each failure
    // doubles the wait (1 s, 2 s, 4 s, 8 s at --interval 1, at most 5 min), each new wait is
    // logged once, and the password (with a space in it) is shown nowhere.
    void wrongPasswordBacksOff()
    {
        const QString role = u"outbox_serve_auth"_qs;
        const QString why = PasswordRole::create(role, u"the-right-one"_qs);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        Serve serve(fleet()
            + QStringList {u"--outbox"_qs, u"auth="_qs + PasswordRole::url(role, u"wrong%20one"_qs),
                u"--interval"_qs, u"1"_qs});
        QVERIFY(serve.port() > 0);
        QTRY_VERIFY_WITH_TIMEOUT(serve.err().contains(u"next try in 8 s"_qs), 30000);
        const QString text = get(serve.url(u"/metrics"_qs)).body;
        // Tries at 0, 1, 3 and 7 s: four, where one a second would have made seven or eight.
        QCOMPARE(taken(text, u"auth"_qs), u"4"_qs);
        QCOMPARE(up(text, u"auth"_qs), u"0"_qs);
        QCOMPARE(up(text, u"pg"_qs), u"1"_qs);
        QCOMPARE(serve.stop(), 0);
        QStringList waits;
        for (const QString &line : serve.err().split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
            if (!line.contains(u"auth is down"_qs))
                continue;
            QVERIFY2(line.contains(u"password authentication failed"_qs), qPrintable(line));
            waits << line.section(u"next try in "_qs, 1);
        }
        QCOMPARE(waits, (QStringList {u"1 s"_qs, u"2 s"_qs, u"4 s"_qs, u"8 s"_qs}));
        QVERIFY(!serve.err().contains(u"wrong one"_qs));
        QVERIFY(!serve.err().contains(u"wrong%20one"_qs));
        QVERIFY(!text.contains(u"wrong"_qs));
    }

    void stopsCleanlyWhateverItIsDoing_data()
    {
        QTest::addColumn<QString>("doing");
        QTest::addRow("a connection attempt in flight") << u"connecting"_qs;
        QTest::addRow("an authentication backoff") << u"backing off"_qs;
        QTest::addRow("a scrape's password check") << u"checking a password"_qs;
        QTest::addRow("a scrape half received") << u"reading a request"_qs;
        QTest::addRow("a TLS handshake") << u"in a handshake"_qs;
    }

    // SIGTERM ends serve with exit 0 and nothing on stderr but its own lines (under the
    // sanitizers: no report, no leak) whatever it is doing at that moment: a poller waiting
    // for a database that accepted the connection and never answers, a poller backing off
    // after a wrong password, a scrape whose password (bcrypt, cost 14) is being checked, a
    // request half sent, a TLS handshake under way.
    void stopsCleanlyWhateverItIsDoing()
    {
        QFETCH(QString, doing);
        QTcpServer silentDatabase; // accepts and never answers
        QVERIFY(silentDatabase.listen(QHostAddress::LocalHost, 0));
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QStringList arguments = fleet() + QStringList {u"--interval"_qs, u"1"_qs};
        if (doing == u"connecting"_qs)
            arguments << u"--outbox"_qs
                      << QStringLiteral("silent=postgresql://op@127.0.0.1:%1/orders")
                             .arg(silentDatabase.serverPort());
        if (doing == u"backing off"_qs) {
            const QString why = PasswordRole::create(u"outbox_serve_stop"_qs, u"right"_qs);
            QVERIFY2(why.isEmpty(), qPrintable(why));
            arguments << u"--outbox"_qs
                      << u"auth="_qs + PasswordRole::url(u"outbox_serve_stop"_qs, u"wrong"_qs);
        }
        if (doing == u"checking a password"_qs || doing == u"in a handshake"_qs) {
            const bool tls = doing == u"in a handshake"_qs;
            QVERIFY(copyTlsFixtures(dir.path()));
            // The exporter-toolkit's bob (password bob123), at bcrypt cost 14: about a second.
            writeFile(dir.filePath(u"web.yml"_qs),
                tls ? u"tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n"_qs
                    : u"basic_auth_users:\n  bob: "
                      "$2y$14$y7HJ017Lo/wKPDdzdHahNevjaqE.WRk3iKVLLt1yKO7RtIrNbvy6.\n"_qs);
            arguments << u"--web.config.file"_qs << dir.filePath(u"web.yml"_qs);
        }
        Serve serve(arguments, {}, doing == u"in a handshake"_qs ? u"https"_qs : u"http"_qs);
        QVERIFY(serve.port() > 0);
        QTcpSocket client;
        client.connectToHost(QHostAddress::LocalHost, quint16(serve.port()));
        QVERIFY(client.waitForConnected(10000));
        if (doing == u"connecting"_qs)
            QTRY_VERIFY_WITH_TIMEOUT(silentDatabase.hasPendingConnections(), 10000);
        if (doing == u"backing off"_qs)
            QTRY_VERIFY_WITH_TIMEOUT(serve.err().contains(u"next try in"_qs), 20000);
        if (doing == u"checking a password"_qs) {
            client.write("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: "
                + basicAuthorization("bob", "bob123") + "\r\n\r\n");
            QVERIFY(client.waitForBytesWritten(10000));
        }
        if (doing == u"reading a request"_qs) {
            client.write("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n");
            QVERIFY(client.waitForBytesWritten(10000));
        }
        QCOMPARE(serve.stop(), 0);
        client.waitForDisconnected(10000);
        QCOMPARE(client.readAll(), QByteArray()); // stopped before any answer
        for (const QString &line : serve.err().split(u'\n', Qt::SkipEmptyParts))
            QVERIFY2(line.startsWith(u"outboxctl"_qs), qPrintable(serve.err()));
    }

    // The PostgreSQL server restarts: that outbox is down meanwhile, the SQLite one is not,
    // and it comes back without restarting `serve`.
    void healsAfterServerRestart()
    {
        const QString unavailable = TestServer::unavailableReason();
        if (!unavailable.isEmpty())
            QSKIP(qPrintable(unavailable));
        Serve serve(fleet() + QStringList {u"--interval"_qs, u"1"_qs});
        QVERIFY(serve.port() > 0);
        QTRY_COMPARE_WITH_TIMEOUT(
            up(get(serve.url(u"/metrics"_qs)).body, u"pg"_qs), u"1"_qs, 20000);
        QString error;
        QVERIFY2(TestServer::stop(&error), qPrintable(error));
        m_serverStopped = true;
        QString text;
        QTRY_COMPARE_WITH_TIMEOUT(
            up(text = get(serve.url(u"/metrics"_qs)).body, u"pg"_qs), u"0"_qs, 30000);
        QCOMPARE(up(text, u"lite"_qs), u"1"_qs);
        QVERIFY2(TestServer::start(&error), qPrintable(error));
        m_serverStopped = false;
        QTRY_COMPARE_WITH_TIMEOUT(
            up(text = get(serve.url(u"/metrics"_qs)).body, u"pg"_qs), u"1"_qs, 30000);
        QCOMPARE(dead(text, u"pg"_qs), u"14"_qs);
        QCOMPARE(serve.stop(), 0);
        QVERIFY2(serve.err().contains(u"pg is up again"_qs), qPrintable(serve.err()));
    }

    void badInputServesNothing_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        const QString lite = u"lite=sqlite:/tmp/never.sqlite"_qs;
        QTest::addRow("no outbox") << QStringList {} << u"at least one --outbox"_qs;
        QTest::addRow("no port") << QStringList {u"--listen"_qs, u"127.0.0.1"_qs, u"--outbox"_qs,
            lite} << u"--listen"_qs;
        QTest::addRow("host name") << QStringList {u"--listen"_qs, u"example.org:9640"_qs,
            u"--outbox"_qs, lite} << u"--listen"_qs;
        QTest::addRow("port too big") << QStringList {u"--listen"_qs, u"127.0.0.1:70000"_qs,
            u"--outbox"_qs, lite} << u"--listen"_qs;
        QTest::addRow("interval too short")
            << QStringList {u"--interval"_qs, u"0.5"_qs, u"--outbox"_qs, lite} << u"--interval"_qs;
        QTest::addRow("interval not a number")
            << QStringList {u"--interval"_qs, u"soon"_qs, u"--outbox"_qs, lite} << u"--interval"_qs;
        QTest::addRow("no name") << QStringList {u"--outbox"_qs, u"sqlite:/tmp/x.sqlite"_qs}
                                 << u"NAME=URL"_qs;
        QTest::addRow("bad name") << QStringList {u"--outbox"_qs, u"a b=sqlite:/tmp/x.sqlite"_qs}
                                  << u"outbox name 'a b'"_qs;
        QTest::addRow("bad URL") << QStringList {u"--outbox"_qs,
            u"shop=oracle://op:hunter2@db/shop"_qs}
                                 << u"shop"_qs;
        QTest::addRow("no such profile")
            << QStringList {u"--outbox"_qs, u"shop=sqlite:/tmp/x.sqlite;profile=nonesuch"_qs}
            << u"nonesuch"_qs;
        QTest::addRow("not a slot name")
            << QStringList {u"--outbox"_qs, u"shop=postgresql://op:hunter2@db/shop;cdc-slot=Dbz"_qs}
            << u"outbox shop: 'Dbz' is not a replication slot name"_qs;
        QTest::addRow("a slot on SQLite")
            << QStringList {u"--outbox"_qs, lite + u";cdc-slot=dbz"_qs}
            << u"outbox lite: ;cdc-slot=: replication slots are PostgreSQL's"_qs;
        QTest::addRow("named twice")
            << QStringList {u"--outbox"_qs, lite, u"--outbox"_qs, u"lite=sqlite:/tmp/y.sqlite"_qs}
            << u"lite is named twice"_qs;
        QTest::addRow("no such config")
            << QStringList {u"--config"_qs, u"/nonexistent/fleet.conf"_qs} << u"cannot read"_qs;
        QTest::addRow("no such web config") << QStringList {u"--outbox"_qs, lite,
            u"--web.config.file"_qs,
            u"/nonexistent/web.yml"_qs} << u"cannot read web config file /nonexistent/web.yml"_qs;
        QTest::addRow("a device as web config")
            << QStringList {u"--outbox"_qs, lite, u"--web.config.file"_qs, u"/dev/zero"_qs}
            << u"not a web config file"_qs;
        QTest::addRow("unknown option")
            << QStringList {u"--outbox"_qs, lite, u"--port"_qs, u"9"_qs} << u"port"_qs;
    }
    void badInputServesNothing()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        const Run run = outboxctl(QStringList {u"serve"_qs} + arguments);
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.out.isEmpty());
        QCOMPARE(run.err.size(), 1);
        QVERIFY2(run.err.constFirst().contains(message), qPrintable(run.err.constFirst()));
        QVERIFY(!run.err.constFirst().contains(u"hunter2"_qs));
    }

    // A fleet file: comments and blank lines skipped; a malformed line named by file and line,
    // without the password it holds; a name repeated between the file and --outbox refused.
    void configFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"fleet.conf"_qs);
        writeFile(path,
            u"# the shop's outboxes\n\npg = "_qs + m_pg->url() + u"\nlite="_qs + m_sqlite->url()
                + u";profile=native\n"_qs);
        {
            Serve serve({u"--config"_qs, path, u"--expose-db-url"_qs});
            QVERIFY(serve.port() > 0);
            QString text;
            QTRY_VERIFY_WITH_TIMEOUT(
                !dead(text = get(serve.url(u"/metrics"_qs)).body, u"pg"_qs).isEmpty()
                    && !dead(text, u"lite"_qs).isEmpty(),
                20000);
            QCOMPARE(dead(text, u"pg"_qs), u"14"_qs);
            QCOMPARE(dead(text, u"lite"_qs), u"5"_qs);
            const QString pgUrl = DatabaseUrl::parse(m_pg->url(), nullptr).toStorableString();
            QCOMPARE(
                sample(text, u"outbox_info{outbox=\"pg\",db=\""_qs + pgUrl + u"\"}"_qs), u"1"_qs);
        }
        const Run twice = outboxctl(
            {u"serve"_qs, u"--config"_qs, path, u"--outbox"_qs, u"pg=sqlite:/tmp/other.sqlite"_qs});
        QCOMPARE(twice.exitCode, 2);
        QVERIFY2(twice.err.constFirst().contains(u"pg is named twice"_qs),
            qPrintable(twice.err.constFirst()));

        writeFile(path, u"ok=sqlite:/tmp/x.sqlite\nshop postgresql://op:hunter2@db/shop\n"_qs);
        // A password in a file others may read is refused, as libpq refuses such a ~/.pgpass.
        QVERIFY(QFile::setPermissions(
            path, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup));
        const Run exposed = outboxctl({u"serve"_qs, u"--config"_qs, path});
        QCOMPARE(exposed.exitCode, 2);
        QVERIFY(exposed.out.isEmpty());
        QCOMPARE(exposed.err,
            QStringList {
                u"outboxctl: serve: fleet file %1 holds a password and has group or world access; permissions should be u=rw (0600) or less (libpq refuses such a ~/.pgpass too)"_qs
                    .arg(path)});
        QVERIFY(QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner));
        const Run bad = outboxctl({u"serve"_qs, u"--config"_qs, path});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY(bad.out.isEmpty());
        QCOMPARE(bad.err.size(), 1);
        QVERIFY2(bad.err.constFirst().contains(path + u":2:"_qs), qPrintable(bad.err.constFirst()));
        QVERIFY(!bad.err.constFirst().contains(u"hunter2"_qs));
    }

    // What stands at a fleet file's or a profile's path cannot block, exhaust or crash serve:
    // each is refused at once, in one line, with nothing served.
    void hostileFilesServeNothing_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("message");
        QTest::addRow("--config /dev/zero")
            << u"config:/dev/zero"_qs
            << u"not a fleet file: /dev/zero is a character device, not a file"_qs;
        QTest::addRow("--config a FIFO") << u"config:fifo"_qs << u"is a FIFO, not a file"_qs;
        QTest::addRow("--config a directory")
            << u"config:dir"_qs << u"is a directory, not a file"_qs;
        QTest::addRow("--config over 1 MiB") << u"config:big"_qs << u"is larger than 1 MiB"_qs;
        QTest::addRow(";profile=/dev/zero")
            << u"profile:/dev/zero"_qs
            << u"not a profile: /dev/zero is a character device, not a file"_qs;
        QTest::addRow(";profile= a FIFO") << u"profile:fifo"_qs << u"is a FIFO, not a file"_qs;
        QTest::addRow(";profile= over 256 KiB")
            << u"profile:big"_qs << u"is larger than 256 KiB"_qs;
        QTest::addRow("1,001 outboxes") << u"outboxes:1001"_qs << u"more than 1000 outboxes"_qs;
    }
    void hostileFilesServeNothing()
    {
        QFETCH(QString, kind);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString what = kind.section(QLatin1Char(':'), 1);
        const QString path = HostileFile::make(dir, what);
        QVERIFY(!path.isEmpty());
        QStringList arguments {u"serve"_qs};
        if (kind.startsWith(u"config:"_qs)) {
            arguments << u"--config"_qs << path;
        } else if (kind.startsWith(u"profile:"_qs)) {
            arguments << u"--outbox"_qs << u"lite=sqlite:/tmp/never.sqlite;profile="_qs + path;
        } else {
            for (int i = 0; i < what.toInt(); ++i)
                arguments << u"--outbox"_qs << u"o%1=sqlite:/tmp/never.sqlite"_qs.arg(i);
        }
        const Run run = outboxctl(arguments);
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.out.isEmpty());
        QCOMPARE(run.err.size(), 1);
        QVERIFY2(run.err.constFirst().contains(message), qPrintable(run.err.constFirst()));
    }

    void portInUse()
    {
        QTcpServer taken;
        QVERIFY(taken.listen(QHostAddress::LocalHost));
        const Run run = outboxctl(
            {u"serve"_qs, u"--listen"_qs, QStringLiteral("127.0.0.1:%1").arg(taken.serverPort()),
                u"--outbox"_qs, u"pg="_qs + m_pg->url()});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.out.isEmpty());
        QCOMPARE(run.err.size(), 1);
        QVERIFY2(run.err.constFirst().contains(u"cannot listen on 127.0.0.1:"_qs),
            qPrintable(run.err.constFirst()));
    }

    // serve raises its soft descriptor limit to the hard one (as exporters written in Go do);
    // when even the hard one leaves room for the outboxes but not for a few scrapes, one line on
    // stderr names the numbers and ulimit -n, and serve still answers.
    void descriptorLimit_data()
    {
        QTest::addColumn<QString>("ulimit");
        QTest::addColumn<QString>("softLimit"); // as /proc/PID/limits shows it
        QTest::addColumn<QString>("warning");
        rlimit own {};
        QVERIFY(getrlimit(RLIMIT_NOFILE, &own) == 0);
        const QString hard
            = own.rlim_max == RLIM_INFINITY ? u"unlimited"_qs : QString::number(own.rlim_max);
        if (own.rlim_max != RLIM_INFINITY && own.rlim_max < 128)
            QSKIP("the hard descriptor limit is too low to raise a soft one of 40 past it");
        QTest::addRow("soft limit low, hard high: raised") << u"-Sn 40"_qs << hard << QString();
        QTest::addRow("hard limit low: a warning")
            << u"-n 66"_qs << u"66"_qs
            << u"outboxctl serve: too few file descriptors: the limit (ulimit -n) is 66, 10 "
               "outbox(es) need about 64 (24 + 4 each) and HTTP clients at least 4 more; serving "
               "anyway with at most 4 connections, but scrapes may fail: raise it to 128 or more "
               "(ulimit -n 128, or LimitNOFILE= in a systemd unit)"_qs;
    }
    // A limit under what the outboxes' pollers need is refused at start, with the numbers:
    // serving anyway ended in an abort once a poller's thread could not open its descriptors.
    void descriptorLimitUnderThePollersRefuses()
    {
        QStringList outboxes;
        for (int i = 0; i < 10; ++i)
            outboxes << u"--outbox"_qs << u"lite%1="_qs.arg(i) + m_sqlite->url();
        Serve serve(outboxes, u"-n 40"_qs);
        QCOMPARE(serve.port(), 0);
        QCOMPARE(serve.stop(), 2);
        QCOMPARE(serve.err().trimmed(),
            u"outboxctl: serve: too few file descriptors: the limit (ulimit -n) is 40, 10 "
            "outbox(es) need about 64 (24 + 4 each) and HTTP clients at least 4 more; not "
            "started, as a poller without its descriptors stops the process: raise it to 128 or "
            "more (ulimit -n 128, or LimitNOFILE= in a systemd unit)"_qs);
        QVERIFY(serve.out().isEmpty());
    }
    void descriptorLimit()
    {
        QFETCH(QString, ulimit);
        QFETCH(QString, softLimit);
        QFETCH(QString, warning);
        QStringList outboxes;
        for (int i = 0; i < 10; ++i)
            outboxes << u"--outbox"_qs << u"lite%1="_qs.arg(i) + m_sqlite->url();
        Serve serve(outboxes, ulimit);
        QVERIFY(serve.port() > 0);
        QCOMPARE(maxOpenFiles(serve.pid()), softLimit);
        QCOMPARE(get(serve.url(u"/healthz"_qs)).status, 200);
        if (warning.isEmpty())
            QVERIFY2(!serve.err().contains(u"descriptor"_qs), qPrintable(serve.err()));
        else
            QTRY_VERIFY2(serve.err().split(u'\n').count(warning) == 1, qPrintable(serve.err()));
        QCOMPARE(serve.stop(), 0);
    }

    void cleanup()
    {
        QString error;
        if (m_serverStopped && !TestServer::start(&error))
            qWarning("could not restart the server: %s", qPrintable(error));
        m_serverStopped = false;
    }

private:
    // The soft "Max open files" of a process.
    static QString maxOpenFiles(qint64 pid)
    {
        QFile limits(QStringLiteral("/proc/%1/limits").arg(pid));
        if (!limits.open(QIODevice::ReadOnly))
            return {};
        for (const QByteArray &line : limits.readAll().split('\n')) {
            if (line.startsWith("Max open files"))
                return QString::fromLatin1(line.mid(14).simplified().split(' ').constFirst());
        }
        return {};
    }
    QStringList fleet() const
    {
        return {
            u"--outbox"_qs, u"pg="_qs + m_pg->url(), u"--outbox"_qs, u"lite="_qs + m_sqlite->url()};
    }
    static void writeFile(const QString &path, const QString &text)
    {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(text.toUtf8());
    }

    std::unique_ptr<TestDatabase> m_pg;
    std::unique_ptr<TestDatabase> m_sqlite;
    bool m_serverStopped = false;
};

OUTBOX_TEST_MAIN(TestOutboxctlServe, QCoreApplication)
#include "tst_outboxctl_serve.moc"
