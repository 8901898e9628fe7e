// `outboxctl check` as a monitoring job runs it, on SQLite and PostgreSQL: the exact JSON line
// of the contract, exit 1 with the violations listed when a threshold is exceeded, exit 2 with
// one line on stderr for bad input or a missing table, and never a write.
#include "fixturescript.h"
#include "outboxctlrun.h"
#include "schema.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QCryptographicHash>
#include <QFile>
#include <QProcess>
#include <QSqlError>

namespace {

constexpr qint64 Now = 3600000; // a whole minute: the throughput window starts at 60000

// Known rows (test data, no user input): one due, one with an expired lease, two DEAD, one
// DELIVERED with two finished attempts.
bool populate(const QSqlDatabase &db)
{
    const QString columns = u"INSERT INTO delivery_outbox (event_id, aggregate_type, aggregate_id,"
                            " event_type, payload, status, failures, next_attempt_at, claim_token,"
                            " lease_until, created_at, last_error_category) VALUES "_qs;
    return exec(db,
               columns
                   + u"('E-due', 'Order', '1', 'T', '{}', 'PENDING', 1, 3600000, NULL, NULL, 3598500, 'TRANSIENT')"_qs)
        && exec(db,
            columns
                + u"('E-leased', 'Order', '2', 'T', '{}', 'PENDING', 0, 3500000, 'tok', 3599999, 3510000, NULL)"_qs)
        && exec(db,
            columns
                + u"('E-dead-1', 'Order', '3', 'T', '{}', 'DEAD', 3, 0, NULL, NULL, 0, 'TRANSIENT')"_qs)
        && exec(db,
            columns
                + u"('E-dead-2', 'Order', '4', 'T', '{}', 'DEAD', 1, 0, NULL, NULL, 0, 'PERMANENT')"_qs)
        && exec(db,
            columns
                + u"('E-done', 'Order', '5', 'T', '{}', 'DELIVERED', 1, 0, NULL, NULL, 0, 'TRANSIENT')"_qs)
        && exec(db,
            u"INSERT INTO delivery_attempt (event_id, attempt_no, worker, claim_token, claimed_at,"
            " finished_at, outcome) VALUES ('E-done', 1, 'w', 'a', 3539000, 3539999, 'RETRY'),"
            " ('E-done', 2, 'w', 'b', 3599000, 3599999, 'DELIVERED')"_qs);
}

QString throughputJson()
{
    QStringList minutes;
    for (int i = 0; i < 60; ++i) {
        const int delivered = i == 58 ? 1 : 0;
        const int failed = i == 57 ? 1 : 0;
        minutes << QStringLiteral("{\"minute_start\":%1,\"delivered\":%2,\"failed\":%3}")
                       .arg(60000 + i * 60000)
                       .arg(delivered)
                       .arg(failed);
    }
    return QLatin1Char('[') + minutes.join(QLatin1Char(',')) + QLatin1Char(']');
}

QString expectedJson(const QString &verdict)
{
    return u"{\"now\":3600000,\"counts\":{\"due\":1,\"scheduled\":0,\"in_flight\":0,\"lease_"
           u"expired\":1,"
           "\"delivered\":1,\"dead\":2,\"resolved\":0},\"estimated\":[],\"not_available\":[],"
           "\"oldest_pending_age_"
           "ms\":90000,"
           "\"age_histogram\":[{\"le_ms\":1000,\"count\":0},{\"le_ms\":10000,\"count\":1},"
           "{\"le_ms\":60000,\"count\":0},{\"le_ms\":600000,\"count\":1},{\"le_ms\":3600000,"
           "\"count\":0},"
           "{\"le_ms\":86400000,\"count\":0},{\"le_ms\":null,\"count\":0}],"
           "\"attempts_histogram\":[{\"failures\":0,\"count\":1},{\"failures\":1,\"count\":2},"
           "{\"failures\":2,\"count\":0},{\"failures\":3,\"count\":1}],"
           "\"error_categories\":{\"TRANSIENT\":2,\"PERMANENT\":1},\"throughput_per_minute\":"_qs
        + throughputJson()
        + u",\"delivery_latency_ms\":{\"p50\":null,\"p95\":null,\"p99\":null,\"count\":0},"_qs
        + verdict + u"}"_qs;
}

// Row counts of every native table, to prove that nothing was written.
QStringList rowCounts(const QSqlDatabase &db)
{
    QStringList counts;
    for (const QString &table : {u"delivery_outbox"_qs, u"delivery_attempt"_qs,
             u"consumer_ledger"_qs, u"consumer_stock"_qs, u"replay_log"_qs, u"outbox_meta"_qs})
        counts << table + QLatin1Char('=')
                + scalar(db, u"SELECT COUNT(*) FROM "_qs + table).toString();
    return counts;
}

QByteArray fileHash(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256);
}

