// The attacks that made `outboxctl serve` on Qt HTTP Server buffer gigabytes or lock Prometheus
// out, replayed on loopback against the real binary serving a SQLite outbox: 20,000 pipelined
// scrapes never read, a 500 MB POST, a 50 MB header, 500,000 headers, 200 slowloris
// connections, and 80 idle clients under `ulimit -n 64`. While each runs, a well-behaved client
// keeps getting /metrics (200, with the outbox's figures); serve's resident memory stays within
// 64 MiB of its idle figure, and with the idle clients it does not spin on the CPU.
#include "outboxrows.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTimer>
#include <algorithm>
#include <memory>
#include <unistd.h>

namespace {

constexpr qint64 MiB = 1024 * 1024;
constexpr qint64 RssBoundKiB = 64 * 1024; // over the idle figure
constexpr int AttackMs = 3000; // how long the well-behaved client scrapes during an attack
// The exporter-toolkit's dave: a bcrypt hash of cost 10, as htpasswd -nBC 10 makes them.
constexpr char ScrapeHash[] = "$2y$10$2UXri9cIDdgeKjBo4Rlpx.U3ZLDV8X1IxKmsfOvhcM5oXQt/mLmXq";
constexpr char ScrapePassword[] = "dave123";
constexpr int FloodScrapes = 10; // after the start, and again after a change of users
constexpr int FloodScrapeBoundMs = 5000; // half of Prometheus's default scrape timeout

// `outboxctl serve --listen 127.0.0.1:0 ...`, optionally under a descriptor limit; its port is
// read from the line it prints once it listens. Terminated when it goes out of scope.
class Serve
{
public:
    Serve(const QString &outboxUrl, int descriptorLimit, const QStringList &more = {})
    {
        const QStringList serve
            = QStringList {qEnvironmentVariable("OUTBOXCTL"), u"serve"_qs, u"--listen"_qs,
                  u"127.0.0.1:0"_qs, u"--outbox"_qs, u"lite="_qs + outboxUrl}
            + more;
        if (descriptorLimit > 0)
            m_process.start(u"sh"_qs,
                QStringList {u"-c"_qs,
                    QStringLiteral("ulimit -n %1 && exec \"$0\" \"$@\"").arg(descriptorLimit)}
                    + serve);
        else
            m_process.start(serve.constFirst(), serve.mid(1));
        static const QRegularExpression listening(u"on http://127\\.0\\.0\\.1:(\\d+)/metrics"_qs);
        QElapsedTimer timer;
        timer.start();
        QString out;
        while (m_port == 0 && timer.elapsed() < 30000 && m_process.state() != QProcess::NotRunning
            && m_process.waitForReadyRead(1000)) {
            out += QString::fromUtf8(m_process.readAllStandardOutput());
            const QRegularExpressionMatch match = listening.match(out);
            if (match.hasMatch())
                m_port = quint16(match.captured(1).toUInt());
        }
    }
    ~Serve()
    {
        m_process.terminate();
        if (!m_process.waitForFinished(20000))
            m_process.kill();
        m_process.waitForFinished();
    }
    quint16 port() const { return m_port; }
    qint64 pid() const { return m_process.processId(); }
    bool running() const { return m_process.state() == QProcess::Running; }
    // Everything it wrote on stderr so far.
    QString err()
    {
        m_err += QString::fromUtf8(m_process.readAllStandardError());
        return m_err;
    }

private:
    QProcess m_process;
    QString m_err;
    quint16 m_port = 0;
};

qint64 rssKiB(qint64 pid)
{
    QFile status(QStringLiteral("/proc/%1/status").arg(pid));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').constFirst().toLongLong();
    }
    return -1;
}

// The process's TCP connections (its sockets that are not listening): an attacker that never
// reads would not notice serve closing its connection, but serve's descriptors show it. Counted
// as the socket inodes of /proc/PID/fd that /proc/PID/net/tcp and tcp6 list in a state other
// than LISTEN (0A).
int openConnections(qint64 pid)
{
    const QString folder = QStringLiteral("/proc/%1/fd/").arg(pid);
    QSet<QByteArray> inodes;
    for (const QString &fd : QDir(folder).entryList(QDir::System | QDir::NoDotAndDotDot)) {
        char target[64] = {};
        const QByteArray path = QFile::encodeName(folder + fd);
        const QByteArray link = readlink(path.constData(), target, sizeof target - 1) > 0
            ? QByteArray(target)
            : QByteArray();
        if (link.startsWith("socket:[") && link.endsWith(']'))
            inodes.insert(link.mid(8, link.size() - 9));
    }
    int connections = 0;
    for (const char *table : {"tcp", "tcp6"}) {
        QFile file(QStringLiteral("/proc/%1/net/%2").arg(pid).arg(QLatin1String(table)));
        if (!file.open(QIODevice::ReadOnly))
            continue;
        file.readLine(); // the header
        while (!file.atEnd()) {
            const QList<QByteArray> fields = file.readLine().simplified().split(' ');
            if (fields.size() > 9 && fields.at(3) != "0A" && inodes.contains(fields.at(9)))
                ++connections;
        }
    }
    return connections;
}

