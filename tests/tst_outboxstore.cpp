// The outbox store's lifecycle rules, straight against the tables on both engines: due-time
// boundaries, token fencing, budgets, and concurrent workers each claiming a row once.
#include "outboxstore.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QSet>
#include <thread>

namespace {

NewEvent newEvent(const QString &id, qint64 createdAt = 0)
{
    return {id, QStringLiteral("Order"), id, QStringLiteral("StockReserved"),
        QStringLiteral("{\"sku\":\"SKU-1\",\"quantity\":2}"), createdAt};
}

RetryPolicy policy(const QString &spec)
{
    RetryPolicy result;
    QString error;
    if (!RetryPolicy::parse(spec, &result, &error))
        qFatal("%s", qPrintable(error));
    return result;
}

} // namespace

class TestOutboxStore : public QObject
{
    Q_OBJECT

private slots:
    void claimBoundaryFollowsThePolicy_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void claimBoundaryFollowsThePolicy()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        OutboxStore store(connection->database());
        store.setRetryPolicy(policy(QStringLiteral("capped:5,50")));
        QVERIFY(store.insertEvent(newEvent(QStringLiteral("E-1"), 100)));

        QCOMPARE(
            store.claim(QStringLiteral("E-1"), QStringLiteral("w"), 99).reason, Refusal::NotDue);
        ClaimResult first = store.claim(QStringLiteral("E-1"), QStringLiteral("w"), 100);
        QVERIFY(first.ok);
        QCOMPARE(first.claim.attemptNo, 1);
        QCOMPARE(store.claim(QStringLiteral("E-1"), QStringLiteral("w2"), 101).reason,
            Refusal::InFlight);

