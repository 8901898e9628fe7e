// `outboxctl purge` as an operator runs it, on SQLite and PostgreSQL: the summary line naming
// what went from each table, the progress on stderr, a dry run that says what would go and
// changes nothing, a rerun that finds nothing, and malformed ages or missing options refused
// with exit 2, the reason, and nothing changed.
#include "fixturescript.h"
#include "outboxctlrun.h"
#include "testdata.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlError>

namespace {

constexpr qint64 Now = 100000000;
constexpr qint64 Hour = 3600000;

// 2,500 old DELIVERED events with one attempt each, then one young DELIVERED, one old
// PENDING, one old DEAD (test data, no user input).
bool populate(const QSqlDatabase &db, bool postgres)
{
    const QString series = postgres ? u"generate_series(1, 2500) AS s(n)"_qs
                                    // 50 x 50: MariaDB stops a recursion at 1,000 rows
                                    : u"(WITH RECURSIVE d(k) AS (SELECT 0 UNION ALL SELECT k + 1"
                                      " FROM d WHERE k < 49) SELECT a.k * 50 + b.k + 1 AS n"
                                      " FROM d AS a, d AS b) AS s"_qs;
    const QString id = postgres ? u"'OLD-' || CAST(n AS TEXT)"_qs : u"'OLD-' || n"_qs;
    const QString columns = u"INSERT INTO delivery_outbox (event_id, aggregate_type, aggregate_id,"
                            " event_type, payload, status, failures, next_attempt_at, created_at,"
                            " delivered_at) "_qs;
    const qint64 old = Now - 48 * Hour;
    return exec(db,
               columns
                   + u"SELECT %1, 'Order', '1', 'T', '{}', 'DELIVERED', 0, 0, %2 + n, %3 + n FROM "_qs
                         .arg(id)
                         .arg(old)
                         .arg(old + 100)
                   + series)
        && exec(db,
            u"INSERT INTO delivery_attempt (event_id, attempt_no, worker, claim_token, claimed_at,"
            " finished_at, outcome) SELECT event_id, 1, 'w', 'c', created_at, delivered_at,"
            " 'DELIVERED' FROM delivery_outbox"_qs)
        && exec(db,
            columns
                + u"VALUES ('YOUNG', 'Order', '2', 'T', '{}', 'DELIVERED', 0, 0, %1, %2)"_qs
                      .arg(Now - Hour)
                      .arg(Now - Hour + 5))
        && exec(db,
            columns
                + u"VALUES ('PEND', 'Order', '3', 'T', '{}', 'PENDING', 0, 0, %1, NULL)"_qs.arg(
                    old))
        && exec(db,
            columns
                + u"VALUES ('DEAD', 'Order', '4', 'T', '{}', 'DEAD', 3, 0, %1, NULL)"_qs.arg(old));
}

QString counts(const QSqlDatabase &db)
{
    const QVariant events = scalar(db, u"SELECT COUNT(*) FROM delivery_outbox"_qs);
    const QVariant attempts = scalar(db, u"SELECT COUNT(*) FROM delivery_attempt"_qs);
    const QVariant kept = scalar(
        db, u"SELECT COUNT(*) FROM delivery_outbox WHERE event_id IN ('YOUNG', 'PEND', 'DEAD')"_qs);
    return u"%1 events, %2 attempts, %3 kept"_qs.arg(events.toLongLong())
        .arg(attempts.toLongLong())
        .arg(kept.toLongLong());
}

QStringList purgeArgs(const QString &url, const QStringList &more)
{
    return QStringList {u"purge"_qs, u"--db"_qs, url, u"--now"_qs, QString::number(Now)} + more;
}

QStringList nonEmpty(const QStringList &lines)
{
    QStringList out;
    for (const QString &line : lines) {
        if (!line.isEmpty())
            out << line;
    }
    return out;
}

} // namespace

class TestOutboxctlPurge : public QObject
{
    Q_OBJECT

    std::unique_ptr<TestDatabase> m_database;
    std::unique_ptr<DbConnection> m_connection;

