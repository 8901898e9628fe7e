// `outboxctl check` and `outboxctl replay` with --profile, as an operator runs them on another
// library's outbox: for each built-in profile over its fixture (tests/fixtures/, the library's
// published DDL with rows in every state) the exact counts, null where the schema cannot tell,
// with and without --profile (detection); replay through the profile's fenced statement once,
// then skipped; the read-only Spring Modulith profiles refusing with what to run instead; a
// custom profile file; bad profile files named by line and field; and a real pg-boss whose own
// counts `check --profile pg-boss` must match, whose failed job `replay --profile pg-boss`
// releases and a pg-boss worker then completes; the same with a real graphile-worker
// (tests/graphile-worker/make-jobs.mjs) and its worker. The libraries with MySQL/MariaDB DDL are
// read on MySQL too (fixtures/<profile>-mysql.sql), where `diagnose` warns when the creation time
// is a column the server rewrites on every UPDATE. A profile's time_zone: a MariaDB table
// written in Berlin local time reads and replays at the right instants; an unknown zone is
// refused at load.
#include "fixturescript.h"
#include "outboxctlrun.h"
#include "scratchfile.h"
#include "testdata.h"
#include "testdatabase.h"
#include "testmain.h"
#include "timeformat.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTimeZone>

namespace {

constexpr qint64 T = 1800000000000; // the fixtures' now: 2027-01-15 08:00:00 UTC
constexpr qint64 NA = -1; // a count the schema cannot tell: null in the JSON

// due, scheduled, in_flight, lease_expired, delivered, dead
using Counts = QList<qint64>;

QJsonObject countsObject(const Counts &counts)
{
    const QStringList keys = {u"due"_qs, u"scheduled"_qs, u"in_flight"_qs, u"lease_expired"_qs,
        u"delivered"_qs, u"dead"_qs};
    QJsonObject object;
    for (qsizetype i = 0; i < keys.size(); ++i)
        object.insert(keys.at(i), counts.at(i) == NA ? QJsonValue() : QJsonValue(counts.at(i)));
    return object;
}

// Loads a profile's fixture into a fresh database: the native schema first for `native`.
// MySQL's and SQLite's fixtures are the libraries' DDL for them (fixtures/<profile>-mysql.sql,
// <profile>-sqlite.sql: fixtureFor); `session` runs first on the connection that creates the
// tables.
std::unique_ptr<DbConnection> loadFixture(
    const TestDatabase &database, const QString &profile, const QString &session = {})
{
    auto connection = profile == u"native"_qs ? database.initialise() : database.connect(false);
    if (!connection)
        return nullptr;
    if (!session.isEmpty() && !QSqlQuery(connection->database()).exec(session))
        return nullptr;
    const QString path = TestData::path(fixtureFor(profile, connection->database()));
    return runSqlScript(connection->database(), path) ? std::move(connection) : nullptr;
}

// The exit code and every line a failed run printed.
QString why(const Run &run)
{
    return QStringLiteral("exit %1: %2").arg(run.exitCode).arg((run.out + run.err).join(u'\n'));
}

QJsonObject jsonOf(const Run &run)
{
    return run.out.size() == 1 ? QJsonDocument::fromJson(run.out.constFirst().toUtf8()).object()
                               : QJsonObject();
}

QString auditStore()
{
    return auditStoreUrl();
}

// Where `replay --json` through a profile says its audit went.
QString auditWhere()
{
    return u"profile_audit in "_qs + auditStore() + u" (the notes database)"_qs;
}

QStringList replayArguments(const QString &url, const QString &profile, const QStringList &extra)
{
    QStringList arguments = {u"replay"_qs, u"--db"_qs, url, u"--notes-db"_qs, auditStore()};
    if (!profile.isEmpty())
        arguments << u"--profile"_qs << profile;
    return arguments + extra
        + QStringList {u"--operator"_qs, u"ops"_qs, u"--reason"_qs, u"endpoint fixed"_qs,
            u"--now"_qs, QString::number(T), u"--json"_qs};
}

QStringList checkArguments(const QString &url, const QString &profile, qint64 now)
{
    // The fixtures' counts, not the window's default limits, are what is tested here.
    QStringList arguments = {u"check"_qs, u"--db"_qs, url, u"--now"_qs, QString::number(now),
        u"--json"_qs, u"--no-default-thresholds"_qs};
    if (!profile.isEmpty())
        arguments << u"--profile"_qs << profile;
    return arguments;
}

// The counts of `check --profile` at `now`, or an empty object when it fails.
QJsonObject countsOf(const QString &url, const QString &profile, qint64 now)
{
    const Run run = outboxctl(checkArguments(url, profile, now));
    if (run.exitCode != 0) {
        qWarning("check: %s", qPrintable(run.err.join(u'\n')));
        return {};
    }
    return jsonOf(run).value(u"counts"_qs).toObject();
}

QString replayedJson(const QStringList &replayed, const QStringList &skipped)
{
    return u"{\"replayed\":"_qs
        + QString::fromUtf8(
            QJsonDocument(QJsonArray::fromStringList(replayed)).toJson(QJsonDocument::Compact))
        + u",\"skipped\":"_qs
        + QString::fromUtf8(
            QJsonDocument(QJsonArray::fromStringList(skipped)).toJson(QJsonDocument::Compact))
        + u",\"audit\":\""_qs + auditWhere() + u"\"}"_qs;
}

// Replays `eventId` through `profile` twice: the first run replays it, the second skips it
// (no longer DEAD). What went otherwise, or nothing.
QString replayOnceThenSkipped(const QString &url, const QString &profile, const QString &eventId)
{
    const QStringList replay
        = {u"replay"_qs, u"--db"_qs, url, u"--profile"_qs, profile, u"--event"_qs, eventId,
            u"--operator"_qs, u"x"_qs, u"--reason"_qs, u"y"_qs, u"--notes-db"_qs, auditStore()};
    const Run first = outboxctl(replay);
    if (first.exitCode != 0 || !first.err.isEmpty()
        || first.out
            != QStringList {
                u"replayed 1 event: "_qs + eventId + u"; audited in "_qs + auditWhere()})
        return u"first replay: "_qs + (first.out + first.err).join(u'\n');
    const Run second = outboxctl(replay);
    if (second.exitCode != 0 || !second.out.value(0).startsWith(u"replayed 0 events; skipped 1"_qs))
        return u"second replay: "_qs + (second.out + second.err).join(u'\n');
    return {};
}

} // namespace

