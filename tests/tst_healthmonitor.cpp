// The HealthMonitor on its own, without widgets: the adaptive interval follows what the
// snapshots alone cost (fed through the snapshot's queryMs, not timed), failures mark the figures
// stale once and back off 0.5 s, 1 s, 2 s … capped at the interval, a database that comes
// back ends it, a password never reaches the cause, and a request that gets no answer is
// marked stale within one interval while the connect attempt stays bounded.
#include "databaseurl.h"
#include "healthmonitor.h"
#include "healthworker.h"
#include "outboxrows.h"
#include "schema.h"
#include "silentport.h"
#include "sqldialect.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QDebug>
#include <QSignalSpy>
#include <QTemporaryDir>

namespace {

DatabaseUrl urlOf(const QString &text)
{
    QString error;
    const DatabaseUrl url = DatabaseUrl::parse(text, &error);
    if (!url.isValid())
        qWarning("bad URL %s: %s", qPrintable(text), qPrintable(error));
    return url;
}

HealthSnapshot costing(qint64 queryMs)
{
    HealthSnapshot snapshot;
    snapshot.queryMs = queryMs;
    return snapshot;
}

} // namespace

class TestHealthMonitor : public QObject
{
    Q_OBJECT

private slots:
    void adaptiveRule_data()
    {
        QTest::addColumn<qint64>("costMs");
        QTest::addColumn<int>("userMs");
        QTest::addColumn<int>("expectedMs");
        QTest::addRow("a cheap refresh keeps the user's 2 s") << qint64(12) << 2000 << 2000;
        QTest::addRow("no cost keeps the user's interval") << qint64(0) << 2000 << 2000;
        QTest::addRow("60 ms stretches to 4.5 s (busy one 75th)") << qint64(60) << 2000 << 4500;
        QTest::addRow("100 ms stretches to 7.5 s") << qint64(100) << 2000 << 7500;
        QTest::addRow("250 ms stretches to 18.75 s") << qint64(250) << 2000 << 18750;
        QTest::addRow("400 ms (10M on MariaDB) stretches to 30 s") << qint64(400) << 2000 << 30000;
        QTest::addRow("800 ms reaches the 60 s ceiling") << qint64(800) << 2000 << 60000;
        QTest::addRow("a costly refresh stops at 60 s") << qint64(2000) << 2000 << 60000;
        QTest::addRow("a longer user interval is kept") << qint64(100) << 8000 << 8000;
        QTest::addRow("a user interval above the ceiling is kept")
            << qint64(2000) << 90000 << 90000;
        QTest::addRow("a short user interval stretches") << qint64(20) << 500 << 1500;
    }
    void adaptiveRule()
    {
        QFETCH(qint64, costMs);
        QFETCH(int, userMs);
        QFETCH(int, expectedMs);
        QCOMPARE(HealthMonitor::adaptiveIntervalMs(costMs, userMs), expectedMs);
        // What the rule promises: at most 0.8 s of database time a minute below the ceiling.
        if (costMs * HealthMonitor::CostFactor <= HealthMonitor::MaxAdaptiveIntervalMs
            && expectedMs > userMs)
            QVERIFY(costMs * 60000 / expectedMs <= 800);
    }

    void retryBackoff_data()
    {
        QTest::addColumn<int>("capMs");
        QTest::addColumn<QList<int>>("delays");
        QTest::addRow("doubling up to a 2 s interval")
            << 2000 << QList<int> {500, 1000, 2000, 2000};
        QTest::addRow("capped at a 5 s interval")
            << 5000 << QList<int> {500, 1000, 2000, 4000, 5000};
        QTest::addRow("a short interval caps the first retry") << 300 << QList<int> {300, 300};
    }
    void retryBackoff()
    {
        QFETCH(int, capMs);
        QFETCH(QList<int>, delays);
        for (int i = 0; i < delays.size(); ++i)
            QCOMPARE(HealthMonitor::retryDelayMs(i + 1, capMs), delays.at(i));
        QCOMPARE(HealthMonitor::retryDelayMs(1000, capMs), capMs); // no overflow, still capped
    }

