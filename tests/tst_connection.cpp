// Opening a database from a URL on SQLite and PostgreSQL: a database with the native schema
// opens, a missing table or column is named and never repaired behind the user's back, a
// read-only connection cannot write, and a failed connection says why without the password.
#include "dbconnection.h"
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
        QVERIFY(exec(db, u"DROP TABLE delivery_outbox"_qs));
        QVERIFY(exec(db,
            u"CREATE TABLE delivery_outbox (event_id TEXT PRIMARY KEY, aggregate_type TEXT NOT "
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
        QVERIFY2(
            error.contains(u"read-only"_qs) || error.contains(u"readonly"_qs), qPrintable(error));
        QVERIFY(!exec(db, u"UPDATE outbox_meta SET value = 'production'"_qs, &error));
        QVERIFY(!exec(db, u"CREATE TABLE intruder (x INTEGER)"_qs, &error));

        QCOMPARE(scalar(db, u"SELECT COUNT(*) FROM outbox_meta"_qs).toInt(), before);
        const auto check = database->connect(true);
        QVERIFY(check);
        QCOMPARE(scalar(check->database(), u"SELECT COUNT(*) FROM outbox_meta"_qs).toInt(), before);
        QVERIFY(Schema::isMarkedForSimulation(check->database()));
        QVERIFY(!check->database().tables().contains(u"intruder"_qs));
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
