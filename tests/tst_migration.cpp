// `outboxctl migrate` on SQLite, PostgreSQL and MySQL, from a real version 1 database (the schema
// scripts as they were before RESOLVED, kept in tests/fixtures/schema-v1-*.sql): every row of
// every table and every index kept, RESOLVED allowed afterwards and nothing else, the current
// version recorded; from a version 2 database (schema-v2-*.sql) to version 3 the same way; a second
// run and a dry run change nothing; a read-only connection is refused with nothing changed; `check`
// names the command while the schema is old; `init` never migrates.
#include "fixturescript.h"
#include "outboxctlrun.h"
#include "schema.h"
#include "schemamigration.h"
#include "sqldialect.h"
#include "testdata.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QSqlError>
#include <QSqlRecord>

namespace {

// A version 1 (or, with `version` 2, a version 2) database with rows in every native table
// (test data, no user input).
bool makeVersion1(const QSqlDatabase &db, int version = 1)
{
    const Engine engine = SqlDialect::of(db).engine();
    const QString name = engine == Engine::PostgreSql ? u"postgresql"_qs
        : engine == Engine::MySql                     ? u"mysql"_qs
                                                      : u"sqlite"_qs;
    return runSqlScript(db, TestData::path(u"fixtures/schema-v%1-%2.sql"_qs.arg(version).arg(name)))
        && (version == 1
            || exec(db,
                u"INSERT INTO outbox_meta (\"key\", value) VALUES ('schema_version', '%1')"_qs.arg(
                    version)))
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
        && exec(
            db, u"INSERT INTO outbox_meta (\"key\", value) VALUES ('purpose', 'production')"_qs);
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

// MySQL: version 3 redefines delivery_outbox_pending with claim_token last (what the snapshot
// reads from the index alone) and delivery_outbox_unfinished_aggregate with the lease (what the
// diagnosis reads); older ones are expected back in that form.
void redefinedPendingIndex(QStringList *indexes)
{
    for (QString &index : *indexes) {
        if (index.startsWith(u"delivery_outbox_pending: "_qs) && !index.contains(u"claim_token"_qs))
            index.replace(u"last_error_category)"_qs, u"last_error_category,claim_token)"_qs);
        if (index.startsWith(u"delivery_outbox_unfinished_aggregate: "_qs)
            && !index.contains(u"lease_until"_qs))
            index.replace(u"created_at)"_qs, u"created_at,claim_token,lease_until)"_qs);
    }
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
        QCOMPARE(Schema::version(db, nullptr), Schema::CurrentVersion);
        QVERIFY(Schema::outdated(db).isEmpty());
        QCOMPARE(contents(db), rows);
        QStringList indexesAfter = indexes(db);
        if (engine == u"mysql"_qs)
            redefinedPendingIndex(&indexesBefore);
        for (const QString &index : indexesBefore)
            QVERIFY2(indexesAfter.removeOne(index), qPrintable(index));
        // new: RESOLVED, resolve_log, reopen_log, notes, payload_revision, the audit store of
        // actions through a profile (profile_audit), diagnosis and delivery latency ones
        for (QString &index : indexesAfter)
            index = index.section(u':', 0, 0);
        for (const QString &log : {u"resolve_log"_qs, u"reopen_log"_qs, u"operator_note"_qs,
                 u"payload_revision"_qs, u"profile_audit"_qs}) {
            indexesAfter.removeAll(log + u"_pkey"_qs);
            indexesAfter.removeAll(u"sqlite_autoindex_"_qs + log + u"_1"_qs);
        }
        indexesAfter.sort();
        // MySQL: DEAD and RESOLVED rows share delivery_outbox_state_created (no partial index).
        QStringList added {u"delivery_outbox_delivered"_qs, u"delivery_outbox_resolved"_qs,
            u"delivery_outbox_unfinished_aggregate"_qs, u"operator_note_event"_qs,
            u"operator_note_group"_qs, u"payload_revision_event"_qs, u"profile_audit_outbox"_qs,
            u"reopen_log_event"_qs, u"resolve_log_event"_qs};
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

    // A version 2 database (the script as it was, tests/fixtures/schema-v2-*.sql) keeps resolve
    // and reopen (they need version 2 only), is told what version 3 adds, and migrates to it with
    // every row and index kept; on MySQL its PENDING index gains claim_token.
    void migrateFromVersion2_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void migrateFromVersion2()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        QStringList rows, indexesBefore;
        {
            const auto connection = database->connect(false);
            QVERIFY(connection);
            const QSqlDatabase db = connection->database();
            QVERIFY(makeVersion1(db, 2));
            QCOMPARE(Schema::version(db, nullptr), 2);
            QVERIFY(Schema::outdatedMessage(2, Schema::ResolveVersion).isEmpty());
            QVERIFY2(Schema::outdated(db).contains(u"no notes, no payload revisions"_qs),
                qPrintable(Schema::outdated(db)));
            rows = contents(db);
            indexesBefore = indexes(db);
        }
        const Run resolve = outboxctl({u"resolve"_qs, u"--db"_qs, database->url(), u"--event"_qs,
            u"N-dead"_qs, u"--operator"_qs, u"alice"_qs, u"--reason"_qs, u"known"_qs});
        QVERIFY2(resolve.exitCode == 0, qPrintable((resolve.out + resolve.err).join(u'\n')));
        const Run reopen = outboxctl({u"reopen"_qs, u"--db"_qs, database->url(), u"--event"_qs,
            u"N-dead"_qs, u"--operator"_qs, u"alice"_qs, u"--reason"_qs, u"not yet"_qs});
        QVERIFY2(reopen.exitCode == 0, qPrintable((reopen.out + reopen.err).join(u'\n')));
        {
            const auto connection = database->connect();
            rows = contents(connection->database()); // as resolve and reopen left them
        }

        const QStringList dry = migrate(database->url(), {u"--dry-run"_qs});
        QVERIFY2(dry.at(1).contains(u"schema version 2 -> %1"_qs.arg(Schema::CurrentVersion)),
            qPrintable(dry.join(u'\n')));
        QCOMPARE(dry.filter(u"claim_token"_qs).size(), engine == u"mysql"_qs ? 1 : 0);
        const QStringList run = migrate(database->url());
        QCOMPARE(run.constFirst(), u"0"_qs);
        QVERIFY2(run.constLast().startsWith(u"migrated "_qs), qPrintable(run.join(u'\n')));

        const auto connection = database->connect();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        QCOMPARE(Schema::version(db, nullptr), Schema::CurrentVersion);
        QVERIFY(Schema::outdated(db).isEmpty());
        QCOMPARE(contents(db), rows);
        if (engine == u"mysql"_qs)
            redefinedPendingIndex(&indexesBefore);
        QStringList indexesAfter = indexes(db);
        for (const QString &index : indexesBefore)
            QVERIFY2(indexesAfter.removeOne(index), qPrintable(index));
        // What version 3 added (its tables' own indexes) is all that is new.
        for (const QString &index : std::as_const(indexesAfter)) {
            QVERIFY2(
                !index.contains(u"delivery_outbox"_qs) && !index.contains(u"delivery_attempt"_qs),
                qPrintable(index));
        }
        const QStringList again = migrate(database->url());
        QVERIFY2(again.constLast().endsWith(u"already; nothing to do"_qs),
            qPrintable(again.join(u'\n')));
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
        QVERIFY2(dry.at(1).contains(u"schema version 1 -> %1"_qs.arg(Schema::CurrentVersion)),
            qPrintable(dry.join(u'\n')));
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
        QVERIFY2(
            again.constLast().endsWith(
                u"is at schema version %1 already; nothing to do"_qs.arg(Schema::CurrentVersion)),
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
                              "version %1"_qs.arg(Schema::CurrentVersion))
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