        const FailResult failed
            = store.fail(first.claim, 103, ErrorCategory::Transient, QStringLiteral("down"));
        QVERIFY(failed.ok);
        QCOMPARE(failed.nextAttemptAt, 108);
        QCOMPARE(
            store.claim(QStringLiteral("E-1"), QStringLiteral("w"), 107).reason, Refusal::NotDue);
        const ClaimResult second = store.claim(QStringLiteral("E-1"), QStringLiteral("w"), 108);
        QVERIFY(second.ok);
        QCOMPARE(second.claim.attemptNo, 2);
        QVERIFY(second.claim.token != first.claim.token);
        QCOMPARE(store.claim(QStringLiteral("NOPE"), QStringLiteral("w"), 108).reason,
            Refusal::NotFound);
    }

    void staleTokenChangesNothing_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void staleTokenChangesNothing()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        OutboxStore store(db);
        QVERIFY(store.insertEvent(newEvent(QStringLiteral("E-1"))));
        ClaimResult claimed = store.claim(QStringLiteral("E-1"), QStringLiteral("w"), 0);
        QVERIFY(claimed.ok);
        Claim stale = claimed.claim;
        stale.token = QStringLiteral("not-the-token");

        QCOMPARE(store.ack(stale, 1).reason, Refusal::Fenced);
        QCOMPARE(store.fail(stale, 1, ErrorCategory::Permanent, QStringLiteral("x")).reason,
            Refusal::Fenced);
        QCOMPARE(scalar(db, u"SELECT status FROM delivery_outbox"_qs).toString(), u"PENDING"_qs);
        QCOMPARE(scalar(db, u"SELECT failures FROM delivery_outbox"_qs).toInt(), 0);
        QCOMPARE(scalar(db, u"SELECT claim_token FROM delivery_outbox"_qs).toString(),
            claimed.claim.token);
        QVERIFY(scalar(db, u"SELECT outcome FROM delivery_attempt"_qs).isNull());

        QVERIFY(store.ack(claimed.claim, 2, QStringLiteral("APPLIED")).ok);
        QCOMPARE(store.ack(claimed.claim, 3).reason, Refusal::Fenced); // acknowledged once only
        QCOMPARE(scalar(db, u"SELECT delivered_at FROM delivery_outbox"_qs).toLongLong(), 2);
        QCOMPARE(scalar(db, u"SELECT consumer_result FROM delivery_attempt"_qs).toString(),
            u"APPLIED"_qs);
    }

    void budgetsParkDead_data()
    {
        TestDatabase::addEngineColumn();
        QTest::addColumn<int>("maxAttempts");
        QTest::addColumn<qint64>("maxElapsed");
        QTest::addColumn<int>("failuresWhenDead");
        for (const QString &engine : {u"sqlite"_qs, u"postgresql"_qs, u"mysql"_qs}) {
            QTest::addRow("%s: third failure parks DEAD", qPrintable(engine))
                << engine << 3 << qint64(0) << 3;
            QTest::addRow("%s: budget of one", qPrintable(engine)) << engine << 1 << qint64(0) << 1;
            QTest::addRow("%s: elapsed budget spent before the attempt budget", qPrintable(engine))
                << engine << 10 << qint64(25) << 3;
        }
    }
    void budgetsParkDead()
    {
        QFETCH(QString, engine);
        QFETCH(int, maxAttempts);
        QFETCH(qint64, maxElapsed);
        QFETCH(int, failuresWhenDead);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        OutboxStore store(connection->database());
        store.setRetryPolicy(policy(QStringLiteral("fixed:10")));
        store.setBudget({maxAttempts, maxElapsed});
        QVERIFY(store.insertEvent(newEvent(QStringLiteral("E-1"))));

        qint64 now = 0;
        FailResult result;
        for (int i = 1; i <= failuresWhenDead; ++i) {
            const ClaimResult claimed
                = store.claim(QStringLiteral("E-1"), QStringLiteral("w"), now);
            QVERIFY2(claimed.ok, qPrintable(claimed.reason));
            result = store.fail(
                claimed.claim, now, ErrorCategory::Transient, QStringLiteral("timeout"));
            QVERIFY(result.ok);
            QCOMPARE(result.failures, i);
            QCOMPARE(result.status, i == failuresWhenDead ? u"DEAD"_qs : u"PENDING"_qs);
            now = result.nextAttemptAt;
        }
        QCOMPARE(store.claim(QStringLiteral("E-1"), QStringLiteral("w"), now + 1000).reason,
            Refusal::Dead);
        QVERIFY(store.claimDue(QStringLiteral("w"), now + 1000, 10).isEmpty());
    }

    void claimDueTakesOldestDueFirst_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void claimDueTakesOldestDueFirst()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        OutboxStore store(connection->database());
        for (int i = 0; i < 5; ++i)
            QVERIFY(store.insertEvent(newEvent(QStringLiteral("E-%1").arg(i), 50 - i * 10)));
        // Due at 10..50; at t=30 only E-2, E-3, E-4 are due, oldest due first, at most two.
        const QList<Claim> claims = store.claimDue(QStringLiteral("w"), 30, 2);
        QCOMPARE(claims.size(), 2);
        QCOMPARE(claims.at(0).eventId, u"E-4"_qs);
        QCOMPARE(claims.at(1).eventId, u"E-3"_qs);
        QCOMPARE(store.claimDue(QStringLiteral("w"), 30, 10).size(), 1);
        // After the lease (30 units) expires, the two unfinished claims can be taken over.
        const QList<Claim> takeovers = store.claimDue(QStringLiteral("w2"), 60, 10);
        QCOMPARE(takeovers.size(), 5);
        QCOMPARE(scalar(connection->database(),
                     u"SELECT COUNT(*) FROM delivery_attempt WHERE outcome = 'LEASE_EXPIRED'"_qs)
                     .toInt(),
            3);
    }

    void concurrentWorkersClaimEachRowOnce_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void concurrentWorkersClaimEachRowOnce()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        OutboxStore setup(connection->database());
        const int events = 300;
        for (int i = 0; i < events; ++i)
            QVERIFY(setup.insertEvent(newEvent(QStringLiteral("E-%1").arg(i))));

        QList<QStringList> claimedBy(4);
        QList<QString> errors(4);
        std::vector<std::thread> workers;
        for (int w = 0; w < 4; ++w) {
            workers.emplace_back([&, w] {
                QString error;
                auto own
                    = DbConnection::open(DatabaseUrl::parse(database->url(), &error), {}, &error);
                if (!own) {
                    errors[w] = error;
                    return;
                }
                OutboxStore store(own->database());
                for (;;) {
                    const QList<Claim> batch
                        = store.claimDue(QStringLiteral("worker-%1").arg(w), 0, 7);
                    if (batch.isEmpty())
                        break;
                    for (const Claim &claim : batch)
                        claimedBy[w] << claim.eventId;
                }
                errors[w] = store.lastError();
            });
        }
        for (auto &worker : workers)
            worker.join();

        QSet<QString> all;
        int total = 0;
        for (int w = 0; w < 4; ++w) {
            QVERIFY2(errors[w].isEmpty(), qPrintable(errors[w]));
            total += claimedBy[w].size();
            for (const QString &id : std::as_const(claimedBy[w]))
                all.insert(id);
        }
        QCOMPARE(total, events); // no row claimed twice
        QCOMPARE(all.size(), events); // and none left behind
        QCOMPARE(
            scalar(connection->database(), u"SELECT COUNT(*) FROM delivery_attempt"_qs).toInt(),
            events);
    }
};

OUTBOX_TEST_MAIN(TestOutboxStore, QCoreApplication)
#include "tst_outboxstore.moc"
