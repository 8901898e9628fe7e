// Each seed scenario's claim and the numbers that prove it, computed from a real run on both
// engines: the sentence the teaching panel shows at the end. A run with other settings shows
// other numbers, and says when they no longer prove the claim.
#include "scenario.h"
#include "scenarioclaim.h"
#include "simulation.h"
#include "testdatabase.h"
#include "testmain.h"

class TestScenarioClaims : public QObject
{
    Q_OBJECT

private:
    // Runs `scenario` to its end on a fresh database and returns its claim.
    static ScenarioClaim claimOf(const TestDatabase &database, Scenario scenario)
    {
        const auto connection = database.initialise();
        if (!connection)
            return {};
        Simulation simulation(connection->database());
        ScenarioRunner runner(simulation, scenario);
        if (!runner.start())
            return {};
        const TraceEvent before = simulation.summary();
        if (!runner.runToEnd())
            return {};
        return ScenarioClaim::of(scenario.name, before, simulation.summary(), simulation.trace());
    }

private slots:
    void everySeedShowsItsClaim_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<QString>("scenario");
        QTest::addColumn<QString>("text");
        const QList<std::pair<const char *, QString>> claims {
            {"retry-schedule",
                u"EVENT-1 waits for its persisted due time after each failure, a claim one unit "
                "early is refused, and the budget parks it DEAD: delays of 10, 20, 40 units; 3 "
                "early claims refused (t=9, 29, 69); DEAD after 4 failures."_qs},
            {"scheduled-retry",
                u"A failed call leaves EVENT-42 pending until its due time, and the retry "
                "delivers it once: failed at t=0, due at t=80, retried at t=80; 2 transport "
                "calls, stock 10 → 8, one ledger row."_qs},
            {"poison-dead",
                u"A poison event is parked DEAD when its budget is spent and waits for an "
                "operator; stock never changes: EVENT-9 failed 3 times (t=0, 10, 30), is DEAD, a "
                "claim at t=70 is refused; stock 10 → 10, 0 ledger rows."_qs},
            {"lost-ack",
                u"EVENT-42 was delivered twice by the transport but applied once: RESPONSE_LOST "
                "then DUPLICATE; stock 10 → 8, one ledger row."_qs},
            {"lease-expiry",
                u"A second worker takes EVENT-42 over only once the first one's lease has "
                "expired, and the first one's late acknowledgement is fenced off: claim at t=29 "
                "refused (IN_FLIGHT), taken over at t=30, the late acknowledgement at t=40 "
                "rejected (FENCED); stock 10 → 8, one ledger row."_qs},
            {"permanent-rejection",
                u"A permanent rejection parks EVENT-13 DEAD at once, with no retry: 1 transport "
                "call, 1 failure, DEAD, 0 retries; stock 10 → 10, 0 ledger rows."_qs},
            {"edit-after-lost-ack",
                u"An edit cannot change what the consumer already applied: EVENT-77's edited "
                "payload was answered DUPLICATE and the first one stayed: RESPONSE_LOST then "
                "TRANSIENT_FAILURE then DUPLICATE (edited payload); revision 1 by alice, stock "
                "10 → 8, one ledger row."_qs},
        };
        QCOMPARE(claims.size(), Scenario::names().size()); // every seed has its row
        for (const char *engine : {"sqlite", "postgresql", "mysql"}) {
            for (const auto &[scenario, text] : claims)
                QTest::addRow("%s: %s", engine, scenario)
                    << QString::fromLatin1(engine) << QString::fromLatin1(scenario) << text;
        }
    }
    void everySeedShowsItsClaim()
    {
        QFETCH(QString, engine);
        QFETCH(QString, scenario);
        QFETCH(QString, text);
        FRESH_DATABASE(database, engine);
        const ScenarioClaim claim = claimOf(*database, *Scenario::byName(scenario));
        QCOMPARE(claim.text(), text);
        QVERIFY(claim.holds);
    }

    // The numbers come from the run: another policy or budget shows other numbers.
    void theNumbersFollowTheRun_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void theNumbersFollowTheRun()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        Scenario scheduled = *Scenario::byName(u"scheduled-retry"_qs);
        QVERIFY(RetryPolicy::parse(u"fixed:50"_qs, &scheduled.policy, nullptr));
        const ScenarioClaim sooner = claimOf(*database, scheduled);
        QVERIFY2(sooner.evidence.startsWith(u"failed at t=0, due at t=50, retried at t=50;"_qs),
            qPrintable(sooner.evidence));
        QVERIFY(sooner.holds);

        Scenario schedule = *Scenario::byName(u"retry-schedule"_qs);
        schedule.budget.maxAttempts = 3;
        const ScenarioClaim shorter = claimOf(*database, schedule);
        QCOMPARE(shorter.evidence,
            u"delays of 10, 20 units; 2 early claims refused (t=9, 29); DEAD after 3 failures"_qs);
        QVERIFY(shorter.holds);
    }

    // A budget the scenario's steps never exhaust leaves EVENT-1 pending: the claim says so.
    void aRunThatDoesNotProveItSaysSo()
    {
        FRESH_DATABASE(database, u"sqlite"_qs);
        Scenario schedule = *Scenario::byName(u"retry-schedule"_qs);
        schedule.budget.maxAttempts = 10;
        const ScenarioClaim claim = claimOf(*database, schedule);
        QVERIFY2(claim.evidence.endsWith(u"still PENDING after 4 failures"_qs),
            qPrintable(claim.evidence));
        QVERIFY(!claim.holds);
    }
};

OUTBOX_TEST_MAIN(TestScenarioClaims, QCoreApplication)
#include "tst_scenarioclaims.moc"
