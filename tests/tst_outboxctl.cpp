// outboxctl as a user runs it: exit status, one-line errors that name the cause, nothing
// written on bad input, and the JSON Lines trace of `simulate`.
#include "outboxctlrun.h"
#include "schema.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

namespace {

QJsonObject json(const QString &line)
{
    return QJsonDocument::fromJson(line.toUtf8()).object();
}

} // namespace

class TestOutboxctl : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo::exists(qEnvironmentVariable("OUTBOXCTL")),
            "OUTBOXCTL must name the binary (set by CTest)");
    }

    void initIsIdempotent_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void initIsIdempotent()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const Run first = outboxctl({u"init"_qs, u"--db"_qs, database->url()});
        QCOMPARE(first.exitCode, 0);
        const Run second
            = outboxctl({u"init"_qs, u"--db"_qs, database->url(), u"--for-simulation"_qs});
        QCOMPARE(second.exitCode, 0);
        QVERIFY(second.out.join(QLatin1Char(' ')).contains(u"for simulation"_qs));
        const auto connection = database->connect();
        QVERIFY(connection);
        QVERIFY(Schema::validate(connection->database()).isEmpty());
        QVERIFY(Schema::isMarkedForSimulation(connection->database()));
    }

    void simulatePrintsTheTrace_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void simulatePrintsTheTrace()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        if (engine != QLatin1String("sqlite")) // a server's database exists, without tables
            QCOMPARE(outboxctl({u"init"_qs, u"--db"_qs, database->url(), u"--for-simulation"_qs})
                         .exitCode,
                0);
        // SQLite: the file does not exist yet, so simulate creates it.
        const Run run = outboxctl({u"simulate"_qs, u"--db"_qs, database->url(), u"--scenario"_qs,
            u"lost-ack"_qs, u"--json"_qs});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.err.isEmpty());
        QVERIFY(run.out.constFirst().startsWith(
            u"{\"t\":0,\"event\":\"claim\",\"event_id\":\"EVENT-42\""_qs));
        QStringList kinds;
        for (const QString &line : run.out)
            kinds << json(line).value(u"event"_qs).toString();
        QCOMPARE(kinds,
            QStringList({u"claim"_qs, u"deliver"_qs, u"fail"_qs, u"claim"_qs, u"deliver"_qs,
                u"ack"_qs, u"summary"_qs}));
        const QJsonObject retry = json(run.out.at(3));
        QCOMPARE(retry.value(u"t"_qs).toInt(), 10);
        QCOMPARE(retry.value(u"attempt"_qs).toInt(), 2);
        const QJsonObject summary = json(run.out.constLast());
        QCOMPARE(summary.value(u"ledger"_qs).toInt(), 1);
        QCOMPARE(summary.value(u"transport_calls"_qs).toInt(), 2);
        QCOMPARE(summary.value(u"stock"_qs).toObject().value(u"SKU-1"_qs).toInt(), 8);
        QCOMPARE(summary.value(u"statuses"_qs).toObject().value(u"DELIVERED"_qs).toInt(), 1);

        // Running again replaces the simulation's rows instead of colliding with them.
        const Run again = outboxctl({u"simulate"_qs, u"--db"_qs, database->url(), u"--scenario"_qs,
            u"lost-ack"_qs, u"--json"_qs});
        QCOMPARE(again.exitCode, 0);
        QCOMPARE(again.out, run.out);
    }

    // The scenario of what an edit cannot do, narrated plainly, and run twice on one database
    // (its payload revision replaced with the rest of the simulation's rows).
    void simulateNarratesTheEditThatComesTooLate_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void simulateNarratesTheEditThatComesTooLate()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        if (engine != QLatin1String("sqlite"))
            QCOMPARE(outboxctl({u"init"_qs, u"--db"_qs, database->url(), u"--for-simulation"_qs})
                         .exitCode,
                0);
        const QStringList simulate = {u"simulate"_qs, u"--db"_qs, database->url(), u"--scenario"_qs,
            u"edit-after-lost-ack"_qs};
        const Run run = outboxctl(simulate);
        QVERIFY2(run.exitCode == 0, qPrintable(run.err.join(u'\n')));
        QVERIFY2(
            run.out.filter(u"t=50  alice edits EVENT-77's payload (revision 1: "_qs).size() == 1,
            qPrintable(run.out.join(u'\n')));
        QVERIFY2(
            run.out.filter(u"answers DUPLICATE: it keeps the first payload it applied and "
                           "ignores the edited one"_qs)
                    .size()
                == 1,
            qPrintable(run.out.join(u'\n')));
        QVERIFY(run.out.constLast().contains(u"\"stock\":{\"SKU-1\":8}"_qs));
        const Run again = outboxctl(simulate);
        QCOMPARE(again.exitCode, 0);
        QCOMPARE(again.out, run.out);
    }

    void simulateRefusesAnOrdinaryDatabase_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void simulateRefusesAnOrdinaryDatabase()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        QCOMPARE(outboxctl({u"init"_qs, u"--db"_qs, database->url()}).exitCode, 0);
        const Run run = outboxctl(
            {u"simulate"_qs, u"--db"_qs, database->url(), u"--scenario"_qs, u"poison-dead"_qs});
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(run.err.size(), 1);
        QVERIFY2(run.err.constFirst().contains(u"not initialised for simulation"_qs),
            qPrintable(run.err.constFirst()));
        const auto connection = database->connect();
        QCOMPARE(
            scalar(connection->database(), u"SELECT COUNT(*) FROM delivery_outbox"_qs).toInt(), 0);
    }

    void badInputIsOneLineAndWritesNothing_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("cause");
        const QString file = u"@FILE@"_qs;
        QTest::addRow("no command") << QStringList {} << u"missing command"_qs;
        QTest::addRow("unknown command")
            << QStringList {u"frobnicate"_qs} << u"unknown command 'frobnicate'"_qs;
        QTest::addRow("unknown option") << QStringList {u"init"_qs, u"--nope"_qs} << u"nope"_qs;
        QTest::addRow("missing --db") << QStringList {u"init"_qs} << u"--db is required"_qs;
        QTest::addRow("unsupported scheme") << QStringList {u"init"_qs, u"--db"_qs,
            u"oracle://h/db"_qs} << u"unsupported database URL scheme 'oracle'"_qs;
        QTest::addRow("postgresql without database") << QStringList {u"init"_qs, u"--db"_qs,
            u"postgresql://localhost"_qs} << u"without a database name"_qs;
        QTest::addRow("unknown scenario") << QStringList {u"simulate"_qs, u"--db"_qs, file,
            u"--scenario"_qs, u"chaos"_qs} << u"unknown scenario 'chaos'"_qs;
        QTest::addRow("bad policy kind") << QStringList {u"simulate"_qs, u"--db"_qs, file,
            u"--scenario"_qs, u"lost-ack"_qs, u"--policy"_qs, u"sometimes"_qs}
                                         << u"unknown kind 'sometimes'"_qs;
        QTest::addRow("bad policy value") << QStringList {u"simulate"_qs, u"--db"_qs, file,
            u"--scenario"_qs, u"lost-ack"_qs, u"--policy"_qs, u"exponential:multiplier=0"_qs}
                                          << u"multiplier"_qs;
        QTest::addRow("bad budget") << QStringList {u"simulate"_qs, u"--db"_qs, file,
            u"--scenario"_qs, u"lost-ack"_qs, u"--budget"_qs, u"0"_qs}
                                    << u"--budget"_qs;
        QTest::addRow("unreachable server") << QStringList {u"simulate"_qs, u"--db"_qs,
            u"postgresql://op:hunter2@127.0.0.1:1/outbox"_qs, u"--scenario"_qs, u"lost-ack"_qs}
                                            << u"postgresql://op:***@127.0.0.1:1/outbox"_qs;
        QTest::addRow("relay: probability above 1") << QStringList {u"relay"_qs, u"--db"_qs, file,
            u"--fail-rate"_qs, u"2"_qs} << u"--fail-rate must be a probability"_qs;
        QTest::addRow("relay: reversed latency range") << QStringList {u"relay"_qs, u"--db"_qs,
            file, u"--latency-ms"_qs, u"5..1"_qs} << u"--latency-ms must be a range"_qs;
        QTest::addRow("relay: reversed latency range in units") << QStringList {u"relay"_qs,
            u"--db"_qs, file, u"--latency"_qs, u"5ms..1ms"_qs} << u"--latency must be a range"_qs;
        QTest::addRow("relay: a lease that is no duration") << QStringList {u"relay"_qs, u"--db"_qs,
            file, u"--lease"_qs, u"long"_qs} << u"--lease must be a duration"_qs;
        QTest::addRow("relay: rate without duration") << QStringList {u"relay"_qs, u"--db"_qs, file,
            u"--rate"_qs, u"100"_qs} << u"--rate needs --duration"_qs;
        QTest::addRow("relay: fault rates above 1") << QStringList {u"relay"_qs, u"--db"_qs, file,
            u"--fail-rate"_qs, u"0.6"_qs, u"--lost-ack-rate"_qs, u"0.6"_qs}
                                                    << u"add up to more than 1"_qs;
        QTest::addRow("relay: no workers") << QStringList {u"relay"_qs, u"--db"_qs, file,
            u"--workers"_qs, u"0"_qs} << u"--workers"_qs;
        QTest::addRow("relay: bad policy")
            << QStringList {u"relay"_qs, u"--db"_qs, file, u"--policy"_qs, u"full-jitter:base=x"_qs}
            << u"base"_qs;
        QTest::addRow("sqlite file in a missing directory") << QStringList {u"simulate"_qs,
            u"--db"_qs, u"sqlite:/nonexistent-dir/x.sqlite"_qs, u"--scenario"_qs, u"lost-ack"_qs}
                                                            << u"cannot open"_qs;
    }
    void badInputIsOneLineAndWritesNothing()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, cause);
        QTemporaryDir dir;
        const QString path = dir.filePath(u"never.sqlite"_qs);
        arguments.replaceInStrings(u"@FILE@"_qs, u"sqlite:"_qs + path);
        const Run run = outboxctl(arguments);
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(run.err.size(), 1);
        QVERIFY2(run.err.constFirst().contains(cause), qPrintable(run.err.constFirst()));
        QVERIFY(!run.err.constFirst().contains(u"hunter2"_qs));
        QVERIFY(run.out.isEmpty());
        QVERIFY(!QFileInfo::exists(path));
    }

    void relaySummaryCountsTheRun_data()
    {
        TestDatabase::addEngineColumn();
        QTest::addColumn<QStringList>("faults");
        QTest::addColumn<int>("delivered");
        QTest::addColumn<int>("dead");
        for (const QString &engine : {u"sqlite"_qs, u"postgresql"_qs}) {
            QTest::addRow("%s: no faults", qPrintable(engine))
                << engine << QStringList {} << 150 << 0;
            QTest::addRow("%s: every event poison", qPrintable(engine))
                << engine << QStringList {u"--permanent-rate"_qs, u"1"_qs} << 0 << 150;
        }
    }
    void relaySummaryCountsTheRun()
    {
        QFETCH(QString, engine);
        QFETCH(QStringList, faults);
        QFETCH(int, delivered);
        QFETCH(int, dead);
        FRESH_DATABASE(database, engine);
        QCOMPARE(
            outboxctl({u"init"_qs, u"--db"_qs, database->url(), u"--for-simulation"_qs}).exitCode,
            0);
        const Run run
            = outboxctl(QStringList {u"relay"_qs, u"--db"_qs, database->url(), u"--produce"_qs,
                            u"150"_qs, u"--workers"_qs, u"2"_qs, u"--batch"_qs, u"20"_qs}
                + faults);
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out.size(), 1);
        QVERIFY(run.out.constFirst().startsWith(u"{\"produced\":150,\"delivered\":"_qs));
        const QJsonObject summary = json(run.out.constFirst());
        QCOMPARE(summary.value(u"delivered"_qs).toInt(), delivered);
        QCOMPARE(summary.value(u"dead"_qs).toInt(), dead);
        QCOMPARE(summary.value(u"pending"_qs).toInt(), 0);
        QCOMPARE(summary.value(u"attempts"_qs).toInt(), 150);
        QCOMPARE(summary.value(u"transport_calls"_qs).toInt(), 150);
        QCOMPARE(summary.value(u"duplicates_suppressed"_qs).toInt(), 0);
        QCOMPARE(summary.value(u"fenced_acks"_qs).toInt(), 0);
        QCOMPARE(summary.value(u"lease_expired"_qs).toInt(), 0);
        QVERIFY(summary.value(u"elapsed_ms"_qs).toInt() > 0);
        QCOMPARE(summary.value(u"events_per_s"_qs).toDouble() > 0, delivered > 0);
    }

    void missingColumnIsNamed()
    {
        QTemporaryDir dir;
        const QString url = u"sqlite:"_qs + dir.filePath(u"legacy.sqlite"_qs);
        QCOMPARE(outboxctl({u"init"_qs, u"--db"_qs, url, u"--for-simulation"_qs}).exitCode, 0);
        {
            QString error;
            OpenOptions options;
            options.validateSchema = false;
            const auto connection
                = DbConnection::open(DatabaseUrl::parse(url, &error), options, &error);
            QVERIFY(connection);
            QSqlQuery query(connection->database());
            // SQLite drops no column an index holds: the covering indexes go first.
            QVERIFY(query.exec(u"DROP INDEX delivery_outbox_pending"_qs));
            QVERIFY(query.exec(u"DROP INDEX delivery_outbox_unfinished_aggregate"_qs));
            QVERIFY(query.exec(u"ALTER TABLE delivery_outbox DROP COLUMN lease_until"_qs));
        }
        const Run run
            = outboxctl({u"simulate"_qs, u"--db"_qs, url, u"--scenario"_qs, u"lost-ack"_qs});
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(
            run.err, QStringList {u"outboxctl: delivery_outbox: missing column lease_until"_qs});
    }
};

OUTBOX_TEST_MAIN(TestOutboxctl, QCoreApplication)
#include "tst_outboxctl.moc"
