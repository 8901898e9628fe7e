// `outboxctl serve --web.config.file`, without the program: the exporter-toolkit's own test
// vectors for good and bad files and for users (their hashes and passwords, the CVE-2022-46146
// regression), the cache of successful checks, the gate in front of a handler (401, the check
// off the serving thread, reload on change keeping the old settings on a bad file), and real
// TLS handshakes on loopback for each client_auth_type, and silent clients that never start
// their handshake against a small connection cap. Certificates: tests/fixtures/tls.
#include "basicauth.h"
#include "fairqueue.h"
#include "testdata.h"
#include "testmain.h"
#include "tlslistener.h"
#include "webconfig.h"
#include "webgate.h"

#include <QElapsedTimer>
#include <QFile>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QSslCipher>
#include <QSslKey>
#include <QSslSocket>
#include <QTemporaryDir>
#include <arpa/inet.h>
#include <atomic>
#include <deque>
#include <netinet/in.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

namespace {

// The exporter-toolkit's web/testdata/web_config_users_noTLS.good.yml: alice123, bob123,
// carol123 and dave123 (costs 12, 14, 10, 10).
const QByteArray ToolkitUsers
    = "basic_auth_users:\n"
      "  alice: $2y$12$1DpfPeqF9HzHJt.EWswy1exHluGfbhnn3yXhR7Xes6m3WJqFg0Wby\n"
      "  bob: $2y$14$y7HJ017Lo/wKPDdzdHahNevjaqE.WRk3iKVLLt1yKO7RtIrNbvy6.\n"
      "  carol: $2y$10$qRTBuFoULoYNA7AQ/F3ck.trZBPyjV64.oA4ZsSBCIWvXuvQlQTuu\n"
      "  dave: $2y$10$2UXri9cIDdgeKjBo4Rlpx.U3ZLDV8X1IxKmsfOvhcM5oXQt/mLmXq\n";
const QByteArray AliceHash = "$2y$12$1DpfPeqF9HzHJt.EWswy1exHluGfbhnn3yXhR7Xes6m3WJqFg0Wby";
// htpasswd -nbBC 4: cheap hashes for the tests that check many times.
const QByteArray ScrapeHash = "$2y$04$1lRTCST5Ij3KQQ40QBrrUuI/li/Hd8nN2HnjOGmHGJGr6oITR.B/e";
const QByteArray ScrapePassword = "scrape-secret";
const QByteArray AliceSecretHash = "$2y$05$UDhn6RhJ/noGYyEK.Q4gmOFG9rjiDuBX07M3vDbK5wFE/3mtKvP2y";

const QByteArray TlsFiles = "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n";

QHash<QByteArray, QByteArray> usersOfTheToolkit()
{
    QString error;
    const auto config = WebConfig::parse(ToolkitUsers, {}, &error);
    return config ? config->users : QHash<QByteArray, QByteArray>();
}

QByteArray basic(const QByteArray &user, const QByteArray &password)
{
    return "Basic " + QByteArray(user + ':' + password).toBase64();
}

HttpRequest requestWith(const QByteArray &authorization)
{
    HttpRequest request;
    request.method = "GET";
    request.path = "/metrics";
    if (!authorization.isEmpty())
        request.headers.append({"authorization", authorization});
    return request;
}

QByteArray headerOf(const HttpResponse &response, const QByteArray &name)
{
    for (const auto &[key, value] : response.headers) {
        if (key == name)
            return value;
    }
    return {};
}

QByteArray fixture(const QString &name)
{
    QFile file(TestData::path(u"fixtures/tls/"_qs + name));
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

QSslConfiguration trustingTheTestCa()
{
    QSslConfiguration ssl = QSslConfiguration::defaultConfiguration();
    ssl.setCaCertificates(QSslCertificate::fromData(fixture(u"ca.crt"_qs)));
    return ssl;
}

// True when client's handshake with 127.0.0.1:port succeeds, false when the server ends it.
bool handshake(QSslSocket *client, quint16 port)
{
    client->connectToHostEncrypted(u"127.0.0.1"_qs, port);
    const bool settled = QTest::qWaitFor(
        [client] {
            return client->isEncrypted() || client->state() == QAbstractSocket::UnconnectedState;
        },
        10000);
    return settled && client->isEncrypted();
}

// One HTTPS GET on a connection of its own; true when a 200 came back within 10 s.
bool scrapeOverTls(quint16 port)
{
    QSslSocket scraper;
    scraper.setSslConfiguration(trustingTheTestCa());
    QByteArray answer;
    QObject::connect(&scraper, &QSslSocket::encrypted, [&scraper] {
        scraper.write("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
    });
    QObject::connect(&scraper, &QSslSocket::readyRead, [&] { answer += scraper.readAll(); });
    scraper.connectToHostEncrypted(u"127.0.0.1"_qs, port);
    return QTest::qWaitFor([&answer] { return answer.startsWith("HTTP/1.1 200 OK\r\n"); }, 10000);
}

// Until stop: connects to 127.0.0.1:port and says nothing, keeping 32 connections open (the
// oldest closed for each new one), about one connect every 5 ms, at most 100,000.
void churnConnections(quint16 port, const std::atomic<bool> *stop, std::atomic<int> *connects)
{
    sockaddr_in address {};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    std::deque<int> open;
    while (!*stop && *connects < 100000) {
        const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd >= 0 && ::connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0)
            ++*connects;
        open.push_back(fd);
        if (open.size() > 32) {
            ::close(open.front());
            open.pop_front();
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5)); // a pace, not a wait
    }
    for (const int fd : open)
        ::close(fd);
}
} // namespace

class TestWebConfig : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void goodFiles_data();
    void goodFiles();
    void badFiles_data();
    void badFiles();
    void pathsAreTakenFromTheFilesFolder();
    void cipherSuitesMapToOpenSsl();
    void shippedExampleIsValid();
    void toolkitUsers_data();
    void toolkitUsers();
    void craftedUserNameCannotShareACacheKey();
    void onlySuccessfulChecksAreCached();
    void theCacheIsBounded();
    void unknownUsersAreCheckedAgainstADecoyOfTheUsualCost();
    void credentials_data();
    void credentials();
    void gateAsksForAPassword();
    void gateChecksOffTheServingThread();
    void gateAnswersACachedCheckAtOnce();
    void checksAreTakenInTurnByPeer();
    void aPeerThatFailedIsPassedOver();
    void aConnectionThatFailedWaitsBehindItsPeer();
    void aFullQueueRefusesOnlyThePeerHoldingTheMost();
    void pausesAreRememberedForBoundedPeers();
    void peersAreAddressesAndIpv6Slash64s();
    void gateRefusesOnlyThePeerOverItsBound();
    void reloadOnChangeKeepsTheOldSettingsOnABadFile();
    void reloadSendsNewHeaders();
    void clientAuthTypes_data();
    void clientAuthTypes();
    void tls12SuitesWithoutForwardSecrecyAreRefused_data();
    void tls12SuitesWithoutForwardSecrecyAreRefused();
    void keyOfAnotherCertificateIsRefused();
    void reloadedCertificateWithoutItsKeyKeepsTheOldPair();
    void silentHandshakesDoNotLockOutAScrape();
    void handshakeChurnCostsNoScrape();