// utime + stime, in clock ticks.
qint64 cpuTicks(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray text = stat.readAll();
    const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
    return fields.value(11).toLongLong() + fields.value(12).toLongLong(); // fields 14 and 15
}

// One hostile connection that never reads: sends `head`, then `fill` over and over until
// `total` bytes went out, keeping at most 1 MiB of its own unsent.
class Attacker : public QObject
{
public:
    Attacker(quint16 port, QByteArray head, const QByteArray &fill, qint64 total)
        : m_next(std::move(head))
        , m_total(total)
    {
        while (!fill.isEmpty() && m_fill.size() < 64 * 1024)
            m_fill += fill;
        m_socket.setReadBufferSize(1);
        connect(&m_socket, &QTcpSocket::connected, this, &Attacker::feed);
        connect(&m_socket, &QTcpSocket::bytesWritten, this, &Attacker::feed);
        connect(&m_socket, &QTcpSocket::disconnected, this, [this] { m_closed = true; });
        m_socket.connectToHost(QHostAddress::LocalHost, port);
    }
    bool closed() const
    {
        return m_closed || m_socket.state() == QAbstractSocket::UnconnectedState;
    }
    // Connected, or already closed again.
    bool settled() const { return closed() || m_socket.state() == QAbstractSocket::ConnectedState; }
    void send(const QByteArray &bytes)
    {
        if (m_socket.state() == QAbstractSocket::ConnectedState)
            m_socket.write(bytes);
    }

private:
    void feed()
    {
        while (m_socket.state() == QAbstractSocket::ConnectedState && m_sent < m_total
            && m_socket.bytesToWrite() < MiB) {
            const QByteArray chunk = m_next.isEmpty() ? m_fill.left(m_total - m_sent) : m_next;
            m_next.clear();
            m_sent += m_socket.write(chunk);
        }
    }

    QTcpSocket m_socket;
    QByteArray m_next;
    QByteArray m_fill;
    qint64 m_total;
    qint64 m_sent = 0;
    bool m_closed = false;
};

// One connection from a loopback address of its choice that asks for /metrics with a wrong
// password again as soon as it has the answer (keep-alive; connecting again when closed), and
// counts the answers by status.
class WrongPasswordLoop : public QObject
{
public:
    WrongPasswordLoop(quint16 port, QHostAddress from, QByteArray authorization)
        : m_port(port)
        , m_from(std::move(from))
        , m_request("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: " + authorization
              + "\r\n\r\n")
    {
        connect(&m_socket, &QTcpSocket::connected, this, [this] { m_socket.write(m_request); });
        connect(&m_socket, &QTcpSocket::readyRead, this, &WrongPasswordLoop::read);
        connect(&m_socket, &QTcpSocket::disconnected, this, &WrongPasswordLoop::open,
            Qt::QueuedConnection);
        open();
    }
    int answers(int status) const { return m_answers.value(status); }

private:
    void open()
    {
        m_buffer.clear();
        m_socket.abort();
        if (m_socket.bind(m_from))
            m_socket.connectToHost(QHostAddress::LocalHost, m_port);
    }
    void read()
    {
        m_buffer += m_socket.readAll();
        for (;;) {
            const qsizetype end = m_buffer.indexOf("\r\n\r\n");
            static const QRegularExpression length(
                u"\r\nContent-Length: (\\d+)\r\n"_qs, QRegularExpression::CaseInsensitiveOption);
            const auto match = length.match(QString::fromLatin1(m_buffer.left(end + 2)));
            if (end < 0 || !match.hasMatch()
                || m_buffer.size() < end + 4 + match.captured(1).toInt())
                return;
            ++m_answers[m_buffer.mid(9, 3).toInt()];
            m_buffer.remove(0, end + 4 + match.captured(1).toInt());
            m_socket.write(m_request);
        }
    }

    QTcpSocket m_socket;
    quint16 m_port;
    QHostAddress m_from;
    QByteArray m_request;
    QByteArray m_buffer;
    QHash<int, int> m_answers;
};

