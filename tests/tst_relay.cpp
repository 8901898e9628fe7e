// The live relay in-process on both engines: with every fault on, the invariants hold after a
// drained run; single-step mode stops after claim, after the consumer commit and after the ack
// with the tables showing exactly that cut; a seed makes the fault sequence repeatable.
#include "invariants.h"
#include "producer.h"
#include "relay.h"
#include "schema.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QSignalSpy>

namespace {

qint64 count(const QSqlDatabase &db, const QString &sql)
{
    return scalar(db, sql).toLongLong();
}

RelayConfig faultyConfig(int workers)
{
    RelayConfig config;
    config.workers = workers;
    config.batch = 10;
    config.leaseMs = 150;
    config.pollIntervalMs = 10;
    RetryPolicy::parse(QStringLiteral("fixed:5"), &config.policy, nullptr);
    config.budget.maxAttempts = 4;
    config.faults.transientRate = 0.2;
    config.faults.permanentRate = 0.02;
    config.faults.lostAckRate = 0.1;
    config.stallRate = 0.05;
    config.latencyMaxMs = 2;
    config.seed = 42;
    return config;
}

} // namespace

class TestRelay : public QObject
{
    Q_OBJECT

private slots:
    void invariantsHoldWithEveryFault_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void invariantsHoldWithEveryFault()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        SystemClock clock;
        Producer producer(db, &clock, 7);
        QString error;
        QVERIFY(producer.seedStock(&error));
        QVERIFY2(producer.produce(300, &error), qPrintable(error));

        Relay relay(
            connection->url(), faultyConfig(engine == QLatin1String("sqlite") ? 2 : 4), &clock);
        QVERIFY2(relay.start(&error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(
            count(db, u"SELECT COUNT(*) FROM delivery_outbox WHERE status = 'PENDING'"_qs) == 0,
            120000);
        // A stalled worker acknowledges after its lease ran out, by which time another worker
        // may have reclaimed and delivered the event: the last PENDING row can be gone before
        // that late, fenced ack arrives. It only counts while the relay runs, so wait for it.
        QTRY_VERIFY_WITH_TIMEOUT(relay.stats().fencedAcks > 0, 30000);
        relay.stop();

        const QStringList violations = invariantViolations(db, 300, Producer::InitialStock);
        QVERIFY2(violations.isEmpty(), qPrintable(violations.join(QStringLiteral("; "))));
        // Every fault actually happened in this run.
        const RelayStats stats = relay.stats();
        QVERIFY(stats.duplicatesSuppressed > 0); // lost acknowledgements were retried safely
        QVERIFY(stats.fencedAcks > 0); // stalled workers were fenced off
        QVERIFY(
            count(db, u"SELECT COUNT(*) FROM delivery_attempt WHERE outcome = 'LEASE_EXPIRED'"_qs)
            > 0);
        QVERIFY(
            count(db,
                u"SELECT COUNT(*) FROM delivery_outbox WHERE status = 'DEAD' AND last_error_category = 'PERMANENT'"_qs)
            > 0);
        QVERIFY(
            count(db, u"SELECT COUNT(*) FROM delivery_outbox WHERE status = 'DELIVERED'"_qs) > 250);
        QCOMPARE(count(db, u"SELECT COUNT(*) FROM delivery_attempt"_qs), stats.claims);
    }

    void stepModeStopsAtEachCutPoint_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void stepModeStopsAtEachCutPoint()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        SystemClock clock;
        Producer producer(db, &clock, 1);
        QString error;
        QVERIFY(producer.seedStock(&error));
        QVERIFY(producer.produce(2, &error));
        const qint64 stockBefore = count(db, u"SELECT SUM(quantity) FROM consumer_stock"_qs);

        RelayConfig config;
        config.batch = 1;
        Relay relay(connection->url(), config, &clock);
        QVERIFY2(relay.start(&error, /*paused=*/true), qPrintable(error));
        QSignalSpy stepped(&relay, &Relay::stepped);

        relay.step();
        QVERIFY(stepped.wait());
        QCOMPARE(
            stepped.takeFirst().at(0).value<RelayWorker::Phase>(), RelayWorker::Phase::Claimed);
        QCOMPARE(
            count(db, u"SELECT COUNT(*) FROM delivery_outbox WHERE claim_token IS NOT NULL"_qs), 1);
        QCOMPARE(count(db, u"SELECT COUNT(*) FROM delivery_attempt WHERE outcome IS NULL"_qs), 1);
        QCOMPARE(count(db, u"SELECT COUNT(*) FROM consumer_ledger"_qs), 0);

        relay.step();
        QVERIFY(stepped.wait());
        QCOMPARE(
            stepped.takeFirst().at(0).value<RelayWorker::Phase>(), RelayWorker::Phase::Delivered);
        QCOMPARE(
            count(db, u"SELECT COUNT(*) FROM consumer_ledger"_qs), 1); // the consumer committed
        QVERIFY(count(db, u"SELECT SUM(quantity) FROM consumer_stock"_qs) < stockBefore);
        QCOMPARE(
            count(db,
                u"SELECT COUNT(*) FROM delivery_outbox WHERE status = 'PENDING' AND claim_token IS NOT NULL"_qs),
            1);

        relay.step();
        QVERIFY(stepped.wait());
        QCOMPARE(
            stepped.takeFirst().at(0).value<RelayWorker::Phase>(), RelayWorker::Phase::Settled);
        QCOMPARE(
            count(db, u"SELECT COUNT(*) FROM delivery_outbox WHERE status = 'DELIVERED'"_qs), 1);
        QCOMPARE(
            count(db, u"SELECT COUNT(*) FROM delivery_attempt WHERE outcome = 'DELIVERED'"_qs), 1);
        // Paused: nothing but the steps touched the second event.
        QCOMPARE(count(db, u"SELECT COUNT(*) FROM delivery_attempt"_qs), 1);
        relay.stop();
    }

    void seededTransportRepeatsItsFaults()
    {
        FRESH_DATABASE(database, QStringLiteral("sqlite"));
        const auto connection = database->initialise();
        QVERIFY(connection);
        FaultProfile profile;
        profile.transientRate = 0.3;
        profile.permanentRate = 0.1;
        profile.lostAckRate = 0.2;
        auto sequence = [&](quint32 seed) {
            FakeTransport transport(connection->database(), seed);
            transport.setProfile(profile);
            QStringList outcomes;
            for (int i = 0; i < 200; ++i) {
                Claim claim;
                claim.eventId = QStringLiteral("S%1-%2").arg(seed).arg(i);
                claim.payload = QStringLiteral("{}");
                outcomes << transport.deliver(claim, 0).outcomeName();
            }
            return outcomes;
        };
        const QStringList first = sequence(11);
        QCOMPARE(sequence(11).size(), first.size());
        QSqlQuery(connection->database()).exec(u"DELETE FROM consumer_ledger"_qs);
        QCOMPARE(sequence(11), first);
        QVERIFY(sequence(12) != first);
        QVERIFY(first.contains(u"PERMANENT_REJECTION"_qs) && first.contains(u"RESPONSE_LOST"_qs)
            && first.contains(u"TRANSIENT_FAILURE"_qs) && first.contains(u"APPLIED"_qs));
    }
};

OUTBOX_TEST_MAIN(TestRelay, QCoreApplication)
#include "tst_relay.moc"
