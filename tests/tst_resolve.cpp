// Resolving DEAD events without delivery, on SQLite and PostgreSQL: `outboxctl resolve` for one
// event, in bulk narrowed like replay, as a dry run and as JSON; two operators racing on their
// own connections resolve each event exactly once, with one resolve_log row; a read-only
// connection, a version 1 schema, a blank reason and another library's schema are refused with
// nothing changed; `check` counts RESOLVED apart from DEAD.
#include "fixturescript.h"
#include "outboxctlrun.h"
#include "resolver.h"
#include "schema.h"
#include "stateevents.h"
#include "testdata.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlError>
#include <thread>

namespace {

QStringList resolveLog(const QSqlDatabase &db)
{
    return auditLines(db, u"resolve_log"_qs, u"resolved_at"_qs);
}

QStringList resolveArgs(const QString &url, const QStringList &selection)
{
    return operatorArgs(
        u"resolve"_qs, url, selection, u"alice"_qs, u"order cancelled"_qs, u"10000"_qs);
}

// Resolves `ids` on a connection of its own (opened and closed on the calling thread).
ResolveResult resolveOn(const QString &urlText, const QStringList &ids, const QString &who)
{
    QString error;
    const auto connection = DbConnection::open(DatabaseUrl::parse(urlText, &error), {}, &error);
    if (!connection)
        return {{}, {}, error};
    Resolver resolver(connection->database());
    return resolver.resolve({ids, who, u"race"_qs, 10000});
}

} // namespace

