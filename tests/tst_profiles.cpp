// Schema profiles. Each built-in profile over its library's published DDL and rows as the
// library writes them in every state (tests/fixtures/<profile>.sql): the profile validates,
// detection picks it, the derived-state counts written against delivery_outbox with native
// column names give exact numbers through the profile's source, and the real HealthQuery and
// EventListModel run unchanged on it; replay changes exactly the failed row and only once;
// read-only profiles explain what to run instead; on PostgreSQL and, for the libraries that
// publish MySQL/MariaDB DDL, on MySQL (tests/fixtures/<profile>-mysql.sql). A custom profile
// file over a hand-made table on every engine; bad profile files named by file, line and field; and
// a real pg-boss (tests/pgboss/make-jobs.mjs) whose own counts the profile must match.
// graphile-worker's mapping of its states (a locked job's running attempt, its 4-hour lock as the
// lease).
#include "eventlistmodel.h"
#include "eventwait.h"
#include "fixturescript.h"
#include "healthgrade.h"
#include "healthquery.h"
#include "outboxprofile.h"
#include "profileregistry.h"
#include "schema.h"
#include "scratchfile.h"
#include "testdata.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QAbstractItemModelTester>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSqlError>
#include <QStandardPaths>
#include <QTimeZone>

namespace {

using Engine = OutboxProfile::Engine;

constexpr qint64 T = 1800000000000; // the fixtures' now: 2027-01-15 08:00:00 UTC

// due, scheduled, in_flight, lease_expired, delivered, dead
using Counts = QList<qint64>;

// The derived-state counts as HealthQuery and EventFilter write them: against delivery_outbox
// with the native column names. Only the table reference comes from the profile.
Counts countsThrough(const QSqlDatabase &db, const OutboxProfile &profile, qint64 now)
{
    const QString sql = QStringLiteral("SELECT COUNT(CASE WHEN status = 'PENDING' AND claim_token "
                                       "IS NULL AND next_attempt_at <= :now1 THEN 1 END),"
                                       " COUNT(CASE WHEN status = 'PENDING' AND claim_token IS "
                                       "NULL AND next_attempt_at > :now2 THEN 1 END),"
                                       " COUNT(CASE WHEN status = 'PENDING' AND claim_token IS NOT "
                                       "NULL AND lease_until > :now3 THEN 1 END),"
                                       " COUNT(CASE WHEN status = 'PENDING' AND claim_token IS NOT "
                                       "NULL AND lease_until <= :now4 THEN 1 END),"
                                       " COUNT(CASE WHEN status = 'DELIVERED' THEN 1 END),"
                                       " COUNT(CASE WHEN status = 'DEAD' THEN 1 END)"
                                       " FROM %1")
                            .arg(profile.source(OutboxProfile::engineOf(db)));
    QSqlQuery query(db);
    if (!query.prepare(sql)) {
        qWarning("prepare: %s", qPrintable(query.lastError().text()));
        return {};
    }
    for (const QString &name : {u":now1"_qs, u":now2"_qs, u":now3"_qs, u":now4"_qs})
        query.bindValue(name, now);
    if (!query.exec() || !query.next()) {
        qWarning("counts: %s", qPrintable(query.lastError().text()));
        return {};
    }
    Counts counts;
    for (int i = 0; i < 6; ++i)
        counts << query.value(i).toLongLong();
    return counts;
}

Counts countsOf(const HealthSnapshot &snapshot)
{
    const HealthCounts &c = snapshot.counts;
    return {c.due, c.scheduled, c.inFlight, c.leaseExpired, c.delivered, c.dead};
}

// One logical column of one event, read through the profile.
QVariant valueOf(const QSqlDatabase &db, const OutboxProfile &profile, const QString &eventId,
    const QString &column)
{
    QSqlQuery query(db);
    query.prepare(QStringLiteral("SELECT %1 FROM %2 WHERE event_id = :id")
                      .arg(column, profile.source(OutboxProfile::engineOf(db))));
    query.bindValue(u":id"_qs, eventId);
    if (!query.exec() || !query.next())
        return {};
    return query.value(0);
}

// Every row as the profile shows it, for "nothing else changed" comparisons.
QStringList snapshotOf(const QSqlDatabase &db, const OutboxProfile &profile)
{
    QSqlQuery query(db);
    query.exec(QStringLiteral(
        "SELECT event_id, status, failures, next_attempt_at FROM %1 ORDER BY event_id")
                   .arg(profile.source(OutboxProfile::engineOf(db))));
    QStringList rows;
    while (query.next()) {
        rows << QStringLiteral("%1 %2 %3 %4")
                    .arg(query.value(0).toString(), query.value(1).toString(),
                        query.value(2).toString(), query.value(3).toString());
    }
    return rows;
}

// Loads a profile's fixture into a fresh database: the native schema first for `native`.
// MySQL's and SQLite's fixtures are the libraries' DDL for them (fixtures/<profile>-mysql.sql,
// <profile>-sqlite.sql: fixtureFor).
std::unique_ptr<DbConnection> loadFixture(const TestDatabase &database, const QString &profile)
{
    auto connection = profile == u"native"_qs ? database.initialise() : database.connect(false);
    if (!connection)
        return nullptr;
    const QString path = TestData::path(fixtureFor(profile, connection->database()));
    return runSqlScript(connection->database(), path) ? std::move(connection) : nullptr;
}

OutboxProfile builtIn(const QString &name)
{
    QString error;
    const auto profile = ProfileRegistry::byName(name, &error);
    if (!profile)
        qFatal("%s", qPrintable(error));
    return *profile;
}

// A view named delivery_outbox over the profile's source, and the empty attempt and meta
// tables only the native schema has: the real snapshot query then runs unchanged. Temporary
// on PostgreSQL; MySQL has no temporary views, and the test database is dropped afterwards.
bool viewAsNative(const QSqlDatabase &db, const OutboxProfile &profile)
{
    QSqlQuery setup(db);
    const bool mySql = OutboxProfile::engineOf(db) == Engine::MySql;
    const QString view = mySql ? u"CREATE VIEW"_qs : u"CREATE TEMP VIEW"_qs;
    const QString table = mySql ? u"CREATE TABLE"_qs : u"CREATE TEMP TABLE"_qs;
    return setup.exec(view + u" delivery_outbox AS SELECT * FROM "_qs
               + profile.source(OutboxProfile::engineOf(db)))
        && setup.exec(table + u" delivery_attempt (finished_at BIGINT, outcome TEXT)"_qs)
        && setup.exec(table + u" outbox_meta (\"key\" VARCHAR(64), value TEXT)"_qs)
        // A profile that maps RESOLVED reads as a version 2 schema, which counts RESOLVED.
        && (!profile.hasResolved()
            || setup.exec(
                u"INSERT INTO outbox_meta (\"key\", value) VALUES ('schema_version', '2')"_qs));
}

// Runs tests/pgboss/make-jobs.mjs; its last output line is JSON.
QJsonObject runPgBoss(const QStringList &arguments, QString *error)
{
    return runPgBoss(TestData::path("pgboss/make-jobs.mjs"), arguments, error);
}

} // namespace

