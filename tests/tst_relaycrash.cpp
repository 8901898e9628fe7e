// kill -9 at the worst moments: `outboxctl relay` runs as a child process and dies by SIGKILL
// between claim and delivery, after the consumer commit and before the ack, in the middle of a
// batch, or at an arbitrary moment from outside. A restart with --until-drained must take over
// the expired leases and finish with every invariant intact: nothing lost, nothing applied twice.
#include "invariants.h"
#include "producer.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

namespace {

const int Events = 200;

QStringList relayArguments(const QString &url, int workers)
{
    return {u"relay"_qs, u"--db"_qs, url, u"--workers"_qs, QString::number(workers), u"--batch"_qs,
        u"10"_qs, u"--lease-ms"_qs, u"300"_qs, u"--policy"_qs, u"fixed:20"_qs, u"--budget"_qs,
        u"5"_qs, u"--fail-rate"_qs, u"0.1"_qs, u"--lost-ack-rate"_qs, u"0.1"_qs, u"--latency-ms"_qs,
        u"0..2"_qs};
}

qint64 count(const QSqlDatabase &db, const QString &sql)
{
    return scalar(db, sql).toLongLong();
}

} // namespace

class TestRelayCrash : public QObject
{
    Q_OBJECT

private slots:
    void restartAfterKillKeepsEveryInvariant_data()
    {
        TestDatabase::addEngineColumn();
        QTest::addColumn<QString>("crashAt");
        for (const QString &engine : {u"sqlite"_qs, u"postgresql"_qs, u"mysql"_qs}) {
            for (const QString &point : {u"after-claim"_qs, u"after-consumer-commit"_qs,
                     u"mid-batch"_qs, u"external-kill"_qs})
                QTest::addRow("%s: %s", qPrintable(engine), qPrintable(point)) << engine << point;
        }
    }
    void restartAfterKillKeepsEveryInvariant()
    {
        QFETCH(QString, engine);
        QFETCH(QString, crashAt);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        const int workers = engine == QLatin1String("sqlite") ? 1 : 4; // servers lock rows

        QProcess first;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        if (crashAt != QLatin1String("external-kill")) {
            env.insert(u"OUTBOX_CRASH_AT"_qs, crashAt);
            env.insert(u"OUTBOX_CRASH_AFTER"_qs, u"3"_qs);
        }
        first.setProcessEnvironment(env);
        first.start(qEnvironmentVariable("OUTBOXCTL"),
            relayArguments(database->url(), workers)
                + QStringList {u"--produce"_qs, QString::number(Events)});
        QVERIFY(first.waitForStarted());
        if (crashAt == QLatin1String("external-kill")) {
            QTRY_VERIFY_WITH_TIMEOUT(
                count(db, u"SELECT COUNT(*) FROM delivery_outbox WHERE status = 'DELIVERED'"_qs)
                    >= 20,
                30000);
            first.kill(); // SIGKILL
        }
        QVERIFY(first.waitForFinished(60000));
        QCOMPARE(first.exitStatus(), QProcess::CrashExit);
        QVERIFY(count(db, u"SELECT COUNT(*) FROM delivery_outbox WHERE status = 'PENDING'"_qs) > 0);
        if (crashAt == QLatin1String("after-claim"))
            QVERIFY(
                count(db, u"SELECT COUNT(*) FROM delivery_attempt WHERE outcome IS NULL"_qs) > 0);
        if (crashAt == QLatin1String("after-consumer-commit")) // applied, never acknowledged
            QVERIFY(count(db,
                        u"SELECT COUNT(*) FROM delivery_outbox o JOIN consumer_ledger l ON "
                        u"l.event_id = o.event_id"
                        u" WHERE o.status = 'PENDING' AND o.claim_token IS NOT NULL"_qs)
                > 0);

        QProcess restart;
        restart.start(qEnvironmentVariable("OUTBOXCTL"),
            relayArguments(database->url(), workers) + QStringList {u"--until-drained"_qs});
        QVERIFY(restart.waitForFinished(120000));
        QCOMPARE(restart.exitStatus(), QProcess::NormalExit);
        QCOMPARE(restart.exitCode(), 0);
        const QJsonObject summary
            = QJsonDocument::fromJson(restart.readAllStandardOutput().trimmed()).object();
        QCOMPARE(summary.value(u"pending"_qs).toInt(), 0);
        QCOMPARE(
            summary.value(u"delivered"_qs).toInt() + summary.value(u"dead"_qs).toInt(), Events);

        const QStringList violations = invariantViolations(db, Events, Producer::InitialStock);
        QVERIFY2(violations.isEmpty(), qPrintable(violations.join(u"; "_qs)));
        if (crashAt != QLatin1String("external-kill")) // the dead process's claims were taken over
            QVERIFY(summary.value(u"lease_expired"_qs).toInt() > 0);
    }
};

OUTBOX_TEST_MAIN(TestRelayCrash, QCoreApplication)
#include "tst_relaycrash.moc"
