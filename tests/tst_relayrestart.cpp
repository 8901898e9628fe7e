// The relay survives a database restart: the test suite's own PostgreSQL server is stopped
// (`pg_ctl stop -m immediate`, as in a crash), or its MariaDB server killed (kill -9), while a
// relay runs and started again. `outboxctl
// relay` reconnects, finishes every event and keeps every invariant, with a few stderr lines
// instead of hundreds; left down, it gives up after --give-up-after-ms with exit 2 and one line
// naming the cause; the in-process Relay of the teaching panel reports one outage and resumes,
// and the teaching session's producer (on its session worker) pauses and resumes with it.
// SQLite has no server to restart: its rows are skipped by design. RUN_SERIAL: every other test
// shares the server this one stops.
#include "invariants.h"
#include "producer.h"
#include "relay.h"
#include "teachingsession.h"
#include "testdatabase.h"
#include "testmain.h"
#include "testserver.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>

namespace {

// Enough that the restart lands mid-run: the server stops once 200 are delivered, with 1,800
// to go (at most ~650 a second here: 4 workers, 5 a batch, 20..40 ms each).
const int Events = 2000;
// The in-process relay's events: 1,400 to go once 100 are delivered and the server stops
// (at most ~650 a second: 2 workers, 5 a batch, 10..20 ms each).
const int InProcessEvents = 1500;
const int OutageMs = 4000; // the scenario: the server stays down this long

qint64 count(const QSqlDatabase &db, const QString &sql)
{
    return scalar(db, sql).toLongLong();
}

qint64 total(const TestDatabase &database)
{
    const auto connection = database.connect(false);
    return connection ? count(connection->database(), u"SELECT COUNT(*) FROM delivery_outbox"_qs)
                      : -1;
}

qint64 delivered(const TestDatabase &database)
{
    const auto connection = database.connect(false); // a fresh one: a restart kills the old
    return connection ? count(connection->database(),
               u"SELECT COUNT(*) FROM delivery_outbox WHERE status = 'DELIVERED'"_qs)
                      : -1;
}

// Slow enough (latency, small batches) that the restart lands in the middle of the run.
QStringList relayArguments(const QString &url)
{
    return {u"relay"_qs, u"--db"_qs, url, u"--workers"_qs, u"4"_qs, u"--batch"_qs, u"5"_qs,
        u"--produce"_qs, QString::number(Events), u"--latency-ms"_qs, u"20..40"_qs,
        u"--lease-ms"_qs, u"1000"_qs, u"--policy"_qs, u"fixed:20"_qs, u"--budget"_qs, u"5"_qs,
        u"--fail-rate"_qs, u"0.05"_qs, u"--lost-ack-rate"_qs, u"0.05"_qs, u"--seed"_qs, u"11"_qs};
}

void engineRows()
{
    TestDatabase::addEngineColumn();
    TestDatabase::addEngineRows();
}

QStringList lines(const QByteArray &bytes)
{
    return QString::fromUtf8(bytes).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

} // namespace

#define SERVER_ONLY(engine)                                                                        \
    if (engine == QLatin1String("sqlite"))                                                         \
        QSKIP("SQLite has no server to restart: this case is for server engines by design");       \
    m_engine = engine;                                                                             \
    if (const QString why = TestServer::unavailableReason(engine); !why.isEmpty()) {               \
        if (qEnvironmentVariableIsSet("CI"))                                                       \
            QFAIL(qPrintable(why));                                                                \
        QSKIP(qPrintable(why));                                                                    \
    }

class TestRelayRestart : public QObject
{
    Q_OBJECT

private:
    QProcess m_relay;
    QString m_engine; // the row's server engine, which stopServer() stops
    bool m_serverDown = false;

    void stopServer()
    {
        QString error;
        m_serverDown = true;
        QVERIFY2(TestServer::stop(m_engine, &error), qPrintable(error));
    }
    void startServer()
    {
        QString error;
        QVERIFY2(TestServer::start(m_engine, &error), qPrintable(error));
        m_serverDown = false;
    }

private slots:
    void cleanup()
    {
        if (m_relay.state() != QProcess::NotRunning) {
            m_relay.kill();
            m_relay.waitForFinished();
        }
        if (m_serverDown) { // a failed case leaves the shared server running for the next test
            QString error;
            if (!TestServer::start(m_engine, &error))
                qWarning("could not restart the server: %s", qPrintable(error));
            m_serverDown = false;
        }
    }