class TestProfiles : public QObject
{
    Q_OBJECT

private slots:
    void builtInProfilesLoad()
    {
        QCOMPARE(ProfileRegistry::builtInNames(),
            QStringList({u"native"_qs, u"debezium"_qs, u"graphile-worker"_qs, u"gruelbox"_qs,
                u"masstransit"_qs, u"namastack"_qs, u"oban"_qs, u"pg-boss"_qs, u"river"_qs,
                u"solid-queue"_qs, u"spring-modulith-2"_qs, u"spring-modulith"_qs,
                u"wolverine"_qs}));
        const OutboxProfile native = builtIn(u"native"_qs);
        QVERIFY(native.isNative());
        QVERIFY(native.supports(Engine::Sqlite) && native.supports(Engine::PostgreSql)
            && native.supports(Engine::MySql));
        QCOMPARE(native.source(Engine::Sqlite), u"delivery_outbox"_qs);
        QVERIFY(native.notAvailable().isEmpty());
        QVERIFY(native.notAvailableCounts().isEmpty());
        QCOMPARE(native.replayKind(), OutboxProfile::ReplayKind::Native);
        for (const QString &name : ProfileRegistry::builtInNames()) {
            if (name == u"native"_qs)
                continue;
            const OutboxProfile profile = builtIn(name);
            QVERIFY2(!profile.isNative(), qPrintable(name));
            // Of these libraries only Oban (its Lite engine) and Solid Queue run on SQLite.
            QCOMPARE(
                profile.supports(Engine::Sqlite), name == u"oban"_qs || name == u"solid-queue"_qs);
            // Every library but pg-boss, graphile-worker and River publishes MySQL/MariaDB DDL;
            // Debezium's outbox table is documented for PostgreSQL only.
            QCOMPARE(profile.supports(Engine::MySql),
                name != u"pg-boss"_qs && name != u"graphile-worker"_qs && name != u"river"_qs
                    && name != u"debezium"_qs);
            if (profile.supports(Engine::MySql))
                QVERIFY2(profile.source(Engine::MySql).endsWith(u") AS delivery_outbox"_qs),
                    qPrintable(name));
            QVERIFY2(profile.source(Engine::PostgreSql).endsWith(u") AS delivery_outbox"_qs),
                qPrintable(name));
            // Only a profile that maps no attempt history lacks it (the one truth: hasAttemptList).
            QCOMPARE(
                profile.notAvailable().contains(u"attempt_history"_qs), !profile.hasAttemptList());
            QVERIFY2(profile.notAvailable().contains(u"replay_log"_qs), qPrintable(name));
        }
    }

    void whatEachProfileLacks_data()
    {
        QTest::addColumn<QString>("profile");
        QTest::addColumn<QStringList>("columns"); // unavailable logical columns
        QTest::addColumn<QStringList>("counts"); // counts shown as not available
        QTest::addColumn<int>("replay");
        const int statement = int(OutboxProfile::ReplayKind::Statement);
        const int unavailable = int(OutboxProfile::ReplayKind::Unavailable);
        QTest::addRow("pg-boss") << u"pg-boss"_qs
                                 << QStringList {u"aggregate_type"_qs, u"last_error_category"_qs}
                                 << QStringList {} << statement;
        QTest::addRow("spring-modulith")
            << u"spring-modulith"_qs
            << QStringList {u"aggregate_type"_qs, u"failures"_qs, u"claim_token"_qs,
                   u"lease_until"_qs, u"last_error_category"_qs, u"last_error"_qs}
            << QStringList {u"in_flight"_qs, u"lease_expired"_qs, u"dead"_qs} << unavailable;
        QTest::addRow("spring-modulith-2") << u"spring-modulith-2"_qs
                                           << QStringList {u"aggregate_type"_qs, u"lease_until"_qs,
                                                  u"last_error_category"_qs, u"last_error"_qs}
                                           << QStringList {u"lease_expired"_qs} << unavailable;
        QTest::addRow("gruelbox") << u"gruelbox"_qs
                                  << QStringList {u"aggregate_type"_qs, u"claim_token"_qs,
                                         u"lease_until"_qs, u"created_at"_qs,
                                         u"last_error_category"_qs, u"last_error"_qs}
                                  << QStringList {u"in_flight"_qs, u"lease_expired"_qs}
                                  << statement;
        QTest::addRow("namastack")
            << u"namastack"_qs
            << QStringList {u"aggregate_type"_qs, u"claim_token"_qs, u"lease_until"_qs,
                   u"last_error_category"_qs}
            << QStringList {u"in_flight"_qs, u"lease_expired"_qs} << statement;
        QTest::addRow("graphile-worker")
            << u"graphile-worker"_qs
            << QStringList {u"aggregate_type"_qs, u"delivered_at"_qs, u"last_error_category"_qs}
            << QStringList {u"delivered"_qs} << statement;
        QTest::addRow("oban") << u"oban"_qs
                              << QStringList {u"aggregate_type"_qs, u"aggregate_id"_qs,
                                     u"lease_until"_qs, u"last_error_category"_qs}
                              << QStringList {u"lease_expired"_qs} << statement;
        QTest::addRow("solid-queue")
            << u"solid-queue"_qs << QStringList {u"aggregate_type"_qs, u"last_error_category"_qs}
            << QStringList {} << unavailable;
        QTest::addRow("river") << u"river"_qs
                               << QStringList {u"aggregate_type"_qs, u"aggregate_id"_qs,
                                      u"last_error_category"_qs}
                               << QStringList {} << statement;
        QTest::addRow("debezium") << u"debezium"_qs
                                  << QStringList {u"failures"_qs, u"claim_token"_qs,
                                         u"lease_until"_qs, u"created_at"_qs, u"delivered_at"_qs,
                                         u"last_error_category"_qs, u"last_error"_qs}
                                  << QStringList {u"in_flight"_qs, u"lease_expired"_qs,
                                         u"delivered"_qs, u"dead"_qs}
                                  << unavailable;
    }
    void whatEachProfileLacks()
    {
        QFETCH(QString, profile);
        QFETCH(QStringList, columns);
        QFETCH(QStringList, counts);
        QFETCH(int, replay);
        const OutboxProfile p = builtIn(profile);
        // Oban's and River's attempts are their errors arrays: attempt history is not among
        // what they lack.
        const QStringList capabilities = profile == u"oban"_qs || profile == u"river"_qs
            ? QStringList {u"replay_log"_qs}
            : QStringList {u"attempt_history"_qs, u"replay_log"_qs};
        QCOMPARE(p.notAvailable(), columns + capabilities);
        QCOMPARE(p.notAvailableCounts(), counts);
        QCOMPARE(int(p.replayKind()), replay);
        // Resolve and reopen: the profile's own statements, Oban's alone among the built-ins.
        const bool maps = profile == u"oban"_qs;
        QCOMPARE(p.hasResolved(), maps);
        QCOMPARE(p.hasStatement(OutboxProfile::Action::Resolve), maps);
        QCOMPARE(p.hasStatement(OutboxProfile::Action::Reopen), maps);
        QCOMPARE(p.hasAttemptHistory(), false);
        QCOMPARE(p.hasReplayLog(), false);
    }