QStringList check(const QString &url, const QStringList &extra)
{
    return QStringList {u"check"_qs, u"--db"_qs, url, u"--now"_qs, QString::number(Now)} + extra;
}

} // namespace

class TestOutboxctlCheck : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo::exists(qEnvironmentVariable("OUTBOXCTL")),
            "OUTBOXCTL must name the binary (set by CTest)");
    }

    void jsonIsTheContractLine_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void jsonIsTheContractLine()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        QVERIFY(populate(connection->database()));

        const Run run = outboxctl(check(database->url(), {u"--json"_qs}));
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.err.isEmpty());
        QCOMPARE(run.out, QStringList {expectedJson(u"\"healthy\":true,\"violations\":[]"_qs)});
    }

    void thresholds_data()
    {
        TestDatabase::addEngineColumn();
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("verdict");
        QTest::addColumn<QString>("report");
        const QString healthy = u"\"healthy\":true,\"violations\":[]"_qs;
        for (const QString &engine : {u"sqlite"_qs, u"postgresql"_qs, u"mysql"_qs}) {
            const QByteArray name = engine.toLatin1();
            const char *e = name.constData();
            QTest::addRow("%s: values at their limits are healthy", e)
                << engine
                << QStringList {u"--max-dead"_qs, u"2"_qs, u"--max-oldest-pending-ms"_qs,
                       u"90000"_qs, u"--max-lease-expired"_qs, u"1"_qs}
                << 0 << healthy << u"healthy"_qs;
            QTest::addRow("%s: too many DEAD", e)
                << engine << QStringList {u"--max-dead"_qs, u"1"_qs} << 1
                << u"\"healthy\":false,\"violations\":[{\"threshold\":\"max_dead\",\"limit\":1,\"value\":2}]"_qs
                << u"UNHEALTHY: DEAD is 2, above 1 (--max-dead)"_qs;
            QTest::addRow("%s: every limit exceeded, in contract order", e)
                << engine
                << QStringList {u"--max-lease-expired"_qs, u"0"_qs, u"--max-dead"_qs, u"0"_qs,
                       u"--max-oldest-pending-ms"_qs, u"89999"_qs}
                << 1
                << u"\"healthy\":false,\"violations\":[{\"threshold\":\"max_oldest_pending_ms\","
                   u"\"limit\":89999,"
                   "\"value\":90000},{\"threshold\":\"max_dead\",\"limit\":0,\"value\":2},"
                   "{\"threshold\":\"max_lease_expired\",\"limit\":0,\"value\":1}]"_qs
                << u"UNHEALTHY: oldest pending is 1 min 30 s, above 1 min 29 s "
                   u"(--max-oldest-pending-ms); DEAD is 2, above 0 (--max-dead); lease expired "
                   u"is 1, above 0 (--max-lease-expired)"_qs;
            // --max-oldest-pending takes units; given, it is no default.
            QTest::addRow("%s: --max-oldest-pending 1m", e)
                << engine << QStringList {u"--max-oldest-pending"_qs, u"1m"_qs} << 1
                << u"\"healthy\":false,\"violations\":[{\"threshold\":\"max_oldest_pending_ms\","
                   u"\"limit\":60000,\"value\":90000}]"_qs
                << u"UNHEALTHY: oldest pending is 1 min 30 s, above 1 min (--max-oldest-pending)"_qs;
            QTest::addRow("%s: --max-oldest-pending 1.5m is the age itself", e)
                << engine << QStringList {u"--max-oldest-pending"_qs, u"1.5m"_qs} << 0 << healthy
                << u"healthy"_qs;
        }
    }
    void thresholds()
    {
        QFETCH(QString, engine);
        QFETCH(QStringList, options);
        QFETCH(int, exitCode);
        QFETCH(QString, verdict);
        QFETCH(QString, report);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        QVERIFY(populate(connection->database()));

        const Run json = outboxctl(check(database->url(), options + QStringList {u"--json"_qs}));
        QCOMPARE(json.exitCode, exitCode);
        QVERIFY(json.err.isEmpty());
        QCOMPARE(json.out, QStringList {expectedJson(verdict)});

        const Run text = outboxctl(check(database->url(), options));
        QCOMPARE(text.exitCode, exitCode);
        QVERIFY(text.err.isEmpty());
        QCOMPARE(text.out.constLast(), report);
        QVERIFY(text.out.contains(
            u"pending:  1 due, 0 scheduled, 0 in flight, 1 lease expired; 1 delivered, 2 dead, "
            "0 resolved"_qs));
    }

    // Without limits `check` judges the window's red tiles (10 DEAD is red); a flag overrides
    // its figure, --no-default-thresholds judges only the flags. The report reads as a person
    // would: the time in local ISO 8601, the oldest age in two units.
    void defaultThresholdsAreTheWindowsRedTiles_data()
    {
        TestDatabase::addEngineColumn();
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("verdict");
        for (const QString &engine : {u"sqlite"_qs, u"postgresql"_qs, u"mysql"_qs}) {
            const QByteArray name = engine.toLatin1();
            const char *e = name.constData();
            QTest::addRow("%s: 10 DEAD is red by default", e)
                << engine << QStringList {} << 1 << u"UNHEALTHY: DEAD is 10, red from 10"_qs;
            QTest::addRow("%s: --max-dead overrides the default", e)
                << engine << QStringList {u"--max-dead"_qs, u"10"_qs} << 0 << u"healthy"_qs;
            QTest::addRow("%s: a flag for another figure keeps the DEAD default", e)
                << engine << QStringList {u"--max-lease-expired"_qs, u"0"_qs} << 1
                << u"UNHEALTHY: DEAD is 10, red from 10; lease expired is 1, above 0 "
                   u"(--max-lease-expired)"_qs;
            QTest::addRow("%s: --no-default-thresholds", e)
                << engine << QStringList {u"--no-default-thresholds"_qs} << 0 << u"healthy"_qs;
            QTest::addRow("%s: --no-default-thresholds with a flag", e)
                << engine << QStringList {u"--no-default-thresholds"_qs, u"--max-due"_qs, u"0"_qs}
                << 1 << u"UNHEALTHY: due is 1, above 0 (--max-due)"_qs;
        }
    }
    void defaultThresholdsAreTheWindowsRedTiles()
    {
        QFETCH(QString, engine);
        QFETCH(QStringList, options);
        QFETCH(int, exitCode);
        QFETCH(QString, verdict);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        QVERIFY(populate(connection->database()));
        for (int i = 0; i < 8; ++i) // 10 DEAD in all: the DEAD tile's default red limit
            QVERIFY(exec(connection->database(),
                u"INSERT INTO delivery_outbox (event_id, aggregate_type, aggregate_id, event_type,"
                " payload, status, failures, next_attempt_at, created_at) VALUES ('E-more-%1',"
                " 'Order', '9', 'T', '{}', 'DEAD', 3, 0, 0)"_qs.arg(i)));

        const Run text = outboxctl(check(database->url(), options));
        QCOMPARE(text.exitCode, exitCode);
        QVERIFY(text.err.isEmpty());
        QCOMPARE(text.out.constLast(), verdict);
        // Now is a logical time (before 1973), told as the window tells it; a real one is
        // local ISO 8601 (tst_profile_cli, tst_outboxctl_diagnose).
        QVERIFY2(
            text.out.constFirst().endsWith(u" at t=3600000"_qs), qPrintable(text.out.constFirst()));
        QVERIFY(text.out.contains(u"oldest:   1 min 30 s"_qs));
        const Run json = outboxctl(check(database->url(), options + QStringList {u"--json"_qs}));
        QCOMPARE(json.exitCode, exitCode);
        QVERIFY(json.out.constFirst().contains(u"\"oldest_pending_age_ms\":90000,"_qs));
    }

    // The default limit --help names is the one applied and the one the verdict prints: at the
    // help's --max-dead N, N DEAD events are healthy and one more is "red from N + 1", the help's
    // red tile.
    void defaultLimitIsTheOneHelpNames_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void defaultLimitIsTheOneHelpNames()
    {
        QFETCH(QString, engine);
        const Run help = outboxctl({u"check"_qs, u"--help"_qs});
        QCOMPARE(help.exitCode, 0);
        const QString text = help.out.join(QLatin1Char(' ')).simplified();
        const QRegularExpressionMatch match = QRegularExpression(
            u"--no-default-thresholds .*the limits --max-dead (\\d+),.* red from (\\d+) DEAD"_qs)
                                                  .match(text);
        QVERIFY2(match.hasMatch(), qPrintable(text));
        const int limit = match.captured(1).toInt();
        QCOMPARE(match.captured(2).toInt(), limit + 1);

        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const auto addDead = [&](int first, int count) {
            for (int i = first; i < first + count; ++i) {
                if (!exec(connection->database(),
                        u"INSERT INTO delivery_outbox (event_id, aggregate_type, aggregate_id,"
                        " event_type, payload, status, failures, next_attempt_at, created_at)"
                        " VALUES ('E-%1', 'Order', '%1', 'T', '{}', 'DEAD', 3, 0, 0)"_qs.arg(i)))
                    return false;
            }
            return true;
        };
        QVERIFY(addDead(0, limit));
        const Run at = outboxctl(check(database->url(), {}));
        QCOMPARE(at.exitCode, 0);
        QCOMPARE(at.out.constLast(), u"healthy"_qs);
        QVERIFY(addDead(limit, 1));
        const Run above = outboxctl(check(database->url(), {}));
        QCOMPARE(above.exitCode, 1);
        QCOMPARE(above.out.constLast(), u"UNHEALTHY: DEAD is %1, red from %1"_qs.arg(limit + 1));
        // The same limit given as the flag judges the same.
        QCOMPARE(outboxctl(check(database->url(), {u"--max-dead"_qs, QString::number(limit)}))
                     .out.constLast(),
            u"UNHEALTHY: DEAD is %1, above %2 (--max-dead)"_qs.arg(limit + 1).arg(limit));
    }

    void badInputIsOneLine_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("cause");
        const QString file = u"@FILE@"_qs;
        QTest::addRow("missing --db") << QStringList {u"check"_qs} << u"check: --db is required"_qs;
        QTest::addRow("--now not a number")
            << QStringList {u"check"_qs, u"--db"_qs, file, u"--now"_qs, u"soon"_qs}
            << u"--now must be a whole number from 0 to 9007199254740992, not 'soon'"_qs;
        QTest::addRow("--now beyond any clock")
            << QStringList {u"check"_qs, u"--db"_qs, file, u"--now"_qs, u"9223372036854775807"_qs}
            << u"--now must be a whole number from 0 to 9007199254740992"_qs;
        QTest::addRow("--max-dead negative") << QStringList {u"check"_qs, u"--db"_qs, file,
            u"--max-dead=-1"_qs} << u"--max-dead must be a whole number"_qs;
        QTest::addRow("--max-oldest-pending-ms fractional")
            << QStringList {u"check"_qs, u"--db"_qs, file, u"--max-oldest-pending-ms"_qs, u"1.5"_qs}
            << u"--max-oldest-pending-ms must be a whole number"_qs;
        QTest::addRow("--max-lease-expired empty") << QStringList {u"check"_qs, u"--db"_qs, file,
            u"--max-lease-expired"_qs, u""_qs} << u"--max-lease-expired must be a whole number"_qs;
        QTest::addRow("unknown option")
            << QStringList {u"check"_qs, u"--db"_qs, file, u"--max-pending"_qs, u"3"_qs}
            << u"max-pending"_qs;
        QTest::addRow("missing SQLite file")
            << QStringList {u"check"_qs, u"--db"_qs, file} << u"SQLite database file not found"_qs;
        QTest::addRow("unreachable server") << QStringList {u"check"_qs, u"--db"_qs,
            u"postgresql://op:hunter2@127.0.0.1:1/outbox"_qs}
                                            << u"postgresql://op:***@127.0.0.1:1/outbox"_qs;
    }
    void badInputIsOneLine()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, cause);
        QTemporaryDir dir;
        const QString path = dir.filePath(u"never.sqlite"_qs);
        arguments.replaceInStrings(u"@FILE@"_qs, u"sqlite:"_qs + path);
        const Run run = outboxctl(arguments);
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(run.err.size(), 1);
        QVERIFY2(
            run.err.constFirst().startsWith(u"outboxctl: "_qs), qPrintable(run.err.constFirst()));
        QVERIFY2(run.err.constFirst().contains(cause), qPrintable(run.err.constFirst()));
        QVERIFY(!run.err.constFirst().contains(u"hunter2"_qs));
        QVERIFY(run.out.isEmpty());
        QVERIFY(!QFileInfo::exists(path));
    }

    void missingTableIsNamed_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void missingTableIsNamed()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        {
            const auto connection = database->initialise();
            QVERIFY(connection);
            QVERIFY(exec(connection->database(), u"DROP TABLE delivery_attempt"_qs));
        }
        const Run run = outboxctl(check(database->url(), {u"--json"_qs}));
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(run.err.size(), 1);
        QVERIFY2(run.err.constFirst().startsWith(u"outboxctl: missing table delivery_attempt"_qs),
            qPrintable(run.err.constFirst()));
        QVERIFY(run.out.isEmpty());
    }

    void checkNeverWrites_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void checkNeverWrites()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        QStringList before;
        {
            const auto connection = database->initialise();
            QVERIFY(connection);
            QVERIFY(populate(connection->database()));
            before = rowCounts(connection->database());
        } // closed: SQLite checkpoints its write-ahead log into the file
        const bool sqlite = engine == u"sqlite"_qs;
        const QString path = database->url().mid(int(qstrlen("sqlite:")));
        const QByteArray hash = sqlite ? fileHash(path) : QByteArray();
        if (sqlite)
            QVERIFY(QFile::setPermissions(
                path, QFile::ReadOwner | QFile::ReadGroup | QFile::ReadOther));

        const Run json
            = outboxctl(check(database->url(), {u"--json"_qs, u"--max-dead"_qs, u"0"_qs}));
        QCOMPARE(json.exitCode, 1);
        QVERIFY(json.err.isEmpty());
        const Run text = outboxctl(check(database->url(), {}));
        QCOMPARE(text.exitCode, 0);
        QVERIFY(text.err.isEmpty());

        if (sqlite) {
            QCOMPARE(fileHash(path), hash);
            QVERIFY(QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner));
        }
        const auto connection = database->connect();
        QVERIFY(connection);
        QCOMPARE(rowCounts(connection->database()), before);
    }
};

OUTBOX_TEST_MAIN(TestOutboxctlCheck, QCoreApplication)
#include "tst_outboxctl_check.moc"
