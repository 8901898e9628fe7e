// `outboxctl generate` on SQLite, PostgreSQL and MySQL at a small size: the mix of states within
// tolerance, attempt rows that agree with their event, the same seed giving the same rows, a
// snapshot that accounts for every row, and the refusal of a database not meant for simulation.
#include "outboxctlrun.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace {

constexpr qint64 Now = 1700000000000; // the generator's "now": created_at in the week before
constexpr int Events = 2000;

qint64 count(const QSqlDatabase &db, const QString &sql)
{
    return scalar(db, sql).toLongLong();
}

// What the rows must satisfy, each as a count of offending rows (test SQL, no user input).
const QList<std::pair<const char *, QString>> &agreements()
{
    static const QList<std::pair<const char *, QString>> checks = {
        {"failures disagree with the RETRY and DEAD attempts",
            u"SELECT COUNT(*) FROM delivery_outbox o WHERE o.failures <> (SELECT COUNT(*)"
            " FROM delivery_attempt a WHERE a.event_id = o.event_id AND a.outcome IN ('RETRY', 'DEAD'))"_qs},
        {"DELIVERED events whose last attempt is not DELIVERED",
            u"SELECT COUNT(*) FROM delivery_outbox o WHERE o.status = 'DELIVERED' AND NOT EXISTS"
            " (SELECT 1 FROM delivery_attempt a WHERE a.event_id = o.event_id AND a.outcome = "
            "'DELIVERED'"
            " AND a.attempt_no = o.failures + 1 AND a.finished_at = o.delivered_at)"_qs},
        {"DEAD events whose last attempt is not DEAD",
            u"SELECT COUNT(*) FROM delivery_outbox o WHERE o.status = 'DEAD' AND NOT EXISTS"
            " (SELECT 1 FROM delivery_attempt a WHERE a.event_id = o.event_id AND a.outcome = "
            "'DEAD'"
            " AND a.attempt_no = o.failures AND a.error_category = o.last_error_category)"_qs},
        {"claimed rows without an unfinished attempt holding their token",
            u"SELECT COUNT(*) FROM delivery_outbox o WHERE o.claim_token IS NOT NULL AND NOT EXISTS"
            " (SELECT 1 FROM delivery_attempt a WHERE a.event_id = o.event_id AND a.outcome IS NULL"
            " AND a.finished_at IS NULL AND a.claim_token = o.claim_token)"_qs},
        {"unfinished attempts of rows that hold no claim",
            u"SELECT COUNT(*) FROM delivery_attempt a JOIN delivery_outbox o ON o.event_id = "
            u"a.event_id"
            " WHERE a.outcome IS NULL AND (o.status <> 'PENDING' OR o.claim_token IS NULL)"_qs},
        {"attempt numbers with gaps",
            u"SELECT COUNT(*) FROM delivery_outbox o WHERE (SELECT COUNT(*) FROM delivery_attempt a"
            " WHERE a.event_id = o.event_id) <> (SELECT COALESCE(MAX(attempt_no), 0)"
            " FROM delivery_attempt a WHERE a.event_id = o.event_id)"_qs},
        {"attempts claimed before their event was created, or after now",
            u"SELECT COUNT(*) FROM delivery_attempt a JOIN delivery_outbox o ON o.event_id = "
            u"a.event_id"
            " WHERE a.claimed_at < o.created_at OR a.claimed_at > 1700000000000"
            " OR a.finished_at > 1700000000000"_qs},
        {"an attempt claimed before the one before it finished or was due",
            u"SELECT COUNT(*) FROM delivery_attempt a JOIN delivery_attempt b ON b.event_id = "
            u"a.event_id"
            " AND b.attempt_no = a.attempt_no + 1"
            " WHERE b.claimed_at < a.finished_at OR b.claimed_at < a.next_attempt_at"_qs},
        {"created_at outside the week before now",
            u"SELECT COUNT(*) FROM delivery_outbox WHERE created_at > 1700000000000"
            " OR created_at < 1700000000000 - 604800000"_qs},
        {"payloads outside a few hundred bytes",
            u"SELECT COUNT(*) FROM delivery_outbox WHERE LENGTH(payload) < 200 OR LENGTH(payload) > 600"_qs},
    };
    return checks;
}

