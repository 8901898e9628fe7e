// Each seed scenario on the logical clock, on SQLite and PostgreSQL: the trace a learner
// reads and the rows an operator would inspect must tell the outcome the seed documents state.
#include "narration.h"
#include "scenario.h"
#include "simulation.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QSqlQuery>

namespace {

// First column of every row, NULL as "NULL": compact to compare with an expected list.
QStringList column(const QSqlDatabase &db, const QString &sql)
{
    QStringList values;
    QSqlQuery query(db);
    if (!query.exec(sql))
        return {QStringLiteral("query failed")};
    while (query.next())
        values << (query.isNull(0) ? QStringLiteral("NULL") : query.value(0).toString());
    return values;
}

QList<TraceEvent> ofKind(const QList<TraceEvent> &trace, const QString &kind)
{
    QList<TraceEvent> events;
    for (const TraceEvent &event : trace) {
        if (event.kind() == kind)
            events << event;
    }
    return events;
}

// "t:ok" or "t:REASON" for each claim, in order.
QStringList claims(const QList<TraceEvent> &trace)
{
    QStringList out;
    for (const TraceEvent &e : ofKind(trace, QStringLiteral("claim")))
        out << QStringLiteral("%1:%2").arg(e.time()).arg(e.value(QStringLiteral("ok")).toBool()
                ? QStringLiteral("ok")
                : e.value(QStringLiteral("reason")).toString());
    return out;
}

QStringList field(const QList<TraceEvent> &events, const char *key)
{
    QStringList out;
    for (const TraceEvent &e : events) {
        const QJsonValue v = e.value(QString::fromLatin1(key));
        out << (v.isNull() ? QStringLiteral("null") : v.toVariant().toString());
    }
    return out;
}

} // namespace

class TestScenarios : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<DbConnection> m_connection;
    std::unique_ptr<Simulation> m_simulation;
    std::unique_ptr<ScenarioRunner> m_runner;

    QSqlDatabase db() const { return m_connection->database(); }
    QList<TraceEvent> trace() const { return m_simulation->trace(); }
    int stock() const
    {
        return scalar(
            db(), QStringLiteral("SELECT quantity FROM consumer_stock WHERE sku = 'SKU-1'"))
            .toInt();
    }
    int ledgerRows() const
    {
        return scalar(db(), QStringLiteral("SELECT COUNT(*) FROM consumer_ledger")).toInt();
    }

    bool start(const TestDatabase &database, const QString &name)
    {
        m_connection = database.initialise();
        if (!m_connection)
            return false;
        m_simulation = std::make_unique<Simulation>(m_connection->database());
        m_runner = std::make_unique<ScenarioRunner>(*m_simulation, *Scenario::byName(name));
        return m_runner->start();
    }