private:
    QString write(const QByteArray &yaml, const QString &name = u"web.yml"_qs);
    std::unique_ptr<WebGate> gate(const QByteArray &yaml, QString *error = nullptr);
    int status(WebGate *gate, const QByteArray &authorization);

    std::unique_ptr<QTemporaryDir> m_dir;
};

void TestWebConfig::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    for (const QString &name : {u"server.crt"_qs, u"server.key"_qs, u"ca.crt"_qs, u"ca.key"_qs}) {
        QFile out(m_dir->filePath(name));
        QVERIFY(out.open(QIODevice::WriteOnly));
        QVERIFY(out.write(fixture(name)) > 0);
    }
}

QString TestWebConfig::write(const QByteArray &yaml, const QString &name)
{
    // Written beside and renamed over, as editors save: the watcher sees a replaced file.
    const QString path = m_dir->filePath(name);
    QFile out(path + u".new"_qs);
    if (!out.open(QIODevice::WriteOnly) || out.write(yaml) != yaml.size())
        return {};
    out.close();
    QFile::remove(path);
    return QFile::rename(path + u".new"_qs, path) ? path : QString();
}

std::unique_ptr<WebGate> TestWebConfig::gate(const QByteArray &yaml, QString *error)
{
    QString ignored;
    return WebGate::open(write(yaml), error ? error : &ignored);
}

// The status the gate answers with, waiting for an answer that comes later.
int TestWebConfig::status(WebGate *gate, const QByteArray &authorization)
{
    int answered = 0;
    const auto inner
        = [](const HttpRequest &, HttpServer::Respond respond) { respond(HttpResponse {}); };
    gate->guard(inner)(requestWith(authorization),
        [&answered](HttpResponse response) { answered = response.status; });
    return QTest::qWaitFor([&answered] { return answered != 0; }, 20000) ? answered : -1;
}

void TestWebConfig::goodFiles_data()
{
    QTest::addColumn<QByteArray>("yaml");
    QTest::addRow("empty file (plain HTTP)") << QByteArray();
    QTest::addRow("web_config_users_noTLS.good") << ToolkitUsers;
    QTest::addRow("web_config_users.good (TLS and users)") << TlsFiles + ToolkitUsers;
    QTest::addRow("web_config_noAuth.good") << TlsFiles;
    QTest::addRow("web_config_noAuth_someCiphers.good") << TlsFiles
            + "  cipher_suites:\n  - TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256\n"
              "  - TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384\n  min_version: TLS12\n"
              "  max_version: TLS12\n";
    QTest::addRow("web_config_headers.good")
        << "http_server_config:\n  headers:\n"
           "    Strict-Transport-Security: max-age=31536000; includeSubDomains\n"
           "    X-Frame-Options: deny\n    X-Content-Type-Options: nosniff\n"
           "    X-XSS-Protection: 1\n"_qba;
    QTest::addRow("RequireAndVerifyClientCert with a client CA")
        << TlsFiles + "  client_auth_type: RequireAndVerifyClientCert\n  client_ca_file: ca.crt\n";
    QTest::addRow("the old RequireClientCert")
        << TlsFiles + "  client_auth_type: RequireClientCert\n";
    QTest::addRow("TLS 1.3 only") << TlsFiles + "  min_version: TLS13\n";
    QTest::addRow("sections written as nothing")
        << "tls_server_config:\nhttp_server_config:\nbasic_auth_users:\n"_qba;
}

void TestWebConfig::goodFiles()
{
    QFETCH(QByteArray, yaml);
    QString error;
    QVERIFY2(gate(yaml, &error), qPrintable(error));
}