    bool prepare(const QString &engine, QString *skip, QString *fail)
    {
        const bool postgres = engine == u"postgresql"_qs;
        return initialisedByCli(
            engine, [postgres](const QSqlDatabase &db) { return populate(db, postgres); },
            &m_database, &m_connection, skip, fail);
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo::exists(qEnvironmentVariable("OUTBOXCTL")),
            "OUTBOXCTL must name the binary (set by CTest)");
    }

    void cleanup()
    {
        m_connection.reset();
        m_database.reset();
    }

    void dryRunThenPurgeThenRerun_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void dryRunThenPurgeThenRerun()
    {
        QFETCH(QString, engine);
        QString skip, fail;
        if (!prepare(engine, &skip, &fail)) {
            if (!fail.isEmpty())
                QFAIL(qPrintable(fail));
            QSKIP(qPrintable(skip));
        }
        const QSqlDatabase db = m_connection->database();
        const QString url = m_database->url();
        QCOMPARE(counts(db), u"2503 events, 2500 attempts, 3 kept"_qs);

        const Run dry
            = outboxctl(purgeArgs(url, {u"--delivered-older-than"_qs, u"1d"_qs, u"--dry-run"_qs}));
        QCOMPARE(dry.exitCode, 0);
        QCOMPARE(nonEmpty(dry.out),
            QStringList {
                u"would purge 2,500 DELIVERED events: delivery_outbox 2,500, "
                "delivery_attempt 2,500, replay_log 0, resolve_log 0, reopen_log 0, payload_revision 0 (dry run: nothing changed)"_qs});
        QCOMPARE(counts(db), u"2503 events, 2500 attempts, 3 kept"_qs);
        // The same plan as JSON: a count by state and cutoff.
        const Run plan = outboxctl(purgeArgs(
            url, {u"--delivered-older-than"_qs, u"1d"_qs, u"--dry-run"_qs, u"--json"_qs}));
        QCOMPARE(plan.exitCode, 0);
        const QJsonObject json = QJsonDocument::fromJson(plan.out.join(u'\n').toUtf8()).object();
        QCOMPARE(json.value(u"action"_qs).toString(), u"purge"_qs);
        QCOMPARE(json.value(u"count"_qs).toInteger(), 2500);
        QCOMPARE(json[u"states"_qs][u"DELIVERED"_qs][u"cutoff"_qs].toInteger(),
            Now - 24 * 3600 * 1000LL);
        QCOMPARE(outboxctl(purgeArgs(url, {u"--delivered-older-than"_qs, u"1d"_qs, u"--json"_qs}))
                     .exitCode,
            2);

        const Run run = outboxctl(
            purgeArgs(url, {u"--delivered-older-than"_qs, u"24h"_qs, u"--batch"_qs, u"1000"_qs}));
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(nonEmpty(run.out).size(), 1);
        QVERIFY2(
            run.out.constFirst().startsWith(
                u"purged 2,500 DELIVERED events: delivery_outbox 2,500, delivery_attempt 2,500, "
                "replay_log 0, resolve_log 0, reopen_log 0, payload_revision 0 in 3 batches, "_qs),
            qPrintable(run.out.constFirst()));
        QCOMPARE(counts(db), u"3 events, 0 attempts, 3 kept"_qs);

        const Run again = outboxctl(purgeArgs(url, {u"--delivered-older-than"_qs, u"24h"_qs}));
        QCOMPARE(again.exitCode, 0);
        QVERIFY2(
            again.out.constFirst().startsWith(
                u"purged 0 DELIVERED events: delivery_outbox 0, delivery_attempt 0, "
                "replay_log 0, resolve_log 0, reopen_log 0, payload_revision 0 in 0 batches"_qs),
            qPrintable(again.out.constFirst()));
        QCOMPARE(counts(db), u"3 events, 0 attempts, 3 kept"_qs);
    }

    void badInputIsRefusedAndChangesNothing_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("reason");
        QTest::addRow("unknown unit") << QStringList {u"--delivered-older-than"_qs, u"7x"_qs}
                                      << u"--delivered-older-than must be an age"_qs;
        QTest::addRow("words") << QStringList {u"--delivered-older-than"_qs, u"a week"_qs}
                               << u"not 'a week'"_qs;
        QTest::addRow("negative") << QStringList {u"--delivered-older-than"_qs, u"-5m"_qs}
                                  << u"not '-5m'"_qs;
        QTest::addRow("empty") << QStringList {u"--delivered-older-than"_qs, QString()}
                               << u"must be an age"_qs;
        QTest::addRow("bad resolved age") << QStringList {u"--delivered-older-than"_qs, u"7d"_qs,
            u"--resolved-older-than"_qs, u"soon"_qs}
                                          << u"--resolved-older-than must be an age"_qs;
        QTest::addRow("no age") << QStringList {} << u"say what to purge"_qs;
        QTest::addRow("batch 0") << QStringList {u"--delivered-older-than"_qs, u"7d"_qs,
            u"--batch"_qs, u"0"_qs}
                                 << u"--batch must be a whole number"_qs;
    }
    void badInputIsRefusedAndChangesNothing()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, reason);
        QString skip, fail;
        if (!prepare(u"sqlite"_qs, &skip, &fail))
            QFAIL(qPrintable(fail + skip));
        const Run run = outboxctl(purgeArgs(m_database->url(), arguments));
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(nonEmpty(run.err).size(), 1);
        QVERIFY2(run.err.constFirst().contains(reason), qPrintable(run.err.constFirst()));
        QCOMPARE(nonEmpty(run.out), QStringList());
        QCOMPARE(counts(m_connection->database()), u"2503 events, 2500 attempts, 3 kept"_qs);
    }

    // Another library's outbox (detected or named): its retention is its own; nothing deleted.
    void anotherLibrarysOutboxIsRefused_data()
    {
        QTest::addColumn<QStringList>("profile");
        QTest::addRow("detected") << QStringList {};
        QTest::addRow("named") << QStringList {u"--profile"_qs, u"gruelbox"_qs};
    }
    void anotherLibrarysOutboxIsRefused()
    {
        QFETCH(QStringList, profile);
        QString skip, fail; // the fixture is PostgreSQL DDL
        m_database = TestDatabase::create(u"postgresql"_qs, &skip, &fail);
        if (!fail.isEmpty())
            QFAIL(qPrintable(fail));
        if (!m_database)
            QSKIP(qPrintable(skip));
        m_connection = m_database->connect(false);
        QVERIFY(m_connection);
        QVERIFY(runSqlScript(
            m_connection->database(), TestData::path(QStringLiteral("fixtures/gruelbox.sql"))));
        const QVariant before
            = scalar(m_connection->database(), u"SELECT COUNT(*) FROM txno_outbox"_qs);
        QVERIFY(before.toLongLong() > 0);

        const Run run = outboxctl(purgeArgs(
            m_database->url(), QStringList {u"--delivered-older-than"_qs, u"0"_qs} + profile));
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(nonEmpty(run.err).size(), 1);
        QVERIFY2(run.err.constFirst().contains(u"gruelbox profile"_qs),
            qPrintable(run.err.constFirst()));
        QCOMPARE(scalar(m_connection->database(), u"SELECT COUNT(*) FROM txno_outbox"_qs), before);
    }
};

OUTBOX_TEST_MAIN(TestOutboxctlPurge, QCoreApplication)
#include "tst_outboxctl_purge.moc"