class TestResolve : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo::exists(qEnvironmentVariable("OUTBOXCTL")),
            "OUTBOXCTL must name the binary (set by CTest)");
    }

    void resolveOneEventWithItsAuditRow_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void resolveOneEventWithItsAuditRow()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        QVERIFY(insertKnownEvents(connection->database()));

        const Run run = outboxctl(resolveArgs(database->url(), {u"--event"_qs, u"E-2"_qs}));
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.err.isEmpty());
        QCOMPARE(run.out, QStringList {u"resolved 1 event: E-2"_qs});
        QCOMPARE(statusLines(connection->database()),
            (QStringList {u"E-1 DEAD 3"_qs, u"E-2 RESOLVED 1"_qs, u"E-3 DEAD 3"_qs,
                u"E-4 PENDING 0"_qs, u"E-5 DELIVERED 0"_qs}));
        QCOMPARE(resolveLog(connection->database()),
            QStringList {u"E-2 10000 alice order cancelled 1"_qs});

        // Again, with a PENDING one: nothing to resolve, nothing written, still exit 0.
        const Run again = outboxctl(resolveArgs(
            database->url(), {u"--event"_qs, u"E-2"_qs, u"--event"_qs, u"E-4"_qs, u"--json"_qs}));
        QCOMPARE(again.exitCode, 0);
        QCOMPARE(again.out, QStringList {u"{\"resolved\":[],\"skipped\":[\"E-2\",\"E-4\"]}"_qs});
        QCOMPARE(resolveLog(connection->database()).size(), 1);
        // A resolved event is no longer DEAD: replay skips it.
        const Run replay = outboxctl({u"replay"_qs, u"--db"_qs, database->url(), u"--event"_qs,
            u"E-2"_qs, u"--operator"_qs, u"bob"_qs, u"--reason"_qs, u"x"_qs, u"--json"_qs});
        QCOMPARE(replay.out, QStringList {u"{\"replayed\":[],\"skipped\":[\"E-2\"]}"_qs});
    }

    void bulkAndDryRun_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void bulkAndDryRun()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        QVERIFY(insertKnownEvents(connection->database()));
        const QStringList before = statusLines(connection->database());

        const QStringList transient = {u"--all-dead"_qs, u"--error-category"_qs, u"transient"_qs};
        const Run dry
            = outboxctl(resolveArgs(database->url(), transient + QStringList {u"--dry-run"_qs}));
        QCOMPARE(dry.exitCode, 0);
        QCOMPARE(dry.out,
            QStringList {u"dry run: would resolve 2 events: E-1, E-3; nothing changed"_qs});
        const Run dryJson = outboxctl(resolveArgs(database->url(),
            {u"--event"_qs, u"E-2"_qs, u"--event"_qs, u"E-5"_qs, u"--dry-run"_qs, u"--json"_qs}));
        const QJsonObject plan = QJsonDocument::fromJson(dryJson.out.join(u'\n').toUtf8()).object();
        QCOMPARE(plan.value(u"would_resolve"_qs).toArray(), QJsonArray {u"E-2"_qs});
        QCOMPARE(plan.value(u"action"_qs).toString(), u"resolve"_qs);
        QCOMPARE(plan.value(u"count"_qs).toInt(), 1);
        QCOMPARE(statusLines(connection->database()), before);
        QVERIFY(resolveLog(connection->database()).isEmpty());

        const Run run = outboxctl(resolveArgs(
            database->url(), {u"--all-dead"_qs, u"--older-than-ms"_qs, u"5000"_qs, u"--json"_qs}));
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out, QStringList {u"{\"resolved\":[\"E-1\",\"E-2\"],\"skipped\":[]}"_qs});
        QCOMPARE(statusLines(connection->database()),
            (QStringList {u"E-1 RESOLVED 3"_qs, u"E-2 RESOLVED 1"_qs, u"E-3 DEAD 3"_qs,
                u"E-4 PENDING 0"_qs, u"E-5 DELIVERED 0"_qs}));
        QCOMPARE(resolveLog(connection->database()).size(), 2);
    }

    // Two operators on their own connections resolve the same events at once: each event is
    // resolved by exactly one of them, with exactly one resolve_log row.
    void concurrentOperatorsResolveEachEventOnce_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void concurrentOperatorsResolveEachEventOnce()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QStringList ids = insertEventsIn(connection->database(), u"DEAD"_qs, 40);
        QCOMPARE(ids.size(), 40);
        QStringList reversed(ids.crbegin(), ids.crend());
        ResolveResult first, second;
        std::thread a([&] { first = resolveOn(database->url(), ids, u"alice"_qs); });
        std::thread b([&] { second = resolveOn(database->url(), reversed, u"bob"_qs); });
        a.join();
        b.join();
        QVERIFY2(first.error.isEmpty(), qPrintable(first.error));
        QVERIFY2(second.error.isEmpty(), qPrintable(second.error));
        QCOMPARE(first.done.size() + second.done.size(), ids.size());
        QStringList all = first.done + second.done;
        all.sort();
        QCOMPARE(all, ids);
        QCOMPARE(first.skipped.size(), second.done.size());
        QCOMPARE(scalar(connection->database(), u"SELECT COUNT(*) FROM resolve_log"_qs).toInt(),
            ids.size());
        QCOMPARE(
            scalar(connection->database(), u"SELECT COUNT(DISTINCT event_id) FROM resolve_log"_qs)
                .toInt(),
            ids.size());
        QCOMPARE(scalar(connection->database(),
                     u"SELECT COUNT(*) FROM delivery_outbox WHERE status = 'RESOLVED'"_qs)
                     .toInt(),
            ids.size());
    }

    void refusalsChangeNothing_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void refusalsChangeNothing()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        QVERIFY(insertKnownEvents(connection->database()));
        const QStringList before = statusLines(connection->database());

        // A read-only connection (the window's read-only mode).
        QString error;
        OpenOptions options;
        options.readOnly = true;
        const auto readOnly
            = DbConnection::open(DatabaseUrl::parse(database->url(), &error), options, &error);
        QVERIFY2(readOnly, qPrintable(error));
        Resolver resolver(readOnly->database(), true);
        const ResolveResult refused = resolver.resolve({{u"E-1"_qs}, u"alice"_qs, u"x"_qs, 1});
        QCOMPARE(refused.error, u"the connection is read-only: nothing resolved"_qs);
        QVERIFY(refused.done.isEmpty());
        // Not told, the engine itself refuses, and the event's transaction rolls back.
        const ResolveResult engineRefused
            = Resolver(readOnly->database()).resolve({{u"E-1"_qs}, u"alice"_qs, u"x"_qs, 1});
        QVERIFY(!engineRefused.error.isEmpty());
        QVERIFY(engineRefused.done.isEmpty());

        // A blank reason or operator.
        const Run blank = outboxctl({u"resolve"_qs, u"--db"_qs, database->url(), u"--event"_qs,
            u"E-1"_qs, u"--operator"_qs, u"alice"_qs, u"--reason"_qs, u"  "_qs});
        QCOMPARE(blank.exitCode, 2);
        QCOMPARE(blank.err,
            QStringList {u"outboxctl: resolve: --reason is required and must not be blank: "
                         "resolve_log records why the events need no delivery"_qs});
        const Run noOperator = outboxctl({u"resolve"_qs, u"--db"_qs, database->url(),
            u"--all-dead"_qs, u"--reason"_qs, u"x"_qs});
        QCOMPARE(noOperator.exitCode, 2);
        QCOMPARE(statusLines(connection->database()), before);
        QVERIFY(resolveLog(connection->database()).isEmpty());
    }

    // A version 1 database (outbox_meta without schema_version, the status CHECK without
    // RESOLVED): refused with the command to run, nothing changed, dry run included.
    void oldSchemaIsRefused_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void oldSchemaIsRefused()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->connect(false);
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        QVERIFY(runSqlScript(db, TestData::path(u"fixtures/schema-v1-%1.sql"_qs.arg(engine))));
        QVERIFY(insertKnownEvents(db));
        const QStringList before = statusLines(db);
        for (const QStringList &extra : {QStringList {}, QStringList {u"--dry-run"_qs}}) {
            const Run run = outboxctl(
                resolveArgs(database->url(), QStringList {u"--event"_qs, u"E-1"_qs} + extra));
            QCOMPARE(run.exitCode, 2);
            QVERIFY(run.out.isEmpty());
            QCOMPARE(run.err,
                QStringList {u"outboxctl: resolve: the schema is version 1, older than this "
                             "program's version 3 (no RESOLVED state, no resolve_log): run "
                             "`outboxctl migrate --db URL`; nothing resolved"_qs});
        }
        QCOMPARE(statusLines(db), before);

        // After the migration the same command works.
        QCOMPARE(outboxctl({u"migrate"_qs, u"--db"_qs, database->url()}).exitCode, 0);
        const Run run = outboxctl(resolveArgs(database->url(), {u"--event"_qs, u"E-1"_qs}));
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out, QStringList {u"resolved 1 event: E-1"_qs});
    }

    // RESOLVED is its own count in `check`, never DEAD, and every row is counted once.
    void checkCountsResolvedApartFromDead_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void checkCountsResolvedApartFromDead()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        QVERIFY(insertKnownEvents(connection->database()));
        QCOMPARE(outboxctl(resolveArgs(database->url(),
                               {u"--event"_qs, u"E-1"_qs, u"--event"_qs, u"E-3"_qs}))
                     .exitCode,
            0);
        const QStringList check
            = {u"check"_qs, u"--db"_qs, database->url(), u"--now"_qs, u"10000"_qs};
        const Run json = outboxctl(check + QStringList {u"--json"_qs, u"--max-dead"_qs, u"0"_qs});
        QCOMPARE(json.exitCode, 1);
        const QJsonObject snapshot
            = QJsonDocument::fromJson(json.out.constFirst().toUtf8()).object();
        const QJsonObject counts = snapshot.value(u"counts"_qs).toObject();
        QCOMPARE(counts.value(u"dead"_qs).toInt(), 1);
        QCOMPARE(counts.value(u"resolved"_qs).toInt(), 2);
        QCOMPARE(counts.value(u"delivered"_qs).toInt(), 1);
        qint64 total = 0;
        for (const QString &key : counts.keys())
            total += counts.value(key).toInteger();
        QCOMPARE(total, 5);
        const Run text = outboxctl(check);
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains(u"pending:  1 due, 0 scheduled, 0 in flight, 0 lease expired; "
                                   "1 delivered, 1 dead, 2 resolved"_qs),
            qPrintable(text.out.join(u'\n')));
    }

    // Another library's schema: resolve is refused, naming that library's own action.
    void profileRefusesNamingWhatToRun()
    {
        FRESH_DATABASE(database, u"postgresql"_qs);
        const auto connection = database->connect(false);
        QVERIFY(connection);
        QVERIFY(runSqlScript(connection->database(), TestData::path("fixtures/gruelbox.sql")));
        const Run run = outboxctl(resolveArgs(database->url(),
            {u"--profile"_qs, u"gruelbox"_qs, u"--event"_qs,
                u"30000000-0000-4000-8000-000000000005"_qs}));
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(run.err.size(), 1);
        QVERIFY2(run.err.constFirst().startsWith(
                     u"outboxctl: resolve: gruelbox: resolve is not possible from the database: "
                     "gruelbox transaction-outbox has no action"_qs),
            qPrintable(run.err.constFirst()));
        QVERIFY(run.err.constFirst().contains(u"TransactionOutbox.whitelist(entryId)"_qs));
        QCOMPARE(
            scalar(connection->database(), u"SELECT COUNT(*) FROM txno_outbox WHERE blocked"_qs)
                    .toInt()
                > 0,
            true);
    }
};

OUTBOX_TEST_MAIN(TestResolve, QCoreApplication)
#include "tst_resolve.moc"