    void builtInProfileOnItsSchema_data()
    {
        TestDatabase::addEngineColumn();
        QTest::addColumn<QString>("profile");
        QTest::addColumn<Counts>("counts");
        QTest::addColumn<qint64>("oldestPendingAgeMs"); // -1: not available
        QTest::addRow("native on sqlite")
            << u"sqlite"_qs << u"native"_qs << Counts {2, 1, 1, 1, 2, 2} << qint64(7200000);
        QTest::addRow("native on postgresql")
            << u"postgresql"_qs << u"native"_qs << Counts {2, 1, 1, 1, 2, 2} << qint64(7200000);
        QTest::addRow("pg-boss") << u"postgresql"_qs << u"pg-boss"_qs << Counts {2, 2, 1, 1, 2, 3}
                                 << qint64(1800000);
        QTest::addRow("spring-modulith 1.x") << u"postgresql"_qs << u"spring-modulith"_qs
                                             << Counts {3, 0, 0, 0, 2, 0} << qint64(172800000);
        QTest::addRow("spring-modulith 2.x") << u"postgresql"_qs << u"spring-modulith-2"_qs
                                             << Counts {2, 0, 2, 0, 3, 2} << qint64(259200000);
        QTest::addRow("gruelbox") << u"postgresql"_qs << u"gruelbox"_qs << Counts {3, 2, 0, 0, 2, 1}
                                  << qint64(-1);
        QTest::addRow("namastack")
            << u"postgresql"_qs << u"namastack"_qs << Counts {2, 1, 0, 0, 2, 2} << qint64(60000);
        QTest::addRow("graphile-worker") << u"postgresql"_qs << u"graphile-worker"_qs
                                         << Counts {2, 2, 2, 1, 0, 2} << qint64(21600000);
        QTest::addRow("debezium") << u"postgresql"_qs << u"debezium"_qs << Counts {3, 0, 0, 0, 0, 0}
                                  << qint64(-1);
        // Oban on each engine it supports, from each engine's migration.
        for (const char *engine : {"postgresql", "mysql", "sqlite"})
            QTest::addRow("oban on %s", engine) << QString::fromLatin1(engine) << u"oban"_qs
                                                << Counts {2, 2, 2, 0, 2, 1} << qint64(10800000);
        // Solid Queue on each engine, from its schema in the types Rails gives each.
        for (const char *engine : {"postgresql", "mysql", "sqlite"})
            QTest::addRow("solid-queue on %s", engine)
                << QString::fromLatin1(engine) << u"solid-queue"_qs << Counts {2, 2, 1, 1, 2, 2}
                << qint64(1500000);
        // The same rows in the libraries' MySQL/MariaDB DDL give the same numbers.
        QTest::addRow("native on mysql")
            << u"mysql"_qs << u"native"_qs << Counts {2, 1, 1, 1, 2, 2} << qint64(7200000);
        QTest::addRow("spring-modulith 1.x on mysql")
            << u"mysql"_qs << u"spring-modulith"_qs << Counts {3, 0, 0, 0, 2, 0}
            << qint64(172800000);
        QTest::addRow("spring-modulith 2.x on mysql")
            << u"mysql"_qs << u"spring-modulith-2"_qs << Counts {2, 0, 2, 0, 3, 2}
            << qint64(259200000);
        QTest::addRow("gruelbox on mysql")
            << u"mysql"_qs << u"gruelbox"_qs << Counts {3, 2, 0, 0, 2, 1} << qint64(-1);
        QTest::addRow("namastack on mysql")
            << u"mysql"_qs << u"namastack"_qs << Counts {2, 1, 0, 0, 2, 2} << qint64(60000);
    }
    void builtInProfileOnItsSchema()
    {
        QFETCH(QString, engine);
        QFETCH(QString, profile);
        QFETCH(Counts, counts);
        QFETCH(qint64, oldestPendingAgeMs);
        FRESH_DATABASE(database, engine);
        const auto connection = loadFixture(*database, profile);
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        const OutboxProfile p = builtIn(profile);

        const QStringList rowsBefore = snapshotOf(db, p);
        QVERIFY(!rowsBefore.isEmpty());
        QCOMPARE(p.validate(db), QString());
        QCOMPARE(snapshotOf(db, p), rowsBefore); // validating prepares the replay, never runs it
        QString error;
        const auto detected = ProfileRegistry::detect(db, &error);
        QVERIFY2(detected, qPrintable(error));
        QCOMPARE(detected->name(), profile);
        QCOMPARE(countsThrough(db, p, T), counts);
        // The oldest PENDING row's age; NULL (not available), never 0, without created_at.
        const QVariant oldest = scalar(db,
            u"SELECT MIN(created_at) FROM "_qs + p.source(OutboxProfile::engineOf(db))
                + u" WHERE status = 'PENDING'"_qs);
        QCOMPARE(oldest.isNull() ? qint64(-1) : T - oldest.toLongLong(), oldestPendingAgeMs);

        // The real snapshot query, unchanged: on the native schema directly, on another one
        // through a temporary view named delivery_outbox over the profile's source (and an
        // empty attempt table and meta table, which only the native schema has).
        if (!p.isNative())
            QVERIFY(viewAsNative(db, p));
        const auto snapshot = HealthQuery::compute(db, T, &error);
        QVERIFY2(snapshot, qPrintable(error));
        QCOMPARE(countsOf(*snapshot), counts);

        // The fleet's summary through the profile: the whole snapshot's grade figures.
        HealthQuery::Options whole;
        whole.profile = &p;
        HealthQuery::Options brief = whole;
        brief.summaryOnly = true;
        const auto full = HealthQuery::compute(db, T, &error, whole);
        QVERIFY2(full, qPrintable(error));
        const auto summary = HealthQuery::compute(db, T, &error, brief);
        QVERIFY2(summary, qPrintable(error));
        QVERIFY(summary->isSummary);
        QCOMPARE(summary->counts.due, full->counts.due);
        QCOMPARE(summary->counts.scheduled, full->counts.scheduled);
        QCOMPARE(summary->counts.inFlight, full->counts.inFlight);
        QCOMPARE(summary->counts.leaseExpired, full->counts.leaseExpired);
        QCOMPARE(summary->counts.dead, counts.at(5));
        QCOMPARE(summary->oldestPendingAgeMs, full->oldestPendingAgeMs);
        QCOMPARE(summary->implausible.sentence(), full->implausible.sentence());
        QCOMPARE(summary->notAvailable, full->notAvailable);
        QCOMPARE(HealthGrade::of(*summary).figure, HealthGrade::of(*full).figure);

        // The event list's keyset query, unchanged, with its derived states.
        EventListModel model;
        QAbstractItemModelTester tester(
            &model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setNow(T);
        openEvents(model, *database);
        model.setProfile(p);
        QVERIFY(settled(model));
        QVERIFY2(model.lastError().isEmpty(), qPrintable(model.lastError()));
        qint64 total = 0;
        for (const qint64 count : std::as_const(counts))
            total += count;
        total += full->counts.resolved; // where the profile maps RESOLVED (Oban's cancelled)
        QCOMPARE(model.rowCount(), int(total));
        EventFilter dead;
        dead.state = EventFilter::State::Dead;
        model.setFilter(dead);
        QVERIFY(settled(model));
        QCOMPARE(model.rowCount(), int(counts.at(5)));
    }

    void pgBossMappingOfItsStates()
    {
        FRESH_DATABASE(database, u"postgresql"_qs);
        const auto connection = loadFixture(*database, u"pg-boss"_qs);
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        const OutboxProfile p = builtIn(u"pg-boss"_qs);
        const auto id = [](int n) {
            return QStringLiteral("00000000-0000-4000-8000-%1").arg(n, 12, 10, QLatin1Char('0'));
        };
        // Failures: the first failure leaves retry_count 0; three failed attempts, retry_count 2.
        QCOMPARE(valueOf(db, p, id(2), u"failures"_qs).toInt(), 1);
        QCOMPARE(valueOf(db, p, id(4), u"failures"_qs).toInt(), 2);
        QCOMPARE(valueOf(db, p, id(6), u"failures"_qs).toInt(), 1);
        QCOMPARE(valueOf(db, p, id(9), u"failures"_qs).toInt(), 3);
        QCOMPARE(valueOf(db, p, id(8), u"failures"_qs).toInt(), 1);
        // The message only, whatever the shape of the output; a completed job's output is no error.
        QCOMPARE(valueOf(db, p, id(2), u"last_error"_qs).toString(),
            u"connect ECONNREFUSED 10.0.0.7:443"_qs);
        QCOMPARE(valueOf(db, p, id(4), u"last_error"_qs).toString(), u"HTTP 503"_qs);
        QCOMPARE(valueOf(db, p, id(10), u"last_error"_qs).toString(),
            u"job failed by timeout in active state"_qs);
        QVERIFY(valueOf(db, p, id(7), u"last_error"_qs).isNull());
        QVERIFY(valueOf(db, p, id(11), u"last_error"_qs).toString().startsWith(u"cancelled"_qs));
        // The lease of an active job is started_on + expire_in.
        QCOMPARE(valueOf(db, p, id(5), u"lease_until"_qs).toLongLong(), T - 60000 + 900000);
        QCOMPARE(valueOf(db, p, id(5), u"claim_token"_qs).toString(), id(5));
        QCOMPARE(valueOf(db, p, id(7), u"delivered_at"_qs).toLongLong(), T - 30000);
        QCOMPARE(valueOf(db, p, id(1), u"next_attempt_at"_qs).toLongLong(), T - 60000);
        QCOMPARE(valueOf(db, p, id(3), u"event_type"_qs).toString(), u"orders"_qs);
        QCOMPARE(valueOf(db, p, id(3), u"payload"_qs).toString(), u"{\"orderId\": 3}"_qs);

        // The attempts histogram through the real snapshot query.
        QSqlQuery setup(db);
        QVERIFY(setup.exec(u"CREATE TEMP VIEW delivery_outbox AS SELECT * FROM "_qs
            + p.source(Engine::PostgreSql)));
        QVERIFY(setup.exec(
            u"CREATE TEMP TABLE delivery_attempt (finished_at BIGINT, outcome TEXT)"_qs));
        QVERIFY(setup.exec(u"CREATE TEMP TABLE outbox_meta (key TEXT, value TEXT)"_qs));
        QString error;
        const auto snapshot = HealthQuery::compute(db, T, &error);
        QVERIFY2(snapshot, qPrintable(error));
        QStringList attempts;
        for (const FailuresBucket &bucket : snapshot->attemptsHistogram)
            attempts << QStringLiteral("%1:%2/%3")
                            .arg(bucket.failures)
                            .arg(bucket.pending)
                            .arg(bucket.dead);
        QCOMPARE(attempts, QStringList({u"0:3/1"_qs, u"1:2/0"_qs, u"2:1/0"_qs, u"3:0/2"_qs}));
    }

    void graphileWorkerMappingOfItsStates()
    {
        FRESH_DATABASE(database, u"postgresql"_qs);
        const auto connection = loadFixture(*database, u"graphile-worker"_qs);
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        const OutboxProfile p = builtIn(u"graphile-worker"_qs);
        // attempts counts fetches: a locked job's running attempt is no failure (yet).
        QCOMPARE(valueOf(db, p, u"2"_qs, u"failures"_qs).toInt(), 1);
        QCOMPARE(valueOf(db, p, u"5"_qs, u"failures"_qs).toInt(), 0);
        QCOMPARE(valueOf(db, p, u"6"_qs, u"failures"_qs).toInt(), 1);
        QCOMPARE(valueOf(db, p, u"9"_qs, u"failures"_qs).toInt(), 2);
        // Its last attempt running is PENDING; all of them spent and unlocked is DEAD.
        QCOMPARE(valueOf(db, p, u"9"_qs, u"status"_qs).toString(), u"PENDING"_qs);
        QCOMPARE(valueOf(db, p, u"7"_qs, u"status"_qs).toString(), u"DEAD"_qs);
        QCOMPARE(
            valueOf(db, p, u"8"_qs, u"last_error"_qs).toString(), u"Manually marked as failed"_qs);
        // The lock is the claim; it runs out after graphile-worker's 4 hours.
        QCOMPARE(valueOf(db, p, u"5"_qs, u"claim_token"_qs).toString(), u"worker-7f3a"_qs);
        QCOMPARE(valueOf(db, p, u"5"_qs, u"lease_until"_qs).toLongLong(), T - 60000 + 14400000);
        QVERIFY(valueOf(db, p, u"4"_qs, u"claim_token"_qs).isNull());
        QCOMPARE(valueOf(db, p, u"4"_qs, u"next_attempt_at"_qs).toLongLong(), T + 20000);
        // The task's identifier, from graphile-worker's task table.
        QCOMPARE(valueOf(db, p, u"4"_qs, u"event_type"_qs).toString(), u"charge_card"_qs);
        QCOMPARE(valueOf(db, p, u"3"_qs, u"aggregate_id"_qs).toString(), u"welcome:c"_qs);
        QVERIFY(valueOf(db, p, u"1"_qs, u"delivered_at"_qs).isNull());
    }

    void spring2InFlightWithoutLease()
    {
        FRESH_DATABASE(database, u"postgresql"_qs);
        const auto connection = loadFixture(*database, u"spring-modulith-2"_qs);
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        const OutboxProfile p = builtIn(u"spring-modulith-2"_qs);
        // Claimed without a known lease: in flight at any now, never lease expired.
        QCOMPARE(countsThrough(db, p, T + 365LL * 86400000), Counts({2, 0, 2, 0, 3, 2}));
        QCOMPARE(
            valueOf(db, p, u"20000000-0000-4000-8000-000000000005"_qs, u"failures"_qs).toInt(), 1);
        QCOMPARE(
            valueOf(db, p, u"20000000-0000-4000-8000-000000000007"_qs, u"failures"_qs).toInt(), 3);
        QCOMPARE(valueOf(db, p, u"20000000-0000-4000-8000-000000000005"_qs, u"next_attempt_at"_qs)
                     .toLongLong(),
            T - 1000);
        QCOMPARE(
            valueOf(db, p, u"20000000-0000-4000-8000-000000000008"_qs, u"failures"_qs).toInt(), 0);
    }

    void replayChangesOnlyTheFailedRowOnce_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<QString>("profile");
        QTest::addColumn<QString>("failed");
        QTest::addColumn<QStringList>("notFailed"); // replaying these changes nothing
        QTest::addColumn<int>("failuresAfter");
        QTest::addColumn<qint64>("dueAfter");
        QTest::addColumn<Counts>("countsAfter");
        const QString pg = u"postgresql"_qs;
        QTest::addRow("pg-boss: boss.retry, one more attempt")
            << pg << u"pg-boss"_qs << u"00000000-0000-4000-8000-000000000009"_qs
            << QStringList {u"00000000-0000-4000-8000-000000000011"_qs, // cancelled
                   u"00000000-0000-4000-8000-000000000007"_qs, // completed
                   u"00000000-0000-4000-8000-000000000002"_qs} // retry
            << 3 << T - 130000 << Counts {3, 2, 1, 1, 2, 2};
        QTest::addRow("graphile-worker: one more attempt, due now")
            << pg << u"graphile-worker"_qs << u"7"_qs
            << QStringList {u"9"_qs, // its last attempt running (locked)
                   u"4"_qs, // retrying
                   u"1"_qs} // never failed
            << 3 << T << Counts {3, 2, 2, 1, 0, 1};
        for (const char *engine : {"postgresql", "mysql", "sqlite"}) {
            QTest::addRow("oban: Oban.retry_job on discarded, %s", engine)
                << QString::fromLatin1(engine) << u"oban"_qs << u"9"_qs
                << QStringList {u"2"_qs, // retryable
                       u"5"_qs, // executing
                       u"7"_qs} // completed
                << 3 << T << Counts {3, 2, 2, 0, 2, 0};
        }
        // Oban's cancelled job (10) is RESOLVED, not DEAD: the tool's replay never takes it
        // (reopen makes it DEAD first: tst_profile_cli's resolveAndReopenThroughAProfile).
        for (const QString &engine : {pg, u"mysql"_qs}) {
            QTest::addRow("gruelbox: unblock, %s", qPrintable(engine))
                << engine << u"gruelbox"_qs << u"30000000-0000-4000-8000-000000000005"_qs
                << QStringList {u"30000000-0000-4000-8000-000000000004"_qs,
                       u"30000000-0000-4000-8000-000000000006"_qs}
                << 0 << T - 480000 << Counts {4, 2, 0, 0, 2, 0};
            QTest::addRow("namastack: NEW, budget reset, due now, %s", qPrintable(engine))
                << engine << u"namastack"_qs << u"40000000-0000-4000-8000-000000000006"_qs
                << QStringList {u"40000000-0000-4000-8000-000000000002"_qs,
                       u"40000000-0000-4000-8000-000000000004"_qs}
                << 0 << T << Counts {3, 1, 0, 0, 2, 1};
        }
    }
    void replayChangesOnlyTheFailedRowOnce()
    {
        QFETCH(QString, engine);
        QFETCH(QString, profile);
        QFETCH(QString, failed);
        QFETCH(QStringList, notFailed);
        QFETCH(int, failuresAfter);
        QFETCH(qint64, dueAfter);
        QFETCH(Counts, countsAfter);
        FRESH_DATABASE(database, engine);
        const auto connection = loadFixture(*database, profile);
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        const OutboxProfile p = builtIn(profile);
        QVERIFY(p.replaySql(OutboxProfile::engineOf(db)));

        QStringList before = snapshotOf(db, p);
        QString error;
        for (const QString &id : std::as_const(notFailed))
            QCOMPARE(p.replay(db, id, T, &error), std::optional<int>(0));
        QCOMPARE(snapshotOf(db, p), before);

        QCOMPARE(valueOf(db, p, failed, u"status"_qs).toString(), u"DEAD"_qs);
        const auto changed = p.replay(db, failed, T, &error);
        QVERIFY2(changed, qPrintable(error));
        QCOMPARE(*changed, 1);
        QCOMPARE(valueOf(db, p, failed, u"status"_qs).toString(), u"PENDING"_qs);
        QCOMPARE(valueOf(db, p, failed, u"failures"_qs).toInt(), failuresAfter);
        QCOMPARE(valueOf(db, p, failed, u"next_attempt_at"_qs).toLongLong(), dueAfter);
        QCOMPARE(countsThrough(db, p, T), countsAfter);
        // Every other row as it was.
        const QStringList after = snapshotOf(db, p);
        QCOMPARE(after.size(), before.size());
        for (qsizetype i = 0; i < after.size(); ++i) {
            if (!after.at(i).startsWith(failed))
                QCOMPARE(after.at(i), before.at(i));
        }
        // Fenced: the row is no longer failed, a second replay changes nothing.
        before = after;
        QCOMPARE(p.replay(db, failed, T + 5000, &error), std::optional<int>(0));
        QCOMPARE(snapshotOf(db, p), before);
    }

