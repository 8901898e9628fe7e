// Reopening resolved events (RESOLVED → DEAD), on SQLite and PostgreSQL: `outboxctl reopen` for
// one event with its reopen_log row, after which replay takes it again; a non-RESOLVED event is
// skipped and left as it is; a dry run and JSON; two operators racing on their own connections
// reopen each event exactly once; a read-only connection, a blank reason, a database without
// reopen_log (init adds it) and another library's schema are refused with nothing changed.
#include "fixturescript.h"
#include "outboxctlrun.h"
#include "reopener.h"
#include "resolver.h"
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

// The known events, E-1 and E-2 resolved by alice at 5000.
bool populate(const QSqlDatabase &db)
{
    const ResolveResult resolved = insertKnownEvents(db)
        ? Resolver(db).resolve({{u"E-1"_qs, u"E-2"_qs}, u"alice"_qs, u"cancelled"_qs, 5000})
        : ResolveResult {};
    return resolved.error.isEmpty() && resolved.done.size() == 2;
}

QStringList reopenLog(const QSqlDatabase &db)
{
    return auditLines(db, u"reopen_log"_qs, u"reopened_at"_qs);
}

QStringList reopenArgs(const QString &url, const QStringList &more)
{
    return operatorArgs(
        u"reopen"_qs, url, more, u"carol"_qs, u"resolved by mistake"_qs, u"20000"_qs);
}

// Reopens `ids` on a connection of its own (opened and closed on the calling thread).
ReopenResult reopenOn(const QString &urlText, const QStringList &ids, const QString &who)
{
    QString error;
    const auto connection = DbConnection::open(DatabaseUrl::parse(urlText, &error), {}, &error);
    if (!connection)
        return {{}, {}, error};
    return Reopener(connection->database()).reopen({ids, who, u"race"_qs, 20000});
}

} // namespace