class TestProfileCli : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo::exists(qEnvironmentVariable("OUTBOXCTL")),
            "OUTBOXCTL must name the binary (set by CTest)");
    }

    void checkThroughEachProfile_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<QString>("profile");
        QTest::addColumn<Counts>("counts");
        QTest::addColumn<QStringList>("notAvailable");
        QTest::addColumn<qint64>("oldestPendingAgeMs"); // NA: null
        const QStringList neverNative = {u"error_categories"_qs, u"throughput_per_minute"_qs};
        const QStringList noClaims = {u"in_flight"_qs, u"lease_expired"_qs};
        struct Row
        {
            QString profile;
            Counts counts;
            QStringList notAvailable;
            qint64 oldestPendingAgeMs;
        };
        const QList<Row> rows = {
            {u"native"_qs, {2, 1, 1, 1, 2, 2}, {}, 7200000},
            {u"pg-boss"_qs, {2, 2, 1, 1, 2, 3}, neverNative, 1800000},
            {u"spring-modulith"_qs, {3, 0, NA, NA, 2, NA},
                noClaims + QStringList {u"dead"_qs, u"attempts_histogram"_qs} + neverNative,
                172800000},
            {u"spring-modulith-2"_qs, {2, 0, 2, NA, 3, 2},
                QStringList {u"lease_expired"_qs} + neverNative, 259200000},
            {u"gruelbox"_qs, {3, 2, NA, NA, 2, 1},
                noClaims + QStringList {u"oldest_pending_age_ms"_qs, u"age_histogram"_qs}
                    + neverNative + QStringList {u"delivery_latency_ms"_qs},
                NA},
            {u"namastack"_qs, {2, 1, NA, NA, 2, 2}, noClaims + neverNative, 60000},
            // graphile-worker deletes a job that succeeds: DELIVERED is not available.
            {u"graphile-worker"_qs, {2, 2, 2, 1, NA, 2},
                QStringList {u"delivered"_qs} + neverNative
                    + QStringList {u"delivery_latency_ms"_qs},
                21600000},
            // Oban: an executing job's lease is the application's Lifeline setting; its
            // cancelled job is RESOLVED (counted apart below), its discarded one DEAD.
            {u"oban"_qs, {2, 2, 2, NA, 2, 1}, QStringList {u"lease_expired"_qs} + neverNative,
                10800000},
            // Solid Queue: a claim's lease is its process's heartbeat + 5 minutes.
            {u"solid-queue"_qs, {2, 2, 1, 1, 2, 2}, neverNative, 1500000},
            // River: a running job's lease is the rescuer's default hour.
            {u"river"_qs, {2, 2, 1, 1, 2, 2}, neverNative, 14400000},
            // Debezium's outbox: every row still in the table is due; its health is the slot's.
            {u"debezium"_qs, {3, 0, NA, NA, NA, NA},
                noClaims
                    + QStringList {u"delivered"_qs, u"dead"_qs, u"oldest_pending_age_ms"_qs,
                        u"age_histogram"_qs, u"attempts_histogram"_qs}
                    + neverNative + QStringList {u"delivery_latency_ms"_qs},
                NA},
        };
        // The same rows in the libraries' MySQL/MariaDB DDL give the same answers; pg-boss and
        // graphile-worker are PostgreSQL's alone; Oban also runs on SQLite (its Lite engine).
        const QStringList postgreSqlOnly
            = {u"pg-boss"_qs, u"graphile-worker"_qs, u"river"_qs, u"debezium"_qs};
        const QStringList onSqlite = {u"oban"_qs, u"solid-queue"_qs};
        for (const char *engine : {"postgresql", "mysql", "sqlite"}) {
            for (const Row &row : rows) {
                if (QLatin1String(engine) == u"mysql"_qs && postgreSqlOnly.contains(row.profile))
                    continue;
                if (QLatin1String(engine) == u"sqlite"_qs && !onSqlite.contains(row.profile))
                    continue;
                QTest::addRow("%s, %s", qPrintable(row.profile), engine)
                    << QString::fromLatin1(engine) << row.profile << row.counts << row.notAvailable
                    << row.oldestPendingAgeMs;
            }
        }
    }
    void checkThroughEachProfile()
    {
        QFETCH(QString, engine);
        QFETCH(QString, profile);
        QFETCH(Counts, counts);
        QFETCH(QStringList, notAvailable);
        QFETCH(qint64, oldestPendingAgeMs);
        FRESH_DATABASE(database, engine);
        QVERIFY(loadFixture(*database, profile));

        // Four reads of the same database, at once: `check --json` through the profile, the
        // error groups, the same check without --profile, and the text report.
        const QList<Run> runs = outboxctlAll({checkArguments(database->url(), profile, T),
            {u"errors"_qs, u"--db"_qs, database->url(), u"--profile"_qs, profile, u"--json"_qs},
            checkArguments(database->url(), QString(), T),
            {u"check"_qs, u"--db"_qs, database->url(), u"--now"_qs, QString::number(T),
                u"--profile"_qs, profile, u"--no-default-thresholds"_qs}});
        const Run &run = runs.at(0), &errors = runs.at(1), &detected = runs.at(2);
        const Run &text = runs.at(3);
        QVERIFY2(run.err.isEmpty(), qPrintable(run.err.join(u'\n')));
        QCOMPARE(run.exitCode, 0);
        const QJsonObject json = jsonOf(run);
        QJsonObject expectedCounts = countsObject(counts);
        if (profile == u"native"_qs) // schema version 2: RESOLVED counted on its own
            expectedCounts.insert(u"resolved"_qs, 0);
        if (profile == u"oban"_qs) // a profile whose statuses list RESOLVED: the same
            expectedCounts.insert(u"resolved"_qs, 1);
        QCOMPARE(json.value(u"counts"_qs).toObject(), expectedCounts);
        QCOMPARE(
            json.value(u"not_available"_qs).toArray(), QJsonArray::fromStringList(notAvailable));
        QCOMPARE(json.value(u"estimated"_qs).toArray(), QJsonArray());
        QCOMPARE(json.value(u"oldest_pending_age_ms"_qs),
            oldestPendingAgeMs == NA ? QJsonValue() : QJsonValue(oldestPendingAgeMs));
        // Every key the schema cannot tell is null, never 0 or empty; "not_available" comes
        // right after "estimated".
        for (const QString &key : std::as_const(notAvailable)) {
            const QJsonValue value = json.contains(key)
                ? json.value(key)
                : json.value(u"counts"_qs).toObject().value(key);
            QVERIFY2(value.isNull(), qPrintable(key));
        }
        QVERIFY(run.out.constFirst().contains(u"\"estimated\":[],\"not_available\":["_qs));
        if (profile == u"native"_qs)
            QCOMPARE(json.value(u"throughput_per_minute"_qs).toArray().size(), 60);
        // The latency wherever the schema has created_at and delivered_at: an object with its
        // count, else null.
        QCOMPARE(json.value(u"delivery_latency_ms"_qs).isObject(),
            !notAvailable.contains(u"delivery_latency_ms"_qs));

        // The error groups read through the profile on every engine (MySQL has no BIGINT cast),
        // or are refused by name where the schema keeps no error text.
        const bool keepsErrors = QStringList {u"native"_qs, u"pg-boss"_qs, u"namastack"_qs,
            u"graphile-worker"_qs, u"oban"_qs, u"solid-queue"_qs, u"river"_qs}
                                     .contains(profile);
        if (keepsErrors) {
            QVERIFY2(errors.exitCode == 0, qPrintable(errors.err.join(u'\n')));
            QVERIFY(!QJsonDocument::fromJson(errors.out.join(u'\n').toUtf8()).isNull());
        } else {
            QVERIFY(errors.exitCode != 0);
            QVERIFY2(errors.err.join(u'\n').contains(u"has no last_error"_qs),
                qPrintable(errors.err.join(u'\n')));
        }

        // Without --profile the schema is detected: the same line.
        QCOMPARE(detected.exitCode, 0);
        QCOMPARE(detected.out, run.out);

        // The report says "n/a" for what the schema cannot tell.
        QCOMPARE(text.exitCode, 0);
        const QString countsLine = text.out.value(1);
        QCOMPARE(countsLine.contains(u"n/a in flight"_qs), counts.at(2) == NA);
        QCOMPARE(countsLine.contains(u"n/a dead"_qs), counts.at(5) == NA);
        if (profile != u"native"_qs)
            QVERIFY2(
                text.out.constFirst().endsWith(
                    QStringLiteral("(profile %1) at %2").arg(profile, TimeFormat::isoLocal(T))),
                qPrintable(text.out.constFirst()));
    }

    void thresholdOnWhatIsNotAvailableIsRefused_data()
    {
        QTest::addColumn<QString>("profile");
        QTest::addColumn<QStringList>("option");
        QTest::addColumn<QString>("message");
        QTest::addRow("spring-modulith: dead")
            << u"spring-modulith"_qs << QStringList {u"--max-dead"_qs, u"0"_qs}
            << u"outboxctl: check: --max-dead cannot be judged: dead is not available with"
               " profile spring-modulith"_qs;
        QTest::addRow("namastack: lease expired")
            << u"namastack"_qs << QStringList {u"--max-lease-expired"_qs, u"0"_qs}
            << u"outboxctl: check: --max-lease-expired cannot be judged: lease_expired is not"
               " available with profile namastack"_qs;
        QTest::addRow("gruelbox: oldest pending")
            << u"gruelbox"_qs << QStringList {u"--max-oldest-pending-ms"_qs, u"1000"_qs}
            << u"outboxctl: check: --max-oldest-pending-ms cannot be judged: oldest_pending_age_ms"
               " is not available with profile gruelbox"_qs;
    }
    void thresholdOnWhatIsNotAvailableIsRefused()
    {
        QFETCH(QString, profile);
        QFETCH(QStringList, option);
        QFETCH(QString, message);
        FRESH_DATABASE(database, u"postgresql"_qs);
        QVERIFY(loadFixture(*database, profile));
        const Run run = outboxctl(checkArguments(database->url(), profile, T) + option);
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.out.isEmpty());
        QCOMPARE(run.err, QStringList {message});
        // A limit the schema can judge still works: namastack's DEAD rows.
        if (profile == u"namastack"_qs) {
            const Run dead = outboxctl(checkArguments(database->url(), profile, T)
                + QStringList {u"--max-dead"_qs, u"1"_qs});
            QCOMPARE(dead.exitCode, 1);
            QCOMPARE(jsonOf(dead).value(u"violations"_qs).toArray().size(), 1);
        }
    }

    void replayThroughTheProfileStatement_data()
    {
        QTest::addColumn<QString>("profile");
        QTest::addColumn<QString>("failed");
        QTest::addColumn<QString>("notFailed");
        QTest::addColumn<qint64>("deadAfter");
        QTest::addRow("pg-boss") << u"pg-boss"_qs << u"00000000-0000-4000-8000-000000000009"_qs
                                 << u"00000000-0000-4000-8000-000000000011"_qs << qint64(2);
        QTest::addRow("gruelbox") << u"gruelbox"_qs << u"30000000-0000-4000-8000-000000000005"_qs
                                  << u"30000000-0000-4000-8000-000000000004"_qs << qint64(0);
        QTest::addRow("namastack") << u"namastack"_qs << u"40000000-0000-4000-8000-000000000006"_qs
                                   << u"40000000-0000-4000-8000-000000000002"_qs << qint64(1);
        // Job 7 exhausted its attempts; job 9 runs its last one (locked), not DEAD.
        QTest::addRow("graphile-worker")
            << u"graphile-worker"_qs << u"7"_qs << u"9"_qs << qint64(1);
        // Job 9 is discarded; job 2 is retryable.
        QTest::addRow("oban") << u"oban"_qs << u"9"_qs << u"2"_qs << qint64(0);
        // River's job 9 is discarded; job 4 is retryable.
        QTest::addRow("river") << u"river"_qs << u"9"_qs << u"4"_qs << qint64(1);
    }
    void replayThroughTheProfileStatement()
    {
        QFETCH(QString, profile);
        QFETCH(QString, failed);
        QFETCH(QString, notFailed);
        QFETCH(qint64, deadAfter);
        FRESH_DATABASE(database, u"postgresql"_qs);
        QVERIFY(loadFixture(*database, profile));
        const QJsonObject before = countsOf(database->url(), profile, T);
        QVERIFY(!before.isEmpty());

        const Run first
            = outboxctl(replayArguments(database->url(), profile, {u"--event"_qs, failed}));
        QVERIFY2(first.err.isEmpty(), qPrintable(first.err.join(u'\n')));
        QCOMPARE(first.exitCode, 0);
        QCOMPARE(first.out, QStringList {replayedJson({failed}, {})});
        const QJsonObject after = countsOf(database->url(), profile, T);
        QCOMPARE(after.value(u"dead"_qs).toInteger(), deadAfter);
        QCOMPARE(after.value(u"dead"_qs).toInteger() + 1, before.value(u"dead"_qs).toInteger());

        // Fenced: the row is no longer failed; a row that never was is skipped too. Detected
        // without --profile. pg-boss's job 11 is cancelled: DEAD by the profile's status, but
        // its statement (boss.retry) releases failed jobs only, which is said as such.
        const Run second = outboxctl(replayArguments(
            database->url(), QString(), {u"--event"_qs, failed, u"--event"_qs, notFailed}));
        QCOMPARE(second.exitCode, 0);
        QString expected = replayedJson({}, {failed, notFailed});
        if (profile == u"pg-boss"_qs)
            expected = replayedJson({}, {failed})
                           .replace(u",\"audit\""_qs,
                               u",\"not_released\":[\""_qs + notFailed + u"\"],\"audit\""_qs);
        QCOMPARE(second.out, QStringList {expected});
        QCOMPARE(countsOf(database->url(), profile, T), after);

        // Only Outbox Health's own replay keeps a budget reset and a spread window.
        for (const QStringList &extra :
            {QStringList {u"--reset-budget"_qs}, QStringList {u"--spread-ms"_qs, u"60000"_qs}}) {
            const Run refused = outboxctl(
                replayArguments(database->url(), profile, QStringList {u"--all-dead"_qs} + extra));
            QCOMPARE(refused.exitCode, 2);
            QVERIFY(failedAsJson(refused)); // --json: the refusal as a JSON object too
            QCOMPARE(refused.err,
                QStringList {QStringLiteral(
                    "outboxctl: replay: %1: a budget reset and a spread window exist only in"
                    " Outbox Health's own replay; the profile's replay statement decides both")
                                 .arg(profile)});
        }
        QCOMPARE(countsOf(database->url(), profile, T), after);
    }

    // Issue 42: a replay through a profile is audited in the team's audit store (--notes-db):
    // refused without one, nothing changed; with one, one record per event (who, why, when,
    // the state before and after) that `export --audit` reads. A DEAD row the profile's statement
    // does not release (Oban's cancelled job, read as DEAD here, under a statement fenced to
    // discarded jobs) is named as such, found by reading the row again, and its record says
    // skipped.
    void replayThroughAProfileIsAudited_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void replayThroughAProfileIsAudited()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        QVERIFY(loadFixture(*database, u"oban"_qs));
        QFile builtIn(TestData::sourceDir() + u"/resources/profiles/oban.profile"_qs);
        QVERIFY(builtIn.open(QIODevice::ReadOnly));
        QString text = QString::fromUtf8(builtIn.readAll());
        QVERIFY(text.contains(u"state IN ('discarded', 'cancelled')"_qs));
        text.replace(u"state IN ('discarded', 'cancelled')"_qs, u"state = 'discarded'"_qs);
        text.replace(u"name = oban\n"_qs, u"name = oban-discarded\n"_qs);
        QVERIFY(text.contains(u"WHEN 'cancelled' THEN 'RESOLVED'"_qs));
        text.replace(u"WHEN 'cancelled' THEN 'RESOLVED'"_qs, u"WHEN 'cancelled' THEN 'DEAD'"_qs);
        QTemporaryDir dir;
        const QString profile
            = ScratchFile::write(dir, u"oban-discarded.profile"_qs, text.toUtf8());
        const QJsonObject before = countsOf(database->url(), profile, T);
        QCOMPARE(before.value(u"dead"_qs).toInteger(), 2);

        // No audit store: refused with how to give one, nothing changed.
        QStringList unaudited = replayArguments(
            database->url(), profile, {u"--event"_qs, u"9"_qs, u"--event"_qs, u"10"_qs});
        unaudited.remove(3, 2); // --notes-db URL
        const Run refused = outboxctl(unaudited);
        QCOMPARE(refused.exitCode, 2);
        QVERIFY(failedAsJson(refused));
        QCOMPARE(refused.err,
            QStringList {u"outboxctl: replay: oban-discarded: every replay through a profile is "
                         "audited in a database of Outbox Health's own, and none is configured: "
                         "give --notes-db URL (the team's audit store, also its notes; `outboxctl "
                         "init --db URL` makes one); nothing replayed"_qs});
        QCOMPARE(countsOf(database->url(), profile, T), before);

        // A store that cannot record it (made before profile_audit existed): refused the same.
        FRESH_DATABASE(older, u"sqlite"_qs);
        {
            const auto connection = older->initialise();
            QVERIFY(connection);
            QVERIFY(QSqlQuery(connection->database()).exec(u"DROP TABLE profile_audit"_qs));
        }
        QStringList olderStore
            = replayArguments(database->url(), profile, {u"--event"_qs, u"9"_qs});
        olderStore[4] = older->url();
        const Run notRecordable = outboxctl(olderStore);
        QCOMPARE(notRecordable.exitCode, 2);
        QVERIFY2(notRecordable.err.value(0).endsWith(
                     u"has no profile_audit table (made before it existed): run `outboxctl init "
                     "--db URL` on it to add it; nothing replayed"_qs),
            qPrintable(notRecordable.err.join(u'\n')));
        QCOMPARE(countsOf(database->url(), profile, T), before);

        // The audit store on the outbox's engine too (RETURNING, or the driver's insert ID).
        FRESH_DATABASE(store, engine);
        QVERIFY(store->initialise());
        QStringList audited = replayArguments(
            database->url(), profile, {u"--event"_qs, u"9"_qs, u"--event"_qs, u"10"_qs});
        audited[4] = store->url();
        const Run run = outboxctl(audited);
        QVERIFY2(run.err.isEmpty(), qPrintable(run.err.join(u'\n')));
        QCOMPARE(run.exitCode, 0);
        const QJsonObject json = jsonOf(run);
        QCOMPARE(json.value(u"replayed"_qs).toArray(), QJsonArray({u"9"_qs}));
        QCOMPARE(json.value(u"skipped"_qs).toArray(), QJsonArray());
        QCOMPARE(json.value(u"not_released"_qs).toArray(), QJsonArray({u"10"_qs}));
        QVERIFY2(json.value(u"audit"_qs).toString().startsWith(u"profile_audit in "_qs),
            qPrintable(run.out.join(u'\n')));
        QCOMPARE(countsOf(database->url(), profile, T).value(u"dead"_qs).toInteger(), 1);

        const Run audit = outboxctl({u"export"_qs, u"--db"_qs, database->url(), u"--profile"_qs,
            profile, u"--audit"_qs, u"--notes-db"_qs, store->url()});
        QVERIFY2(audit.exitCode == 0, qPrintable(audit.err.join(u'\n')));
        QCOMPARE(audit.out.value(0).trimmed(),
            u"audit_id,event_id,action,acted_at,operator,reason,state_before,state_after,"
            "outcome,settled_at"_qs);
        QCOMPARE(audit.out.size(), 3); // the two records
        const auto fields = [](const QString &line) { return line.trimmed().split(u',').mid(1); };
        const QStringList released = fields(audit.out.at(1));
        QCOMPARE(released.mid(0, 5),
            QStringList(
                {u"9"_qs, u"replay"_qs, QString::number(T), u"ops"_qs, u"endpoint fixed"_qs}));
        QVERIFY2(
            audit.out.at(1).contains(u",\"DEAD, failures 3\",\"PENDING, failures 3\",done,"_qs),
            qPrintable(audit.out.at(1)));
        QVERIFY2(audit.out.at(2).contains(u",10,replay,"_qs)
                && audit.out.at(2).contains(u",\"DEAD, failures 0\",,skipped,"_qs),
            qPrintable(audit.out.at(2)));
    }

    // Issue 42: advice through a profile offers only what the outbox can do (OutboxCapabilities):
    // explain ends with the profile's replay and no budget reset; diagnose advises resolve
    // through a profile that maps it (Oban), never through one that does not (pg-boss); on the
    // native schema both are advised.
    void adviceFitsWhatTheProfileCanDo()
    {
        FRESH_DATABASE(database, u"postgresql"_qs);
        QVERIFY(loadFixture(*database, u"oban"_qs));
        const QString now = QString::number(T);
        const Run explain = outboxctl({u"explain"_qs, u"--db"_qs, database->url(), u"--profile"_qs,
            u"oban"_qs, u"--event"_qs, u"9"_qs, u"--now"_qs, now});
        QVERIFY2(explain.exitCode == 0, qPrintable(explain.err.join(u'\n')));
        const QString explained = explain.out.join(u'\n');
        QVERIFY2(explained.contains(u"outboxctl replay --event 9 releases it with the profile's "
                                    "replay statement (with --operator and --reason)"_qs),
            qPrintable(explained));
        QVERIFY(!explained.contains(u"--reset-budget"_qs));
        QVERIFY(!explained.contains(u"fresh budget"_qs));

        const Run diagnose = outboxctl({u"diagnose"_qs, u"--db"_qs, database->url(),
            u"--profile"_qs, u"oban"_qs, u"--now"_qs, now});
        const QString diagnosed = diagnose.out.join(u'\n');
        QVERIFY2(diagnosed.contains(u"each waits for an operator to replay or resolve it."_qs),
            qPrintable(diagnosed));
        QVERIFY2(diagnosed.contains(u"Read their errors (outboxctl errors) and fix the cause, then "
                                    "replay them (outboxctl replay --error-group)"_qs),
            qPrintable(diagnosed));
        QVERIFY2(diagnosed.contains(u"or resolve those that must never be delivered "
                                    "(outboxctl resolve)."_qs),
            qPrintable(diagnosed));
        FRESH_DATABASE(pgBoss, u"postgresql"_qs);
        QVERIFY(loadFixture(*pgBoss, u"pg-boss"_qs));
        const Run unmapped = outboxctl({u"diagnose"_qs, u"--db"_qs, pgBoss->url(), u"--profile"_qs,
            u"pg-boss"_qs, u"--now"_qs, now});
        QVERIFY2(unmapped.out.join(u'\n').contains(u"then replay them"_qs),
            qPrintable(unmapped.out.join(u'\n')));
        QVERIFY2(!unmapped.out.join(u'\n').contains(u"resolve"_qs),
            qPrintable(unmapped.out.join(u'\n')));

        FRESH_DATABASE(native, u"postgresql"_qs);
        QVERIFY(loadFixture(*native, u"native"_qs));
        const Run nativeDiagnose = outboxctl(
            {u"diagnose"_qs, u"--db"_qs, native->url(), u"--now"_qs, QString::number(T)});
        QVERIFY2(nativeDiagnose.out.join(u'\n').contains(
                     u"or resolve those that must never be delivered (outboxctl resolve)."_qs),
            qPrintable(nativeDiagnose.out.join(u'\n')));
    }

    // Issue 42 item 5: resolve and reopen through a profile that maps them (Oban: discarded ->
    // cancelled -> discarded), each audited in the audit store exactly as a replay is (intended,
    // then done); refused without an audit store, nothing changed; an event not in the state the
    // action takes is left out, unrecorded. check counts RESOLVED apart from DEAD throughout.
    void resolveAndReopenThroughAProfile_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void resolveAndReopenThroughAProfile()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = loadFixture(*database, u"oban"_qs);
        QVERIFY(connection);
        const auto stateOf = [&connection](int id) {
            QSqlQuery query(connection->database());
            return query.exec(u"SELECT state FROM oban_jobs WHERE id = "_qs + QString::number(id))
                    && query.next()
                ? query.value(0).toString()
                : QString();
        };
        const auto counts = [&] {
            const QJsonObject all = countsOf(database->url(), u"oban"_qs, T);
            return std::pair {
                all.value(u"dead"_qs).toInteger(-1), all.value(u"resolved"_qs).toInteger(-1)};
        };
        QCOMPARE(counts(), std::pair(qint64(1), qint64(1))); // 9 discarded, 10 cancelled
        const auto action = [&](const QString &verb, const QString &event, const QString &store) {
            QStringList arguments = {verb, u"--db"_qs, database->url(), u"--profile"_qs, u"oban"_qs,
                u"--event"_qs, event, u"--operator"_qs, u"ops"_qs, u"--reason"_qs,
                u"never to be charged"_qs, u"--now"_qs, QString::number(T), u"--json"_qs};
            if (!store.isEmpty())
                arguments << u"--notes-db"_qs << store;
            return outboxctl(arguments);
        };

        const Run refused = action(u"resolve"_qs, u"9"_qs, {});
        QCOMPARE(refused.exitCode, 2);
        QCOMPARE(refused.err,
            QStringList {u"outboxctl: resolve: oban: every resolve through a profile is audited in "
                         "a database of Outbox Health's own, and none is configured: give "
                         "--notes-db URL (the team's audit store, also its notes; `outboxctl init "
                         "--db URL` makes one); nothing resolved"_qs});
        QCOMPARE(counts(), std::pair(qint64(1), qint64(1)));

        FRESH_DATABASE(store, engine);
        QVERIFY(store->initialise());
        const Run resolved = action(u"resolve"_qs, u"9"_qs, store->url());
        QVERIFY2(resolved.exitCode == 0, qPrintable(why(resolved)));
        QJsonObject json = jsonOf(resolved);
        QVERIFY(json.take(u"audit"_qs).toString().startsWith(u"profile_audit in "_qs));
        QCOMPARE(json,
            QJsonObject({{u"resolved"_qs, QJsonArray({u"9"_qs})}, {u"skipped"_qs, QJsonArray()}}));
        QCOMPARE(counts(), std::pair(qint64(0), qint64(2)));
        // Not DEAD any more: left out, nothing recorded.
        const Run again = action(u"resolve"_qs, u"9"_qs, store->url());
        QVERIFY2(again.exitCode == 0, qPrintable(why(again)));
        QCOMPARE(jsonOf(again).value(u"skipped"_qs).toArray(), QJsonArray({u"9"_qs}));

        const Run reopened = action(u"reopen"_qs, u"10"_qs, store->url());
        QVERIFY2(reopened.exitCode == 0, qPrintable(why(reopened)));
        QCOMPARE(jsonOf(reopened).value(u"reopened"_qs).toArray(), QJsonArray({u"10"_qs}));
        QCOMPARE(counts(), std::pair(qint64(1), qint64(1)));
        QCOMPARE(stateOf(9), u"cancelled"_qs);
        QCOMPARE(stateOf(10), u"discarded"_qs);

        const Run audit = outboxctl({u"export"_qs, u"--db"_qs, database->url(), u"--profile"_qs,
            u"oban"_qs, u"--audit"_qs, u"--notes-db"_qs, store->url()});
        QVERIFY2(audit.exitCode == 0, qPrintable(why(audit)));
        QCOMPARE(audit.out.size(), 3); // the header and the two records
        QVERIFY2(audit.out.at(1).contains(u",9,resolve,"_qs + QString::number(T)
                     + u",ops,never to be charged,\"DEAD, failures 3\",\"RESOLVED, failures 3\","
                       "done,"_qs),
            qPrintable(audit.out.at(1)));
        QVERIFY2(audit.out.at(2).contains(u",10,reopen,"_qs)
                && audit.out.at(2).contains(
                    u",\"RESOLVED, failures 0\",\"DEAD, failures 0\",done,"_qs),
            qPrintable(audit.out.at(2)));
    }

    // A profile without resolve and reopen statements keeps both refused, naming why (its
    // `resolve_unavailable` text for resolve).
    void resolveRefusedWhereTheProfileMapsNone()
    {
        FRESH_DATABASE(database, u"postgresql"_qs);
        QVERIFY(loadFixture(*database, u"pg-boss"_qs));
        for (const QString &verb : {u"resolve"_qs, u"reopen"_qs}) {
            const Run run
                = outboxctl({verb, u"--db"_qs, database->url(), u"--profile"_qs, u"pg-boss"_qs,
                    u"--event"_qs, u"00000000-0000-4000-8000-000000000009"_qs, u"--operator"_qs,
                    u"ops"_qs, u"--reason"_qs, u"r"_qs, u"--notes-db"_qs, auditStore()});
            QCOMPARE(run.exitCode, 2);
            const QString why = verb == u"resolve"_qs
                ? u"pg-boss: resolve is not possible from the database: pg-boss has no state"_qs
                : u"pg-boss: reopen is not available: the profile maps no reopen statement"_qs;
            QVERIFY2(run.err.value(0).contains(why), qPrintable(run.err.join(u'\n')));
        }
    }

    void replayAllDeadThroughTheSource()
    {
        FRESH_DATABASE(database, u"postgresql"_qs);
        QVERIFY(loadFixture(*database, u"namastack"_qs));
        const Run run
            = outboxctl(replayArguments(database->url(), u"namastack"_qs, {u"--all-dead"_qs}));
        QVERIFY2(run.err.isEmpty(), qPrintable(run.err.join(u'\n')));
        QCOMPARE(run.exitCode, 0);
        const QJsonObject json = jsonOf(run);
        QCOMPARE(json.value(u"replayed"_qs).toArray().size(), 2);
        QCOMPARE(json.value(u"skipped"_qs).toArray(), QJsonArray());
        QCOMPARE(countsOf(database->url(), u"namastack"_qs, T), countsObject({4, 1, NA, NA, 2, 0}));
    }

    void readOnlyProfilesRefuseWithTheirExplanation_data()
    {
        QTest::addColumn<QString>("profile");
        QTest::addColumn<QString>("advice");
        QTest::addRow("spring-modulith")
            << u"spring-modulith"_qs
            << u"IncompleteEventPublications.resubmitIncompletePublications"_qs;
        QTest::addRow("spring-modulith-2")
            << u"spring-modulith-2"_qs << u"FailedEventPublications.resubmit"_qs;
        QTest::addRow("solid-queue") << u"solid-queue"_qs << u"SolidQueue::Job.find(ID).retry"_qs;
    }
    void readOnlyProfilesRefuseWithTheirExplanation()
    {
        QFETCH(QString, profile);
        QFETCH(QString, advice);
        FRESH_DATABASE(database, u"postgresql"_qs);
        QVERIFY(loadFixture(*database, profile));
        const QJsonObject before = countsOf(database->url(), profile, T);
        for (const QString &given : {profile, QString()}) {
            const Run run = outboxctl(replayArguments(database->url(), given,
                {u"--event"_qs, u"20000000-0000-4000-8000-000000000006"_qs}));
            QCOMPARE(run.exitCode, 2);
            QVERIFY(failedAsJson(run));
            QVERIFY2(run.err.constFirst().startsWith(
                         QStringLiteral("outboxctl: replay: %1: replay is not possible from the"
                                        " database: ")
                             .arg(profile)),
                qPrintable(run.err.constFirst()));
            QVERIFY2(run.err.constFirst().contains(advice), qPrintable(run.err.constFirst()));
        }
        QCOMPARE(countsOf(database->url(), profile, T), before);
    }

    void customProfileFile_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void customProfileFile()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        {
            const auto connection = database->connect(false);
            QVERIFY(connection);
            QVERIFY(runSqlScript(connection->database(), TestData::path("fixtures/custom.sql")));
        }
        const QString path = TestData::path("fixtures/custom.profile");
        const Run run = outboxctl(checkArguments(database->url(), path, T));
        QVERIFY2(run.err.isEmpty(), qPrintable(run.err.join(u'\n')));
        QCOMPARE(run.exitCode, 0);
        const QJsonObject json = jsonOf(run);
        QCOMPARE(json.value(u"counts"_qs).toObject(), countsObject({2, 1, 1, 1, 1, 2}));
        QCOMPARE(json.value(u"not_available"_qs).toArray(),
            QJsonArray({u"error_categories"_qs, u"throughput_per_minute"_qs}));

        // A custom table is never guessed.
        const Run undetected = outboxctl(checkArguments(database->url(), QString(), T));
        QCOMPARE(undetected.exitCode, 2);
        QCOMPARE(undetected.err.size(), 1);
        QCOMPARE(undetected.err.constFirst(),
            u"outboxctl: missing table delivery_outbox (run `outboxctl init --db URL` to create"
            " the schema); no other known outbox schema found either (pass --profile NAME|FILE"
            " for another library's table)"_qs);

        const Run replay
            = outboxctl(replayArguments(database->url(), path, {u"--event"_qs, u"7"_qs}));
        QVERIFY2(replay.err.isEmpty(), qPrintable(replay.err.join(u'\n')));
        QCOMPARE(replay.out, QStringList {replayedJson({u"7"_qs}, {})});
        const Run again
            = outboxctl(replayArguments(database->url(), path, {u"--event"_qs, u"7"_qs}));
        QCOMPARE(again.out, QStringList {replayedJson({}, {u"7"_qs})});
        QCOMPARE(countsOf(database->url(), path, T), countsObject({3, 1, 1, 1, 1, 1}));
    }

    // Oban keeps one {at, attempt, error} per failed attempt in its errors array and the job's
    // own max_attempts: `explain` lists each attempt's error and the limit as the library's
    // dashboard does ("attempts 3 / 3"), `--budget` overrides it, and the error groups' first
    // and last seen come from the attempts, on every engine Oban supports.
    void explainListsEachAttemptThroughOban_data()
    {
        QTest::addColumn<QString>("engine");
        for (const char *engine : {"postgresql", "mysql", "sqlite"})
            QTest::addRow("%s", engine) << QString::fromLatin1(engine);
    }
    void explainListsEachAttemptThroughOban()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        QVERIFY(loadFixture(*database, u"oban"_qs));
        const QStringList explain = {u"explain"_qs, u"--db"_qs, database->url(), u"--profile"_qs,
            u"oban"_qs, u"--event"_qs, u"9"_qs, u"--now"_qs, QString::number(T)};
        const Run run = outboxctl(explain);
        QVERIFY2(run.exitCode == 0, qPrintable(run.err.join(u'\n')));
        QCOMPARE(run.out.size(), 4);
        QVERIFY2(run.out.at(0).startsWith(u"DEAD: attempts 3 / 3 spent; the last error was "
                                          u"(** (RuntimeError) card declined)"_qs),
            qPrintable(run.out.at(0)));
        // Oban writes the same element for every failure: the newest attempt of the discarded
        // job is the one that parked it.
        const QString error = u" (** (RuntimeError) card declined)"_qs;
        QCOMPARE(run.out.mid(1),
            QStringList({u"  attempt 1 at 06:53:20: RETRY"_qs + error,
                u"  attempt 2 at 06:58:20: RETRY"_qs + error,
                u"  attempt 3 at 07:00:00: DEAD"_qs + error}));
        const Run json = outboxctl(explain + QStringList {u"--json"_qs});
        const QJsonArray attempts = jsonOf(json).value(u"attempts"_qs).toArray();
        QCOMPARE(attempts.size(), 3);
        QCOMPARE(attempts.at(1).toObject().value(u"outcome"_qs).toString(), u"RETRY"_qs);
        QCOMPARE(attempts.at(2).toObject().value(u"outcome"_qs).toString(), u"DEAD"_qs);
        const Run budget = outboxctl(explain + QStringList {u"--budget"_qs, u"5"_qs});
        QVERIFY2(budget.out.value(0).startsWith(u"DEAD: attempts 3 / 5 spent"_qs),
            qPrintable(budget.out.value(0)));

        const Run errors = outboxctl(
            {u"errors"_qs, u"--db"_qs, database->url(), u"--profile"_qs, u"oban"_qs, u"--json"_qs});
        QVERIFY2(errors.exitCode == 0, qPrintable(errors.err.join(u'\n')));
        const QJsonArray groups = QJsonDocument::fromJson(errors.out.join(u'\n').toUtf8())
                                      .object()
                                      .value(u"groups"_qs)
                                      .toArray();
        bool found = false;
        for (const QJsonValue &group : groups) {
            const QJsonObject object = group.toObject();
            if (!object.value(u"example"_qs).toString().contains(u"card declined"_qs))
                continue;
            found = true;
            QCOMPARE(object.value(u"last_seen"_qs).toInteger(), T - 3600000); // 07:00:00
            QCOMPARE(object.value(u"first_seen"_qs).toInteger(), T - 3600000);
        }
        QVERIFY2(found, qPrintable(errors.out.join(u'\n')));
    }

    // Ten more jobs discarded at 07:55, against job 9 at 07:00: `diagnose` reads each DEAD
    // job's newest attempt as the one that parked it, and finds the DEAD count rising through
    // Oban's errors array (no "needs the attempt history").
    void diagnoseFindsDeadRisingThroughOban_data() { explainListsEachAttemptThroughOban_data(); }
    void diagnoseFindsDeadRisingThroughOban()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        auto connection = loadFixture(*database, u"oban"_qs);
        QVERIFY(connection);
        const QString element
            = u"{\"at\": \"2027-01-15T07:55:00.000000Z\", \"attempt\": 1, \"error\": \"boom\"}"_qs;
        const QString errors = engine == u"postgresql"_qs
            ? u"ARRAY[CAST('"_qs + element + u"' AS jsonb)]"_qs
            : u"'["_qs + element + u"]'"_qs;
        QSqlQuery query(connection->database());
        for (int id = 100; id < 110; ++id) {
            QVERIFY2(query.exec(u"INSERT INTO oban_jobs (id, state, queue, worker, args, errors,"
                                " attempt, max_attempts, inserted_at, scheduled_at, attempted_at,"
                                " discarded_at) SELECT "_qs
                         + QString::number(id) + u", state, queue, worker, args, "_qs + errors
                         + u", 1, 1, inserted_at, scheduled_at, attempted_at, discarded_at"
                           " FROM oban_jobs WHERE id = 9"_qs),
                qPrintable(query.lastError().text()));
        }
        connection.reset();
        const Run run = outboxctl({u"diagnose"_qs, u"--db"_qs, database->url(), u"--profile"_qs,
            u"oban"_qs, u"--json"_qs, u"--now"_qs, QString::number(T)});
        const QJsonObject json = jsonOf(run);
        QVERIFY2(
            json.value(u"checked"_qs).toArray().contains(u"dead_rising"_qs), qPrintable(why(run)));
        QJsonObject evidence;
        for (const QJsonValue &finding : json.value(u"findings"_qs).toArray()) {
            if (finding.toObject().value(u"code"_qs).toString() == u"dead_rising"_qs)
                evidence = finding.toObject().value(u"evidence"_qs).toObject();
        }
        QCOMPARE(evidence.value(u"recent"_qs).toInteger(), 10);
        QCOMPARE(evidence.value(u"before"_qs).toInteger(), 1);
    }

    // pg-boss and graphile-worker keep the last error only, and the job's own limit: pg-boss's
    // retry_limit + 1 (failed job 9: retryLimit 2, three attempts), graphile-worker's
    // max_attempts (job 7 exhausted its attempts).
    void explainNamesTheLibrarysOwnLimit_data()
    {
        QTest::addColumn<QString>("profile");
        QTest::addColumn<QString>("event");
        QTest::addRow("pg-boss") << u"pg-boss"_qs << u"00000000-0000-4000-8000-000000000009"_qs;
        QTest::addRow("graphile-worker") << u"graphile-worker"_qs << u"7"_qs;
    }
    void explainNamesTheLibrarysOwnLimit()
    {
        QFETCH(QString, profile);
        QFETCH(QString, event);
        FRESH_DATABASE(database, u"postgresql"_qs);
        QVERIFY(loadFixture(*database, profile));
        const Run run = outboxctl({u"explain"_qs, u"--db"_qs, database->url(), u"--profile"_qs,
            profile, u"--event"_qs, event, u"--now"_qs, QString::number(T)});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err.join(u'\n')));
        QCOMPARE(run.out.size(), 1); // no attempt history: the last error only
        static const QRegularExpression spent(u"^DEAD: attempts (\\d+) / \\1 spent; "_qs);
        QVERIFY2(spent.match(run.out.at(0)).hasMatch(), qPrintable(run.out.at(0)));
    }

    // River (written from docs/profiles.md alone): explain lists each attempt of the errors
    // jsonb[] and River's own max_attempts; a replay is River's JobRetry (available, due now,
    // finalized_at cleared, max_attempts 3 -> 4 for a spent job, unchanged for a cancelled one),
    // audited, and explain then names the raised limit.
    void replayThroughRiverIsJobRetry()
    {
        FRESH_DATABASE(database, u"postgresql"_qs);
        QVERIFY(loadFixture(*database, u"river"_qs));
        const QStringList explain = {u"explain"_qs, u"--db"_qs, database->url(), u"--profile"_qs,
            u"river"_qs, u"--event"_qs, u"9"_qs, u"--now"_qs, QString::number(T)};
        const Run dead = outboxctl(explain);
        QVERIFY2(dead.exitCode == 0, qPrintable(dead.err.join(u'\n')));
        QVERIFY2(
            dead.out.value(0).startsWith(
                u"DEAD: attempts 3 / 3 spent; the last error was (payments: card declined)"_qs),
            qPrintable(dead.out.value(0)));
        QCOMPARE(dead.out.mid(1),
            QStringList({u"  attempt 1 at 07:00:01: RETRY (payments: 503 service unavailable)"_qs,
                u"  attempt 2 at 07:05:01: RETRY (payments: 503 service unavailable)"_qs,
                u"  attempt 3 at 07:20:01: DEAD (payments: card declined)"_qs}));

        // The dry run promises no budget: the profile's statement decides it (none for job 10).
        const Run plan = outboxctl({u"replay"_qs, u"--db"_qs, database->url(), u"--profile"_qs,
            u"river"_qs, u"--all-dead"_qs, u"--dry-run"_qs, u"--now"_qs, QString::number(T)});
        QCOMPARE(plan.out.value(0),
            u"dry run, nothing changed: would replay 2 events with the profile's replay"
            " statement"_qs);

        const Run replay = outboxctl(replayArguments(
            database->url(), u"river"_qs, {u"--event"_qs, u"9"_qs, u"--event"_qs, u"10"_qs}));
        QVERIFY2(replay.err.isEmpty(), qPrintable(replay.err.join(u'\n')));
        QCOMPARE(replay.out, QStringList {replayedJson({u"9"_qs, u"10"_qs}, {})});
        const auto connection = database->connect(false);
        QVERIFY(connection);
        QSqlQuery rows(connection->database());
        QVERIFY(
            rows.exec(u"SELECT id, state::text, max_attempts,"
                      " FLOOR(EXTRACT(EPOCH FROM scheduled_at) * 1000)::bigint,"
                      " finalized_at IS NULL FROM river_job WHERE id IN (9, 10) ORDER BY id"_qs));
        QStringList jobs;
        while (rows.next())
            jobs << QStringList {rows.value(0).toString(), rows.value(1).toString(),
                rows.value(2).toString(), QString::number(rows.value(3).toLongLong() - T),
                rows.value(4).toString()}
                        .join(u' ');
        QCOMPARE(jobs, QStringList({u"9 available 4 0 true"_qs, u"10 available 25 0 true"_qs}));
        const Run due = outboxctl(explain);
        QVERIFY2(due.out.value(0).startsWith(u"Due: failure 3 of budget 4 "_qs),
            qPrintable(due.out.value(0)));
    }

    // A job whose errors array holds 200,000 elements: `explain` reads the newest 100 and says
    // so; nothing reads the rest.
    void explainBoundsAHostileAttemptArray_data() { explainListsEachAttemptThroughOban_data(); }
    void explainBoundsAHostileAttemptArray()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        auto connection = loadFixture(*database, u"oban"_qs);
        QVERIFY(connection);
        const QString element = u"'at', '2027-01-15T07:00:00.000000Z', 'attempt', g, 'error', "_qs;
        const QString series = u"WITH RECURSIVE n(g) AS (SELECT 1 UNION ALL SELECT g + 1 FROM n"
                               " WHERE g < 200000) "_qs;
        const QMap<QString, QString> fill = {
            {u"postgresql"_qs,
                u"UPDATE oban_jobs SET errors = ARRAY(SELECT jsonb_build_object("_qs + element
                    + u"'boom ' || g) FROM generate_series(1, 200000) AS g) WHERE id = 9"_qs},
            {u"mysql"_qs,
                u"UPDATE oban_jobs SET errors = ("_qs + series
                    + u"SELECT JSON_ARRAYAGG(JSON_OBJECT("_qs + element
                    + u"CONCAT('boom ', g))) FROM n) WHERE id = 9"_qs},
            {u"sqlite"_qs,
                u"UPDATE oban_jobs SET errors = ("_qs + series
                    + u"SELECT json_group_array(json_object("_qs + element
                    + u"'boom ' || g)) FROM n) WHERE id = 9"_qs},
        };
        QSqlQuery query(connection->database());
        if (engine == u"mysql"_qs) { // MariaDB bounds JSON_ARRAYAGG and recursion by them
            QVERIFY(query.exec(u"SET SESSION group_concat_max_len = 1073741824"_qs));
            QVERIFY(query.exec(u"SET SESSION max_recursive_iterations = 1000000"_qs));
        }
        QVERIFY2(query.exec(fill.value(engine)), qPrintable(query.lastError().text()));
        connection.reset();
        const Run run = outboxctl({u"explain"_qs, u"--db"_qs, database->url(), u"--profile"_qs,
            u"oban"_qs, u"--event"_qs, u"9"_qs, u"--now"_qs, QString::number(T)});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err.join(u'\n')));
        QCOMPARE(run.out.size(), 102);
        QVERIFY2(run.out.at(0).startsWith(u"DEAD: attempts 200000 / 3 spent"_qs),
            qPrintable(run.out.at(0)));
        QCOMPARE(run.out.at(1), u"  (only the newest 100 attempts are read)"_qs);
        QCOMPARE(run.out.at(2), u"  attempt 199901 at 07:00:00: RETRY (boom 199901)"_qs);
        QCOMPARE(run.out.last(), u"  attempt 200000 at 07:00:00: DEAD (boom 200000)"_qs);
    }

    // A profile without an attempt limit never guesses one from the failures; a related table
    // of attempts (attempts = table) lists them.
    void explainWithoutALimitAndFromAnAttemptsTable_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void explainWithoutALimitAndFromAnAttemptsTable()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        {
            const auto connection = database->connect(false);
            QVERIFY(connection);
            QVERIFY(runSqlScript(connection->database(), TestData::path("fixtures/custom.sql")));
            QSqlQuery query(connection->database());
            QVERIFY(query.exec(u"CREATE TABLE shop_attempt (job_id INTEGER NOT NULL, n INTEGER"
                               " NOT NULL, ended_ms BIGINT, host VARCHAR(40), message TEXT)"_qs));
            QVERIFY(query.exec(u"INSERT INTO shop_attempt VALUES (7, 1, 1799990000000, 'w1',"
                               " 'HTTP 503'), (7, 2, 1799995000000, 'w2', 'HTTP 400: unknown"
                               " customer')"_qs));
        }
        QFile fixture(TestData::path("fixtures/custom.profile"));
        QVERIFY(fixture.open(QIODevice::ReadOnly));
        const QByteArray base = fixture.readAll();
        QTemporaryDir dir;
        const QStringList explain = {u"explain"_qs, u"--db"_qs, database->url(), u"--event"_qs,
            u"7"_qs, u"--now"_qs, QString::number(T), u"--profile"_qs};
        const Run unknown
            = outboxctl(explain + QStringList {TestData::path("fixtures/custom.profile")});
        QVERIFY2(unknown.exitCode == 0, qPrintable(unknown.err.join(u'\n')));
        QCOMPARE(unknown.out.size(), 1); // no attempt history mapped
        QVERIFY2(unknown.out.at(0).startsWith(u"DEAD: attempts 5 / limit unknown; the last"_qs),
            qPrintable(unknown.out.at(0)));

        const QString path = ScratchFile::write(dir, u"shop.profile"_qs,
            base
                + "attempts = table\n"
                  "attempts_from = shop_attempt\n"
                  "attempts_event_id = CAST(job_id AS TEXT)\n"
                  "mysql.attempts_event_id = CAST(job_id AS CHAR)\n"
                  "attempt_number = n\n"
                  "attempt_finished_at = ended_ms\n"
                  "attempt_worker = host\n"
                  "attempt_error = message\n"
                  "attempt_outcome = CASE WHEN n = 2 THEN 'DEAD' ELSE 'RETRY' END\n"
                  "attempt_limit = 5\n");
        const Run table = outboxctl(explain + QStringList {path});
        QVERIFY2(table.exitCode == 0, qPrintable(table.err.join(u'\n')));
        QVERIFY2(table.out.value(0).startsWith(u"DEAD: attempts 5 / 5 spent"_qs),
            qPrintable(table.out.value(0)));
        QCOMPARE(table.out.mid(1),
            QStringList({u"  attempt 1 at 05:13:20 by w1: RETRY (HTTP 503)"_qs,
                u"  attempt 2 at 06:36:40 by w2: DEAD (HTTP 400: unknown customer)"_qs}));
    }

    // A server with explicit_defaults_for_timestamp=OFF gives a table's first TIMESTAMP column
    // ON UPDATE CURRENT_TIMESTAMP, silently: Spring Modulith's PUBLICATION_DATE and
    // namastack's created_at then move to the time of every UPDATE, and each event's age with
    // them. `diagnose` names the column and the ALTER that drops the clause; the same tables
    // created with the setting ON (and PostgreSQL) have no such finding.
    void diagnoseWarnsOfCreationTimeRewrittenOnUpdate_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<QString>("profile");
        QTest::addColumn<QString>("session"); // before the library's DDL
        QTest::addColumn<QString>("column"); // the rewritten column; empty: no finding
        QTest::addColumn<int>("unfinished");
        const QString off = u"SET SESSION explicit_defaults_for_timestamp = OFF"_qs;
        const QString on = u"SET SESSION explicit_defaults_for_timestamp = ON"_qs;
        QTest::addRow("namastack, mysql, explicit_defaults_for_timestamp=OFF")
            << u"mysql"_qs << u"namastack"_qs << off << u"outbox_record.created_at"_qs << 5;
        QTest::addRow("spring-modulith-2, mysql, explicit_defaults_for_timestamp=OFF")
            << u"mysql"_qs << u"spring-modulith-2"_qs << off
            << u"EVENT_PUBLICATION.PUBLICATION_DATE"_qs << 6;
        QTest::addRow("namastack, mysql, explicit_defaults_for_timestamp=ON")
            << u"mysql"_qs << u"namastack"_qs << on << QString() << 5;
        QTest::addRow("namastack, postgresql")
            << u"postgresql"_qs << u"namastack"_qs << QString() << QString() << 5;
    }
    void diagnoseWarnsOfCreationTimeRewrittenOnUpdate()
    {
        QFETCH(QString, engine);
        QFETCH(QString, profile);
        QFETCH(QString, session);
        QFETCH(QString, column);
        QFETCH(int, unfinished);
        FRESH_DATABASE(database, engine);
        QVERIFY(loadFixture(*database, profile, session));
        const Run run = outboxctl({u"diagnose"_qs, u"--db"_qs, database->url(), u"--profile"_qs,
            profile, u"--now"_qs, QString::number(T), u"--json"_qs});
        QVERIFY2(run.exitCode == 0 || run.exitCode == 1, qPrintable(run.err.join(u'\n')));
        const QJsonObject json = jsonOf(run);
        QVERIFY(json.value(u"checked"_qs).toArray().contains(u"created_at_on_update"_qs));
        QJsonObject finding;
        for (const QJsonValue value : json.value(u"findings"_qs).toArray()) {
            if (value.toObject().value(u"code"_qs).toString() == u"created_at_on_update"_qs)
                finding = value.toObject();
        }
        if (column.isEmpty()) {
            QVERIFY2(finding.isEmpty(), qPrintable(run.out.join(u'\n')));
            return;
        }
        QCOMPARE(finding.value(u"severity"_qs).toString(), u"warning"_qs);
        QCOMPARE(finding.value(u"count"_qs).toInt(), unfinished);
        QCOMPARE(finding.value(u"evidence"_qs).toObject().value(u"columns"_qs).toArray(),
            QJsonArray {column});
        const QString summary = finding.value(u"summary"_qs).toString();
        QVERIFY2(summary.startsWith(QStringLiteral("The creation time (created_at) is read from %1,"
                                                   " which the server sets to the current time on"
                                                   " every UPDATE (ON UPDATE CURRENT_TIMESTAMP)")
                                        .arg(column)),
            qPrintable(summary));
        const QString action = finding.value(u"action"_qs).toString();
        QVERIFY2(action.startsWith(QStringLiteral("Drop the clause (ALTER TABLE %1 MODIFY %2 ")
                                       .arg(column.section(u'.', 0, 0), column.section(u'.', 1))),
            qPrintable(action));

        // The plain report says it as well, and exits 1 (a warning).
        const Run text = outboxctl({u"diagnose"_qs, u"--db"_qs, database->url(), u"--profile"_qs,
            profile, u"--now"_qs, QString::number(T)});
        QCOMPARE(text.exitCode, 1);
        QVERIFY2(text.out.join(u'\n').contains(u"WARNING created_at_on_update"_qs),
            qPrintable(text.out.join(u'\n')));
    }

    void badProfileIsNamed_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("error"); // %1 = the file's path
        QTest::addRow("unknown field")
            << QByteArray("name = shop\nfrom = shop_outbox\nevent_id = CAST(job_id AS TEXT)\n"
                          "statuss = state\nstatus = state\nnext_attempt_at = run_at_ms\n"
                          "replay_unavailable = none\n")
            << u"outboxctl: %1:4: unknown field 'statuss'"_qs;
        QTest::addRow("missing field")
            << QByteArray("name = shop\nfrom = shop_outbox\nevent_id = CAST(job_id AS TEXT)\n"
                          "next_attempt_at = run_at_ms\nreplay_unavailable = none\n")
            << u"outboxctl: %1: missing required field 'status' (required: name, from, event_id,"
               " status, next_attempt_at, and replay or replay_unavailable)"_qs;
        QTest::addRow("unknown column")
            << QByteArray("name = shop\nfrom = shop_outbox\nevent_id = CAST(job_id AS TEXT)\n"
                          "status = 'PENDING'\nnext_attempt_at = run_at_ms\n"
                          "failures = triesx\nreplay_unavailable = none\n")
            << u"outboxctl: shop: field failures (%1:6): column \"triesx\" does not exist"_qs;
    }
    void badProfileIsNamed()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, error);
        FRESH_DATABASE(database, u"postgresql"_qs);
        {
            const auto connection = database->connect(false);
            QVERIFY(connection);
            QVERIFY(runSqlScript(connection->database(), TestData::path("fixtures/custom.sql")));
        }
        QTemporaryDir dir;
        const QString path = ScratchFile::write(dir, u"shop.profile"_qs, text);
        for (const QString &command : {u"check"_qs, u"replay"_qs}) {
            const QStringList arguments = command == u"check"_qs
                ? checkArguments(database->url(), path, T)
                : replayArguments(database->url(), path, {u"--event"_qs, u"7"_qs});
            const Run run = outboxctl(arguments);
            QCOMPARE(run.exitCode, 2);
            // check --json prints no report for a profile it cannot load; replay --json ends
            // with its error as JSON
            QVERIFY(command == u"check"_qs ? run.out.isEmpty() : failedAsJson(run));
            QCOMPARE(run.err, QStringList {error.arg(path)});
        }
        const Run unknown = outboxctl(checkArguments(database->url(), u"pgboss"_qs, T));
        QCOMPARE(unknown.exitCode, 2);
        QCOMPARE(unknown.err,
            QStringList {
                u"outboxctl: unknown profile 'pgboss': not a built-in (native,"
                " debezium, graphile-worker, gruelbox, masstransit, namastack, oban, pg-boss,"
                " river, solid-queue, spring-modulith-2, spring-modulith, wolverine) and no"
                " such file"_qs});
    }

    void profileOnTheWrongSchemaIsNamed()
    {
        FRESH_DATABASE(database, u"postgresql"_qs);
        QVERIFY(loadFixture(*database, u"gruelbox"_qs));
        const Run run = outboxctl(checkArguments(database->url(), u"pg-boss"_qs, T));
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(run.err.size(), 1);
        QVERIFY2(run.err.constFirst().startsWith(u"outboxctl: pg-boss: field from ("_qs),
            qPrintable(run.err.constFirst()));
        QVERIFY2(run.err.constFirst().endsWith(u"relation \"pgboss.job\" does not exist"_qs),
            qPrintable(run.err.constFirst()));
    }

    // pg-boss itself writes its tables: a queue with retryLimit 2 whose handler fails for a
    // known subset, a scheduled job and a stuck one. `check --profile pg-boss` must count what
    // pg-boss reports (getQueueSize, its own states); `replay --profile pg-boss` releases a
    // failed job as boss.retry does; a pg-boss worker then completes it.
    // A MariaDB table whose client writes DATETIME in Berlin local time
    // (fixtures/berlin-mysql.sql), read through a profile with time_zone = Europe/Berlin: the
    // counts, the age, explain's due time and creation time are the real instants (one in
    // winter, one in summer time), and a replay writes the Berlin wall clock, so the job is due
    // at the replay's now, not an hour off.
    void profileTimeZone()
    {
        FRESH_DATABASE(database, u"mysql"_qs);
        {
            auto writer = database->connect(false);
            QVERIFY(writer);
            QVERIFY(
                runSqlScript(writer->database(), TestData::path(u"fixtures/berlin-mysql.sql"_qs)));
        }
        const QString url = database->url();
        const QString profile = TestData::path(u"fixtures/berlin.profile"_qs);
        const QTimeZone berlin("Europe/Berlin");
        QVERIFY(berlin.isValid());
        const auto inBerlin = [&berlin](const QDate &date, const QTime &time) {
            return QDateTime(date, time, berlin).toMSecsSinceEpoch();
        };

        const Run check = outboxctl(checkArguments(url, profile, T));
        QVERIFY2(check.exitCode == 0, qPrintable(check.err.join(u'\n')));
        QCOMPARE(jsonOf(check).value(u"counts"_qs).toObject(), countsObject({1, 1, NA, NA, 1, 1}));
        QCOMPARE(jsonOf(check).value(u"oldest_pending_age_ms"_qs).toInteger(),
            T - inBerlin(QDate(2027, 1, 15), QTime(8, 29)));

        const auto facts = [&](const QString &event) {
            const Run explain = outboxctl({u"explain"_qs, u"--db"_qs, url, u"--profile"_qs, profile,
                u"--event"_qs, event, u"--now"_qs, QString::number(T), u"--json"_qs});
            return explain.exitCode == 0 ? jsonOf(explain) : QJsonObject();
        };
        const QJsonObject due = facts(u"1"_qs);
        QCOMPARE(due.value(u"state"_qs).toString(), u"DUE"_qs);
        QCOMPARE(due.value(u"facts"_qs).toObject().value(u"next_attempt_at"_qs).toInteger(),
            inBerlin(QDate(2027, 1, 15), QTime(8, 30)));
        QVERIFY2(due.value(u"explanation"_qs).toString().contains(u"30 min ago"_qs),
            qPrintable(due.value(u"explanation"_qs).toString()));
        const QJsonObject dead = facts(u"3"_qs);
        QCOMPARE(dead.value(u"state"_qs).toString(), u"DEAD"_qs);
        QCOMPARE(dead.value(u"facts"_qs).toObject().value(u"created_at"_qs).toInteger(),
            inBerlin(QDate(2026, 7, 1), QTime(9, 0)));

        // The replay writes :now on Berlin's wall clock: due at the replay's now.
        const Run replay = outboxctl(replayArguments(url, profile, {u"--event"_qs, u"3"_qs}));
        QVERIFY2(replay.exitCode == 0, qPrintable(replay.err.join(u'\n')));
        QCOMPARE(replay.out, QStringList {replayedJson({u"3"_qs}, {})});
        const QJsonObject replayed = facts(u"3"_qs);
        QCOMPARE(replayed.value(u"state"_qs).toString(), u"DUE"_qs);
        QCOMPARE(
            replayed.value(u"facts"_qs).toObject().value(u"next_attempt_at"_qs).toInteger(), T);
        auto reader = database->connect(false);
        QSqlQuery raw(reader->database());
        QVERIFY(raw.exec(u"SELECT CAST(run_at AS CHAR) FROM berlin_jobs WHERE id = 3"_qs)
            && raw.next());
        QCOMPARE(raw.value(0).toString(), u"2027-01-15 09:00:00"_qs);
    }

    // An unknown zone is refused when the profile loads, naming the file, line and field.
    void unknownTimeZoneIsRefused()
    {
        QTemporaryDir dir;
        QFile original(TestData::path(u"fixtures/berlin.profile"_qs));
        QVERIFY(original.open(QIODevice::ReadOnly));
        QByteArray text = original.readAll();
        text.replace("time_zone = Europe/Berlin", "time_zone = Europe/Berln");
        const QString path = ScratchFile::write(dir, u"berlin.profile"_qs, text);
        const int line = QString::fromUtf8(text.left(text.indexOf("time_zone ="))).count(u'\n') + 1;
        const Run run = outboxctl({u"check"_qs, u"--db"_qs,
            u"sqlite:"_qs + dir.filePath(u"x.db"_qs), u"--profile"_qs, path});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.join(u'\n').contains(
                     QStringLiteral("%1:%2: field 'time_zone': unknown time zone 'Europe/Berln'")
                         .arg(path)
                         .arg(line)),
            qPrintable(run.err.join(u'\n')));
        QVERIFY(!QFileInfo::exists(dir.filePath(u"x.db"_qs)));
    }

    void realPgBoss()
    {
        const QString missing = pgBossMissing();
        if (!missing.isEmpty()) {
            if (TestData::inCi())
                QFAIL(qPrintable(missing));
            QSKIP(qPrintable(missing));
        }
        FRESH_DATABASE(database, u"postgresql"_qs);
        const QString script = TestData::path("pgboss/make-jobs.mjs");
        QString error;
        const QJsonObject made = runPgBoss(script, {u"make"_qs, database->url()}, &error);
        QVERIFY2(!made.isEmpty(), qPrintable(error));

        const qint64 now = qint64(made.value(u"now_ms"_qs).toDouble());
        const Run run = outboxctl(checkArguments(database->url(), u"pg-boss"_qs, now));
        QVERIFY2(run.err.isEmpty(), qPrintable(run.err.join(u'\n')));
        QCOMPARE(run.exitCode, 0);
        const QJsonObject json = jsonOf(run);
        const QJsonObject counts = json.value(u"counts"_qs).toObject();
        QCOMPARE(json.value(u"not_available"_qs).toArray(),
            QJsonArray({u"error_categories"_qs, u"throughput_per_minute"_qs}));

        // pg-boss's own view: getQueueSize counts created + retry; its states from pgboss.job.
        const QJsonObject states = made.value(u"states"_qs).toObject();
        qint64 queued = 0;
        for (const QJsonValue size : made.value(u"queue_size"_qs).toObject())
            queued += size.toInteger();
        const auto count
            = [&counts](const char *key) { return counts.value(QLatin1String(key)).toInteger(); };
        QCOMPARE(count("due") + count("scheduled"), queued);
        QCOMPARE(count("in_flight") + count("lease_expired"), made.value(u"active"_qs).toInteger());
        QCOMPARE(
            count("in_flight") + count("lease_expired"), states.value(u"active"_qs).toInteger());
        QCOMPARE(count("delivered"), states.value(u"completed"_qs).toInteger());
        QCOMPARE(count("dead"),
            states.value(u"failed"_qs).toInteger() + states.value(u"cancelled"_qs).toInteger());
        QCOMPARE(counts, countsObject({0, 2, 1, 0, 6, 4})); // what the script set up
        // retryLimit 2: each failed job failed three times.
        const QJsonArray histogram = json.value(u"attempts_histogram"_qs).toArray();
        QCOMPARE(histogram.last().toObject().value(u"failures"_qs).toInt(), 3);
        QCOMPARE(histogram.last().toObject().value(u"count"_qs).toInt(), 4);

        const QJsonArray failed = made.value(u"failed"_qs).toArray();
        QCOMPARE(failed.size(), 4);
        const QString replayed = failed.first().toObject().value(u"id"_qs).toString();
        QCOMPARE(replayOnceThenSkipped(database->url(), u"pg-boss"_qs, replayed), QString());

        // A pg-boss worker picks the replayed job up and completes it.
        const QJsonObject completed
            = runPgBoss(script, {u"complete"_qs, database->url(), replayed}, &error);
        QVERIFY2(!completed.isEmpty(), qPrintable(error));
        QCOMPARE(completed.value(u"state"_qs).toString(), u"completed"_qs);
        QCOMPARE(completed.value(u"retry_limit"_qs).toInt(), 3); // boss.retry: one more attempt
        const QJsonObject after = countsOf(database->url(), u"pg-boss"_qs, now);
        QCOMPARE(after.value(u"delivered"_qs).toInteger(), 7);
        QCOMPARE(after.value(u"dead"_qs).toInteger(), 3);
    }

    // graphile-worker itself migrates and writes its tables: 10 jobs with maxAttempts 2 of which
    // the task rejects 4 every time, 2 scheduled, one stuck. `check --profile graphile-worker`
    // must count what graphile-worker reported (its job:failed events) and its own jobs view
    // shows; `replay --profile graphile-worker` gives a permanently failed job one more attempt
    // and a graphile-worker worker then runs it, once.
    void realGraphileWorker()
    {
        const QString missing = graphileWorkerMissing();
        if (!missing.isEmpty()) {
            if (TestData::inCi())
                QFAIL(qPrintable(missing));
            QSKIP(qPrintable(missing));
        }
        FRESH_DATABASE(database, u"postgresql"_qs);
        const QString script = TestData::path("graphile-worker/make-jobs.mjs");
        QString error;
        const QJsonObject made = runGraphileWorker(script, {u"make"_qs, database->url()}, &error);
        QVERIFY2(!made.isEmpty(), qPrintable(error));

        const qint64 now = qint64(made.value(u"now_ms"_qs).toDouble());
        const QJsonObject counts = countsOf(database->url(), u"graphile-worker"_qs, now);
        QVERIFY(!counts.isEmpty());
        const auto count
            = [&counts](const char *key) { return counts.value(QLatin1String(key)).toInteger(); };
        // graphile-worker's own view and events.
        const QJsonObject view = made.value(u"view"_qs).toObject();
        const QJsonObject events = made.value(u"events"_qs).toObject();
        const QJsonArray failedEvents = events.value(u"permanently_failed"_qs).toArray();
        QCOMPARE(count("dead"), qint64(failedEvents.size()));
        QCOMPARE(count("dead"), view.value(u"permanently_failed"_qs).toInteger());
        QCOMPARE(count("in_flight") + count("lease_expired"), view.value(u"locked"_qs).toInteger());
        QCOMPARE(count("in_flight"), events.value(u"started_stuck"_qs).toInteger());
        QCOMPARE(count("scheduled"), view.value(u"scheduled"_qs).toInteger());
        QCOMPARE(count("due"), view.value(u"waiting"_qs).toInteger());
        QCOMPARE(count("due") + count("scheduled") + count("in_flight") + count("lease_expired")
                + count("dead"),
            view.value(u"total"_qs).toInteger());
        QCOMPARE(counts, countsObject({0, 2, 1, 0, NA, 4})); // what the script set up
        QVERIFY(counts.value(u"delivered"_qs).isNull()); // 6 succeeded: deleted by the library

        // The error groups read the library's last_error ("rejected N"): one group, its four
        // jobs all DEAD.
        const Run errors = outboxctl({u"errors"_qs, u"--db"_qs, database->url(), u"--profile"_qs,
            u"graphile-worker"_qs, u"--json"_qs});
        QVERIFY2(errors.exitCode == 0, qPrintable(errors.err.join(u'\n')));
        const QJsonArray groups = jsonOf(errors).value(u"groups"_qs).toArray();
        QCOMPARE(groups.size(), 1);
        const QJsonObject group = groups.first().toObject();
        QCOMPARE(group.value(u"signature"_qs).toString(), u"rejected <n>"_qs);
        QCOMPARE(group.value(u"count"_qs).toInt(), 4);
        QCOMPARE(group.value(u"dead"_qs).toInt(), 4);
        QVERIFY(made.value(u"failed"_qs)
                    .toArray()
                    .first()
                    .toObject()
                    .value(u"last_error"_qs)
                    .toString()
                    .startsWith(u"rejected "_qs));

        const QString replayed = failedEvents.first().toString();
        QCOMPARE(
            replayOnceThenSkipped(database->url(), u"graphile-worker"_qs, replayed), QString());

        // A graphile-worker worker fetches the replayed job, runs it once and deletes it.
        const QJsonObject completed
            = runGraphileWorker(script, {u"complete"_qs, database->url(), replayed}, &error);
        QVERIFY2(!completed.isEmpty(), qPrintable(error));
        QCOMPARE(completed.value(u"runs"_qs).toInt(), 1);
        const QJsonObject after = countsOf(database->url(), u"graphile-worker"_qs, now);
        QCOMPARE(after, countsObject({0, 2, 1, 0, NA, 3}));
    }
};

OUTBOX_TEST_MAIN(TestProfileCli, QCoreApplication)
#include "tst_profile_cli.moc"