void TestWebConfig::badFiles_data()
{
    QTest::addColumn<QByteArray>("yaml");
    QTest::addColumn<QString>("expected"); // a part of the error
    const QByteArray hash = ScrapeHash;
    QTest::addRow("web_config_junk_key")
        << "tls_server_config:\n  cert_filse: \"server.crt\"\n"_qba
        << u"line 2: unknown key cert_filse in tls_server_config"_qs;
    QTest::addRow("unknown top-level key")
        << "basic_auth_user:\n  a: b\n"_qba << u"unknown key basic_auth_user"_qs;
    QTest::addRow("a list, not a mapping") << "- a\n- b\n"_qba << u"must be a mapping"_qs;
    QTest::addRow("YAML syntax") << "tls_server_config: [cert_file\n"_qba << u"line "_qs;
    QTest::addRow("nested 100000 deep (yaml-cpp's depth limit, no stack overflow)")
        << QByteArray(100000, '[') + QByteArray(100000, ']') << u"line 1"_qs;
    QTest::addRow("web_config_noAuth_certPath_empty")
        << "tls_server_config:\n  cert_file: \"\"\n  key_file: server.key\n"_qba
        << u"missing cert_file"_qs;
    QTest::addRow("web_config_noAuth_keyPath_empty")
        << "tls_server_config:\n  cert_file: server.crt\n  key_file: \"\"\n"_qba
        << u"missing key_file"_qs;
    QTest::addRow("web_config_noAuth_certPath_keyPath_empty")
        << "tls_server_config:\n  cert_file: \"\"\n  key_file: \"\"\n"
           "  client_auth_type: RequireAndVerifyClientCert\n"_qba
        << u"missing cert_file"_qs;
    QTest::addRow("web_config_noAuth_certPath_invalid")
        << "tls_server_config:\n  cert_file: somefile\n  key_file: server.key\n"_qba
        << u"No such file"_qs;
    QTest::addRow("web_config_noAuth_keyPath_invalid")
        << "tls_server_config:\n  cert_file: server.crt\n  key_file: somefile\n"_qba
        << u"No such file"_qs;
    QTest::addRow("web_config_noAuth.bad (client CA without a policy)") << TlsFiles
            + "  client_ca_file: ca.crt\n" << u"without a client auth policy"_qs;
    QTest::addRow("web_config_auth_clientCAs_invalid")
        << TlsFiles + "  client_auth_type: RequireAndVerifyClientCert\n  client_ca_file: somefile\n"
        << u"No such file"_qs;
    QTest::addRow("invalid client_auth_type") << TlsFiles + "  client_auth_type: Bogus\n"
                                              << u"invalid client_auth_type Bogus"_qs;
    QTest::addRow("web_config_auth_user_list_invalid") << TlsFiles
            + "basic_auth_users:\n  john: doe\n" << u"too short to be a bcrypt hash"_qs;
    QTest::addRow("web_config_noAuth_inventedCiphers")
        << TlsFiles + "  cipher_suites:\n  - TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA2048\n"
        << u"unknown cipher: TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA2048"_qs;
    QTest::addRow("web_config_noAuth_wrongTLSVersion") << TlsFiles + "  min_version: TLS111\n"
                                                       << u"unknown TLS version: TLS111"_qs;
    QTest::addRow("web_config_headers_content_type_options")
        << "http_server_config:\n  headers:\n    X-Content-Type-Options: nosniff,max-age\n"_qba
        << u"invalid value for X-Content-Type-Options"_qs;
    QTest::addRow("web_config_headers_frame_options")
        << "http_server_config:\n  headers:\n    X-Frame-Options: allow\n"_qba
        << u"invalid value for X-Frame-Options"_qs;
    QTest::addRow("web_config_headers_extra_header")
        << "http_server_config:\n  headers:\n    Set-Cookie: a=b\n"_qba
        << u"HTTP header \"Set-Cookie\" can not be configured"_qs;
    QTest::addRow("a header value with a line break")
        << "http_server_config:\n  headers:\n    X-XSS-Protection: \"1\\r\\nSet-Cookie: a\"\n"_qba
        << u"control character"_qs;
    QTest::addRow("curve_preferences (not supported)") << TlsFiles
            + "  curve_preferences: [X25519]\n" << u"does not support"_qs;
    QTest::addRow("http2 (not supported)")
        << "http_server_config:\n  http2: false\n"_qba << u"does not support"_qs;
    QTest::addRow("TLS 1.0 (OpenSSL 3 has it off)") << TlsFiles + "  min_version: TLS10\n"
                                                    << u"TLS 1.2 and 1.3 only"_qs;
    QTest::addRow("min_version above max_version")
        << TlsFiles + "  min_version: TLS13\n  max_version: TLS12\n"
        << u"no client could connect"_qs;
    QTest::addRow("TLS 1.3 suites only") << TlsFiles + "  cipher_suites: [TLS_AES_128_GCM_SHA256]\n"
                                         << u"TLS 1.3 suites only"_qs;
    QTest::addRow("TLS settings without a certificate")
        << "tls_server_config:\n  min_version: TLS13\n"_qba << u"TLS is off"_qs;
    QTest::addRow("a $2x$ hash")
        << "basic_auth_users:\n  a: $2x$10$qRTBuFoULoYNA7AQ/F3ck.trZBPyjV64.oA4ZsSBCIWvXuvQlQTuu\n"_qba
        << u"only $2y$, $2b$ and $2a$"_qs;
    QTest::addRow("bcrypt cost 3")
        << "basic_auth_users:\n  a: $2y$03$qRTBuFoULoYNA7AQ/F3ck.trZBPyjV64.oA4ZsSBCIWvXuvQlQTuu\n"_qba
        << u"cost 3 is outside"_qs;
    QTest::addRow("a user twice") << "basic_auth_users:\n  a: " + hash + "\n  a: " + hash + "\n"
                                  << u"given twice"_qs;
    QTest::addRow("a user name with a colon") << "basic_auth_users:\n  \"a:b\": " + hash + "\n"
                                              << u"holds a ':'"_qs;
    QTest::addRow("the key file is a folder")
        << "tls_server_config:\n  cert_file: server.crt\n  key_file: .\n"_qba << u"directory"_qs;
    QTest::addRow("the key file holds a certificate")
        << "tls_server_config:\n  cert_file: server.crt\n  key_file: server.crt\n"_qba
        << u"no unencrypted RSA or EC private key"_qs;
    QTest::addRow("the certificate file holds a key")
        << "tls_server_config:\n  cert_file: server.key\n  key_file: server.key\n"_qba
        << u"holds no PEM certificate"_qs;
}

void TestWebConfig::badFiles()
{
    QFETCH(QByteArray, yaml);
    QFETCH(QString, expected);
    QString error;
    QVERIFY(!gate(yaml, &error));
    QVERIFY2(error.contains(expected), qPrintable(error));
    QVERIFY2(error.contains(m_dir->filePath(u"web.yml"_qs)), qPrintable(error));
    // A hash, or a password pasted where the hash belongs, is never quoted.
    QVERIFY2(!error.contains(QRegularExpression(u"\\bdoe\\b"_qs))
            && !error.contains(u"qRTBuFoULoYNA7AQ"_qs),
        qPrintable(error));
}

void TestWebConfig::pathsAreTakenFromTheFilesFolder()
{
    QString error;
    const auto config = WebConfig::read(
        write(TlsFiles
            + "  client_auth_type: VerifyClientCertIfGiven\n  client_ca_file: /etc/x.pem\n"),
        &error);
    QVERIFY2(config, qPrintable(error));
    QCOMPARE(config->tls.certFile, m_dir->filePath(u"server.crt"_qs));
    QCOMPARE(config->tls.keyFile, m_dir->filePath(u"server.key"_qs));
    QCOMPARE(config->tls.clientCaFile, u"/etc/x.pem"_qs);
    QCOMPARE(config->tls.clientAuth, ClientAuth::VerifyClientCertIfGiven);
}

void TestWebConfig::cipherSuitesMapToOpenSsl()
{
    QString error;
    const auto config = WebConfig::parse(TlsFiles
            + "  cipher_suites:\n  - TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256\n"
              "  - TLS_AES_128_GCM_SHA256\n  - TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256\n",
        m_dir->path(), &error);
    QVERIFY2(config, qPrintable(error));
    // The TLS 1.3 suite is not configurable: not passed on.
    QCOMPARE(config->tls.ciphers,
        QStringList({u"ECDHE-RSA-AES128-GCM-SHA256"_qs, u"ECDHE-ECDSA-CHACHA20-POLY1305"_qs}));
    const auto ssl = TlsSettings::configuration(config->tls, &error);
    QVERIFY2(ssl, qPrintable(error));
    QCOMPARE(ssl->ciphers().size(), 2);
}