// Share of `part` in Events, in per cent.
double percent(qint64 part)
{
    return 100.0 * double(part) / Events;
}

} // namespace

class TestGenerate : public QObject
{
    Q_OBJECT

    // A database the generator may write: a new SQLite file (created by generate itself) or a
    // server's database initialised for simulation.
    static QString simulationTarget(const TestDatabase &database, const QString &engine)
    {
        if (engine != QLatin1String("sqlite"))
            database.initialise();
        return database.url();
    }

private slots:
    void theMixAndItsAttempts_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void theMixAndItsAttempts()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const QString url = simulationTarget(*database, engine);
        const Run run = outboxctl({u"generate"_qs, u"--db"_qs, url, u"--events"_qs,
            QString::number(Events), u"--seed"_qs, u"7"_qs, u"--now"_qs, QString::number(Now)});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.err.isEmpty());
        QCOMPARE(run.out.constFirst(), u"generated 2000 of 2000 events"_qs);
        const QJsonObject summary = QJsonDocument::fromJson(run.out.constLast().toUtf8()).object();
        QCOMPARE(summary.value(u"events"_qs).toInteger(), Events);
        QVERIFY(summary.contains(u"elapsed_ms"_qs));

        const auto connection = database->connect();
        const QSqlDatabase db = connection->database();
        const qint64 attempts = count(db, u"SELECT COUNT(*) FROM delivery_attempt"_qs);
        QCOMPARE(summary.value(u"attempts"_qs).toInteger(), attempts);
        QVERIFY2(
            qAbs(double(attempts) / Events - 1.2) < 0.1, qPrintable(QString::number(attempts)));

        const double delivered = percent(
            count(db, u"SELECT COUNT(*) FROM delivery_outbox WHERE status = 'DELIVERED'"_qs));
        const double dead
            = percent(count(db, u"SELECT COUNT(*) FROM delivery_outbox WHERE status = 'DEAD'"_qs));
        QVERIFY2(qAbs(delivered - 97) < 1.5, qPrintable(QString::number(delivered)));
        QVERIFY2(qAbs(dead - 1) < 0.7, qPrintable(QString::number(dead)));
        const QStringList states
            = {u"claim_token IS NULL AND next_attempt_at <= 1700000000000"_qs, // due
                u"claim_token IS NULL AND next_attempt_at > 1700000000000"_qs, // scheduled
                u"claim_token IS NOT NULL AND lease_until > 1700000000000"_qs, // in flight
                u"claim_token IS NOT NULL AND lease_until <= 1700000000000"_qs}; // lease expired
        for (const QString &state : states) {
            const double share = percent(count(db,
                u"SELECT COUNT(*) FROM delivery_outbox WHERE status = 'PENDING' AND "_qs + state));
            QVERIFY2(
                share > 0.1 && share < 1.2, qPrintable(state + u": "_qs + QString::number(share)));
        }
        for (const auto &[what, sql] : agreements())
            QVERIFY2(count(db, sql) == 0, what);
        QCOMPARE(
            count(db, u"SELECT COUNT(DISTINCT last_error_category) FROM delivery_outbox"_qs), 2);
        QVERIFY(count(db, u"SELECT COUNT(DISTINCT last_error) FROM delivery_outbox"_qs) >= 5);
        QVERIFY(count(db, u"SELECT COUNT(DISTINCT event_type) FROM delivery_outbox"_qs) >= 5);
    }

    // The same seed gives the same rows (and generate replaces what was there); another differs.
    void theSeedDecides_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void theSeedDecides()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const QString url = simulationTarget(*database, engine);
        const QString digest
            = u"SELECT COUNT(*) || ':' || SUM(failures) || ':' || SUM(created_at % 100000)"
              " || ':' || SUM(LENGTH(payload)) || ':' || (SELECT COUNT(*) FROM delivery_attempt)"
              " FROM delivery_outbox"_qs;
        auto generate = [&](const QString &seed) {
            const Run run = outboxctl({u"generate"_qs, u"--db"_qs, url, u"--events"_qs, u"500"_qs,
                u"--seed"_qs, seed, u"--now"_qs, QString::number(Now)});
            return run.exitCode == 0 ? scalar(database->connect()->database(), digest).toString()
                                     : QString();
        };
        const QString first = generate(u"11"_qs);
        QVERIFY(first.startsWith(u"500:"_qs));
        QCOMPARE(generate(u"11"_qs), first);
        QVERIFY(generate(u"12"_qs) != first);
    }

    // `outboxctl check` accounts for every generated row, each in exactly one state.
    void checkCountsEveryRow_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void checkCountsEveryRow()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const QString url = simulationTarget(*database, engine);
        QCOMPARE(outboxctl({u"generate"_qs, u"--db"_qs, url, u"--events"_qs,
                               QString::number(Events), u"--now"_qs, QString::number(Now)})
                     .exitCode,
            0);
        // 1% DEAD is red by the window's default limits: the counts, not the verdict, matter here.
        const Run check = outboxctl({u"check"_qs, u"--db"_qs, url, u"--json"_qs, u"--now"_qs,
            QString::number(Now), u"--no-default-thresholds"_qs});
        QCOMPARE(check.exitCode, 0);
        const QJsonObject json = QJsonDocument::fromJson(check.out.constFirst().toUtf8()).object();
        const QJsonObject counts = json.value(u"counts"_qs).toObject();
        qint64 total = 0;
        for (const QString &key : counts.keys())
            total += counts.value(key).toInteger();
        QCOMPARE(total, Events);
        QVERIFY(json.value(u"estimated"_qs).toArray().isEmpty()); // small: counted exactly
    }

    void refusesADatabaseNotMeantForSimulation_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void refusesADatabaseNotMeantForSimulation()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        QCOMPARE(outboxctl({u"init"_qs, u"--db"_qs, database->url()}).exitCode, 0);
        const Run run
            = outboxctl({u"generate"_qs, u"--db"_qs, database->url(), u"--events"_qs, u"10"_qs});
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(run.err.size(), 1);
        QVERIFY2(
            run.err.constFirst().startsWith(u"outboxctl: refusing to write simulated events"_qs),
            qPrintable(run.err.constFirst()));
        QCOMPARE(
            count(database->connect()->database(), u"SELECT COUNT(*) FROM delivery_outbox"_qs), 0);
    }

    void badOptions_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("error");
        QTest::addRow("no events") << QStringList {u"--db"_qs, u"sqlite:/nonexistent/x.sqlite"_qs}
                                   << u"outboxctl: generate: --events is required"_qs;
        QTest::addRow("zero events")
            << QStringList {u"--db"_qs, u"sqlite:/nonexistent/x.sqlite"_qs, u"--events"_qs, u"0"_qs}
            << u"outboxctl: generate: --events must be a whole number of at least 1, not '0'"_qs;
        QTest::addRow("bad seed")
            << QStringList {u"--db"_qs, u"sqlite:/nonexistent/x.sqlite"_qs, u"--events"_qs, u"5"_qs,
                   u"--seed"_qs, u"x"_qs}
            << u"outboxctl: generate: --seed must be a whole number of at least 0, not 'x'"_qs;
    }
    void badOptions()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, error);
        const Run run = outboxctl(QStringList {u"generate"_qs} + arguments);
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(run.err, QStringList {error});
        QVERIFY(run.out.isEmpty());
    }
};

OUTBOX_TEST_MAIN(TestGenerate, QCoreApplication)
#include "tst_generate.moc"