struct Scrape
{
    int status = 0;
    QString body;
};

QByteArray basic(const QByteArray &user, const QByteArray &password)
{
    return "Basic " + QByteArray(user + ':' + password).toBase64();
}

// A web config whose users scraper<first> ... scraper<first + count - 1> all have ScrapeHash;
// written beside and renamed over, as editors save.
bool writeUsers(const QString &path, int first, int count)
{
    QByteArray yaml = "basic_auth_users:\n";
    for (int i = first; i < first + count; ++i)
        yaml += "  scraper" + QByteArray::number(i) + ": " + ScrapeHash + "\n";
    QFile out(path + u".new"_qs);
    if (!out.open(QIODevice::WriteOnly) || out.write(yaml) != yaml.size())
        return false;
    out.close();
    QFile::remove(path);
    return QFile::rename(path + u".new"_qs, path);
}

Scrape scrape(quint16 port, const QByteArray &authorization = {})
{
    QNetworkAccessManager manager;
    QNetworkRequest request(QUrl(QStringLiteral("http://127.0.0.1:%1/metrics").arg(port)));
    if (!authorization.isEmpty())
        request.setRawHeader("Authorization", authorization);
    QNetworkReply *reply = manager.get(request);
    reply->setParent(&manager);
    if (!reply->isFinished())
        QSignalSpy(reply, &QNetworkReply::finished).wait(5000);
    return {reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(),
        QString::fromUtf8(reply->readAll())};
}

bool hasOutbox(const Scrape &answer)
{
    return answer.status == 200 && answer.body.contains(u"outbox_up{outbox=\"lite\"} 1\n"_qs)
        && answer.body.contains(u"outbox_events{outbox=\"lite\",state=\"dead\"} 5\n"_qs);
}

// Peak resident memory of a process, sampled every 20 ms while it lives.
class RssPeak
{
public:
    explicit RssPeak(qint64 pid)
    {
        QObject::connect(&m_timer, &QTimer::timeout, [this, pid] { sample(pid); });
        m_timer.start(20);
        sample(pid);
    }
    qint64 kib() const { return m_peak; }

private:
    void sample(qint64 pid) { m_peak = std::max(m_peak, rssKiB(pid)); }
    QTimer m_timer;
    qint64 m_peak = 0;
};

} // namespace

