// Opening a database from a URL on SQLite, PostgreSQL and MySQL: a database with the native
// schema opens, a missing table or column is named and never repaired behind the user's back, a
// read-only connection cannot write, and a failed connection says why without the password.
// MySQL's own: a session the server ended is named as lost (Qt's MySQL driver still says isOpen()) and
// DbConnection::reopen brings back its settings; the password from MYSQL_PWD or an option file
// (refused when others may read it, or when it is no regular file); ssl-mode=REQUIRED against a
// server without TLS is refused instead of run in plain text.
#include "dbconnection.h"
#include "failurecause.h"
#include "schema.h"
#include "sqldialect.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QElapsedTimer>
#include <QFile>
#include <QRegularExpression>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QTemporaryDir>
#include <sys/stat.h>

namespace {

const QStringList NativeTables = {u"delivery_outbox"_qs, u"delivery_attempt"_qs,
    u"consumer_ledger"_qs, u"consumer_stock"_qs, u"replay_log"_qs, u"outbox_meta"_qs};

DatabaseUrl parsedUrl(const QString &text)
{
    QString error;
    const DatabaseUrl url = DatabaseUrl::parse(text, &error);
    if (!url.isValid())
        qWarning("cannot parse %s: %s", qPrintable(text), qPrintable(error));
    return url;
}

OpenOptions options(bool validate, bool allowCreate = false, bool readOnly = false)
{
    OpenOptions o;
    o.validateSchema = validate;
    o.allowCreate = allowCreate;
    o.readOnly = readOnly;
    return o;
}

QStringList sortedTables(const QSqlDatabase &db)
{
    QStringList tables = db.tables();
    tables.sort();
    return tables;
}

bool exec(const QSqlDatabase &db, const QString &sql, QString *error = nullptr)
{
    QSqlQuery query(db);
    if (query.exec(sql))
        return true;
    if (error)
        *error = query.lastError().text();
    else
        qWarning("%s: %s", qPrintable(sql), qPrintable(query.lastError().text()));
    return false;
}

// Sets an environment variable for the scope, restoring what was there.
class ScopedEnv
{
public:
    ScopedEnv(const char *name, const QByteArray &value)
        : m_name(name)
        , m_had(qEnvironmentVariableIsSet(name))
        , m_old(qgetenv(name))
    {
        if (value.isNull())
            qunsetenv(name);
        else
            qputenv(name, value);
    }
    ~ScopedEnv()
    {
        if (m_had)
            qputenv(m_name, m_old);
        else
            qunsetenv(m_name);
    }
    ScopedEnv(const ScopedEnv &) = delete;
    ScopedEnv &operator=(const ScopedEnv &) = delete;

private:
    const char *m_name;
    bool m_had;
    QByteArray m_old;
};

// A user with a password on the MySQL test server, allowed into one database; dropped again.
class MySqlUser
{
public:
    MySqlUser(const QSqlDatabase &root, const QString &database)
        : m_root(root)
    {
        m_name = u"pw_"_qs + database.right(20);
        m_ok = exec(m_root, u"CREATE USER '%1'@'127.0.0.1' IDENTIFIED BY '%2'"_qs.arg(m_name, Password))
            && exec(m_root, u"GRANT ALL ON \"%1\".* TO '%2'@'127.0.0.1'"_qs.arg(database, m_name));
    }
    ~MySqlUser() { exec(m_root, u"DROP USER IF EXISTS '%1'@'127.0.0.1'"_qs.arg(m_name)); }
    MySqlUser(const MySqlUser &) = delete;
    MySqlUser &operator=(const MySqlUser &) = delete;

    static inline const QString Password = u"Pw-s3cret-42"_qs;
    bool ok() const { return m_ok; }
    QString name() const { return m_name; }

private:
    QSqlDatabase m_root;
    QString m_name;
    bool m_ok = false;
};

// The URL of `database` (a test database's URL) with another user and no password.
QString asUser(const QString &database, const QString &user)
{
    const DatabaseUrl url = parsedUrl(database);
    return u"mysql://%1@%2:%3/%4"_qs.arg(user, url.host()).arg(url.port()).arg(url.databaseName());
}

// An option file in `dir` holding `text`, with `mode`.
QString optionFile(const QTemporaryDir &dir, const QByteArray &text, int mode)
{
    const QString path = dir.filePath(u"my.cnf"_qs);
    QFile::remove(path);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size())
        return {};
    file.close();
    ::chmod(QFile::encodeName(path).constData(), mode_t(mode));
    return path;
}

} // namespace