private slots:
    void cleanup()
    {
        m_runner.reset();
        m_simulation.reset();
        m_connection.reset();
    }

    void everyScenarioIsKnownByName()
    {
        for (const QString &name : Scenario::names()) {
            const auto scenario = Scenario::byName(name);
            QVERIFY2(scenario.has_value(), qPrintable(name));
            QCOMPARE(scenario->name, name);
            QVERIFY(!scenario->steps.isEmpty());
        }
        QVERIFY(!Scenario::byName(QStringLiteral("no-such-scenario")).has_value());
    }

    void retrySchedule_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void retrySchedule()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        QVERIFY(start(*database, QStringLiteral("retry-schedule")));
        QVERIFY2(m_runner->runToEnd(), qPrintable(m_simulation->errorText()));

        QCOMPARE(claims(trace()),
            QStringList({u"0:ok"_qs, u"9:NOT_DUE"_qs, u"10:ok"_qs, u"29:NOT_DUE"_qs, u"30:ok"_qs,
                u"69:NOT_DUE"_qs, u"70:ok"_qs}));
        const auto fails = ofKind(trace(), QStringLiteral("fail"));
        QCOMPARE(field(fails, "t"), QStringList({u"0"_qs, u"10"_qs, u"30"_qs, u"70"_qs}));
        QCOMPARE(field(fails, "next_attempt_at"),
            QStringList({u"10"_qs, u"30"_qs, u"70"_qs, u"null"_qs}));
        QCOMPARE(field(fails, "status"),
            QStringList({u"PENDING"_qs, u"PENDING"_qs, u"PENDING"_qs, u"DEAD"_qs}));
        QCOMPARE(ofKind(trace(), QStringLiteral("park")).size(), 1);

        QCOMPARE(column(db(), u"SELECT status FROM delivery_outbox"_qs), QStringList {u"DEAD"_qs});
        QCOMPARE(scalar(db(), u"SELECT failures FROM delivery_outbox"_qs).toInt(), 4);
        QCOMPARE(column(db(), u"SELECT outcome FROM delivery_attempt ORDER BY attempt_no"_qs),
            QStringList({u"RETRY"_qs, u"RETRY"_qs, u"RETRY"_qs, u"DEAD"_qs}));
        QCOMPARE(
            column(db(), u"SELECT next_attempt_at FROM delivery_attempt ORDER BY attempt_no"_qs),
            QStringList({u"10"_qs, u"30"_qs, u"70"_qs, u"NULL"_qs}));
        QCOMPARE(column(db(), u"SELECT claimed_at FROM delivery_attempt ORDER BY attempt_no"_qs),
            QStringList({u"0"_qs, u"10"_qs, u"30"_qs, u"70"_qs}));
    }

    void scheduledRetry_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void scheduledRetry()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        QVERIFY(start(*database, QStringLiteral("scheduled-retry")));
        QVERIFY(m_runner->step()); // t=0: the transport throws before reaching the consumer
        QCOMPARE(scalar(db(), u"SELECT failures FROM delivery_outbox"_qs).toInt(), 1);
        QVERIFY(scalar(db(), u"SELECT claim_token FROM delivery_outbox"_qs).isNull());
        QCOMPARE(scalar(db(), u"SELECT next_attempt_at FROM delivery_outbox"_qs).toLongLong(), 80);
        QCOMPARE(stock(), 10);
        QVERIFY(m_runner->runToEnd());

        QCOMPARE(claims(trace()), QStringList({u"0:ok"_qs, u"80:ok"_qs}));
        QCOMPARE(field(ofKind(trace(), u"ack"_qs), "t"), QStringList {u"80"_qs});
        QCOMPARE(
            column(db(), u"SELECT status FROM delivery_outbox"_qs), QStringList {u"DELIVERED"_qs});
        QCOMPARE(column(db(), u"SELECT outcome FROM delivery_attempt ORDER BY attempt_no"_qs),
            QStringList({u"RETRY"_qs, u"DELIVERED"_qs}));
        QCOMPARE(m_simulation->transport().calls(), 2);
        QCOMPARE(stock(), 8);
        QCOMPARE(ledgerRows(), 1);
        QCOMPARE(m_simulation->summary().value(u"transport_calls"_qs).toInt(), 2);
    }

    void poisonDead_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void poisonDead()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        QVERIFY(start(*database, QStringLiteral("poison-dead")));
        QVERIFY(m_runner->runToEnd());

        QCOMPARE(
            field(ofKind(trace(), u"fail"_qs), "t"), QStringList({u"0"_qs, u"10"_qs, u"30"_qs}));
        QCOMPARE(claims(trace()).constLast(), u"70:DEAD"_qs);
        QCOMPARE(column(db(), u"SELECT status FROM delivery_outbox WHERE event_id = 'EVENT-9'"_qs),
            QStringList {u"DEAD"_qs});
        QCOMPARE(scalar(db(), u"SELECT failures FROM delivery_outbox"_qs).toInt(), 3);
        QCOMPARE(scalar(db(), u"SELECT COUNT(*) FROM delivery_attempt"_qs).toInt(),
            3); // the refused claim made none
        QCOMPARE(stock(), 10);
        QCOMPARE(ledgerRows(), 0);
    }

    void lostAck_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void lostAck()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        QVERIFY(start(*database, QStringLiteral("lost-ack")));
        QVERIFY(m_runner->step()); // t=0: the consumer commits, the response is lost
        QCOMPARE(stock(), 8);
        QCOMPARE(ledgerRows(), 1);
        QCOMPARE(
            column(db(), u"SELECT status FROM delivery_outbox"_qs), QStringList {u"PENDING"_qs});
        QCOMPARE(scalar(db(), u"SELECT last_error_category FROM delivery_outbox"_qs).toString(),
            u"TRANSIENT"_qs);
        QCOMPARE(scalar(db(), u"SELECT next_attempt_at FROM delivery_outbox"_qs).toLongLong(), 10);
        QVERIFY(m_runner->runToEnd());

        QCOMPARE(field(ofKind(trace(), u"deliver"_qs), "result"),
            QStringList({u"RESPONSE_LOST"_qs, u"DUPLICATE"_qs}));
        QCOMPARE(field(ofKind(trace(), u"deliver"_qs), "event_id"),
            QStringList({u"EVENT-42"_qs, u"EVENT-42"_qs}));
        QCOMPARE(field(ofKind(trace(), u"ack"_qs), "t"), QStringList {u"10"_qs});
        QCOMPARE(
            column(db(), u"SELECT status FROM delivery_outbox"_qs), QStringList {u"DELIVERED"_qs});
        QCOMPARE(
            column(db(), u"SELECT consumer_result FROM delivery_attempt ORDER BY attempt_no"_qs),
            QStringList({u"NULL"_qs, u"DUPLICATE"_qs}));
        QCOMPARE(stock(), 8);
        QCOMPARE(ledgerRows(), 1);
        QCOMPARE(m_simulation->transport().calls(), 2);
    }

    // What an edit cannot do: EVENT-77 applied, its acknowledgement lost, parked DEAD, edited
    // (quantity 2 -> 5) and replayed under the same event ID: the consumer answers DUPLICATE,
    // keeps the first payload, and the narration says so.
    void editAfterLostAck_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void editAfterLostAck()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        QVERIFY(start(*database, QStringLiteral("edit-after-lost-ack")));
        QVERIFY(m_runner->step()); // t=0: applied, the response lost
        QCOMPARE(stock(), 8);
        QVERIFY(m_runner->step()); // the retry fails before the consumer: DEAD
        QCOMPARE(column(db(), u"SELECT status FROM delivery_outbox"_qs), QStringList {u"DEAD"_qs});
        QVERIFY2(m_runner->step(), qPrintable(m_simulation->errorText())); // t=50: the edit
        QCOMPARE(
            column(db(), u"SELECT status FROM delivery_outbox"_qs), QStringList {u"PENDING"_qs});
        QVERIFY(m_runner->runToEnd());

        const auto edits = ofKind(trace(), u"edit"_qs);
        QCOMPARE(edits.size(), 1);
        QVERIFY(edits.constFirst().value(u"ok"_qs).toBool());
        QCOMPARE(field(edits, "revision"), QStringList {u"1"_qs});
        const auto deliveries = ofKind(trace(), u"deliver"_qs);
        QCOMPARE(field(deliveries, "result"),
            QStringList({u"RESPONSE_LOST"_qs, u"TRANSIENT_FAILURE"_qs, u"DUPLICATE"_qs}));
        QCOMPARE(field(deliveries, "edited"), QStringList({u""_qs, u""_qs, u"true"_qs}));
        QCOMPARE(field(deliveries, "event_id"),
            QStringList({u"EVENT-77"_qs, u"EVENT-77"_qs, u"EVENT-77"_qs})); // one identity
        QCOMPARE(
            column(db(), u"SELECT status FROM delivery_outbox"_qs), QStringList {u"DELIVERED"_qs});
        // The outbox holds the edit, with the original kept; the consumer kept the first payload.
        QCOMPARE(column(db(), u"SELECT payload FROM delivery_outbox"_qs),
            QStringList {u"{\"quantity\":5,\"sku\":\"SKU-1\"}"_qs});
        QCOMPARE(column(db(), u"SELECT payload FROM payload_revision"_qs),
            QStringList {u"{\"sku\":\"SKU-1\",\"quantity\":2}"_qs});
        QCOMPARE(stock(), 8);
        QCOMPARE(ledgerRows(), 1);

        QStringList narration;
        for (const TraceEvent &event : trace())
            narration << Narration::describe(event);
        QVERIFY2(narration
                     .filter(u"If the consumer already applied this event ID, it will answer "
                             "DUPLICATE and ignore the new payload."_qs)
                     .size()
                == 1,
            qPrintable(narration.join(u'\n')));
        QVERIFY2(narration
                     .filter(u"answers DUPLICATE: it keeps the first payload it applied and "
                             "ignores the edited one"_qs)
                     .size()
                == 1,
            qPrintable(narration.join(u'\n')));
    }

    void leaseExpiry_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void leaseExpiry()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        QVERIFY(start(*database, QStringLiteral("lease-expiry")));
        QVERIFY(m_runner->runToEnd());

        QCOMPARE(claims(trace()), QStringList({u"0:ok"_qs, u"29:IN_FLIGHT"_qs, u"30:ok"_qs}));
        const auto acks = ofKind(trace(), u"ack"_qs);
        QCOMPARE(field(acks, "worker"), QStringList({u"B"_qs, u"A"_qs}));
        QCOMPARE(field(acks, "ok"), QStringList({u"true"_qs, u"false"_qs}));
        QCOMPARE(acks.constLast().value(u"reason"_qs).toString(), u"FENCED"_qs);
        QCOMPARE(acks.constLast().time(), 40);
        QCOMPARE(field(ofKind(trace(), u"deliver"_qs), "result"),
            QStringList({u"APPLIED"_qs, u"DUPLICATE"_qs}));

        QCOMPARE(
            column(db(),
                u"SELECT worker || ':' || outcome FROM delivery_attempt ORDER BY attempt_no"_qs),
            QStringList({u"A:LEASE_EXPIRED"_qs, u"B:DELIVERED"_qs}));
        QCOMPARE(
            column(db(), u"SELECT status FROM delivery_outbox"_qs), QStringList {u"DELIVERED"_qs});
        QCOMPARE(scalar(db(), u"SELECT delivered_at FROM delivery_outbox"_qs).toLongLong(),
            30); // A's ack changed nothing
        QCOMPARE(stock(), 8);
        QCOMPARE(ledgerRows(), 1);
    }

    void permanentRejection_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void permanentRejection()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        QVERIFY(start(*database, QStringLiteral("permanent-rejection")));
        QVERIFY(m_runner->runToEnd());

        QCOMPARE(field(ofKind(trace(), u"fail"_qs), "status"), QStringList {u"DEAD"_qs});
        QCOMPARE(ofKind(trace(), u"claim"_qs).size(), 1);
        QCOMPARE(column(db(), u"SELECT status FROM delivery_outbox"_qs), QStringList {u"DEAD"_qs});
        QCOMPARE(scalar(db(), u"SELECT failures FROM delivery_outbox"_qs).toInt(), 1);
        QCOMPARE(scalar(db(), u"SELECT last_error_category FROM delivery_outbox"_qs).toString(),
            u"PERMANENT"_qs);
        QCOMPARE(
            column(db(), u"SELECT outcome FROM delivery_attempt"_qs), QStringList {u"DEAD"_qs});
        QCOMPARE(stock(), 10);
        QCOMPARE(ledgerRows(), 0);
    }
};

OUTBOX_TEST_MAIN(TestScenarios, QCoreApplication)
#include "tst_scenarios.moc"