class TestServeAttack : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QString skip, fail;
        m_outbox = TestDatabase::create(u"sqlite"_qs, &skip, &fail);
        QVERIFY2(m_outbox, qPrintable(fail + skip));
        const auto db = m_outbox->initialise();
        QVERIFY(db);
        for (int i = 0; i < 5; ++i) {
            OutboxRow row;
            row.id = u"D-"_qs + QString::number(i);
            row.status = u"DEAD"_qs;
            row.failures = 3;
            QVERIFY(insertRow(db->database(), row));
        }
        m_serve = std::make_unique<Serve>(m_outbox->url(), 0);
        QVERIFY(m_serve->port() > 0);
        QTRY_VERIFY_WITH_TIMEOUT(hasOutbox(scrape(m_serve->port())), 20000);
        for (int i = 0; i < 20; ++i)
            QVERIFY(hasOutbox(scrape(m_serve->port())));
        m_idleKiB = rssKiB(m_serve->pid());
        // The readiness scrapes' connections closed: serve idles with its listener alone.
        QTRY_COMPARE_WITH_TIMEOUT(openConnections(m_serve->pid()), 0, 15000);
        QVERIFY(m_idleKiB > 0);
        qInfo("idle: %lld KiB resident", m_idleKiB);
    }

    void pipelinedFloodNeverRead()
    {
        QByteArray flood;
        for (int i = 0; i < 20000; ++i)
            flood += "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
        attack([&](quint16 port) {
            m_attackers.push_back(std::make_unique<Attacker>(port, flood, "", flood.size()));
        });
        allClosed(); // it takes nothing: the idle timeout closes it
    }

    void hugePost()
    {
        attack([&](quint16 port) {
            m_attackers.push_back(std::make_unique<Attacker>(port,
                "POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 500000000\r\n\r\n", "x",
                500 * 1000 * 1000));
        });
        allClosed(); // 413, then closed
    }

    void hugeHeader()
    {
        attack([&](quint16 port) {
            m_attackers.push_back(
                std::make_unique<Attacker>(port, "GET / HTTP/1.1\r\nX-Big: ", "a", 50 * MiB));
        });
        allClosed(); // 431, then closed
    }

    void manyHeaders()
    {
        attack([&](quint16 port) {
            m_attackers.push_back(
                std::make_unique<Attacker>(port, "GET / HTTP/1.1\r\n", "X-A: 1\r\n", 500000 * 8));
        });
        allClosed(); // 431, then closed
    }

    // Each sends a little of its head every 500 ms and never finishes it: serve closes them
    // (idle timeout, or to make room), and the scrapes get through meanwhile.
    void slowloris()
    {
        QTimer drip;
        attack([&](quint16 port) {
            for (int i = 0; i < 200; ++i)
                m_attackers.push_back(
                    std::make_unique<Attacker>(port, "GET / HTTP/1.1\r\nHost: x\r\n", "", 0));
            QObject::connect(&drip, &QTimer::timeout, [this] {
                for (const auto &attacker : m_attackers)
                    attacker->send("X-Slow: 1\r\n");
            });
            drip.start(500);
        });
        QTRY_VERIFY_WITH_TIMEOUT(std::all_of(m_attackers.cbegin(), m_attackers.cend(),
                                     [](const auto &attacker) { return attacker->closed(); }),
            15000);
        allClosed();
    }

    // 80 clients that connect and say nothing, against a serve with 64 descriptors: a scrape
    // is served while they are connected, and serve waits, not spinning, until the idle
    // timeout closes them.
    void idleClientsUnderLowDescriptorLimit()
    {
        Serve serve(m_outbox->url(), 64);
        QVERIFY(serve.port() > 0);
        QTRY_VERIFY_WITH_TIMEOUT(hasOutbox(scrape(serve.port())), 20000);
        for (int i = 0; i < 80; ++i)
            m_attackers.push_back(std::make_unique<Attacker>(serve.port(), "", "", 0));
        QTRY_VERIFY(std::all_of(m_attackers.cbegin(), m_attackers.cend(),
            [](const auto &attacker) { return attacker->settled(); }));
        const qint64 ticksBefore = cpuTicks(serve.pid());
        QElapsedTimer timer;
        timer.start();
        QVERIFY2(hasOutbox(scrape(serve.port())), "a scrape failed under the idle clients");
        QTRY_VERIFY_WITH_TIMEOUT(std::all_of(m_attackers.cbegin(), m_attackers.cend(),
                                     [](const auto &attacker) { return attacker->closed(); }),
            15000);
        const qint64 ticks = cpuTicks(serve.pid()) - ticksBefore;
        const double share = double(ticks) / double(sysconf(_SC_CLK_TCK)) * 1000 / timer.elapsed();
        qInfo("80 idle clients, ulimit -n 64: all closed after %lld ms, serve used %.1f%% of a "
              "core meanwhile",
            timer.elapsed(), share * 100);
        QVERIFY2(share < 0.1, qPrintable(QString::number(share)));
        QVERIFY(hasOutbox(scrape(serve.port())));
        QVERIFY(serve.running());
        const QString err = serve.err();
        QVERIFY2(err.isEmpty(), qPrintable(err));
    }

    // 24 connections looping wrong passwords (for a user that exists and for ones that do
    // not), from other addresses or from the scraper's own; meanwhile the scraper asks with
    // the right password as users nobody used yet (so no answer comes from the cache), right
    // after serve started and again right after a change of users: each is answered within
    // FloodScrapeBoundMs, and at least 90% with the outbox's figures.
    void wrongPasswordFlood_data()
    {
        QTest::addColumn<int>("connections");
        QTest::addColumn<int>("addresses"); // 0: the scraper's own, 127.0.0.1
        QTest::addRow("24 connections from 4 other addresses") << 24 << 4;
        QTest::addRow("24 connections from the scraper's own address") << 24 << 0;
        // More than serve's cap of 64 connections, all waiting for their checks.
        QTest::addRow("80 connections from 4 other addresses") << 80 << 4;
    }

    void wrongPasswordFlood()
    {
        QFETCH(int, connections);
        QFETCH(int, addresses);
        QTemporaryDir dir;
        const QString config = dir.filePath(u"web.yml"_qs);
        QVERIFY(writeUsers(config, 1, FloodScrapes));
        Serve serve(m_outbox->url(), 0, {u"--web.config.file"_qs, config});
        QVERIFY(serve.port() > 0);
        std::vector<std::unique_ptr<WrongPasswordLoop>> flood;
        for (int i = 0; i < connections; ++i) {
            const QByteArray user = i % 2 ? "scraper1"_qba : "nobody" + QByteArray::number(i);
            const QString from
                = addresses ? QStringLiteral("127.0.0.%1").arg(2 + i % addresses) : u"127.0.0.1"_qs;
            flood.push_back(std::make_unique<WrongPasswordLoop>(
                serve.port(), QHostAddress(from), basic(user, "wrong")));
        }
        const auto answered = [&flood](int status) {
            int count = 0;
            for (const auto &loop : flood)
                count += loop->answers(status);
            return count;
        };
        QTRY_VERIFY_WITH_TIMEOUT(answered(401) > 24, 20000); // flooding
        const qint64 ticksBefore = cpuTicks(serve.pid());
        QElapsedTimer timer;
        timer.start();
        qint64 slowestMs = 0;
        int served = scrapeAsNewUsers(serve.port(), 1, &slowestMs);
        QVERIFY(writeUsers(config, 1 + FloodScrapes, FloodScrapes));
        QTRY_VERIFY_WITH_TIMEOUT(serve.err().contains(u"read again: now in use"_qs), 10000);
        served += scrapeAsNewUsers(serve.port(), 1 + FloodScrapes, &slowestMs);
        const double cpu = double(cpuTicks(serve.pid()) - ticksBefore) / sysconf(_SC_CLK_TCK);
        qInfo("%s: %d of %d scrapes served in %lld ms (the slowest in %lld ms); the flood got "
              "%d x 401, %d x 503; serve used %.1f s of CPU",
            QTest::currentDataTag(), served, 2 * FloodScrapes, timer.elapsed(), slowestMs,
            answered(401), answered(503), cpu);
        QVERIFY2(served >= 2 * FloodScrapes * 9 / 10, qPrintable(QString::number(served)));
        QVERIFY(serve.running());
    }

    void cleanup() { m_attackers.clear(); }
    void cleanupTestCase()
    {
        if (m_serve) {
            const QString err = m_serve->err();
            QVERIFY2(err.isEmpty(), qPrintable(err)); // the outbox never down, no warnings
        }
        m_serve.reset();
    }