    void outboxctlRelayReconnectsAndFinishes_data() { engineRows(); }
    void outboxctlRelayReconnectsAndFinishes()
    {
        QFETCH(QString, engine);
        SERVER_ONLY(engine);
        FRESH_DATABASE(database, engine);
        QVERIFY(database->initialise());

        m_relay.start(qEnvironmentVariable("OUTBOXCTL"),
            relayArguments(database->url()) + QStringList {u"--until-drained"_qs});
        QVERIFY(m_relay.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(delivered(*database) >= 200, 60000);
        QCOMPARE(m_relay.state(), QProcess::Running);

        QByteArray err;
        stopServer();
        QElapsedTimer down;
        down.start();
        QTRY_VERIFY_WITH_TIMEOUT(
            (err += m_relay.readAllStandardError()).contains("lost the database"), OutageMs);
        QTest::qWait(int(std::max<qint64>(0, OutageMs - down.elapsed()))); // the outage itself
        err += m_relay.readAllStandardError();
        const qsizetype linesDuringOutage = lines(err).size();
        startServer();
        QElapsedTimer back;
        back.start();
        const qint64 atRestart = delivered(*database);
        QTRY_VERIFY_WITH_TIMEOUT(delivered(*database) > atRestart, 30000);
        const qint64 firstDeliveryMs = back.elapsed();

        QVERIFY(m_relay.waitForFinished(120000));
        err += m_relay.readAllStandardError();
        const QStringList out = lines(m_relay.readAllStandardOutput());
        const QStringList errLines = lines(err);
        qInfo("outage %d ms: %lld stderr lines during it; first delivery %lld ms after the server "
              "was back; %lld stderr lines in all; summary %s",
            OutageMs, qint64(linesDuringOutage), firstDeliveryMs, qint64(errLines.size()),
            qPrintable(out.value(0)));
        QCOMPARE(m_relay.exitStatus(), QProcess::NormalExit);
        QVERIFY2(m_relay.exitCode() == 0, qPrintable(errLines.join(u'\n')));
        // Not 90 a second: the outage's start and its end.
        QVERIFY2(errLines.size() <= 2, qPrintable(errLines.join(u'\n')));
        QCOMPARE(errLines.filter(u"lost the database"_qs).size(), 1);
        QCOMPARE(errLines.filter(u"reconnected after"_qs).size(), 1);
        QVERIFY2(!errLines.join(u'\n').contains(u"password"_qs), "a password was printed");

        QCOMPARE(out.size(), 1);
        QVERIFY2(!out.constFirst().contains(u"-1"_qs), qPrintable(out.constFirst()));
        QVERIFY2(!out.constFirst().contains(u"null"_qs), qPrintable(out.constFirst()));
        const QJsonObject summary = QJsonDocument::fromJson(out.constFirst().toUtf8()).object();
        QCOMPARE(summary.value(u"pending"_qs).toInt(), 0);
        QCOMPARE(
            summary.value(u"delivered"_qs).toInt() + summary.value(u"dead"_qs).toInt(), Events);
        QVERIFY(summary.value(u"reconnects"_qs).toInt() >= 1);
        QVERIFY(summary.contains(u"ack_errors"_qs));
        QVERIFY(!summary.contains(u"unavailable"_qs));

        const auto connection = database->connect();
        QVERIFY(connection);
        const QStringList violations
            = invariantViolations(connection->database(), Events, Producer::InitialStock);
        QVERIFY2(violations.isEmpty(), qPrintable(violations.join(u"; "_qs)));
    }

    void outboxctlRelayGivesUpWhenTheServerStaysDown_data() { engineRows(); }
    void outboxctlRelayGivesUpWhenTheServerStaysDown()
    {
        QFETCH(QString, engine);
        SERVER_ONLY(engine);
        FRESH_DATABASE(database, engine);
        QVERIFY(database->initialise());

        m_relay.start(qEnvironmentVariable("OUTBOXCTL"),
            relayArguments(database->url())
                + QStringList {u"--until-drained"_qs, u"--give-up-after-ms"_qs, u"3000"_qs});
        QVERIFY(m_relay.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(delivered(*database) >= 100, 60000);
        QElapsedTimer down;
        down.start();
        stopServer();
        QTRY_COMPARE_WITH_TIMEOUT(m_relay.state(), QProcess::NotRunning, 30000);
        const qint64 exitedAfterMs = down.elapsed();
        const QStringList out = lines(m_relay.readAllStandardOutput());
        const QStringList err = lines(m_relay.readAllStandardError());
        qInfo("gave up %lld ms after the server stopped; stderr: %s", exitedAfterMs,
            qPrintable(err.join(u" | "_qs)));
        startServer();

        QCOMPARE(m_relay.exitStatus(), QProcess::NormalExit);
        QCOMPARE(m_relay.exitCode(), 2);
        QVERIFY2(out.isEmpty(), qPrintable(out.join(u'\n'))); // no summary pretending success
        QVERIFY(exitedAfterMs >= 3000);
        const QStringList gaveUp = err.filter(u"gave up"_qs);
        QCOMPARE(gaveUp.size(), 1);
        QCOMPARE(err.constLast(), gaveUp.constFirst());
        // The cause in the driver's words, e.g. "Connection refused".
        QVERIFY2(gaveUp.constFirst().contains(u"without the database: "_qs)
                && gaveUp.constFirst().section(u"database: "_qs, 1).size() > 10,
            qPrintable(gaveUp.constFirst()));
        QVERIFY2(err.size() <= 2, qPrintable(err.join(u'\n'))); // the outage's start, the end
    }

    void summaryOfARunThatEndsDuringAnOutageSaysNull_data() { engineRows(); }
    void summaryOfARunThatEndsDuringAnOutageSaysNull()
    {
        QFETCH(QString, engine);
        SERVER_ONLY(engine);
        FRESH_DATABASE(database, engine);
        QVERIFY(database->initialise());

        m_relay.start(qEnvironmentVariable("OUTBOXCTL"),
            relayArguments(database->url())
                + QStringList {
                    u"--duration-ms"_qs, u"6000"_qs, u"--give-up-after-ms"_qs, u"8000"_qs});
        QVERIFY(m_relay.waitForStarted());
        QElapsedTimer run;
        run.start();
        QTRY_VERIFY_WITH_TIMEOUT(delivered(*database) >= 50, 60000);
        stopServer(); // time is up 6 s into the run, in the outage; the summary waits 8 s for it
        // The outage must begin before the run's time is up (6 s leaves room for a slow start
        // and a slow stop under the sanitizers); a harness that took longer says so here.
        QVERIFY2(run.elapsed() < 6000,
            qPrintable(
                u"the server stopped %1 ms into the run, after its time"_qs.arg(run.elapsed())));
        QTRY_COMPARE_WITH_TIMEOUT(m_relay.state(), QProcess::NotRunning, 30000);
        startServer();
        const QStringList out = lines(m_relay.readAllStandardOutput());
        const QStringList err = lines(m_relay.readAllStandardError());

        QCOMPARE(m_relay.exitCode(), 2);
        QCOMPARE(out.size(), 1);
        QVERIFY2(!out.constFirst().contains(u"-1"_qs), qPrintable(out.constFirst()));
        const QJsonObject summary = QJsonDocument::fromJson(out.constFirst().toUtf8()).object();
        QVERIFY(summary.value(u"delivered"_qs).isNull());
        QVERIFY(summary.value(u"pending"_qs).isNull());
        QCOMPARE(summary.value(u"produced"_qs).toInt(), Events); // known without the database
        QVERIFY(summary.value(u"transport_calls"_qs).toInt() > 0);
        QVERIFY2(summary.value(u"unavailable"_qs).toString().startsWith(u"database unreachable"_qs),
            qPrintable(out.constFirst()));
        QCOMPARE(err.filter(u"gave up"_qs).size(), 1);
    }

    void inProcessRelayResumesAfterRestart_data() { engineRows(); }
    void inProcessRelayResumesAfterRestart()
    {
        QFETCH(QString, engine);
        SERVER_ONLY(engine);
        FRESH_DATABASE(database, engine);
        DatabaseUrl url;
        {
            const auto connection = database->initialise();
            QVERIFY(connection);
            url = connection->url();
            SystemClock producerClock;
            Producer producer(connection->database(), &producerClock, 5);
            QString error;
            QVERIFY(producer.seedStock(&error));
            QVERIFY2(producer.produce(InProcessEvents, &error), qPrintable(error));
        }
        RelayConfig config; // as the teaching panel runs it: no give-up, reconnects forever
        config.workers = 2;
        config.batch = 5;
        config.pollIntervalMs = 10;
        config.leaseMs = 1000;
        config.latencyMinMs = 10;
        config.latencyMaxMs = 20;
        // Retries the connection at least every 500 ms (not 5 s): resumes soon after the server
        // is back rather than waiting out a long backoff step.
        config.reconnectMaxMs = 500;
        SystemClock clock;
        Relay relay(url, config, &clock);
        QSignalSpy started(&relay, &Relay::outageStarted);
        QSignalSpy ended(&relay, &Relay::outageEnded);
        QSignalSpy errors(&relay, &Relay::workerError);
        QString error;
        QVERIFY2(relay.start(&error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(delivered(*database) >= 100, 60000);

        stopServer();
        QVERIFY(started.wait(5000));
        QTest::qWait(2000); // the outage itself: workers keep retrying with backoff
        QVERIFY(relay.isInOutage());
        QVERIFY(relay.outageMs() >= 2000);
        startServer();
        QTRY_COMPARE_WITH_TIMEOUT(ended.size(), 1, 15000);
        // No fault makes one DEAD.
        QTRY_VERIFY_WITH_TIMEOUT(delivered(*database) == InProcessEvents, 60000);
        relay.stop();

        QCOMPARE(started.size(), 1); // one report for the outage, not one per statement
        QVERIFY(!started.constFirst().constFirst().toString().isEmpty());
        QVERIFY2(errors.isEmpty(), qPrintable(errors.value(0).value(0).toString()));
        QVERIFY(relay.stats().reconnects >= 1);
        const auto connection = database->connect();
        QVERIFY(connection);
        const QStringList violations
            = invariantViolations(connection->database(), InProcessEvents, Producer::InitialStock);
        QVERIFY2(violations.isEmpty(), qPrintable(violations.join(u"; "_qs)));
    }
    void teachingProducerResumesAfterRestart_data() { engineRows(); }
    void teachingProducerResumesAfterRestart()
    {
        QFETCH(QString, engine);
        SERVER_ONLY(engine);
        FRESH_DATABASE(database, engine);
        DatabaseUrl url;
        {
            const auto connection = database->initialise();
            QVERIFY(connection);
            url = connection->url();
        }
        TeachingSession session(url);
        QSignalSpy started(&session, &TeachingSession::startFinished);
        QStringList errors;
        QStringList narration;
        connect(&session, &TeachingSession::errorOccurred, this,
            [&](const QString &message) { errors << message; });
        connect(&session, &TeachingSession::narrated, this,
            [&](const QStringList &lines) { narration << lines; });
        RelayConfig config = TeachingSession::demoRelayConfig();
        config.faults = {};
        config.stallRate = 0;
        QString error;
        QVERIFY2(session.startLiveRelay(config, 40, &error), qPrintable(error));
        session.play();
        QVERIFY(started.wait(10000));
        QVERIFY2(started.at(0).at(0).toBool(), qPrintable(started.at(0).at(1).toString()));
        QTRY_VERIFY_WITH_TIMEOUT(total(*database) >= 20, 20000);

        stopServer();
        QTRY_VERIFY_WITH_TIMEOUT(errors.join(u'\n').contains(u"lost the database"_qs), 10000);
        startServer();
        QTRY_VERIFY_WITH_TIMEOUT(narration.join(u'\n').contains(u"reconnected after"_qs), 20000);
        const qint64 before = total(*database);
        QVERIFY(before >= 20);
        // The producer's connection was opened again on its worker: events keep coming.
        QTRY_VERIFY_WITH_TIMEOUT(total(*database) >= before + 20, 20000);
        session.stop();
    }
};

OUTBOX_TEST_MAIN(TestRelayRestart, QCoreApplication)
#include "tst_relayrestart.moc"
