// `outboxctl migrate` on SQLite, PostgreSQL and MySQL, from a real version 1 database (the schema
// scripts as they were before RESOLVED, kept in tests/fixtures/schema-v1-*.sql): every row of
// every table and every index kept, RESOLVED allowed afterwards and nothing else, version 2
// recorded; a second run and a dry run change nothing; a read-only connection is refused with
// nothing changed; `check` names the command while the schema is old; `init` never migrates.
#include "fixturescript.h"
#include "testdata.h"
#include "outboxctlrun.h"
#include "schema.h"
#include "schemamigration.h"
#include "sqldialect.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QSqlError>
#include <QSqlRecord>

namespace {

// A version 1 database with rows in every native table (test data, no user input).
bool makeVersion1(const QSqlDatabase &db)
{
    const Engine engine = SqlDialect::of(db).engine();
    const QString name = engine == Engine::PostgreSql ? u"postgresql"_qs
        : engine == Engine::MySql                     ? u"mysql"_qs
                                                      : u"sqlite"_qs;
    return runSqlScript(db, TestData::path(u"fixtures/schema-v1-%1.sql"_qs.arg(name)))
        && runSqlScript(db, TestData::path("fixtures/native.sql"))
        && exec(db,
            u"INSERT INTO delivery_attempt (event_id, attempt_no, worker, claim_token, claimed_at,"
            " finished_at, outcome, error_category, error_message) VALUES"
            " ('N-dead', 1, 'w1', 'a', 1799990000000, 1799990000100, 'RETRY', 'TRANSIENT', 'x'),"
            " ('N-dead', 2, 'w1', 'b', 1799995000000, 1799995000100, 'DEAD', 'TRANSIENT', 'y'),"
            " ('N-delivered-1', 1, 'w2', 'c', 1799999900000, 1799999900100, 'DELIVERED', NULL,"
            " NULL)"_qs)
        && exec(db,
            u"INSERT INTO replay_log (event_id, replayed_at, operator, reason, reset_failures,"
            " failures_before) VALUES ('N-delivered-2', 1799999905000, 'alice', 'broker back',"
            " FALSE, 1)"_qs)
        && exec(db,
            u"INSERT INTO consumer_ledger (event_id, applied_at) VALUES ('N-delivered-1', 5)"_qs)
        && exec(db, u"INSERT INTO consumer_stock (sku, quantity) VALUES ('SKU-3', 7)"_qs)
        && exec(db, u"INSERT INTO outbox_meta (\"key\", value) VALUES ('purpose', 'production')"_qs);
}

// Every row of every version 1 table, in key order, as text.
QStringList contents(const QSqlDatabase &db)
{
    QStringList out;
    for (const QString &table : {u"delivery_outbox"_qs, u"delivery_attempt"_qs,
             u"consumer_ledger"_qs, u"consumer_stock"_qs, u"replay_log"_qs, u"outbox_meta"_qs}) {
        QSqlQuery query(db);
        // outbox_meta gains schema_version: compared without it.
        const QString where
            = table == u"outbox_meta"_qs ? u" WHERE \"key\" <> 'schema_version'"_qs : QString();
        if (!query.exec(u"SELECT * FROM "_qs + table + where + u" ORDER BY 1"_qs)) {
            out << table + u": "_qs + query.lastError().text();
            continue;
        }
        while (query.next()) {
            QStringList values;
            for (int i = 0; i < query.record().count(); ++i)
                values << query.record().fieldName(i) + u"="_qs
                        + (query.isNull(i) ? u"NULL"_qs : query.value(i).toString());
            out << table + u": "_qs + values.join(u", "_qs);
        }
    }
    return out;
}

// Name and definition of every index on the native tables.
QStringList indexes(const QSqlDatabase &db)
{
    QSqlQuery query(db);
    const Engine engine = SqlDialect::of(db).engine();
    // MySQL: one row per index, its table and its columns in order (names unique per table).
    query.exec(engine == Engine::PostgreSql
            ? u"SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema()"
              " ORDER BY 1"_qs
            : engine == Engine::MySql
            ? u"SELECT CASE WHEN INDEX_NAME = 'PRIMARY' THEN TABLE_NAME || '_pkey'"
              " ELSE INDEX_NAME END,"
              " TABLE_NAME || ' (' || GROUP_CONCAT(COLUMN_NAME ORDER BY SEQ_IN_INDEX) || ')'"
              " FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = DATABASE()"
              " GROUP BY TABLE_NAME, INDEX_NAME ORDER BY 1"_qs
            : u"SELECT name, COALESCE(sql, '(automatic)') FROM sqlite_master WHERE type = 'index'"
              " ORDER BY 1"_qs);
    QStringList out;
    while (query.next())
        out << query.value(0).toString() + u": "_qs + query.value(1).toString();
    return out;
}

bool statusAccepted(const QSqlDatabase &db, const QString &status)
{
    QSqlQuery query(db);
    query.prepare(u"UPDATE delivery_outbox SET status = :status WHERE event_id = 'N-dead'"_qs);
    query.bindValue(u":status"_qs, status);
    const bool ok = query.exec();
    // put it back: the comparisons after this one still see the row as it was
    exec(db, u"UPDATE delivery_outbox SET status = 'DEAD' WHERE event_id = 'N-dead'"_qs);
    return ok;
}

QStringList migrate(const QString &url, const QStringList &extra = {})
{
    const Run run = outboxctl(QStringList {u"migrate"_qs, u"--db"_qs, url} + extra);
    return QStringList {QString::number(run.exitCode)} + run.out + run.err;
}

} // namespace