class TestReopen : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo::exists(qEnvironmentVariable("OUTBOXCTL")),
            "OUTBOXCTL must name the binary (set by CTest)");
    }

    void reopenOneEventWithItsAuditRow_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void reopenOneEventWithItsAuditRow()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        QVERIFY(populate(db));

        const Run run = outboxctl(reopenArgs(database->url(), {u"--event"_qs, u"E-2"_qs}));
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.err.isEmpty());
        QCOMPARE(run.out, QStringList {u"reopened 1 event: E-2"_qs});
        // DEAD again with the failures it had; the other resolved event stays RESOLVED.
        QCOMPARE(statusLines(db),
            (QStringList {u"E-1 RESOLVED 3"_qs, u"E-2 DEAD 1"_qs, u"E-3 DEAD 3"_qs,
                u"E-4 PENDING 0"_qs, u"E-5 DELIVERED 0"_qs}));
        QCOMPARE(reopenLog(db), QStringList {u"E-2 20000 carol resolved by mistake 1"_qs});

        // Again, with events that are not RESOLVED (DEAD, PENDING, DELIVERED): each skipped
        // and left as it is, nothing written, still exit 0 as resolve.
        const QStringList before = statusLines(db);
        const Run again = outboxctl(reopenArgs(database->url(),
            {u"--event"_qs, u"E-2"_qs, u"--event"_qs, u"E-4"_qs, u"--event"_qs, u"E-5"_qs,
                u"--json"_qs}));
        QCOMPARE(again.exitCode, 0);
        QCOMPARE(
            again.out, QStringList {u"{\"reopened\":[],\"skipped\":[\"E-2\",\"E-4\",\"E-5\"]}"_qs});
        // An ID that names no event is a typo: exit 2, named, nothing changed (as resolve and
        // replay).
        const Run typo = outboxctl(
            reopenArgs(database->url(), {u"--event"_qs, u"E-2"_qs, u"--event"_qs, u"NOPE"_qs}));
        QCOMPARE(typo.exitCode, 2);
        QVERIFY2(typo.err.join(u'\n').contains(u"NOPE"_qs), qPrintable(typo.err.join(u'\n')));
        const Run sentence = outboxctl(reopenArgs(database->url(), {u"--event"_qs, u"E-3"_qs}));
        QCOMPARE(sentence.exitCode, 0);
        QCOMPARE(sentence.out,
            QStringList {u"reopened 0 events; skipped 1 (already reopened by someone else, or "
                         "not RESOLVED): E-3"_qs});
        QCOMPARE(statusLines(db), before);
        QCOMPARE(reopenLog(db).size(), 1);

        // Parked again: replay takes it.
        const Run replay = outboxctl({u"replay"_qs, u"--db"_qs, database->url(), u"--event"_qs,
            u"E-2"_qs, u"--operator"_qs, u"bob"_qs, u"--reason"_qs, u"x"_qs, u"--json"_qs});
        QCOMPARE(replay.exitCode, 0);
        QCOMPARE(replay.out, QStringList {u"{\"replayed\":[\"E-2\"],\"skipped\":[]}"_qs});
    }

    void dryRunChangesNothing_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void dryRunChangesNothing()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        QVERIFY(populate(db));
        const QStringList before = statusLines(db);
        const QStringList events = {u"--event"_qs, u"E-1"_qs, u"--event"_qs, u"E-3"_qs,
            u"--event"_qs, u"E-1"_qs, u"--dry-run"_qs};

        const Run dry = outboxctl(reopenArgs(database->url(), events));
        QCOMPARE(dry.exitCode, 0);
        QCOMPARE(dry.out,
            (QStringList {u"dry run: would reopen 1 event: E-1; 1 not RESOLVED or not found; "
                          "nothing changed"_qs,
                u"  Left out 1 event no longer RESOLVED or not found: E-3 (not RESOLVED: it is "
                "DEAD)"_qs}));
        const Run json
            = outboxctl(reopenArgs(database->url(), events + QStringList {u"--json"_qs}));
        QCOMPARE(json.exitCode, 0);
        // The plan's keys (as replay's) with would_reopen, its targets.
        const QJsonObject plan = QJsonDocument::fromJson(json.out.join(u'\n').toUtf8()).object();
        QCOMPARE(plan.value(u"would_reopen"_qs).toArray(), QJsonArray {u"E-1"_qs});
        QCOMPARE(plan.value(u"action"_qs).toString(), u"reopen"_qs);
        QCOMPARE(plan.value(u"count"_qs).toInt(), 1);
        QCOMPARE(plan.value(u"matching"_qs).toInt(), 2);
        QCOMPARE(plan.value(u"left_out"_qs).toArray().at(0)[u"reason"_qs].toString(),
            u"not-in-state"_qs);
        QCOMPARE(statusLines(db), before);
        QVERIFY(reopenLog(db).isEmpty());
    }

    // Two operators on their own connections reopen the same events at once: each event is
    // reopened by exactly one of them, with exactly one reopen_log row; the other is told it
    // skipped it.
    void racingOperatorsReopenEachEventOnce_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void racingOperatorsReopenEachEventOnce()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        const QStringList ids = insertEventsIn(db, u"RESOLVED"_qs, 40);
        QCOMPARE(ids.size(), 40);
        const QStringList reversed(ids.crbegin(), ids.crend());
        ReopenResult first, second;
        std::thread a([&] { first = reopenOn(database->url(), ids, u"alice"_qs); });
        std::thread b([&] { second = reopenOn(database->url(), reversed, u"bob"_qs); });
        a.join();
        b.join();
        QVERIFY2(first.error.isEmpty(), qPrintable(first.error));
        QVERIFY2(second.error.isEmpty(), qPrintable(second.error));
        QStringList all = first.done + second.done;
        all.sort();
        QCOMPARE(all, ids);
        QCOMPARE(first.skipped.size(), second.done.size());
        QCOMPARE(second.skipped.size(), first.done.size());
        QCOMPARE(scalar(db, u"SELECT COUNT(*) FROM reopen_log"_qs).toInt(), ids.size());
        QCOMPARE(
            scalar(db, u"SELECT COUNT(DISTINCT event_id) FROM reopen_log"_qs).toInt(), ids.size());
        QCOMPARE(
            scalar(db, u"SELECT COUNT(*) FROM delivery_outbox WHERE status = 'DEAD'"_qs).toInt(),
            ids.size());
        // Each row names the operator who won it.
        QCOMPARE(scalar(db, u"SELECT COUNT(*) FROM reopen_log WHERE operator = 'alice'"_qs).toInt(),
            first.done.size());
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
        const QSqlDatabase db = connection->database();
        QVERIFY(populate(db));
        const QStringList before = statusLines(db);

        // A read-only connection (the window's read-only mode).
        QString error;
        OpenOptions options;
        options.readOnly = true;
        const auto readOnly
            = DbConnection::open(DatabaseUrl::parse(database->url(), &error), options, &error);
        QVERIFY2(readOnly, qPrintable(error));
        const ReopenResult refused
            = Reopener(readOnly->database(), true).reopen({{u"E-1"_qs}, u"alice"_qs, u"x"_qs, 1});
        QCOMPARE(refused.error, u"the connection is read-only: nothing reopened"_qs);
        QVERIFY(refused.done.isEmpty());

        // A blank reason, no operator, no event.
        const Run blank = outboxctl({u"reopen"_qs, u"--db"_qs, database->url(), u"--event"_qs,
            u"E-1"_qs, u"--operator"_qs, u"alice"_qs, u"--reason"_qs, u"  "_qs});
        QCOMPARE(blank.exitCode, 2);
        QCOMPARE(blank.err,
            QStringList {u"outboxctl: reopen: --reason is required and must not be blank: "
                         "reopen_log records why the events need an operator again"_qs});
        const Run noOperator = outboxctl({u"reopen"_qs, u"--db"_qs, database->url(), u"--event"_qs,
            u"E-1"_qs, u"--reason"_qs, u"x"_qs});
        QCOMPARE(noOperator.exitCode, 2);
        QVERIFY(noOperator.out.isEmpty());
        const Run noEvent = outboxctl({u"reopen"_qs, u"--db"_qs, database->url(), u"--operator"_qs,
            u"alice"_qs, u"--reason"_qs, u"x"_qs, u"--json"_qs});
        QCOMPARE(noEvent.exitCode, 2);
        QCOMPARE(noEvent.err,
            QStringList {u"outboxctl: reopen: say which events: --event ID (repeatable)"_qs});
        QCOMPARE(statusLines(db), before);
        QVERIFY(reopenLog(db).isEmpty());
    }

    // A version 2 database made before reopen existed has no reopen_log: refused with what to
    // run, nothing changed; `outboxctl init` adds the table and the same command works.
    void withoutReopenLogInitAddsIt_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void withoutReopenLogInitAddsIt()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        QVERIFY(populate(db));
        QVERIFY(QSqlQuery(db).exec(u"DROP TABLE reopen_log"_qs));
        const QStringList before = statusLines(db);
        for (const QStringList &extra : {QStringList {}, QStringList {u"--dry-run"_qs}}) {
            const Run run = outboxctl(
                reopenArgs(database->url(), QStringList {u"--event"_qs, u"E-1"_qs} + extra));
            QCOMPARE(run.exitCode, 2);
            QVERIFY(run.out.isEmpty());
            QCOMPARE(run.err,
                QStringList {u"outboxctl: reopen: the schema has no reopen_log table (made "
                             "before reopen existed): run `outboxctl init --db URL` to add it; "
                             "nothing reopened"_qs});
        }
        QCOMPARE(statusLines(db), before);

        QCOMPARE(outboxctl({u"init"_qs, u"--db"_qs, database->url()}).exitCode, 0);
        const Run run = outboxctl(reopenArgs(database->url(), {u"--event"_qs, u"E-1"_qs}));
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out, QStringList {u"reopened 1 event: E-1"_qs});
    }

    // A profile that maps no reopen statement (gruelbox has no RESOLVED state): reopen is not
    // available there.
    void profileSaysNotAvailable()
    {
        FRESH_DATABASE(database, u"postgresql"_qs);
        const auto connection = database->connect(false);
        QVERIFY(connection);
        QVERIFY(runSqlScript(connection->database(), TestData::path("fixtures/gruelbox.sql")));
        const Run run = outboxctl(reopenArgs(database->url(),
            {u"--profile"_qs, u"gruelbox"_qs, u"--event"_qs,
                u"30000000-0000-4000-8000-000000000005"_qs}));
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.out.isEmpty());
        QCOMPARE(run.err,
            QStringList {u"outboxctl: reopen: gruelbox: reopen is not available: the profile maps "
                         "no reopen statement (it undoes a resolve: docs/profiles.md, \"Resolve "
                         "and reopen through a profile\")"_qs});
    }
};

OUTBOX_TEST_MAIN(TestReopen, QCoreApplication)
#include "tst_reopen.moc"