void TestWebConfig::shippedExampleIsValid()
{
    QFile example(TestData::sourceDir() + u"/resources/prometheus/web-config.example.yml"_qs);
    QVERIFY(example.open(QIODevice::ReadOnly));
    const QByteArray yaml = example.readAll();
    QVERIFY(
        QFile::copy(m_dir->filePath(u"server.crt"_qs), m_dir->filePath(u"outboxctl-serve.crt"_qs)));
    QVERIFY(
        QFile::copy(m_dir->filePath(u"server.key"_qs), m_dir->filePath(u"outboxctl-serve.key"_qs)));
    QString error;
    const auto shipped = gate(yaml, &error);
    QVERIFY2(shipped, qPrintable(error));
    QVERIFY(shipped->config().tls.enabled);
    QVERIFY(!shipped->config().users.isEmpty());
}

void TestWebConfig::toolkitUsers_data()
{
    QTest::addColumn<QByteArray>("user");
    QTest::addColumn<QByteArray>("password");
    QTest::addColumn<bool>("allowed");
    QTest::addRow("with correct basic auth (cost 10)") << "dave"_qba
                                                       << "dave123"_qba << true;
    QTest::addRow("with another correct basic auth") << "carol"_qba
                                                     << "carol123"_qba << true;
    QTest::addRow("cost 12") << "alice"_qba
                             << "alice123"_qba << true;
    QTest::addRow("with bad password") << "dave"_qba
                                       << "bad"_qba << false;
    QTest::addRow("with bad username") << "nonexistent"_qba
                                       << "nonexistent"_qba << false;
    QTest::addRow("another user's password") << "carol"_qba
                                             << "dave123"_qba << false;
    QTest::addRow("the password and a NUL") << "dave"_qba
                                            << "dave123\0x"_qba << false;
    QTest::addRow("empty password") << "dave"_qba << QByteArray() << false;
}

void TestWebConfig::toolkitUsers()
{
    QFETCH(QByteArray, user);
    QFETCH(QByteArray, password);
    QFETCH(bool, allowed);
    BasicAuth auth(usersOfTheToolkit());
    QVERIFY(auth.isEnabled());
    QCOMPARE(auth.authenticate(user, password), allowed);
    QCOMPARE(auth.authenticate(user, password), allowed); // the second time from the cache
}

// The exporter-toolkit's TestByPassBasicAuthVuln: the cache key of an unknown user whose name
// ends in alice's hash, checked with the decoy's password, was the plain concatenation that
// alice with the decoy hash before her password also gives.
void TestWebConfig::craftedUserNameCannotShareACacheKey()
{
    BasicAuth auth(usersOfTheToolkit());
    const QByteArray crafted = "alice" + AliceHash;
    const QByteArray craftedPassword = "fakepassword";
    const QByteArray alicePassword = auth.decoyHash() + "fakepassword";
    const BasicAuthCheck poison = auth.prepare(crafted, craftedPassword);
    const BasicAuthCheck login = auth.prepare("alice", alicePassword);
    QCOMPARE(poison.hash + craftedPassword, auth.decoyHash() + craftedPassword);
    QCOMPARE(crafted + poison.hash + craftedPassword, "alice"_qba + login.hash + alicePassword);
    QVERIFY(poison.cacheKey != login.cacheKey);
    QVERIFY(!auth.authenticate(crafted, craftedPassword)); // poison the cache
    QVERIFY(!auth.authenticate("alice", alicePassword)); // log in with a wrong password
    QCOMPARE(auth.cachedCount(), 0);
}

void TestWebConfig::onlySuccessfulChecksAreCached()
{
    BasicAuth auth({{"prometheus", ScrapeHash}});
    QVERIFY(!auth.authenticate("prometheus", "wrong"));
    QVERIFY(!auth.authenticate("nobody", ScrapePassword));
    QCOMPARE(auth.cachedCount(), 0);
    QVERIFY(!auth.prepare("prometheus", ScrapePassword).cachedSuccess);
    QVERIFY(auth.authenticate("prometheus", ScrapePassword));
    QCOMPARE(auth.cachedCount(), 1);
    QVERIFY(auth.prepare("prometheus", ScrapePassword).cachedSuccess);
    QVERIFY(!auth.prepare("prometheus", ScrapePassword + "x").cachedSuccess);
    // The same password with another hash (the file changed) is not a cached success.
    BasicAuth changed({{"prometheus", AliceSecretHash}});
    QVERIFY(!changed.prepare("prometheus", ScrapePassword).cachedSuccess);
}

void TestWebConfig::theCacheIsBounded()
{
    QHash<QByteArray, QByteArray> users;
    for (int i = 0; i <= BasicAuth::CacheSize; ++i)
        users.insert("user" + QByteArray::number(i), ScrapeHash);
    BasicAuth auth(users);
    for (auto it = users.cbegin(); it != users.cend(); ++it)
        QVERIFY(auth.authenticate(it.key(), ScrapePassword));
    QCOMPARE(auth.cachedCount(), BasicAuth::CacheSize);
}

void TestWebConfig::unknownUsersAreCheckedAgainstADecoyOfTheUsualCost()
{
    BasicAuth cheap({{"a", ScrapeHash}, {"b", ScrapeHash}, {"c", AliceSecretHash}});
    QCOMPARE(Bcrypt::cost(cheap.decoyHash()), 4);
    QVERIFY(Bcrypt::isValidHash(cheap.decoyHash(), nullptr));
    const BasicAuthCheck unknown = cheap.prepare("nobody", "x");
    QVERIFY(!unknown.knownUser);
    QCOMPARE(unknown.hash, cheap.decoyHash());
    QCOMPARE(Bcrypt::cost(BasicAuth(usersOfTheToolkit()).decoyHash()), 10);
}

void TestWebConfig::credentials_data()
{
    QTest::addColumn<QByteArray>("header");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<QByteArray>("user");
    QTest::addColumn<QByteArray>("password");
    QTest::addRow("user and password") << basic("prometheus", "s") << true << "prometheus"_qba
                                       << "s"_qba;
    QTest::addRow("colons in the password") << basic("u", "a:b:c") << true << "u"_qba
                                            << "a:b:c"_qba;
    QTest::addRow("scheme in lower case") << "basic " + "u:p"_qba.toBase64() << true << "u"_qba
                                          << "p"_qba;
    QTest::addRow("another scheme") << "Bearer abc"_qba << false << QByteArray() << QByteArray();
    QTest::addRow("bad base64") << "Basic ***"_qba << false << QByteArray() << QByteArray();
    QTest::addRow("no colon") << "Basic " + "user"_qba.toBase64() << false << QByteArray()
                              << QByteArray();
    QTest::addRow("nothing") << QByteArray() << false << QByteArray() << QByteArray();
}