    void readOnlyProfilesSayWhatToRunInstead_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<QString>("profile");
        QTest::addColumn<QString>("advice");
        for (const char *engine : {"postgresql", "mysql"}) {
            QTest::addRow("spring-modulith, %s", engine)
                << QString::fromLatin1(engine) << u"spring-modulith"_qs
                << u"IncompleteEventPublications.resubmitIncompletePublications"_qs;
            QTest::addRow("spring-modulith-2, %s", engine) << QString::fromLatin1(
                engine) << u"spring-modulith-2"_qs << u"FailedEventPublications.resubmit"_qs;
        }
        for (const char *engine : {"postgresql", "mysql", "sqlite"})
            QTest::addRow("solid-queue, %s", engine) << QString::fromLatin1(
                engine) << u"solid-queue"_qs << u"SolidQueue::Job.find(ID).retry"_qs;
    }
    void readOnlyProfilesSayWhatToRunInstead()
    {
        QFETCH(QString, engine);
        QFETCH(QString, profile);
        QFETCH(QString, advice);
        FRESH_DATABASE(database, engine);
        const auto connection = loadFixture(*database, profile);
        QVERIFY(connection);
        const OutboxProfile p = builtIn(profile);
        QCOMPARE(p.replayKind(), OutboxProfile::ReplayKind::Unavailable);
        QVERIFY(!p.replaySql(OutboxProfile::engineOf(connection->database())));
        QVERIFY2(
            p.replayUnavailableReason().contains(advice), qPrintable(p.replayUnavailableReason()));
        const QStringList before = snapshotOf(connection->database(), p);
        QString error;
        QVERIFY(!p.replay(
            connection->database(), u"20000000-0000-4000-8000-000000000006"_qs, T, &error));
        QCOMPARE(error,
            QStringLiteral("%1: replay is not possible from the database: %2")
                .arg(profile, p.replayUnavailableReason()));
        QCOMPARE(snapshotOf(connection->database(), p), before);
    }

    void detectionNamesTheCandidates()
    {
        FRESH_DATABASE(database, u"postgresql"_qs);
        const auto connection = database->connect(false);
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        QString error;
        QVERIFY(!ProfileRegistry::detect(db, &error));
        QCOMPARE(error,
            u"no known outbox schema found (looked for native, debezium, graphile-worker,"
            " gruelbox, masstransit, namastack, oban, pg-boss, river, solid-queue,"
            " spring-modulith-2, spring-modulith, wolverine): run"
            " `outboxctl init --db URL` for the native schema, or pass --profile NAME|FILE"_qs);

        QVERIFY(runSqlScript(db, TestData::path("fixtures/pg-boss.sql")));
        QVERIFY(runSqlScript(db, TestData::path("fixtures/gruelbox.sql")));
        QVERIFY(!ProfileRegistry::detect(db, &error));
        QCOMPARE(error, u"several outbox schemas found: gruelbox, pg-boss; pass --profile"_qs);

        // The native tables win: the default before profiles existed.
        QString schemaError;
        QVERIFY(Schema::create(db, &schemaError));
        const auto detected = ProfileRegistry::detect(db, &error);
        QVERIFY2(detected, qPrintable(error));
        QCOMPARE(detected->name(), u"native"_qs);
    }

    void detectionOnSqlite()
    {
        FRESH_DATABASE(database, u"sqlite"_qs);
        const auto empty = database->connect(false);
        QVERIFY(empty);
        QString error;
        QVERIFY(!ProfileRegistry::detect(empty->database(), &error));
        // Of the built-ins only native, Oban and Solid Queue run on SQLite.
        QVERIFY2(error.startsWith(
                     u"no known outbox schema found (looked for native, oban, solid-queue)"_qs),
            qPrintable(error));
        const auto native = database->initialise();
        QVERIFY(native);
        const auto detected = ProfileRegistry::detect(native->database(), &error);
        QVERIFY2(detected, qPrintable(error));
        QCOMPARE(detected->name(), u"native"_qs);
        // A PostgreSQL-only profile says so instead of failing on its SQL.
        QCOMPARE(builtIn(u"pg-boss"_qs).validate(native->database()),
            u"pg-boss: the profile is for PostgreSQL only, not for SQLite"_qs);
    }

    void builtInOnAnotherSchemaNamesTheField()
    {
        FRESH_DATABASE(database, u"postgresql"_qs);
        const auto connection = loadFixture(*database, u"spring-modulith"_qs);
        QVERIFY(connection);
        const OutboxProfile p = builtIn(u"pg-boss"_qs);
        QCOMPARE(p.validate(connection->database()),
            QStringLiteral("pg-boss: field from (:/profiles/pg-boss.profile:%1): relation "
                           "\"pgboss.job\" does not exist")
                .arg(p.lineOf(u"from"_qs)));
        // Spring Modulith 2's profile on the 1.x layout: the first column naming `status`.
        const OutboxProfile two = builtIn(u"spring-modulith-2"_qs);
        QCOMPARE(two.validate(connection->database()),
            QStringLiteral(
                "spring-modulith-2: field status (:/profiles/spring-modulith-2.profile:%1): column "
                "\"status\" does not exist")
                .arg(two.lineOf(u"status"_qs)));
    }

    void resolveNameOrPath()
    {
        QString error;
        QCOMPARE(ProfileRegistry::resolve(u"namastack"_qs, &error)->name(), u"namastack"_qs);
        const QString path = TestData::path("fixtures/custom.profile");
        const auto custom = ProfileRegistry::resolve(path, &error);
        QVERIFY2(custom, qPrintable(error));
        QCOMPARE(custom->name(), u"shop"_qs);
        QCOMPARE(custom->origin(), path);
        QVERIFY(!ProfileRegistry::resolve(u"pgboss"_qs, &error));
        QCOMPARE(error,
            u"unknown profile 'pgboss': not a built-in (native, debezium, graphile-worker,"
            " gruelbox, masstransit, namastack, oban, pg-boss, river, solid-queue,"
            " spring-modulith-2, spring-modulith, wolverine) and no such file"_qs);
        QVERIFY(!ProfileRegistry::byName(u"pgboss"_qs, &error));
        QVERIFY(error.startsWith(u"unknown profile 'pgboss' (built-in: native, "_qs));
    }

    // time_zone on every engine: the custom table's millisecond columns read as Berlin's wall
    // clock (CET in January, CEST in July) inside the SQL, and the replay's :now written on it.
    void timeZoneOnEveryEngine_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void timeZoneOnEveryEngine()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->connect(false);
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        QVERIFY(runSqlScript(db, TestData::path("fixtures/custom.sql")));
        QFile original(TestData::path("fixtures/custom.profile"));
        QVERIFY(original.open(QIODevice::ReadOnly));
        QTemporaryDir dir;
        const QString path = ScratchFile::write(
            dir, u"berlin.profile"_qs, original.readAll() + "time_zone = Europe/Berlin\n");
        QVERIFY(!path.isEmpty());
        QString error;
        const auto profile = ProfileRegistry::fromFile(path, &error);
        QVERIFY2(profile, qPrintable(error));
        QCOMPARE(profile->validate(db), QString());

        const QTimeZone berlin("Europe/Berlin");
        // The instant whose Berlin wall clock, read as UTC, is `wall`.
        const auto instantOf = [&berlin](qint64 wall) {
            const QDateTime utc = QDateTime::fromMSecsSinceEpoch(wall, QTimeZone::utc());
            return QDateTime(utc.date(), utc.time(), berlin).toMSecsSinceEpoch();
        };
        QCOMPARE(valueOf(db, *profile, u"1"_qs, u"next_attempt_at"_qs).toLongLong(),
            instantOf(1799999999000));
        const qint64 july
            = QDateTime(QDate(2026, 7, 1), QTime(10, 0), QTimeZone::utc()).toMSecsSinceEpoch();
        QVERIFY(exec(db,
            QStringLiteral("UPDATE shop_outbox SET created_ms = %1 WHERE job_id = 3").arg(july)));
        QCOMPARE(valueOf(db, *profile, u"3"_qs, u"created_at"_qs).toLongLong(), instantOf(july));
        QCOMPARE(instantOf(july), july - 2 * 3600000); // CEST

        QCOMPARE(profile->replay(db, u"7"_qs, T, &error), std::optional<int>(1));
        QCOMPARE(valueOf(db, *profile, u"7"_qs, u"next_attempt_at"_qs).toLongLong(), T);
        QSqlQuery raw(db);
        QVERIFY(raw.exec(u"SELECT run_at_ms FROM shop_outbox WHERE job_id = 7"_qs) && raw.next());
        QCOMPARE(instantOf(raw.value(0).toLongLong()), T);
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
        const auto connection = database->connect(false);
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        QVERIFY(runSqlScript(db, TestData::path("fixtures/custom.sql")));
        QString error;
        const auto profile
            = ProfileRegistry::fromFile(TestData::path("fixtures/custom.profile"), &error);
        QVERIFY2(profile, qPrintable(error));
        QVERIFY(profile->supports(Engine::Sqlite) && profile->supports(Engine::PostgreSql)
            && profile->supports(Engine::MySql));
        QCOMPARE(profile->validate(db), QString());
        QCOMPARE(profile->notAvailable(),
            QStringList({u"aggregate_type"_qs, u"aggregate_id"_qs, u"last_error_category"_qs,
                u"attempt_history"_qs, u"replay_log"_qs}));
        QVERIFY(profile->notAvailableCounts().isEmpty());
        QVERIFY(!ProfileRegistry::detect(db, &error)); // a custom table is never guessed

        // next_attempt_at == now is due, lease_until == now - 1 expired.
        QCOMPARE(countsThrough(db, *profile, T), Counts({2, 1, 1, 1, 1, 2}));
        QCOMPARE(valueOf(db, *profile, u"2"_qs, u"last_error"_qs).toString(), u"HTTP 502"_qs);

        QCOMPARE(profile->replay(db, u"7"_qs, T + 10, &error), std::optional<int>(1));
        QCOMPARE(valueOf(db, *profile, u"7"_qs, u"next_attempt_at"_qs).toLongLong(), T + 10);
        QCOMPARE(profile->replay(db, u"7"_qs, T + 20, &error), std::optional<int>(0));
        QCOMPARE(profile->replay(db, u"6"_qs, T + 20, &error), std::optional<int>(0));
        QCOMPARE(countsThrough(db, *profile, T + 10), Counts({3, 1, 1, 1, 1, 1}));
    }

    // Validation prepares the replay statement and never runs it, on every engine (MariaDB
    // prepares it outside the read-only transaction, which refuses to prepare an UPDATE): a
    // replay that would change every failed row leaves them all as they were.
    void validationNeverRunsTheReplay_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void validationNeverRunsTheReplay()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->connect(false);
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        QVERIFY(runSqlScript(db, TestData::path("fixtures/custom.sql")));
        QFile custom(TestData::path("fixtures/custom.profile"));
        QVERIFY(custom.open(QIODevice::ReadOnly));
        QString text = QString::fromUtf8(custom.readAll());
        const qsizetype replayAt = text.indexOf(u"\nreplay ="_qs);
        QVERIFY(replayAt > 0);
        text = text.left(replayAt + 1)
            + u"replay = UPDATE shop_outbox SET tries = tries + 100, state = 'queued'\n"
              "    WHERE (job_id = CAST(:event_id AS INTEGER) OR tries >= 0) AND state = 'error'\n"_qs;
        QTemporaryDir dir;
        const QString path = ScratchFile::writeText(dir, u"every-row.profile"_qs, text);
        QVERIFY(!path.isEmpty());
        QString error;
        const auto profile = ProfileRegistry::fromFile(path, &error);
        QVERIFY2(profile, qPrintable(error));
        const QString raw
            = u"SELECT COUNT(*) FROM shop_outbox WHERE state = 'error' AND tries = 5"_qs;
        QCOMPARE(scalar(db, raw).toInt(), 2);
        const QStringList before = snapshotOf(db, *profile);
        QCOMPARE(profile->validate(db), QString());
        QCOMPARE(snapshotOf(db, *profile), before);
        QCOMPARE(scalar(db, raw).toInt(), 2);
        // The statement does change them when it runs: the comparison above could see it.
        QCOMPARE(profile->replay(db, u"7"_qs, T, &error), std::optional<int>(2));
        QCOMPARE(scalar(db, raw).toInt(), 0);
    }

    void badProfileFile_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("error"); // %1 = the file's path
        const QByteArray head
            = "name = shop\nfrom = shop_outbox\nevent_id = CAST(job_id AS TEXT)\n";
        const QByteArray rest
            = "status = state\nnext_attempt_at = run_at_ms\nreplay_unavailable = none\n";
        QTest::addRow("unknown field")
            << head + "statuss = state\n" + rest << u"%1:4: unknown field 'statuss'"_qs;
        QTest::addRow("missing '='") << QByteArray("name = shop\n# comment\nfrom shop_outbox\n")
                                     << u"%1:3: missing '=' (write 'field = value')"_qs;
        QTest::addRow("missing required field")
            << head + "next_attempt_at = run_at_ms\nreplay_unavailable = none\n"
            << u"%1: missing required field 'status' (required: name, from, event_id, status,"
               " next_attempt_at, and replay or replay_unavailable)"_qs;
        QTest::addRow("no replay decision")
            << head + "status = state\nnext_attempt_at = run_at_ms\n"
            << u"%1: missing required field 'replay' or 'replay_unavailable' (a fenced statement,"
               " or what to run instead)"_qs;
        QTest::addRow("field given twice") << head + rest
                + "\nfrom = other\n" << u"%1:8: field 'from' given twice (first at line 2)"_qs;
        QTest::addRow("unknown engine")
            << head + "oracle.status = state\n" + rest
            << u"%1:4: unknown engine 'oracle' in 'oracle.status' (postgresql or sqlite or mysql)"_qs;
        QTest::addRow("no mysql expression")
            << head + "engines = postgresql, mysql\npostgresql.failures = tries\n" + rest
            << u"%1:5: field 'failures' has no mysql value (add 'mysql.failures', or leave mysql out of 'engines')"_qs;
        QTest::addRow("no sqlite expression")
            << head + "postgresql.failures = tries\n" + rest
            << u"%1:4: field 'failures' has no sqlite value (add 'sqlite.failures', or leave sqlite out of 'engines')"_qs;
        QTest::addRow("required column unavailable")
            << QByteArray("name = shop\nfrom = shop_outbox\nevent_id = unavailable\n") + rest
            << u"%1:3: field 'event_id' is required and cannot be unavailable"_qs;
        QTest::addRow("continuation without field") << QByteArray(
            "  name = shop\n") << u"%1:1: continuation line without a field above it"_qs;
        QTest::addRow("replay without the event")
            << head
                + "status = state\nnext_attempt_at = run_at_ms\nreplay = UPDATE shop_outbox\n"
                  "    SET state = 'queued' WHERE state = 'error'\n"
            << u"%1:6: field 'replay' must name the event as :event_id"_qs;
        QTest::addRow("replay without WHERE")
            << head
                + "status = state\nnext_attempt_at = run_at_ms\nreplay = UPDATE shop_outbox SET "
                  "state = 'queued', kind = :event_id\n"
            << u"%1:6: field 'replay' needs a WHERE clause that fences the failed state"_qs;
        QTest::addRow("replay and replay_unavailable")
            << head + rest
                + "replay = UPDATE shop_outbox SET state = 'queued' WHERE job_id = :event_id\n"
            << u"%1:7: 'replay' and 'replay_unavailable' exclude each other"_qs;
        QTest::addRow("native replay elsewhere")
            << head + "status = state\nnext_attempt_at = run_at_ms\nreplay = native\n"
            << u"%1:6: 'replay = native' works only on the native schema (delivery_outbox with every column as itself)"_qs;
        QTest::addRow("jsonb ? operator")
            << head + "failures = CASE WHEN body::jsonb ? 'retry' THEN 1 END\n" + rest
            << u"%1:4: field 'failures': '?' would be read as a query parameter (use jsonb_exists()"
               " and the like instead of the ? operators)"_qs;
        QTest::addRow("replay placeholder")
            << head
                + "status = state\nnext_attempt_at = run_at_ms\n"
                  "replay = UPDATE shop_outbox SET state = 'queued' WHERE job_id = :id\n"
            << u"%1:6: field 'replay': ':id' would be read as a query parameter (only :event_id and"
               " :now)"_qs;
        QTest::addRow("no engine") << head + rest + "engines = ,\n"
                                   << u"%1:7: field 'engines' lists no engine"_qs;
        QTest::addRow("bad status list")
            << head + rest + "statuses = PENDING, DONE\n"
            << u"%1:7: field 'statuses': unknown status 'DONE' (PENDING, DELIVERED, DEAD,"
               " RESOLVED)"_qs;
        // Resolve and reopen through a profile: checked as replay is, and only with RESOLVED.
        const QByteArray resolvedHead
            = head + rest + "statuses = PENDING, DELIVERED, DEAD, RESOLVED\n";
        QTest::addRow("resolve without RESOLVED")
            << head + rest
                + "resolve = UPDATE shop_outbox SET state = 'closed' WHERE job_id = :event_id"
                  " AND state = 'error'\n"
            << u"%1:7: field 'resolve' needs 'statuses' to list DEAD and RESOLVED (the status"
               " expression yields RESOLVED for the library's closed state)"_qs;
        QTest::addRow("resolve that is not an UPDATE")
            << resolvedHead + "resolve = DELETE FROM shop_outbox WHERE job_id = :event_id\n"
            << u"%1:8: field 'resolve' must be one UPDATE statement, not DELETE"_qs;
        QTest::addRow("resolve behind WITH")
            << resolvedHead
                + "resolve = WITH gone AS (DELETE FROM victim RETURNING 1) UPDATE shop_outbox"
                  " SET state = 'closed' WHERE job_id = :event_id\n"
            << u"%1:8: field 'resolve' starts with WITH: write one plain UPDATE (a WITH clause"
               " could change other tables first)"_qs;
        QTest::addRow("reopen without WHERE")
            << resolvedHead + "reopen = UPDATE shop_outbox SET state = 'error', kind = :event_id\n"
            << u"%1:8: field 'reopen' needs a WHERE clause that fences the resolved state"_qs;
        QTest::addRow("reopen placeholder")
            << resolvedHead + "reopen = UPDATE shop_outbox SET state = 'error' WHERE job_id = :id\n"
            << u"%1:8: field 'reopen': ':id' would be read as a query parameter (only :event_id"
               " and :now)"_qs;
        QTest::addRow("two statements in resolve")
            << resolvedHead
                + "resolve = UPDATE shop_outbox SET state = 'closed' WHERE job_id = :event_id;"
                  " DELETE FROM victim\n"
            << u"%1:8: field 'resolve' holds more than one statement (a ';' followed by more SQL):"
               " each field is one expression or statement"_qs;
        QTest::addRow("resolve and resolve_unavailable")
            << resolvedHead + "resolve_unavailable = none\n"
                + "resolve = UPDATE shop_outbox SET state = 'closed' WHERE job_id = :event_id\n"
            << u"%1:9: 'resolve' and 'resolve_unavailable' exclude each other"_qs;
        // The attempt history (docs/profiles.md, "Attempt history and the attempt limit").
        QTest::addRow("attempts of an unknown shape")
            << head + rest + "attempts = list\nattempts_from = errors\n"
            << u"%1:7: field 'attempts': 'list' is neither 'table' nor 'json_array'"_qs;
        QTest::addRow("an attempt field without attempts")
            << head + rest + "attempt_error = message\n"
            << u"%1:7: field 'attempt_error' needs 'attempts = table' or 'attempts = json_array'"
               " (docs/profiles.md, \"Attempt history\")"_qs;
        QTest::addRow("a related table without the event's ID")
            << head + rest + "attempts = table\nattempts_from = shop_attempt\nattempt_number = n\n"
            << u"%1:7: 'attempts = table' needs the field 'attempts_event_id'"_qs;
        QTest::addRow("two statements in an attempt field")
            << head + rest
                + "attempts = json_array\nattempts_from = errors\nattempt_error = 1; DELETE FROM "
                  "x\n"
            << u"%1:9: field 'attempt_error' holds more than one statement (a ';' followed by"
               " more SQL): each field is one expression or statement"_qs;
        QTest::addRow("a hazard in the attempt limit")
            << head + rest + "attempt_limit = pg_advisory_lock(1)\n"
            << u"%1:7: field 'attempt_limit' uses pg_advisory_lock, which"_qs;
        QTest::addRow("a slot name in capitals")
            << head + rest + "cdc_slot = Debezium\n"
            << u"%1:7: field 'cdc_slot': 'Debezium' is not a replication slot name (1-63 of a-z,"
               " 0-9, _)"_qs;
        QTest::addRow("a slot name too long")
            << head + "cdc_slot = " + QByteArray(64, 'a') + "\n" + rest
            << u"%1:4: field 'cdc_slot': '%2' is not a replication slot name (1-63 of a-z, 0-9,"
               " _)"_qs.arg(u"%1"_qs, QString(64, u'a'));
        QTest::addRow("a slot per engine")
            << head + rest + "postgresql.cdc_slot = dbz\n"
            << u"%1:7: field 'cdc_slot' is the same for every engine: write 'cdc_slot = ...'"_qs;
    }

    // `cdc_slot` in any profile file names the slot that relays it; none without the key.
    void profileNamesItsSlot()
    {
        QTemporaryDir dir;
        const QByteArray text = "name = shop\nfrom = shop_outbox\nevent_id = job_id\n"
                                "status = state\nnext_attempt_at = run_at_ms\n"
                                "replay_unavailable = none\ncdc_slot = shop_dbz_1\n";
        QString error;
        const auto profile
            = ProfileRegistry::fromFile(ScratchFile::write(dir, u"shop.profile"_qs, text), &error);
        QVERIFY2(profile, qPrintable(error));
        QCOMPARE(profile->cdcSlot(), u"shop_dbz_1"_qs);
        QCOMPARE(builtIn(u"debezium"_qs).cdcSlot(), QString());
        QCOMPARE(builtIn(u"native"_qs).cdcSlot(), QString());
    }
    void badProfileFile()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, error);
        QTemporaryDir dir;
        const QString path = ScratchFile::write(dir, u"bad.profile"_qs, text);
        QVERIFY(!path.isEmpty());
        QString actual;
        QVERIFY(!ProfileRegistry::fromFile(path, &actual));
        if (error.endsWith(u"which"_qs)) // a hazard's message goes on to say why
            QVERIFY2(actual.startsWith(error.arg(path)), qPrintable(actual));
        else
            QCOMPARE(actual, error.arg(path));
    }

    void expressionNamingAnUnknownColumn_data()
    {
        TestDatabase::addEngineColumn();
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("postgresql");
        QTest::addColumn<QString>("sqlite");
        QTest::addColumn<QString>("mysql");
        QTest::addRow("sqlite: column")
            << u"sqlite"_qs << QByteArray("failures = triesx") << u"failures"_qs << QString()
            << u"no such column: triesx"_qs << QString();
        QTest::addRow("postgresql: column")
            << u"postgresql"_qs << QByteArray("failures = triesx") << u"failures"_qs
            << u"column \"triesx\" does not exist"_qs << QString() << QString();
        QTest::addRow("mysql: column")
            << u"mysql"_qs << QByteArray("failures = triesx") << u"failures"_qs << QString()
            << QString() << u"Unknown column 'triesx' in 'SELECT'"_qs; // MariaDB's words
        QTest::addRow("sqlite: table")
            << u"sqlite"_qs << QByteArray("from = shop_outboxx") << u"from"_qs << QString()
            << u"no such table: shop_outboxx"_qs << QString();
        QTest::addRow("postgresql: table")
            << u"postgresql"_qs << QByteArray("from = shop_outboxx") << u"from"_qs
            << u"relation \"shop_outboxx\" does not exist"_qs << QString() << QString();
        QTest::addRow("postgresql: replay")
            << u"postgresql"_qs
            << QByteArray("replay = UPDATE shop_outbox SET statex = 'queued' WHERE job_id = "
                          "CAST(:event_id AS INTEGER)")
            << u"replay"_qs << u"column \"statex\" of relation \"shop_outbox\" does not exist"_qs
            << QString() << QString();
    }
    void expressionNamingAnUnknownColumn()
    {
        QFETCH(QString, engine);
        QFETCH(QByteArray, line);
        QFETCH(QString, field);
        QFETCH(QString, postgresql);
        QFETCH(QString, sqlite);
        QFETCH(QString, mysql);
        FRESH_DATABASE(database, engine);
        const auto connection = database->connect(false);
        QVERIFY(connection);
        QVERIFY(runSqlScript(connection->database(), TestData::path("fixtures/custom.sql")));

        // custom.profile with one line replaced: the error names that field and that line.
        QFile original(TestData::path("fixtures/custom.profile"));
        QVERIFY(original.open(QIODevice::ReadOnly));
        QList<QByteArray> lines = original.readAll().split('\n');
        const QByteArray key = line.left(line.indexOf('=')).trimmed();
        int number = 0;
        for (qsizetype i = 0; i < lines.size(); ++i) {
            if (lines.at(i).startsWith(QByteArray(key + " ="))) {
                lines[i] = line;
                number = int(i) + 1;
                while (i + 1 < lines.size() && lines.at(i + 1).startsWith(' '))
                    lines.removeAt(i + 1); // the replaced value's continuation lines
            }
        }
        QVERIFY(number > 0);
        QTemporaryDir dir;
        const QString path = ScratchFile::write(dir, u"shop.profile"_qs, lines.join('\n'));
        QVERIFY(!path.isEmpty());

        QString error;
        const auto profile = ProfileRegistry::fromFile(path, &error);
        QVERIFY2(profile, qPrintable(error));
        QCOMPARE(profile->validate(connection->database()),
            QStringLiteral("shop: field %1 (%2:%3): %4")
                .arg(field, path)
                .arg(number)
                .arg(engine == u"sqlite"_qs     ? sqlite
                        : engine == u"mysql"_qs ? mysql
                                                : postgresql));
    }

    // pg-boss itself writes its tables (retryLimit 2, a failing subset, a stuck job); the
    // profile's counts must agree with pg-boss's getQueueSize and its own table, replay must be
    // boss.retry, and a pg-boss worker must then complete the replayed job.
    void realPgBoss()
    {
        const QString node = QStandardPaths::findExecutable(u"node"_qs);
        const bool pgBoss = QFile::exists(pgBossDir() + u"/node_modules/pg-boss/package.json"_qs);
        if (node.isEmpty() || !pgBoss) {
            const QString why
                = QStringLiteral("real pg-boss check needs node and pg-boss@10 in %1"
                                 " (npm install --prefix %1 pg-boss@10): %2")
                      .arg(pgBossDir(),
                          node.isEmpty() ? u"node not found"_qs : u"pg-boss not installed"_qs);
            if (TestData::inCi())
                QFAIL(qPrintable(why));
            QSKIP(qPrintable(why));
        }
        FRESH_DATABASE(database, u"postgresql"_qs);
        QString error;
        const QJsonObject made = runPgBoss({u"make"_qs, database->url()}, &error);
        QVERIFY2(!made.isEmpty(), qPrintable(error));
        const auto connection = database->connect(false);
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();

        const auto detected = ProfileRegistry::detect(db, &error);
        QVERIFY2(detected, qPrintable(error));
        QCOMPARE(detected->name(), u"pg-boss"_qs);
        const OutboxProfile &p = *detected;
        QCOMPARE(p.validate(db), QString());

        // pg-boss's own view: getQueueSize counts created + retry; its states from pgboss.job.
        const qint64 now = qint64(made.value(u"now_ms"_qs).toDouble());
        const QJsonObject states = made.value(u"states"_qs).toObject();
        const QJsonObject sizes = made.value(u"queue_size"_qs).toObject();
        qint64 queued = 0;
        for (const QJsonValue size : sizes)
            queued += size.toInteger();
        const Counts counts = countsThrough(db, p, now);
        QCOMPARE(counts.at(0) + counts.at(1), queued); // due + scheduled
        QCOMPARE(counts.at(2) + counts.at(3), made.value(u"active"_qs).toInteger());
        QCOMPARE(counts.at(2) + counts.at(3), states.value(u"active"_qs).toInteger());
        QCOMPARE(counts.at(4), states.value(u"completed"_qs).toInteger());
        QCOMPARE(counts.at(5),
            states.value(u"failed"_qs).toInteger() + states.value(u"cancelled"_qs).toInteger());
        // And the exact numbers the script set up.
        QCOMPARE(counts, Counts({0, 2, 1, 0, 6, 4}));
        const QJsonArray failed = made.value(u"failed"_qs).toArray();
        QCOMPARE(failed.size(), 4);
        for (const QJsonValue job : failed) {
            const QString id = job.toObject().value(u"id"_qs).toString();
            QCOMPARE(valueOf(db, p, id, u"failures"_qs).toInt(), 3); // retryLimit 2: three attempts
            QCOMPARE(valueOf(db, p, id, u"last_error"_qs).toString(),
                job.toObject().value(u"message"_qs).toString());
        }

        // Replay one failed job as boss.retry does; a pg-boss worker completes it.
        const QString replayed = failed.first().toObject().value(u"id"_qs).toString();
        QCOMPARE(p.replay(db, replayed, now, &error), std::optional<int>(1));
        QCOMPARE(p.replay(db, replayed, now, &error), std::optional<int>(0));
        const QJsonObject completed
            = runPgBoss({u"complete"_qs, database->url(), replayed}, &error);
        QVERIFY2(!completed.isEmpty(), qPrintable(error));
        QCOMPARE(completed.value(u"state"_qs).toString(), u"completed"_qs);
        QCOMPARE(completed.value(u"retry_limit"_qs).toInt(), 3);
        const Counts after = countsThrough(db, p, now);
        QCOMPARE(after.at(4), 7);
        QCOMPARE(after.at(5), 3);
        QCOMPARE(valueOf(db, p, replayed, u"status"_qs).toString(), u"DELIVERED"_qs);
    }
};

OUTBOX_TEST_MAIN(TestProfiles, QCoreApplication)
#include "tst_profiles.moc"