    // A quiet outbox: the snapshots keep coming but change no figure, so the window reads
    // nothing more; a new event changes them; Refresh (refreshNow) always reads.
    void quietSnapshotsChangeNoFigures_data()
    {
        TestDatabase::addEngineColumn(), TestDatabase::addEngineRows();
    }
    void quietSnapshotsChangeNoFigures()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        QVERIFY(setup);
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        OutboxRow dead;
        dead.id = u"E-dead"_qs;
        dead.status = u"DEAD"_qs;
        dead.createdAt = dead.nextAttemptAt = now - 60000;
        dead.failures = 3;
        QVERIFY(insertRow(setup->database(), dead));
        HealthMonitor monitor(setup->url());
        monitor.setInterval(50);
        QList<bool> changed;
        connect(&monitor, &HealthMonitor::snapshotChanged, this,
            [&] { changed << monitor.figuresChanged(); });
        monitor.resume();
        QTRY_VERIFY_WITH_TIMEOUT(changed.size() >= 4, 20000); // a loaded machine: seconds
        QCOMPARE(changed.constFirst(), true); // the first always reads
        QVERIFY2(!changed.mid(1).contains(true), qPrintable(QDebug::toString(changed)));

        OutboxRow due;
        due.id = u"E-new"_qs;
        due.createdAt = due.nextAttemptAt = now;
        QVERIFY(insertRow(setup->database(), due));
        const qsizetype before = changed.size();
        QTRY_VERIFY(changed.mid(before).contains(true));
        QCOMPARE(monitor.snapshot().counts.pending(), 1);