void TestWebConfig::credentials()
{
    QFETCH(QByteArray, header);
    QFETCH(bool, valid);
    const auto found = BasicAuth::credentials(header);
    QCOMPARE(found.has_value(), valid);
    if (valid) {
        QTEST(found->first, "user");
        QTEST(found->second, "password");
    }
}

void TestWebConfig::gateAsksForAPassword()
{
    const auto web = gate("basic_auth_users:\n  prometheus: " + ScrapeHash + "\n");
    QVERIFY(web);
    std::optional<HttpResponse> answer;
    bool innerCalled = false;
    web->guard([&innerCalled](const HttpRequest &, HttpServer::Respond respond) {
        innerCalled = true;
        respond(HttpResponse {});
    })(requestWith({}), [&answer](HttpResponse response) { answer = response; });
    QVERIFY(answer); // no password to check: answered at once
    QCOMPARE(answer->status, 401);
    QCOMPARE(headerOf(*answer, "WWW-Authenticate"), "Basic"_qba);
    QVERIFY(!innerCalled);
    QCOMPARE(status(web.get(), basic("prometheus", "wrong")), 401);
    QCOMPARE(status(web.get(), basic("stranger", ScrapePassword)), 401);
    QCOMPARE(status(web.get(), "Bearer x"), 401);
    QCOMPARE(status(web.get(), basic("prometheus", ScrapePassword)), 200);
}

void TestWebConfig::gateChecksOffTheServingThread()
{
    // dave's cost 10 check takes tens of milliseconds: the gate returns before it is done.
    const auto web = gate(ToolkitUsers);
    QVERIFY(web);
    QThread *checkedOn = nullptr;
    std::optional<int> answer;
    web->guard([&checkedOn](const HttpRequest &, HttpServer::Respond respond) {
        checkedOn = QThread::currentThread();
        respond(HttpResponse {});
    })(requestWith(basic("dave", "dave123")), [&answer](HttpResponse r) { answer = r.status; });
    QVERIFY(!answer);
    QTRY_COMPARE_WITH_TIMEOUT(answer, std::optional<int>(200), 20000);
    QCOMPARE(checkedOn, QThread::currentThread()); // the page itself is served on this thread
}

void TestWebConfig::gateAnswersACachedCheckAtOnce()
{
    const auto web = gate("basic_auth_users:\n  prometheus: " + ScrapeHash + "\n");
    QVERIFY(web);
    QCOMPARE(status(web.get(), basic("prometheus", ScrapePassword)), 200);
    std::optional<int> answer;
    web->guard([](const HttpRequest &, HttpServer::Respond respond) { respond(HttpResponse {}); })(
        requestWith(basic("prometheus", ScrapePassword)),
        [&answer](HttpResponse r) { answer = r.status; });
    QCOMPARE(answer, std::optional<int>(200));
}

// The items take() gives until it gives nothing, as "peer:item".
QStringList drain(FairQueue<int> *queue, qint64 now)
{
    QStringList taken;
    while (const auto next = queue->take(now))
        taken << QString::fromLatin1(next->first) + u':' + QString::number(next->second);
    return taken;
}

void TestWebConfig::checksAreTakenInTurnByPeer()
{
    FairQueue<int> queue;
    std::optional<int> pushedOut;
    for (int i = 1; i <= 4; ++i)
        QCOMPARE(queue.push("flood", i, &pushedOut), FairQueue<int>::Added::Queued);
    QCOMPARE(queue.push("scraper", 1, &pushedOut), FairQueue<int>::Added::Queued);
    QCOMPARE(queue.push("other", 1, &pushedOut), FairQueue<int>::Added::Queued);
    QCOMPARE(queue.readyIn(0), 0);
    QCOMPARE(drain(&queue, 0),
        (QStringList {u"flood:1"_qs, u"scraper:1"_qs, u"other:1"_qs, u"flood:2"_qs, u"flood:3"_qs,
            u"flood:4"_qs}));
    QCOMPARE(queue.size(), 0);
    QCOMPARE(queue.readyIn(0), -1);
    QVERIFY(!pushedOut);
}

void TestWebConfig::aPeerThatFailedIsPassedOver()
{
    FairQueue<int> queue;
    std::optional<int> pushedOut;
    queue.push("flood", 1, &pushedOut);
    queue.push("flood", 2, &pushedOut);
    QCOMPARE(queue.take(0)->second, 1); // being checked
    queue.penalise("flood", 10, 60); // it failed at 10 ms, after 50 ms
    queue.push("scraper", 1, &pushedOut);
    QCOMPARE(drain(&queue, 20), QStringList {u"scraper:1"_qs}); // the flood waits
    QCOMPARE(queue.readyIn(20), 40);
    QCOMPARE(drain(&queue, 60), QStringList {u"flood:2"_qs});
}

// Keep-alive loops of wrong passwords from the scraper's own address: its new connection's
// check is taken before theirs, and a full queue pushes theirs out first.
void TestWebConfig::aConnectionThatFailedWaitsBehindItsPeer()
{
    FairQueue<int> queue({4, 4, 8});
    std::optional<int> pushedOut;
    queue.push("shared", 1, &pushedOut, true);
    queue.push("shared", 2, &pushedOut, true);
    queue.push("shared", 3, &pushedOut);
    queue.push("other", 1, &pushedOut);
    QCOMPARE(queue.push("other", 2, &pushedOut), FairQueue<int>::Added::Queued);
    QCOMPARE(pushedOut, std::optional<int>(2)); // the last one behind
    QCOMPARE(drain(&queue, 0),
        (QStringList {u"shared:3"_qs, u"other:1"_qs, u"shared:1"_qs, u"other:2"_qs}));
}

void TestWebConfig::aFullQueueRefusesOnlyThePeerHoldingTheMost()
{
    FairQueue<int> queue({2, 3, 8});
    std::optional<int> pushedOut;
    QCOMPARE(queue.push("flood", 1, &pushedOut), FairQueue<int>::Added::Queued);
    QCOMPARE(queue.push("flood", 2, &pushedOut), FairQueue<int>::Added::Queued);
    QCOMPARE(queue.push("flood", 3, &pushedOut), FairQueue<int>::Added::PeerFull); // its bound
    QCOMPARE(queue.push("scraper", 1, &pushedOut), FairQueue<int>::Added::Queued);
    QVERIFY(!pushedOut);
    // Full: the flood's newest goes to make room for a third peer.
    QCOMPARE(queue.push("other", 1, &pushedOut), FairQueue<int>::Added::Queued);
    QCOMPARE(pushedOut, std::optional<int>(2));
    pushedOut.reset();
    // Full, and nobody holds more than the newcomer's peer would: refused.
    QCOMPARE(queue.push("scraper", 2, &pushedOut), FairQueue<int>::Added::PeerFull);
    QVERIFY(!pushedOut);
    QCOMPARE(queue.size(), 3);
    QCOMPARE(drain(&queue, 0), (QStringList {u"flood:1"_qs, u"scraper:1"_qs, u"other:1"_qs}));
}

