// Each engine's SqlDialect against its own engine: the fragments do what they say (a row lock
// really locks, the ID set really binds, the read-only transaction really refuses a write,
// the session set-up holds), and every capability flag agrees with what the server does.
#include "readonlytransaction.h"
#include "sqldialect.h"
#include "sqltext.h"
#include "sqltransaction.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QSqlError>
#include <QSqlRecord>

namespace {

bool runs(const QSqlDatabase &db, const QString &sql)
{
    QSqlQuery query(db);
    return query.exec(sql);
}

// Runs `sql` inside a transaction that is rolled back: whether the engine accepted it.
bool runsAndRollsBack(const QSqlDatabase &db, const QString &sql)
{
    SqlTransaction transaction(db);
    return transaction.isActive() && runs(db, sql);
}

} // namespace

class TestDialect : public QObject
{
    Q_OBJECT

private slots:
    void connectionHandsOutItsEnginesDialect_data() { engines(); }
    void connectionHandsOutItsEnginesDialect()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const SqlDialect &dialect = connection->dialect();
        QCOMPARE(&SqlDialect::of(connection->database()), &dialect);
        QCOMPARE(&SqlDialect::of(dialect.engine()), &dialect);
        QCOMPARE(dialect.keyPrefix(), engine);
        QVERIFY(dialect.urlSchemes().contains(database->url().section(u':', 0, 0)));
        QCOMPARE(dialect.can().fileDatabase, connection->url().isFile());
        QVERIFY(QSqlDatabase::isDriverAvailable(dialect.qtDriver()));
    }

    // The session set-up holds: a reference to a missing event is refused on every engine
    // (SQLite enforces foreign keys only when the session asks).
    void sessionEnforcesForeignKeys_data() { engines(); }
    void sessionEnforcesForeignKeys()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        QVERIFY(!runs(connection->database(),
            u"INSERT INTO replay_log (event_id, replayed_at, operator, reason, reset_failures,"
            " failures_before) VALUES ('NO-SUCH-EVENT', 1, 'alice', 'test', FALSE, 0)"_qs));
    }

    void rowLockClauseLocks_data() { engines(); }
    void rowLockClauseLocks()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto holder = database->initialise();
        const auto other = database->connect();
        QVERIFY(holder && other);
        const SqlDialect &dialect = holder->dialect();
        const QString select = u"SELECT key FROM outbox_meta WHERE key = 'purpose'"_qs;
        SqlTransaction holding(holder->database());
        QVERIFY(holding.isActive());
        QSqlQuery locked(holder->database());
        QVERIFY2(locked.exec(select + dialect.rowLockClause()) && locked.next(),
            qPrintable(locked.lastError().text()));
        if (dialect.can().skipLocked) {
            // Another transaction passes over the locked row, and finds it once it is free.
            SqlTransaction skipping(other->database());
            QSqlQuery skipped(other->database());
            QVERIFY(skipped.exec(select + dialect.skipLockedClause()));
            QVERIFY(!skipped.next());
            skipped.finish();
            QVERIFY(skipping.commit());
            QVERIFY(holding.commit());
            QVERIFY(skipped.exec(select + dialect.skipLockedClause()) && skipped.next());
            return;
        }
        // Without row locks the write transaction itself holds the lock: a second writer that
        // will not wait is refused until the first has finished.
        QVERIFY(dialect.rowLockClause().isEmpty() && dialect.skipLockedClause().isEmpty());
        QVERIFY(runs(other->database(), u"PRAGMA busy_timeout = 0"_qs));
        QVERIFY(!runs(other->database(), dialect.beginWriteSql()));
        locked.finish();
        QVERIFY(holding.commit());
        QVERIFY(runs(other->database(), dialect.beginWriteSql()));
        QVERIFY(runs(other->database(), u"ROLLBACK"_qs));
    }

    // The IDs arrive as one bound value, whatever they hold: never part of the SQL.
    void idSetBindsEveryId_data() { engines(); }
    void idSetBindsEveryId()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        QSqlQuery query(connection->database());
        QVERIFY(query.prepare(u"SELECT * FROM ("_qs + connection->dialect().idSetSelect(u":ids"_qs)
            + u") ids ORDER BY 1"_qs));
        query.bindValue(u":ids"_qs, u"[\"E-1\", \"it's\", \"x); DROP TABLE outbox_meta; --\"]"_qs);
        QVERIFY2(query.exec(), qPrintable(query.lastError().text()));
        QStringList ids;
        while (query.next())
            ids << query.value(0).toString();
        QCOMPARE(ids, QStringList({u"E-1"_qs, u"it's"_qs, u"x); DROP TABLE outbox_meta; --"_qs}));
        QVERIFY(connection->dialect().can().arrayParameters);
        QVERIFY(!connection->database().record(u"outbox_meta"_qs).isEmpty());
    }

    // Nothing written inside the read-only transaction, and the session writes again after it.
    void readOnlyTransactionRefusesWrites_data() { engines(); }
    void readOnlyTransactionRefusesWrites()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        const QString insert = u"INSERT INTO outbox_meta (key, value) VALUES ('%1', 'x')"_qs;
        {
            ReadOnlyTransaction transaction(db);
            QVERIFY2(transaction.isActive(), qPrintable(transaction.errorText()));
            QSqlQuery *write = transaction.prepare(insert.arg(u"inside"_qs));
            QVERIFY(!write || !write->exec());
        }
        QCOMPARE(
            scalar(db, u"SELECT COUNT(*) FROM outbox_meta WHERE key = 'inside'"_qs).toInt(), 0);
        QVERIFY(runs(db, insert.arg(u"after"_qs)));
        QCOMPARE(scalar(db, u"SELECT COUNT(*) FROM outbox_meta WHERE key = 'after'"_qs).toInt(), 1);
    }

    void existenceFragmentsAnswer_data() { engines(); }
    void existenceFragmentsAnswer()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        const SqlDialect &dialect = connection->dialect();
        QVERIFY(scalar(db, dialect.tableExistsSql(u"delivery_outbox"_qs)).toBool());
        QVERIFY(!scalar(db, dialect.tableExistsSql(u"no_such_table"_qs)).toBool());
        QVERIFY(!scalar(db, dialect.tableExistsSql(u"it's"_qs)).toBool());
        QVERIFY(scalar(db, dialect.indexExistsSql(u"delivery_outbox_delivered"_qs)).toBool());
        QVERIFY(!scalar(db, dialect.indexExistsSql(u"no_such_index"_qs)).toBool());
    }

    // Each flag against the server: what the flag promises runs, what it denies is refused.
    void capabilitiesAgreeWithTheServer_data() { engines(); }
    void capabilitiesAgreeWithTheServer()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        const SqlDialect::Capabilities &can = connection->dialect().can();
        const QString meta = u"SELECT key FROM outbox_meta"_qs;
        QCOMPARE(runsAndRollsBack(db, meta + u" FOR UPDATE"_qs), can.rowLocks);
        QCOMPARE(runsAndRollsBack(db, meta + u" FOR UPDATE SKIP LOCKED"_qs), can.skipLocked);
        QCOMPARE(runsAndRollsBack(db,
                     u"WITH added AS (INSERT INTO outbox_meta (key, value) VALUES ('k', 'v')"
                     " RETURNING key) SELECT COUNT(*) FROM added"_qs),
            can.writableCtes);
        QCOMPARE(runs(db,
                     u"SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY v)"
                     " FROM (SELECT 1 AS v) t"_qs),
            can.percentileDisc);
        QCOMPARE(runs(db, u"SELECT 'a' COLLATE \"C\" < 'b'"_qs), can.localeCollations);
        QVERIFY(runs(db, u"CREATE TABLE probe (n BIGINT)"_qs));
        QCOMPARE(
            !runs(db, u"INSERT INTO probe (n) VALUES ('yesterday')"_qs), can.strictColumnTypes);
        QCOMPARE(runs(db, u"ALTER TABLE probe ADD CONSTRAINT positive CHECK (n > 0)"_qs),
            can.alterConstraints);
        QCOMPARE(runs(db, u"TRUNCATE probe"_qs), can.seriesGeneration);
        {
            SqlTransaction transaction(db);
            QVERIFY(runs(db, u"CREATE TABLE rolled_back (n INTEGER)"_qs));
        }
        QCOMPARE(db.record(u"rolled_back"_qs).isEmpty(), can.transactionalDdl);
        QCOMPARE(runs(db, u"SELECT reltuples FROM pg_class LIMIT 1"_qs), can.catalogueRowEstimates);
    }

    // A second connection cancels the first one's backend where the engine can.
    void cancelReachesTheBackend_data() { engines(); }
    void cancelReachesTheBackend()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto target = database->initialise();
        const auto canceller = database->connect();
        QVERIFY(target && canceller);
        const SqlDialect &dialect = target->dialect();
        if (!dialect.can().serverSideCancel) {
            QVERIFY(dialect.backendIdSql().isEmpty() && dialect.cancelSql(u":pid"_qs).isEmpty());
            return;
        }
        const int pid = scalar(target->database(), dialect.backendIdSql()).toInt();
        QVERIFY(pid > 0);
        QSqlQuery cancel(canceller->database());
        QVERIFY(cancel.prepare(dialect.cancelSql(u":pid"_qs)));
        cancel.bindValue(u":pid"_qs, pid);
        QVERIFY(cancel.exec() && cancel.next());
        QVERIFY(cancel.value(0).toBool()); // the backend was found and signalled
    }

    // The planner limits, where there are any, run inside a read-only transaction.
    void plannerLimitsRunReadOnly_data() { engines(); }
    void plannerLimitsRunReadOnly()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QString limits
            = connection->dialect().plannerLimitsSql(SqlDialect::Scope::Transaction);
        if (limits.isEmpty())
            return;
        ReadOnlyTransaction transaction(connection->database());
        QSqlQuery *query = transaction.prepare(limits);
        QVERIFY2(query && query->exec(), qPrintable(transaction.errorText()));
    }

    // The lexical rules SqlText takes from the dialect are the server's: a `;` inside the
    // engine's own quoting is one statement to SqlText and to the server alike.
    void readingsAgreeWithTheServer_data() { engines(); }
    void readingsAgreeWithTheServer()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const SqlDialect &dialect = connection->dialect();
        QStringList quoted = {u"SELECT 'a;b'"_qs, u"SELECT 1 /* ; */"_qs};
        for (const SqlText::Reading &reading : dialect.readings()) {
            if (reading.dollarQuotes)
                quoted << u"SELECT $q$a;b$q$"_qs;
            if (reading.bracketIdentifiers)
                quoted << u"SELECT [a;b] FROM (SELECT 1 AS [a;b])"_qs;
        }
        for (const QString &sql : std::as_const(quoted)) {
            QVERIFY2(!SqlText::hasSeveralStatements(sql, dialect.engine()), qPrintable(sql));
            QVERIFY2(runs(connection->database(), sql), qPrintable(sql));
        }
        QVERIFY(SqlText::hasSeveralStatements(u"SELECT 1; SELECT 2"_qs, dialect.engine()));
    }

private:
    static void engines()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
};

OUTBOX_TEST_MAIN(TestDialect, QCoreApplication)
#include "tst_dialect.moc"