class TestConnection : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        // A connection left registered or still referenced when removed is a leak the
        // dashboard would repeat on every reconnect.
        QTest::failOnWarning(QRegularExpression(u"still in use|duplicate connection name"_qs));
    }

    void cleanup() { QCOMPARE(QSqlDatabase::connectionNames(), QStringList()); }

    void freshSchemaValidates_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void freshSchemaValidates()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        {
            const auto setup = database->connect(false);
            QVERIFY(setup);
            QString error;
            QVERIFY2(Schema::create(setup->database(), &error), qPrintable(error));
            QCOMPARE(Schema::validate(setup->database()), QString());
            QVERIFY2(Schema::create(setup->database(), &error), qPrintable(error)); // idempotent
            QCOMPARE(Schema::validate(setup->database()), QString());
            const QStringList tables = setup->database().tables();
            for (const QString &table : NativeTables)
                QVERIFY2(tables.contains(table), qPrintable(table));
        }

        QString error;
        const auto connection
            = DbConnection::open(parsedUrl(database->url()), options(true), &error);
        QVERIFY2(connection, qPrintable(error));
        QVERIFY(connection->database().isOpen());
        QCOMPARE(connection->dialect().engine() == Engine::PostgreSql, engine == u"postgresql"_qs);
        QVERIFY(!connection->isReadOnly());
        QCOMPARE(
            scalar(connection->database(), u"SELECT COUNT(*) FROM delivery_outbox"_qs).toInt(), 0);
    }

    void missingColumnIsNamedAndNotAdded_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void missingColumnIsNamedAndNotAdded()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto setup = database->connect(false);
        QVERIFY(setup);
        const QSqlDatabase db = setup->database();
        QString error;
        QVERIFY2(Schema::create(db, &error), qPrintable(error));
        // An older hand-made outbox table: every column but lease_until.
        QVERIFY(exec(db, u"DROP TABLE delivery_attempt"_qs));
        QVERIFY(exec(db, u"DROP TABLE replay_log"_qs));
        QVERIFY(exec(db, u"DROP TABLE resolve_log"_qs));
        QVERIFY(exec(db, u"DROP TABLE reopen_log"_qs));
        QVERIFY(exec(db, u"DROP TABLE payload_revision"_qs));
        QVERIFY(exec(db, u"DROP TABLE delivery_outbox"_qs));
        QVERIFY(exec(db,
            u"CREATE TABLE delivery_outbox (event_id VARCHAR(255) PRIMARY KEY, aggregate_type TEXT NOT "
            u"NULL,"
            " aggregate_id TEXT NOT NULL, event_type TEXT NOT NULL, payload TEXT NOT NULL,"
            " status TEXT NOT NULL, failures INTEGER NOT NULL DEFAULT 0, next_attempt_at BIGINT "
            "NOT NULL,"
            " claim_token TEXT, created_at BIGINT NOT NULL, delivered_at BIGINT,"
            " last_error_category TEXT, last_error TEXT)"_qs));
        QVERIFY(exec(db,
            u"INSERT INTO delivery_outbox (event_id, aggregate_type, aggregate_id, event_type, "
            u"payload,"
            " status, next_attempt_at, created_at) VALUES ('EVENT-1', 'order', '1', 'placed', '{}',"
            " 'PENDING', 0, 0)"_qs));
        const QStringList tablesBefore = sortedTables(db);

        error.clear();
        const auto connection
            = DbConnection::open(parsedUrl(database->url()), options(true), &error);
        QVERIFY(!connection);
        // Every gap at once, not only the first.
        const QString gaps = u"missing tables delivery_attempt, replay_log (run `outboxctl init "
                             "--db URL` to create the schema); delivery_outbox: missing column "
                             "lease_until"_qs;
        QCOMPARE(error, gaps);

        // Nothing was created or altered: the column is still missing, the row still there.
        const QSqlRecord record = db.record(u"delivery_outbox"_qs);
        QVERIFY(record.contains(u"claim_token"_qs));
        QVERIFY(!record.contains(u"lease_until"_qs));
        QCOMPARE(sortedTables(db), tablesBefore);
        QVERIFY(!tablesBefore.contains(u"delivery_attempt"_qs));
        QCOMPARE(scalar(db, u"SELECT COUNT(*) FROM delivery_outbox"_qs).toInt(), 1);
        QCOMPARE(Schema::validate(db), gaps);
    }

    void emptyDatabaseIsNamedAndNotInitialised_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void emptyDatabaseIsNamedAndNotInitialised()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);

        QString error;
        const auto connection
            = DbConnection::open(parsedUrl(database->url()), options(true, true), &error);
        QVERIFY(!connection);
        QVERIFY2(error.contains(u"missing table delivery_outbox"_qs), qPrintable(error));
        QVERIFY2(
            error.contains(u"outboxctl init"_qs), qPrintable(error)); // tells the user the way out

        const auto inspect = database->connect(false);
        QVERIFY(inspect);
        QCOMPARE(inspect->database().tables(), QStringList());
    }

    void sqliteMissingFileIsNotCreated_data()
    {
        QTest::addColumn<bool>("readOnly");
        QTest::addRow("read-write") << false;
        QTest::addRow("read-only") << true;
    }
    void sqliteMissingFileIsNotCreated()
    {
        QFETCH(bool, readOnly);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(u"typo.sqlite"_qs);

        QString error;
        for (const bool validate : {true, false}) {
            const auto connection = DbConnection::open(
                parsedUrl(u"sqlite:"_qs + path), options(validate, false, readOnly), &error);
            QVERIFY(!connection);
            QVERIFY2(error.contains(u"not found"_qs), qPrintable(error));
            QVERIFY2(error.contains(path), qPrintable(error));
            QVERIFY(!QFile::exists(path));
        }
    }

    void readOnlyConnectionCannotWrite_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void readOnlyConnectionCannotWrite()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        {
            const auto writer = database->initialise(); // `outboxctl init` ran and finished
            QVERIFY(writer);
        }

        QString error;
        const auto reader
            = DbConnection::open(parsedUrl(database->url()), options(true, false, true), &error);
        QVERIFY2(reader, qPrintable(error));
        QVERIFY(reader->isReadOnly());
        const QSqlDatabase db = reader->database();
        QCOMPARE(scalar(db, u"SELECT value FROM outbox_meta WHERE \"key\" = 'purpose'"_qs).toString(),
            u"simulation"_qs);
        QVERIFY(Schema::isMarkedForSimulation(db));
        const int before = scalar(db, u"SELECT COUNT(*) FROM outbox_meta"_qs).toInt();
        QCOMPARE(before, 2); // purpose and schema_version

        QVERIFY(
            !exec(db, u"INSERT INTO outbox_meta (\"key\", value) VALUES ('intruder', 'x')"_qs, &error));
        QVERIFY2(error.contains(u"read-only"_qs) || error.contains(u"readonly"_qs)
                || error.contains(u"READ ONLY"_qs),
            qPrintable(error));
        QVERIFY(!exec(db, u"UPDATE outbox_meta SET value = 'production'"_qs, &error));
        QVERIFY(!exec(db, u"CREATE TABLE intruder (x INTEGER)"_qs, &error));

        QCOMPARE(scalar(db, u"SELECT COUNT(*) FROM outbox_meta"_qs).toInt(), before);
        const auto check = database->connect(true);
        QVERIFY(check);
        QCOMPARE(scalar(check->database(), u"SELECT COUNT(*) FROM outbox_meta"_qs).toInt(), before);
        QVERIFY(Schema::isMarkedForSimulation(check->database()));
        QVERIFY(!check->database().tables().contains(u"intruder"_qs));
    }

    // A server that ends the session (a restart does the same): Qt's MySQL driver keeps saying isOpen(),
    // the next statement fails with 2006/2013, whose words name a lost connection; reopen()
    // gives a working session with the settings of the first one (ANSI quotes, ||, UTC,
    // read-only).
    void mySqlLostSessionIsNamedAndReopenedWithItsSettings()
    {
        FRESH_DATABASE(database, u"mysql"_qs);
        QVERIFY(database->initialise());
        QString error;
        const auto reader
            = DbConnection::open(parsedUrl(database->url()), options(true, false, true), &error);
        QVERIFY2(reader, qPrintable(error));
        QSqlDatabase db = reader->database();
        const qint64 id = scalar(db, u"SELECT CONNECTION_ID()"_qs).toLongLong();
        {
            const auto killer = database->connect(false);
            QVERIFY(killer && exec(killer->database(), u"KILL CONNECTION %1"_qs.arg(id)));
        }
        QVERIFY(!exec(db, u"SELECT COUNT(*) FROM delivery_outbox"_qs, &error));
        QVERIFY(db.isOpen()); // why the driver's state cannot tell
        const FailureCause cause = FailureCause::of(error);
        QVERIFY2(cause.unreachable, qPrintable(error));
        QVERIFY2(cause.plain.contains(u"connection"_qs), qPrintable(cause.plain));

        QVERIFY2(DbConnection::reopen(db, &error), qPrintable(error));
        QVERIFY(scalar(db, u"SELECT CONNECTION_ID()"_qs).toLongLong() != id);
        QCOMPARE(scalar(db, u"SELECT 'a' || 'b'"_qs).toString(), u"ab"_qs);
        QCOMPARE(scalar(db, u"SELECT @@session.time_zone"_qs).toString(), u"+00:00"_qs);
        QCOMPARE(scalar(db, u"SELECT \"key\" FROM outbox_meta WHERE \"key\" = 'purpose'"_qs)
                     .toString(),
            u"purpose"_qs);
        QVERIFY(!exec(db, u"UPDATE outbox_meta SET value = 'production'"_qs, &error));
        QVERIFY2(error.contains(u"READ ONLY"_qs), qPrintable(error));
    }

    // The password as the mysql client finds it: MYSQL_PWD, else the [client] section of the
    // option file (OUTBOX_HEALTH_MY_CNF here, ~/.my.cnf otherwise), which is refused when group
    // or others may read it, or when it is not a regular file. The password is never printed.
    void mySqlPasswordFromEnvironmentAndOptionFile()
    {
        FRESH_DATABASE(database, u"mysql"_qs);
        const auto root = database->initialise();
        QVERIFY(root);
        const QString dbName = parsedUrl(database->url()).databaseName();
        MySqlUser user(root->database(), dbName);
        QVERIFY(user.ok());
        const DatabaseUrl url = parsedUrl(asUser(database->url(), user.name()));
        QTemporaryDir home;
        QVERIFY(home.isValid());
        const ScopedEnv noFile("OUTBOX_HEALTH_MY_CNF", home.filePath(u"none.cnf"_qs).toUtf8());
        QString error;
        {
            const ScopedEnv pwd("MYSQL_PWD", QByteArray());
            QVERIFY(!DbConnection::open(url, options(true), &error));
            QVERIFY2(FailureCause::of(error).authentication, qPrintable(error));
        }
        {
            const ScopedEnv pwd("MYSQL_PWD", user.Password.toUtf8());
            const auto connection = DbConnection::open(url, options(true), &error);
            QVERIFY2(connection, qPrintable(error));
        }
        {
            const ScopedEnv pwd("MYSQL_PWD", "wrong-Pw-s3cret");
            QVERIFY(!DbConnection::open(url, options(true), &error));
            QVERIFY2(FailureCause::of(error).authentication, qPrintable(error));
            QVERIFY2(!error.contains(u"wrong-Pw-s3cret"_qs), qPrintable(error));
        }
        const ScopedEnv pwd("MYSQL_PWD", QByteArray());
        const QByteArray text = "[mysqld]\npassword=not-this\n[client]\nuser = " + user.name().toUtf8()
            + "\npassword = \"" + user.Password.toUtf8() + "\"\n";
        {
            const ScopedEnv file("OUTBOX_HEALTH_MY_CNF", optionFile(home, text, 0600).toUtf8());
            // The user comes from the file too, as `mysql -h HOST DB` takes it.
            const DatabaseUrl noUser = parsedUrl(u"mysql://%1:%2/%3"_qs.arg(url.host())
                                                     .arg(url.port())
                                                     .arg(dbName));
            const auto connection = DbConnection::open(noUser, options(true), &error);
            QVERIFY2(connection, qPrintable(error));
            QCOMPARE(scalar(connection->database(), u"SELECT CURRENT_USER()"_qs).toString(),
                user.name() + u"@127.0.0.1"_qs);
        }
        {
            const QString path = optionFile(home, text, 0644);
            const ScopedEnv file("OUTBOX_HEALTH_MY_CNF", path.toUtf8());
            QVERIFY(!DbConnection::open(url, options(true), &error));
            QVERIFY2(error.contains(path) && error.contains(u"0600"_qs), qPrintable(error));
            QVERIFY2(!error.contains(user.Password), qPrintable(error));
        }
        {
            const QString fifo = home.filePath(u"fifo.cnf"_qs);
            QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
            const ScopedEnv file("OUTBOX_HEALTH_MY_CNF", fifo.toUtf8());
            QElapsedTimer timer;
            timer.start();
            QVERIFY(!DbConnection::open(url, options(true), &error)); // and no hang
            QVERIFY2(error.contains(fifo), qPrintable(error));
            QVERIFY(timer.elapsed() < 5000);
        }
    }

    // ssl-mode=REQUIRED against the test server, which has no TLS: refused with a clear error,
    // and no session is left to use in plain text (also when the CA file is missing, where
    // Qt 6.4's driver would fall back to plain text by itself).
    void mySqlRequiredTlsWithoutTlsIsRefused_data()
    {
        QTest::addColumn<QString>("query");
        QTest::addRow("ssl-mode=REQUIRED") << u"ssl-mode=REQUIRED"_qs;
        QTest::addRow("missing CA file") << u"ssl-ca=/nonexistent/ca.pem"_qs;
    }
    void mySqlRequiredTlsWithoutTlsIsRefused()
    {
        QFETCH(QString, query);
        FRESH_DATABASE(database, u"mysql"_qs);
        QVERIFY(database->initialise());
        const QString text = database->url() + u"?"_qs + query;
        QString error;
        const DatabaseUrl url = DatabaseUrl::parse(text, &error);
        QVERIFY2(url.isValid(), qPrintable(error));
        QVERIFY(!DbConnection::open(url, options(true), &error));
        QVERIFY2(error.contains(u"TLS"_qs) || error.contains(u"SSL"_qs), qPrintable(error));
        QVERIFY2(error.contains(url.toDisplayString()), qPrintable(error));
        QCOMPARE(QSqlDatabase::connectionNames(), QStringList());
    }

    void unreachableServerIsNamedQuickly()
    {
        if (!QSqlDatabase::isDriverAvailable(SqlDialect::of(Engine::PostgreSql).qtDriver()))
            QSKIP("the PostgreSQL driver is not installed");
        QElapsedTimer timer;
        timer.start();
        QString error;
        const auto connection = DbConnection::open(
            parsedUrl(u"postgresql://127.0.0.1:1/nothing"_qs), options(true), &error);
        QVERIFY(!connection);
        QVERIFY2(timer.elapsed() < 6000, qPrintable(u"took %1 ms"_qs.arg(timer.elapsed())));
        QVERIFY2(error.contains(u"127.0.0.1"_qs), qPrintable(error));
    }

    void connectionErrorHidesThePassword()
    {
        if (!QSqlDatabase::isDriverAvailable(SqlDialect::of(Engine::PostgreSql).qtDriver()))
            QSKIP("the PostgreSQL driver is not installed");
        const DatabaseUrl url = parsedUrl(u"postgresql://u:s3cret@127.0.0.1:1/x"_qs);
        QCOMPARE(url.password(), u"s3cret"_qs);
        QString error;
        const auto connection = DbConnection::open(url, options(true), &error);
        QVERIFY(!connection);
        QVERIFY2(error.contains(u"127.0.0.1"_qs), qPrintable(error));
        QVERIFY2(!error.contains(u"s3cret"_qs), qPrintable(error));
    }

    void wrongPasswordIsRefusedWithoutEchoingIt()
    {
        const QString server = qEnvironmentVariable("OUTBOX_TEST_PG_URL");
        if (server.isEmpty())
            QSKIP("OUTBOX_TEST_PG_URL is not set");
        // A role that does not exist on the test server, with a password in the URL.
        DatabaseUrl serverUrl = parsedUrl(server);
        const QString text = u"postgresql://nosuchrole:s3cret@%1:%2/%3"_qs.arg(serverUrl.host())
                                 .arg(serverUrl.port())
                                 .arg(serverUrl.databaseName());
        QString error;
        const auto connection = DbConnection::open(parsedUrl(text), options(false), &error);
        QVERIFY(!connection);
        QVERIFY2(error.contains(u"nosuchrole"_qs), qPrintable(error));
        QVERIFY2(!error.contains(u"s3cret"_qs), qPrintable(error));
    }
};

OUTBOX_TEST_MAIN(TestConnection, QCoreApplication)

#include "tst_connection.moc"