void TestWebConfig::pausesAreRememberedForBoundedPeers()
{
    FairQueue<int> queue({2, 4, 8});
    std::optional<int> pushedOut;
    queue.push("waiting", 1, &pushedOut);
    queue.penalise("waiting", 0, 1000);
    for (int i = 0; i < 100; ++i)
        queue.penalise(QByteArray::number(i), i, i + 50);
    QVERIFY(queue.peersRemembered() <= 8);
    QCOMPARE(queue.size(), 1); // a peer with a check waiting is never forgotten
    QCOMPARE(queue.readyIn(100), 900);
    QCOMPARE(drain(&queue, 1000), QStringList {u"waiting:1"_qs});
}

void TestWebConfig::peersAreAddressesAndIpv6Slash64s()
{
    QCOMPARE(peerOf(QHostAddress(u"192.0.2.1"_qs)), peerOf(QHostAddress(u"::ffff:192.0.2.1"_qs)));
    QVERIFY(peerOf(QHostAddress(u"192.0.2.1"_qs)) != peerOf(QHostAddress(u"192.0.2.2"_qs)));
    QCOMPARE(peerOf(QHostAddress(u"2001:db8::1"_qs)), peerOf(QHostAddress(u"2001:db8::2:1"_qs)));
    QVERIFY(peerOf(QHostAddress(u"2001:db8::1"_qs)) != peerOf(QHostAddress(u"2001:db8:0:1::1"_qs)));
}

// More checks than one peer may have waiting, from one address: the ones over its bound get
// 503 at once, the rest 401 in time; a check from another address meanwhile gets its page.
void TestWebConfig::gateRefusesOnlyThePeerOverItsBound()
{
    const auto web = gate("basic_auth_users:\n  prometheus: " + ScrapeHash + "\n");
    QVERIFY(web);
    const auto inner
        = [](const HttpRequest &, HttpServer::Respond respond) { respond(HttpResponse {}); };
    const int flood = WebGate::CheckLimits.perPeer + 8;
    QHash<int, int> floodAnswers;
    for (int i = 0; i < flood; ++i) {
        HttpRequest request = requestWith(basic("prometheus", "wrong"));
        request.peer = QHostAddress(u"192.0.2.66"_qs);
        web->guard(inner)(request, [&floodAnswers](HttpResponse r) { ++floodAnswers[r.status]; });
    }
    QCOMPARE(floodAnswers.value(503), 7); // the first is being checked, 32 wait, 7 refused
    std::optional<int> answer;
    HttpRequest request = requestWith(basic("prometheus", ScrapePassword));
    request.peer = QHostAddress(u"192.0.2.1"_qs);
    int floodAnsweredBefore = -1;
    web->guard(inner)(request, [&](HttpResponse r) {
        answer = r.status;
        floodAnsweredBefore = floodAnswers.value(401);
    });
    QTRY_COMPARE_WITH_TIMEOUT(answer, std::optional<int>(200), 20000);
    // Taken right after the flood's check under way: not after its 32 waiting ones.
    QVERIFY2(floodAnsweredBefore <= 2, qPrintable(QString::number(floodAnsweredBefore)));
    QTRY_COMPARE_WITH_TIMEOUT(floodAnswers.value(401), WebGate::CheckLimits.perPeer + 1, 20000);
}

void TestWebConfig::reloadOnChangeKeepsTheOldSettingsOnABadFile()
{
    const auto web = gate("basic_auth_users:\n  prometheus: " + ScrapeHash + "\n");
    QVERIFY(web);
    QSignalSpy reloaded(web.get(), &WebGate::reloaded);
    QCOMPARE(status(web.get(), basic("prometheus", ScrapePassword)), 200);

    QVERIFY(!write("basic_auth_users:\n  alice: " + AliceSecretHash + "\n").isEmpty());
    QVERIFY(reloaded.wait(10000));
    QCOMPARE(reloaded.takeFirst().at(0).toBool(), true);
    QCOMPARE(status(web.get(), basic("alice", "alice-secret")), 200);
    QCOMPARE(status(web.get(), basic("prometheus", ScrapePassword)), 401); // cached, yet gone

    QVERIFY(!write("basic_auth_users:\n  alice: not-a-hash\n").isEmpty());
    QVERIFY(reloaded.wait(10000));
    QCOMPARE(reloaded.takeFirst().at(0).toBool(), false);
    QCOMPARE(status(web.get(), basic("alice", "alice-secret")), 200);

    QVERIFY(!write(TlsFiles).isEmpty()); // TLS cannot be turned on without a restart
    QVERIFY(reloaded.wait(10000));
    QCOMPARE(reloaded.takeFirst().at(0).toBool(), false);
    QVERIFY(!web->config().tls.enabled);
    QCOMPARE(status(web.get(), basic("alice", "alice-secret")), 200);
}

void TestWebConfig::reloadSendsNewHeaders()
{
    const auto web = gate("http_server_config:\n  headers:\n    X-Frame-Options: deny\n");
    QVERIFY(web);
    QCOMPARE(web->config().headers, WebGate::Headers({{"X-Frame-Options", "deny"}}));
    QSignalSpy headers(web.get(), &WebGate::responseHeadersChanged);
    QVERIFY(!write("http_server_config:\n  headers:\n    X-Frame-Options: sameorigin\n"
                   "    X-Content-Type-Options: nosniff\n")
                 .isEmpty());
    QVERIFY(headers.wait(10000));
    QCOMPARE(headers.takeFirst().at(0).value<WebGate::Headers>(),
        WebGate::Headers(
            {{"X-Frame-Options", "sameorigin"}, {"X-Content-Type-Options", "nosniff"}}));
}