class TestMigration : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo::exists(qEnvironmentVariable("OUTBOXCTL")),
            "OUTBOXCTL must name the binary (set by CTest)");
    }

    void migrateKeepsEveryRowAndIndex_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void migrateKeepsEveryRowAndIndex()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        QStringList rows, indexesBefore;
        {
            const auto connection = database->connect(false);
            QVERIFY(connection);
            const QSqlDatabase db = connection->database();
            QVERIFY(makeVersion1(db));
            QCOMPARE(Schema::version(db, nullptr), 1);
            QVERIFY(!statusAccepted(db, u"RESOLVED"_qs));
            rows = contents(db);
            indexesBefore = indexes(db);
            QCOMPARE(rows.size(), 9 + 3 + 1 + 1 + 1 + 1);
        }

        const QStringList run = migrate(database->url());
        QCOMPARE(run.constFirst(), u"0"_qs);
        QVERIFY2(run.constLast().startsWith(u"migrated "_qs), qPrintable(run.join(u'\n')));

        const auto connection = database->connect();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        QCOMPARE(Schema::version(db, nullptr), 2);
        QVERIFY(Schema::outdated(db).isEmpty());
        QCOMPARE(contents(db), rows);
        QStringList indexesAfter = indexes(db);
        for (const QString &index : indexesBefore)
            QVERIFY2(indexesAfter.removeOne(index), qPrintable(index));
        // new: RESOLVED, resolve_log, reopen_log, diagnosis and delivery latency ones
        for (QString &index : indexesAfter)
            index = index.section(u':', 0, 0);
        for (const QString &log : {u"resolve_log"_qs, u"reopen_log"_qs}) {
            indexesAfter.removeAll(log + u"_pkey"_qs);
            indexesAfter.removeAll(u"sqlite_autoindex_"_qs + log + u"_1"_qs);
        }
        indexesAfter.sort();
        // MySQL: DEAD and RESOLVED rows share delivery_outbox_state_created (no partial index).
        QStringList added {u"delivery_outbox_delivered"_qs, u"delivery_outbox_resolved"_qs,
            u"delivery_outbox_unfinished_aggregate"_qs, u"reopen_log_event"_qs,
            u"resolve_log_event"_qs};
        if (engine == u"mysql"_qs)
            added.removeOne(u"delivery_outbox_resolved"_qs);
        QCOMPARE(indexesAfter, added);
        QVERIFY(statusAccepted(db, u"RESOLVED"_qs));
        QVERIFY(!statusAccepted(db, u"BOGUS"_qs));
        QVERIFY(!db.record(u"resolve_log"_qs).isEmpty());
        QVERIFY(!db.record(u"reopen_log"_qs).isEmpty());
        // The foreign keys still hold after SQLite's rebuild.
        QVERIFY(!exec(db,
            u"INSERT INTO delivery_attempt (event_id, attempt_no, worker, claim_token, claimed_at)"
            " VALUES ('no-such-event', 1, 'w', 't', 0)"_qs));
    }

    void migrateIsIdempotentAndDryRunChangesNothing_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void migrateIsIdempotentAndDryRunChangesNothing()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        QStringList rows;
        {
            const auto connection = database->connect(false);
            QVERIFY(connection);
            QVERIFY(makeVersion1(connection->database()));
            rows = contents(connection->database());
        }
        const QStringList dry = migrate(database->url(), {u"--dry-run"_qs});
        QCOMPARE(dry.constFirst(), u"0"_qs);
        QVERIFY2(dry.at(1).contains(u"schema version 1 -> 2"_qs), qPrintable(dry.join(u'\n')));
        QCOMPARE(dry.constLast(), u"nothing changed"_qs);
        {
            const auto connection = database->connect();
            QCOMPARE(Schema::version(connection->database(), nullptr), 1);
            QVERIFY(!statusAccepted(connection->database(), u"RESOLVED"_qs));
            QVERIFY(connection->database().record(u"resolve_log"_qs).isEmpty());
        }
        QCOMPARE(migrate(database->url()).constFirst(), u"0"_qs);
        const QStringList again = migrate(database->url());
        QCOMPARE(again.constFirst(), u"0"_qs);
        QVERIFY2(again.constLast().endsWith(u"is at schema version 2 already; nothing to do"_qs),
            qPrintable(again.join(u'\n')));
        const auto connection = database->connect();
        QCOMPARE(contents(connection->database()), rows);
    }

    void readOnlyIsRefusedAndChangesNothing_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void readOnlyIsRefusedAndChangesNothing()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        {
            const auto connection = database->connect(false);
            QVERIFY(makeVersion1(connection->database()));
        }
        QString error;
        const DatabaseUrl url = DatabaseUrl::parse(database->url(), &error);
        OpenOptions options;
        options.readOnly = true;
        const auto readOnly = DbConnection::open(url, options, &error);
        QVERIFY2(readOnly, qPrintable(error));
        SchemaMigration migration(readOnly->database());
        QVERIFY(!migration.migrate(true, &error));
        QCOMPARE(error, u"the connection is read-only: nothing migrated"_qs);
        // Even when the caller forgets to say so, the engine refuses and everything rolls back.
        error.clear();
        QVERIFY(!migration.migrate(false, &error));
        QVERIFY(!error.isEmpty());
        const auto connection = database->connect();
        QCOMPARE(Schema::version(connection->database(), nullptr), 1);
        QVERIFY(!statusAccepted(connection->database(), u"RESOLVED"_qs));
        QCOMPARE(
            scalar(connection->database(), u"SELECT COUNT(*) FROM delivery_outbox"_qs).toInt(), 9);
    }

    // `check` tells an operator the schema is older and what to run; `init` never migrates.
    void oldSchemaIsNamedNeverMigrated_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void oldSchemaIsNamedNeverMigrated()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        {
            const auto connection = database->connect(false);
            QVERIFY(makeVersion1(connection->database()));
        }
        const Run init = outboxctl({u"init"_qs, u"--db"_qs, database->url()});
        QCOMPARE(init.exitCode, 0);
        QVERIFY2(init.out.constLast().contains(u"run `outboxctl migrate --db URL`"_qs),
            qPrintable(init.out.join(u'\n')));
        const Run check = outboxctl({u"check"_qs, u"--db"_qs, database->url(), u"--now"_qs,
            u"1800000000000"_qs, u"--no-default-thresholds"_qs});
        QCOMPARE(check.exitCode, 0);
        QVERIFY2(!check.out
                      .filter(u"schema:   the schema is version 1, older than this program's "
                              "version 2"_qs)
                      .isEmpty(),
            qPrintable(check.out.join(u'\n')));
        const Run json = outboxctl({u"check"_qs, u"--db"_qs, database->url(), u"--now"_qs,
            u"1800000000000"_qs, u"--json"_qs});
        QVERIFY(!json.out.constFirst().contains(u"resolved"_qs));
        const auto connection = database->connect();
        QCOMPARE(Schema::version(connection->database(), nullptr), 1);
        QVERIFY(!statusAccepted(connection->database(), u"RESOLVED"_qs));
        QVERIFY(Schema::outdated(connection->database()).contains(u"outboxctl migrate"_qs));
    }
};

OUTBOX_TEST_MAIN(TestMigration, QCoreApplication)
#include "tst_migration.moc"