        monitor.pause();
        QTRY_VERIFY(!monitor.isWaiting());
        changed.clear();
        monitor.refreshNow(); // asked for: the reads follow, changed or not
        QTRY_COMPARE(changed, QList<bool> {true});
    }

    // The interval follows the snapshot's own cost, given as queryMs one snapshot after
    // another: it stretches on a lasting change (the median of the last five), not on one slow
    // snapshot, and comes back down after two cheap ones in a row, not after five.
    void intervalFollowsTheSnapshotCost_data()
    {
        QTest::addColumn<QList<qint64>>("costs");
        QTest::addColumn<QList<int>>("intervals"); // effectiveInterval() after each snapshot
        QTest::addRow("the first snapshot starts cold: 100 ms stretches nothing")
            << QList<qint64> {100} << QList<int> {2000};
        QTest::addRow("cheap snapshots keep the user's 2 s")
            << QList<qint64> {10, 12, 11, 10, 9} << QList<int> {2000, 2000, 2000, 2000, 2000};
        QTest::addRow("one slow snapshot among cheap ones stretches nothing") << QList<qint64> {
            10, 12, 11, 10, 300, 10} << QList<int> {2000, 2000, 2000, 2000, 2000, 2000};
        QTest::addRow("a lasting 60 ms stretches to 4.5 s on its third snapshot") << QList<qint64> {
            10, 10, 10, 60, 60, 60} << QList<int> {2000, 2000, 2000, 2000, 2000, 4500};
        QTest::addRow("800 ms snapshots reach 60 s; two cheap ones bring back 2 s")
            << QList<qint64> {10, 800, 800, 800, 800, 10, 10}
            << QList<int> {2000, 2000, 60000, 60000, 60000, 60000, 2000};
        QTest::addRow("one cheap snapshot among slow ones keeps the stretch") << QList<qint64> {
            10, 100, 100, 100, 10, 100} << QList<int> {2000, 2000, 7500, 7500, 7500, 7500};
        QTest::addRow("coming down follows the higher of the last two") << QList<qint64> {
            10, 800, 800, 800, 60, 40} << QList<int> {2000, 2000, 60000, 60000, 60000, 4500};
    }
    void intervalFollowsTheSnapshotCost()
    {
        QFETCH(QList<qint64>, costs);
        QFETCH(QList<int>, intervals);
        QTemporaryDir dir;
        HealthMonitor monitor(urlOf(u"sqlite:"_qs + dir.filePath(u"none.sqlite"_qs)));
        QCOMPARE(monitor.effectiveInterval(), 2000);
        QList<int> seen;
        for (const qint64 cost : costs) {
            // Answers delivered by hand before the worker's own (dropped as older) can arrive.
            monitor.refreshNow();
            monitor.acceptSnapshot(monitor.lastRequestId(), costing(cost));
            QCOMPARE(monitor.lastCostMs(), cost); // the snapshot's own cost, nothing added
            seen << monitor.effectiveInterval();
        }
        QCOMPARE(seen, intervals);
    }

    void intervalSettings()
    {
        QTemporaryDir dir;
        HealthMonitor monitor(urlOf(u"sqlite:"_qs + dir.filePath(u"none.sqlite"_qs)));
        QSignalSpy intervals(&monitor, &HealthMonitor::intervalChanged);
        for (const qint64 cost : {10, 60, 60, 60}) {
            monitor.refreshNow();
            monitor.acceptSnapshot(monitor.lastRequestId(), costing(cost));
        }
        QCOMPARE(monitor.effectiveInterval(), 4500);
        QCOMPARE(intervals.count(), 1); // told once, when it stretched
        QCOMPARE(intervals.constLast().constFirst().toInt(), 4500);
        monitor.setSlowed(true);
        QCOMPARE(monitor.effectiveInterval(), 4500 * HealthMonitor::SlowedFactor);
        monitor.setSlowed(false);
        monitor.setAdaptive(false);
        QCOMPARE(monitor.effectiveInterval(), 2000);
        monitor.setAdaptive(true);
        monitor.setInterval(10000);
        QCOMPARE(monitor.effectiveInterval(), 10000);
    }

    // A hidden window refreshes five times less often (minutes, on a costly outbox): shown
    // again, figures older than its interval are read at once, recent ones wait for the timer.
    void shownAgainReadsOldFiguresAtOnce()
    {
        FRESH_DATABASE(database, u"sqlite"_qs);
        const auto setup = database->initialise();
        QVERIFY(setup);
        HealthMonitor monitor(setup->url());
        monitor.setInterval(300);
        monitor.resume();
        QTRY_VERIFY(monitor.hasSnapshot() && !monitor.isWaiting());

        monitor.setSlowed(true); // hidden: every 1.5 s
        monitor.setInterval(60000); // and a long interval: the figures are recent for it
        QTRY_VERIFY(!monitor.isWaiting());
        monitor.setSlowed(false);
        QVERIFY2(!monitor.isWaiting(), "figures younger than the interval are read again");

        monitor.setInterval(300);
        monitor.setSlowed(true);
        QTRY_VERIFY(!monitor.isWaiting()
            && monitor.lastGoodAt().msecsTo(QDateTime::currentDateTime()) >= 300);
        monitor.setSlowed(false); // no timer has fired yet: only showing the window asks
        QVERIFY2(monitor.isWaiting(), "figures older than the interval wait for the timer");
        QTRY_VERIFY(!monitor.isWaiting());
        QVERIFY(monitor.lastGoodAt().msecsTo(QDateTime::currentDateTime()) < 300);

        monitor.pause();
        monitor.setSlowed(true);
        QTRY_VERIFY(monitor.lastGoodAt().msecsTo(QDateTime::currentDateTime()) >= 300);
        monitor.setSlowed(false);
        QVERIFY2(!monitor.isWaiting(), "a paused monitor reads only when asked");
    }

    // A SQLite file that is missing, then appears: stale once, backing off, then current.
    void failuresBackOffAndHeal()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"later.sqlite"_qs);
        HealthMonitor monitor(urlOf(u"sqlite:"_qs + path));
        QSignalSpy stale(&monitor, &HealthMonitor::staleChanged);
        QSignalSpy snapshots(&monitor, &HealthMonitor::snapshotChanged);
        monitor.refreshNow();
        QTRY_VERIFY(monitor.isStale());
        QCOMPARE(stale.count(), 1);
        QCOMPARE(stale.constFirst().constFirst().toBool(), true);
        QCOMPARE(monitor.lastFailure(), u"the SQLite database file is missing"_qs);
        QVERIFY(monitor.lastFailureDetail().contains(path));
        QVERIFY(monitor.isConnectionFailure());
        QVERIFY(monitor.staleSince().isValid());
        QVERIFY(!monitor.lastGoodAt().isValid());
        QVERIFY(!monitor.nextRetryAt().isValid()); // paused: nothing scheduled
        QCOMPARE(monitor.currentRetryDelayMs(), 500);

        for (const int expected : {1000, 2000, 2000}) { // capped at the 2 s interval
            const int failures = monitor.consecutiveFailures();
            monitor.refreshNow();
            QTRY_COMPARE(monitor.consecutiveFailures(), failures + 1);
            QCOMPARE(monitor.currentRetryDelayMs(), expected);
        }
        QCOMPARE(stale.count(), 1); // said once, not at every failure

        OpenOptions create;
        create.allowCreate = true;
        create.validateSchema = false;
        QString error;
        {
            const auto connection = DbConnection::open(urlOf(u"sqlite:"_qs + path), create, &error);
            QVERIFY2(connection, qPrintable(error));
            QVERIFY2(Schema::create(connection->database(), &error), qPrintable(error));
        }
        monitor.refreshNow();
        QTRY_COMPARE(snapshots.count(), 1);
        QVERIFY(!monitor.isStale());
        QCOMPARE(stale.count(), 2);
        QCOMPARE(stale.constLast().constFirst().toBool(), false);
        QVERIFY(monitor.lastFailure().isEmpty());
        QCOMPARE(monitor.consecutiveFailures(), 0);
        QVERIFY(monitor.lastGoodAt().isValid());
    }

    // Running (not paused), the monitor retries by itself, the first retry half a second on.
    void retriesBySelfWhileRunning()
    {
        QTemporaryDir dir;
        HealthMonitor monitor(urlOf(u"sqlite:"_qs + dir.filePath(u"none.sqlite"_qs)));
        monitor.setInterval(60000); // the periodic tick never comes: only retries run
        const QDateTime before = QDateTime::currentDateTime();
        monitor.resume();
        QTRY_VERIFY(monitor.nextRetryAt().isValid());
        QVERIFY(before.msecsTo(monitor.nextRetryAt()) >= HealthMonitor::FirstRetryMs);
        QVERIFY(before.msecsTo(monitor.nextRetryAt()) < HealthMonitor::FirstRetryMs + 1000);
        QTRY_VERIFY_WITH_TIMEOUT(monitor.consecutiveFailures() >= 3, 5000); // 0.5 s, then 1 s
        monitor.pause();
        QVERIFY(!monitor.nextRetryAt().isValid());
    }

    void causeNeverCarriesThePassword()
    {
        // Port 1 on the loopback refuses at once.
        HealthMonitor monitor(urlOf(u"postgresql://alice:s3cr3t-pw@127.0.0.1:1/outbox"_qs));
        QSignalSpy errors(&monitor, &HealthMonitor::errorOccurred);
        monitor.refreshNow();
        QTRY_VERIFY_WITH_TIMEOUT(monitor.isStale(), 10000);
        QVERIFY2(monitor.lastFailure().contains(u"refuses connections"_qs),
            qPrintable(monitor.lastFailure()));
        QVERIFY(monitor.isConnectionFailure());
        QVERIFY(!monitor.lastFailure().contains(u"s3cr3t"_qs));
        QVERIFY(!monitor.lastFailureDetail().contains(u"s3cr3t"_qs));
        QTRY_COMPARE(errors.count(), 1);
        QVERIFY(!errors.constFirst().constFirst().toString().contains(u"s3cr3t"_qs));
    }

    // No answer at all (a server behind a dropped network): stale after one interval, while
    // the request is still out; the connect timeout then ends the attempt and a retry follows.
    void noAnswerIsStaleWithinOneInterval()
    {
        if (!QSqlDatabase::isDriverAvailable(SqlDialect::of(Engine::PostgreSql).qtDriver()))
            QSKIP("no PostgreSQL driver");
        SilentPort silent;
        QVERIFY(silent.port() > 0);
        HealthMonitor monitor(
            urlOf(u"postgresql://nobody@127.0.0.1:%1/outbox"_qs.arg(silent.port())));
        monitor.setInterval(400);
        QElapsedTimer elapsed;
        elapsed.start();
        monitor.resume();
        QTRY_VERIFY_WITH_TIMEOUT(monitor.isStale(), 2000);
        QVERIFY2(elapsed.elapsed() < 1000, qPrintable(QString::number(elapsed.elapsed())));
        QCOMPARE(monitor.consecutiveFailures(), 0); // no answer yet: still waiting
        QVERIFY(monitor.isConnectionFailure());
        QVERIFY2(
            monitor.lastFailure().contains(u"no answer"_qs), qPrintable(monitor.lastFailure()));
        QVERIFY(!monitor.nextRetryAt().isValid());

        // Bounded by the window's connect timeout, not the operating system's minutes.
        QTRY_VERIFY_WITH_TIMEOUT(
            monitor.consecutiveFailures() >= 1, (HealthWorker::WindowConnectTimeoutS + 3) * 1000);
        QVERIFY2(monitor.lastFailure().contains(u"did not answer in time"_qs),
            qPrintable(monitor.lastFailure() + u" / "_qs + monitor.lastFailureDetail()));
        QVERIFY(monitor.isStale());
        monitor.pause();
    }
};

OUTBOX_TEST_MAIN(TestHealthMonitor, QCoreApplication)
#include "tst_healthmonitor.moc"