void TestWebConfig::clientAuthTypes_data()
{
    QTest::addColumn<QByteArray>("settings");
    QTest::addColumn<QString>("clientCertificate"); // "", "client" (CA-signed) or "other-client"
    QTest::addColumn<bool>("accepted");
    const QByteArray verify
        = "  client_auth_type: RequireAndVerifyClientCert\n  client_ca_file: ca.crt\n";
    const QByteArray ifGiven
        = "  client_auth_type: VerifyClientCertIfGiven\n  client_ca_file: ca.crt\n";
    const QByteArray any = "  client_auth_type: RequireAnyClientCert\n";
    const QByteArray request = "  client_auth_type: RequestClientCert\n";
    QTest::addRow("NoClientCert") << QByteArray() << QString() << true;
    QTest::addRow("RequireAndVerifyClientCert, none") << verify << QString() << false;
    QTest::addRow("RequireAndVerifyClientCert, trusted") << verify << u"client"_qs << true;
    QTest::addRow("RequireAndVerifyClientCert, untrusted") << verify << u"other-client"_qs << false;
    QTest::addRow("VerifyClientCertIfGiven, none") << ifGiven << QString() << true;
    QTest::addRow("VerifyClientCertIfGiven, trusted") << ifGiven << u"client"_qs << true;
    QTest::addRow("VerifyClientCertIfGiven, untrusted") << ifGiven << u"other-client"_qs << false;
    QTest::addRow("RequireAnyClientCert, none") << any << QString() << false;
    QTest::addRow("RequireAnyClientCert, untrusted") << any << u"other-client"_qs << true;
    QTest::addRow("RequestClientCert, none") << request << QString() << true;
    QTest::addRow("RequestClientCert, untrusted") << request << u"other-client"_qs << true;
}

