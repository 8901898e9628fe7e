// TLS to MariaDB for real: a private MariaDB started for this test with the fixtures' server
// certificate (tests/fixtures/tls, signed by ca.crt for localhost and 127.0.0.1) takes a
// `?ssl-mode=REQUIRED&ssl-ca=tests/fixtures/tls/ca.crt` URL and the session is encrypted; with
// a CA file that does not exist (Qt 6.4's driver then silently falls back to plain text) or a
// server without TLS, the session is refused with its reason, never used in plain text.
#include "databaseurl.h"
#include "dbconnection.h"
#include "testmain.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSqlQuery>
#include <QTemporaryDir>

namespace {

// The session's cipher as the server reports it: empty in plain text.
QString cipherOf(const QSqlDatabase &db)
{
    QSqlQuery query(db);
    if (!query.exec(QStringLiteral("SHOW SESSION STATUS LIKE 'Ssl_cipher'")) || !query.next())
        return QString();
    return query.value(1).toString();
}

} // namespace

class TestMySqlTls : public QObject
{
    Q_OBJECT

private slots:
    // Starts a MariaDB with TLS through scripts/lib/mysqlserver.sh on the first free port from
    // 53306; it stops (and its data folder goes) when its stdin closes: at the end of this
    // test, or when the test process dies.
    void initTestCase()
    {
        if (qEnvironmentVariableIsEmpty("OUTBOX_TEST_MYSQL_URL")) {
            const QString why = QStringLiteral(
                "OUTBOX_TEST_MYSQL_URL is not set: no MariaDB server (scripts/test starts one)");
            if (qEnvironmentVariable("CI") == QLatin1String("true"))
                QFAIL(qPrintable(why));
            QSKIP(qPrintable(why));
        }
        m_source = qEnvironmentVariable("OUTBOX_SOURCE_DIR");
        QVERIFY2(QFile::exists(m_source + QStringLiteral("/tests/fixtures/tls/ca.crt")),
            qPrintable(m_source));
        // The server runs as the mysql user: it reads copies of the certificate and key.
        QVERIFY(m_certs.isValid());
        QFile::setPermissions(m_certs.path(),
            QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup
                | QFile::ExeGroup | QFile::ReadOther | QFile::ExeOther);
        for (const char *name : {"ca.crt", "server.crt", "server.key"}) {
            const QString copy = m_certs.filePath(QLatin1String(name));
            QVERIFY(QFile::copy(
                m_source + QStringLiteral("/tests/fixtures/tls/") + QLatin1String(name), copy));
            QFile::setPermissions(
                copy, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther);
        }
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("MYSQL_EXTRA_CONF"),
            QStringLiteral("ssl-ca=%1/ca.crt\nssl-cert=%1/server.crt\nssl-key=%1/server.key")
                .arg(m_certs.path()));
        m_server.setProcessEnvironment(env);
        m_server.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_server.start(QStringLiteral("bash"),
            {QStringLiteral("-c"),
                QStringLiteral("source \"$0/scripts/lib/mysqlserver.sh\" || exit 1\n"
                               "mysql_start >&2 || exit 1\n"
                               "echo \"$MYSQL_PORT\"\n"
                               "read -r _\n"
                               "mysql_stop"),
                m_source});
        QVERIFY(m_server.waitForStarted(10000));
        // mariadb-install-db and the first start take seconds, more on a loaded machine.
        QTRY_VERIFY_WITH_TIMEOUT(
            m_server.canReadLine() || m_server.state() == QProcess::NotRunning, 120000);
        m_port = m_server.readLine().trimmed().toInt();
        QVERIFY2(m_port > 0, "the MariaDB with TLS did not start (its log is above)");
    }

    void cleanupTestCase()
    {
        if (m_server.state() == QProcess::NotRunning)
            return;
        m_server.write("stop\n");
        m_server.closeWriteChannel();
        QVERIFY(m_server.waitForFinished(60000));
    }

    // The URL of the issue, its CA file relative to the folder outbox-dashboard runs in.
    void requiredTlsWithTheCaFileIsEncrypted()
    {
        const QString previous = QDir::currentPath();
        QVERIFY(QDir::setCurrent(m_source));
        const DatabaseUrl url
            = DatabaseUrl::parse(urlWith(QStringLiteral("tests/fixtures/tls/ca.crt")), nullptr);
        QVERIFY(url.isValid());
        QString error;
        auto connection = DbConnection::open(url, options(), &error);
        QDir::setCurrent(previous);
        QVERIFY2(connection, qPrintable(error));
        const QString cipher = cipherOf(connection->database());
        QVERIFY2(!cipher.isEmpty(), "connected, but in plain text");
        QVERIFY2(
            cipher.startsWith(QLatin1String("TLS")) || cipher.contains(u'-'), qPrintable(cipher));
    }

    // A CA file that is not there: the driver would go on in plain text; the session is refused.
    void missingCaFileIsRefused()
    {
        const QString missing = m_certs.filePath(QStringLiteral("no-such-ca.crt"));
        const DatabaseUrl url = DatabaseUrl::parse(urlWith(missing), nullptr);
        QVERIFY(url.isValid());
        QString error;
        auto connection = DbConnection::open(url, options(), &error);
        QVERIFY(!connection);
        QVERIFY2(error.contains(QLatin1String("not encrypted"))
                || error.contains(QLatin1String("SSL"), Qt::CaseInsensitive)
                || error.contains(QLatin1String("TLS")),
            qPrintable(error));
    }

    // The shared test server has no TLS: asking for it there is refused, not quietly dropped.
    void serverWithoutTlsIsRefused()
    {
        DatabaseUrl plain
            = DatabaseUrl::parse(qEnvironmentVariable("OUTBOX_TEST_MYSQL_URL"), nullptr);
        QVERIFY(plain.isValid());
        const DatabaseUrl url = DatabaseUrl::parse(
            QStringLiteral("mysql://%1@%2:%3/%4?ssl-mode=REQUIRED&ssl-ca=%5/ca.crt")
                .arg(plain.user(), plain.host(), QString::number(plain.port()),
                    plain.databaseName(), m_certs.path()),
            nullptr);
        QVERIFY(url.isValid());
        QString error;
        auto connection = DbConnection::open(url, options(), &error);
        QVERIFY(!connection);
        QVERIFY2(!error.isEmpty(), "refused without a reason");
    }

private:
    QString urlWith(const QString &caFile) const
    {
        return QStringLiteral("mysql://root@127.0.0.1:%1/mysql?ssl-mode=REQUIRED&ssl-ca=%2")
            .arg(m_port)
            .arg(caFile);
    }

    static OpenOptions options()
    {
        OpenOptions options;
        options.validateSchema = false; // the server's own database, no outbox in it
        return options;
    }

    QString m_source;
    QTemporaryDir m_certs;
    QProcess m_server;
    int m_port = 0;
};

OUTBOX_TEST_MAIN(TestMySqlTls, QCoreApplication)
#include "tst_mysqltls.moc"