private:
    // Starts the attack, scrapes for AttackMs (every answer must be complete) while serve's
    // resident memory is sampled, and checks its peak.
    template <typename Start> void attack(Start start)
    {
        QVERIFY(m_serve->running());
        RssPeak peak(m_serve->pid());
        start(m_serve->port());
        QElapsedTimer timer;
        timer.start();
        int scrapes = 0;
        while (timer.elapsed() < AttackMs) {
            const Scrape answer = scrape(m_serve->port());
            QVERIFY2(hasOutbox(answer),
                qPrintable(QStringLiteral("scrape %1 during the attack: status %2")
                               .arg(scrapes)
                               .arg(answer.status)));
            ++scrapes;
        }
        qInfo("%s: %d scrapes in %lld ms; serve's peak %lld KiB resident (idle %lld KiB)",
            QTest::currentTestFunction(), scrapes, timer.elapsed(), peak.kib(), m_idleKiB);
        QVERIFY2(peak.kib() <= m_idleKiB + RssBoundKiB,
            qPrintable(QStringLiteral("%1 KiB").arg(peak.kib())));
        QVERIFY(m_serve->running());
    }

    // FloodScrapes scrapes, as scraper<first> and the next users: how many were answered with
    // the outbox's figures within FloodScrapeBoundMs.
    int scrapeAsNewUsers(quint16 port, int first, qint64 *slowestMs)
    {
        int served = 0;
        for (int i = first; i < first + FloodScrapes; ++i) {
            QElapsedTimer took;
            took.start();
            const Scrape answer
                = scrape(port, basic("scraper" + QByteArray::number(i), ScrapePassword));
            const bool inTime = took.elapsed() <= FloodScrapeBoundMs;
            *slowestMs = std::max(*slowestMs, took.elapsed());
            if (hasOutbox(answer) && inTime)
                ++served;
            else
                qInfo("scrape as scraper%d: status %d after %lld ms", i, answer.status,
                    took.elapsed());
        }
        return served;
    }

    // serve is back to no connection: the attack's connections are closed.
    void allClosed() { QTRY_COMPARE_WITH_TIMEOUT(openConnections(m_serve->pid()), 0, 15000); }

    std::unique_ptr<TestDatabase> m_outbox;
    std::unique_ptr<Serve> m_serve;
    qint64 m_idleKiB = 0;
    std::vector<std::unique_ptr<Attacker>> m_attackers;
};

OUTBOX_TEST_MAIN(TestServeAttack, QCoreApplication)
#include "tst_serve_attack.moc"