// A real handshake on loopback: the server side takes the connection (it is offered once the
// handshake is done) or the client is disconnected.
void TestWebConfig::clientAuthTypes()
{
    QFETCH(QByteArray, settings);
    QFETCH(QString, clientCertificate);
    QFETCH(bool, accepted);
    QString error;
    const auto web = gate(TlsFiles + settings, &error);
    QVERIFY2(web, qPrintable(error));
    std::unique_ptr<QTcpServer> listener(web->createListener());
    QVERIFY(qobject_cast<QSslServer *>(listener.get()));
    QVERIFY(listener->listen(QHostAddress::LocalHost, 0));
    QSignalSpy offered(listener.get(), &QTcpServer::pendingConnectionAvailable);

    QSslSocket client;
    QSslConfiguration ssl = client.sslConfiguration();
    ssl.setCaCertificates(QSslCertificate::fromData(fixture(u"ca.crt"_qs)));
    client.setSslConfiguration(ssl);
    if (!clientCertificate.isEmpty()) {
        client.setLocalCertificate(QSslCertificate(fixture(clientCertificate + u".crt"_qs)));
        client.setPrivateKey(QSslKey(fixture(clientCertificate + u".key"_qs), QSsl::Ec));
    }
    QSignalSpy gone(&client, &QAbstractSocket::disconnected);
    client.connectToHostEncrypted(u"127.0.0.1"_qs, listener->serverPort());
    if (accepted) {
        QTRY_COMPARE_WITH_TIMEOUT(offered.size(), 1, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(client.isEncrypted(), 10000);
    } else {
        QTRY_VERIFY_WITH_TIMEOUT(
            !gone.isEmpty() || client.state() == QAbstractSocket::UnconnectedState, 10000);
        QCOMPARE(offered.size(), 0);
    }
}

void TestWebConfig::tls12SuitesWithoutForwardSecrecyAreRefused_data()
{
    QTest::addColumn<QByteArray>("cipherSuites"); // the web config's cipher_suites, or nothing
    QTest::addColumn<QString>("offered"); // the client's one TLS 1.2 suite; "": TLS 1.3
    QTest::addColumn<bool>("accepted");
    const QByteArray none;
    const QByteArray rsaGcm = "  cipher_suites: [TLS_RSA_WITH_AES_128_GCM_SHA256]\n";
    QTest::addRow("RSA key exchange, GCM") << none << u"AES128-GCM-SHA256"_qs << false;
    QTest::addRow("RSA key exchange, CBC") << none << u"AES256-SHA"_qs << false;
    QTest::addRow("ECDHE, CBC") << none << u"ECDHE-RSA-AES128-SHA"_qs << false;
    QTest::addRow("ECDHE, GCM") << none << u"ECDHE-RSA-AES128-GCM-SHA256"_qs << true;
    QTest::addRow("ECDHE, ChaCha20") << none << u"ECDHE-RSA-CHACHA20-POLY1305"_qs << true;
    QTest::addRow("TLS 1.3") << none << QString() << true;
    QTest::addRow("RSA key exchange named in cipher_suites")
        << rsaGcm << u"AES128-GCM-SHA256"_qs << true;
    QTest::addRow("ECDHE not named in cipher_suites")
        << rsaGcm << u"ECDHE-RSA-AES128-GCM-SHA256"_qs << false;
}

// A TLS 1.2 client offering one suite: without cipher_suites serve offers forward-secret AEAD
// suites only (as Go's crypto/tls); cipher_suites names what is offered instead.
void TestWebConfig::tls12SuitesWithoutForwardSecrecyAreRefused()
{
    QFETCH(QByteArray, cipherSuites);
    QFETCH(QString, offered);
    QFETCH(bool, accepted);
    QString error;
    const auto web = gate(TlsFiles + cipherSuites, &error);
    QVERIFY2(web, qPrintable(error));
    std::unique_ptr<QTcpServer> listener(web->createListener());
    QVERIFY(listener->listen(QHostAddress::LocalHost, 0));
    QSslSocket client;
    QSslConfiguration ssl = trustingTheTestCa();
    if (offered.isEmpty()) {
        ssl.setProtocol(QSsl::TlsV1_3);
    } else {
        const QSslCipher cipher(offered);
        QVERIFY2(!cipher.isNull(), qPrintable(offered));
        ssl.setProtocol(QSsl::TlsV1_2);
        ssl.setCiphers({cipher});
    }
    client.setSslConfiguration(ssl);
    QCOMPARE(handshake(&client, listener->serverPort()), accepted);
    if (accepted && !offered.isEmpty())
        QCOMPARE(client.sessionCipher().name(), offered);
}

// As Go's tls.X509KeyPair: a key that is not the certificate's is refused when the file is
// read (else every handshake would fail), with both files named.
void TestWebConfig::keyOfAnotherCertificateIsRefused()
{
    QString error;
    const auto web
        = gate("tls_server_config:\n  cert_file: server.crt\n  key_file: ca.key\n", &error);
    QVERIFY(!web);
    QVERIFY2(error.contains(u"ca.key does not belong to the certificate in "_qs)
            && error.contains(u"server.crt"_qs),
        qPrintable(error));
}

// cert-manager replaces the certificate first and the key a moment later (or an operator
// copies the wrong key): until the pair matches again the previous pair stays in use.
void TestWebConfig::reloadedCertificateWithoutItsKeyKeepsTheOldPair()
{
    QString error;
    const auto web = gate(TlsFiles, &error);
    QVERIFY2(web, qPrintable(error));
    std::unique_ptr<QTcpServer> listener(web->createListener());
    QVERIFY(listener->listen(QHostAddress::LocalHost, 0));
    QSignalSpy reloaded(web.get(), &WebGate::reloaded);
    QVERIFY(!write(fixture(u"client.crt"_qs), u"server.crt"_qs).isEmpty());
    QVERIFY(reloaded.wait(10000));
    QCOMPARE(reloaded.takeFirst().at(0).toBool(), false);
    QSslSocket client;
    client.setSslConfiguration(trustingTheTestCa());
    QVERIFY(handshake(&client, listener->serverPort()));
    QCOMPARE(client.peerCertificate(), QSslCertificate(fixture(u"server.crt"_qs)));

    QVERIFY(!write(fixture(u"client.key"_qs), u"server.key"_qs).isEmpty()); // the pair again
    QTRY_COMPARE_WITH_TIMEOUT(reloaded.size(), 1, 10000);
    QCOMPARE(reloaded.takeFirst().at(0).toBool(), true);
}

// Ten clients connect and never send a ClientHello (a handshake slowloris) to a server that
// allows 4 connections: handshakes count against that cap, the oldest are closed to make room,
// an HTTPS scrape is answered meanwhile, and the rest are closed by the handshake timeout.
void TestWebConfig::silentHandshakesDoNotLockOutAScrape()
{
    constexpr int Silent = 10;
    constexpr int Cap = 4;
    QString error;
    const auto web = gate(TlsFiles, &error);
    QVERIFY2(web, qPrintable(error));
    HttpLimits limits;
    limits.maxConnections = Cap;
    HttpServer server(
        [](const HttpRequest &, HttpServer::Respond respond) { respond({}); }, limits);
    QTcpServer *listener = web->createListener(&server);
    auto *tls = qobject_cast<TlsListener *>(listener);
    QVERIFY(tls && tls->listen(QHostAddress::LocalHost, 0));
    server.serve(listener);

    QElapsedTimer clock;
    clock.start();
    std::vector<std::unique_ptr<QTcpSocket>> silent;
    QList<qint64> closedAtMs(Silent, -1);
    for (int i = 0; i < Silent; ++i) {
        silent.push_back(std::make_unique<QTcpSocket>());
        QObject::connect(silent.back().get(), &QAbstractSocket::stateChanged,
            [&closedAtMs, &clock, i](QAbstractSocket::SocketState state) {
                if (state == QAbstractSocket::UnconnectedState && closedAtMs[i] < 0)
                    closedAtMs[i] = clock.elapsed();
            });
        silent.back()->connectToHost(QHostAddress::LocalHost, tls->serverPort());
        QTRY_COMPARE(tls->handshakesUnderWay(), std::min(i + 1, Cap));
    }
    const auto closed = [&closedAtMs] {
        return int(std::count_if(
            closedAtMs.cbegin(), closedAtMs.cend(), [](qint64 at) { return at >= 0; }));
    };
    QTRY_COMPARE(closed(), Silent - Cap); // the oldest, to make room for the newer ones

    QSslSocket scraper;
    QSslConfiguration ssl = scraper.sslConfiguration();
    ssl.setCaCertificates(QSslCertificate::fromData(fixture(u"ca.crt"_qs)));
    scraper.setSslConfiguration(ssl);
    QByteArray answer;
    QObject::connect(&scraper, &QSslSocket::encrypted,
        [&scraper] { scraper.write("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"); });
    QObject::connect(&scraper, &QSslSocket::readyRead, [&] { answer += scraper.readAll(); });
    scraper.connectToHostEncrypted(u"127.0.0.1"_qs, tls->serverPort());
    QTRY_VERIFY2_WITH_TIMEOUT(answer.startsWith("HTTP/1.1 200 OK\r\n"), answer.constData(), 10000);
    QCOMPARE(closed(), Silent - Cap + 1); // one more made room; no timeout freed any

    // The others wait for the handshake timeout, not longer.
    QTRY_COMPARE_WITH_TIMEOUT(closed(), Silent, TlsListener::HandshakeTimeoutMs + 5000);
    QCOMPARE(tls->handshakesUnderWay(), 0);
    const qint64 last = *std::max_element(closedAtMs.cbegin(), closedAtMs.cend());
    QVERIFY2(last >= TlsListener::HandshakeTimeoutMs * 9 / 10, qPrintable(QString::number(last)));
}

// While clients connect at up to about 200 a second and never start a handshake (a
// ring of 32 open at once, the oldest closed for the next) against a cap of 8 connections, a
// scraper's 25 HTTPS scrapes, each on a connection of its own, all get their 200: a handshake
// that moves is not the one closed to make room. Bounded: 25 scrapes, 60 s, 100,000 connects.
void TestWebConfig::handshakeChurnCostsNoScrape()
{
    constexpr int Scrapes = 25;
    QString error;
    const auto web = gate(TlsFiles, &error);
    QVERIFY2(web, qPrintable(error));
    HttpLimits limits;
    limits.maxConnections = 8;
    HttpServer server(
        [](const HttpRequest &, HttpServer::Respond respond) { respond({}); }, limits);
    QTcpServer *listener = web->createListener(&server);
    QVERIFY(listener->listen(QHostAddress::LocalHost, 0));
    server.serve(listener);
    std::atomic<bool> stop = false;
    std::atomic<int> connects = 0;
    std::thread churn([port = listener->serverPort(), &stop, &connects] {
        churnConnections(port, &stop, &connects);
    });
    int succeeded = 0;
    QElapsedTimer clock;
    clock.start();
    for (int i = 0; i < Scrapes && clock.elapsed() < 60000; ++i)
        succeeded += scrapeOverTls(listener->serverPort()) ? 1 : 0;
    stop = true;
    churn.join();
    qInfo("%d of %d scrapes in %lld ms while %d connections churned", succeeded, Scrapes,
        clock.elapsed(), connects.load());
    QVERIFY2(connects > 100, qPrintable(QString::number(connects)));
    QCOMPARE(succeeded, Scrapes);
}

OUTBOX_TEST_MAIN(TestWebConfig, QCoreApplication)
#include "tst_webconfig.moc"
