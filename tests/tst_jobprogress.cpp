// Long operator jobs as an operator sees them in the status bar, on both engines: a bulk replay
// and a bulk resolve report how far they got (increasing, bounded in number, ending at the
// total), Cancel stops them between two events with what was done committed and reported
// (the count said equals the rows changed, the rest stay DEAD, nothing is done twice), and the
// connection and health text stays in view while and after they run; the rate and the time
// left read as expected.
#include "jobstatus.h"
#include "mainwindow.h"
#include "operatoractions.h"
#include "operatorjob.h"
#include "parkedevents.h"
#include "resolveactions.h"
#include "testdatabase.h"
#include "testmain.h"
#include "testwindow.h"

#include <QElapsedTimer>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSignalSpy>
#include <QStatusBar>

namespace {

constexpr int Dead = 500;

qint64 count(const QSqlDatabase &db, const QString &sql)
{
    return scalar(db, sql).toLongLong();
}

qint64 statusCount(const QSqlDatabase &db, const QString &status)
{
    return count(db, u"SELECT COUNT(*) FROM delivery_outbox WHERE status = '%1'"_qs.arg(status));
}

// Events with more than one row in `log`: an event done twice.
qint64 doneTwice(const QSqlDatabase &db, const QString &log)
{
    return count(db,
        u"SELECT COUNT(*) FROM (SELECT event_id FROM %1 GROUP BY event_id HAVING COUNT(*) > 1) t"_qs
            .arg(log));
}

QStringList parkedIds()
{
    QStringList ids;
    for (int i = 1; i <= Dead; ++i)
        ids << QStringLiteral("P-%1").arg(i, 4, 10, QLatin1Char('0'));
    return ids;
}

// What the window shows while a job runs, read from the first progress signal's slot.
struct Seen
{
    qint64 taken = -1;
    qint64 total = -1;
    bool statusVisible = false;
    bool connectionVisible = false;
    QString message; // QStatusBar's temporary message, which would hide the connection
};

Seen look(MainWindow &window, JobStatus *status, qint64 taken, qint64 total)
{
    return {taken, total, status->isVisible(),
        window.findChild<QLabel *>(u"connectionLabel"_qs)->isVisible(),
        window.statusBar()->currentMessage()};
}

// Progress as it reaches the GUI thread (queued): each figure, and whether the connection was
// in view at the time.
struct Progress
{
    QList<qint64> taken;
    QList<qint64> totals;
    bool connectionAlwaysVisible = true;
};

} // namespace

class TestJobProgress : public QObject
{
    Q_OBJECT

private slots:
    void bulkReplayShowsProgressAndCancels_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void bulkReplayShowsProgressAndCancels()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        {
            const auto setup = database->initialise();
            QVERIFY(setup && parkEvents(setup->database(), Dead));
        }
        MainWindow window(database->connect(), simulationOff());
        window.show();
        OperatorActions *actions = window.operatorActions();
        JobStatus *status = window.statusBar()->findChild<JobStatus *>(u"replayStatus"_qs);
        QVERIFY(status);
        QVERIFY(!status->isVisible()); // nothing to say before a job
        EventFilter dead;
        dead.state = EventFilter::State::Dead;
        ReplayRequest request;
        request.operatorName = u"erin"_qs;
        request.reason = u"consumer fixed"_qs;

        // Cancel clicked on the first figure: the replay waits for the click (a blocking
        // connection), so it stops right after that figure however fast the engine is.
        Seen seen;
        auto cancelOnFirst = connect(
            actions, &OperatorActions::replayProgressed, this,
            [&](qint64 taken, qint64 total) {
                if (seen.taken >= 0)
                    return;
                seen = look(window, status, taken, total);
                status->cancelButton()->click();
            },
            Qt::BlockingQueuedConnection);
        QSignalSpy finished(actions, &OperatorActions::replayFinished);
        actions->startReplay(request, dead);
        QVERIFY(finished.wait(60000));
        disconnect(cancelOnFirst);
        const auto result = finished.at(0).at(0).value<ReplayResult>();
        QVERIFY(result.cancelled);
        QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
        QCOMPARE(seen.total, Dead);
        QVERIFY(seen.statusVisible);
        QVERIFY(seen.connectionVisible);
        QCOMPARE(seen.message, QString());
        const qint64 replayed = result.replayed.size();
        QCOMPARE(replayed, seen.taken); // stopped between that event and the next
        QVERIFY(replayed < Dead);
        QCOMPARE(result.total, Dead);
        QCOMPARE(status->text(), u"Replayed %1 of 500; cancelled"_qs.arg(replayed));
        QVERIFY(status->isVisible());
        QVERIFY(!status->cancelButton()->isVisible());
        QVERIFY(window.findChild<QLabel *>(u"connectionLabel"_qs)->isVisible());
        QCOMPARE(window.statusBar()->currentMessage(), QString());
        {
            const auto check = database->connect();
            const QSqlDatabase db = check->database();
            QCOMPARE(statusCount(db, u"PENDING"_qs), replayed); // the count said is the truth
            QCOMPARE(count(db, u"SELECT COUNT(*) FROM replay_log"_qs), replayed);
            QCOMPARE(statusCount(db, u"DEAD"_qs), Dead - replayed); // the rest untouched
        }

        // The rest, to the end: figures that only grow, end at the total, and come at most
        // every ProgressIntervalMs (plus the first and the last), not once per event.
        Progress progress;
        connect(actions, &OperatorActions::replayProgressed, this, [&](qint64 taken, qint64 total) {
            progress.taken << taken;
            progress.totals << total;
            progress.connectionAlwaysVisible = progress.connectionAlwaysVisible
                && window.findChild<QLabel *>(u"connectionLabel"_qs)->isVisible();
        });
        finished.clear();
        QElapsedTimer clock;
        clock.start();
        actions->startReplay(request, dead);
        QVERIFY(finished.wait(60000));
        const qint64 elapsed = clock.elapsed();
        qInfo("cancelled after %lld of %d; the other %lld in %lld ms with %lld figures", replayed,
            Dead, qint64(Dead - replayed), elapsed, qint64(progress.taken.size()));
        const auto rest = finished.at(0).at(0).value<ReplayResult>();
        QVERIFY2(rest.error.isEmpty(), qPrintable(rest.error));
        QVERIFY(!rest.cancelled);
        QCOMPARE(rest.replayed.size(), Dead - replayed);
        QVERIFY(!progress.taken.isEmpty());
        QCOMPARE(progress.taken.constLast(), Dead - replayed);
        for (qsizetype i = 1; i < progress.taken.size(); ++i)
            QVERIFY(progress.taken.at(i) > progress.taken.at(i - 1));
        QCOMPARE(progress.totals, QList<qint64>(progress.totals.size(), Dead - replayed));
        QVERIFY2(progress.taken.size() <= 2 + elapsed / OperatorJob::ProgressIntervalMs,
            qPrintable(u"%1 figures in %2 ms"_qs.arg(progress.taken.size()).arg(elapsed)));
        QVERIFY(progress.connectionAlwaysVisible);
        const QString total = QLocale().toString(Dead - replayed);
        QCOMPARE(status->text(), u"Replayed %1 of %1"_qs.arg(total));
        {
            const auto check = database->connect();
            const QSqlDatabase db = check->database();
            QCOMPARE(statusCount(db, u"DEAD"_qs), 0);
            QCOMPARE(count(db, u"SELECT COUNT(*) FROM replay_log"_qs), Dead);
            QCOMPARE(doneTwice(db, u"replay_log"_qs), 0); // each event replayed once
        }
    }

    void bulkResolveShowsProgressAndCancels_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void bulkResolveShowsProgressAndCancels()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        {
            const auto setup = database->initialise();
            QVERIFY(setup && parkEvents(setup->database(), Dead));
        }
        MainWindow window(database->connect(), simulationOff());
        window.show();
        ResolveActions *actions = window.resolveActions();
        JobStatus *status = window.statusBar()->findChild<JobStatus *>(u"resolveStatus"_qs);
        QVERIFY(status);
        ResolveRequest request;
        request.eventIds = parkedIds();
        request.operatorName = u"frank"_qs;
        request.reason = u"orders cancelled upstream"_qs;

        Seen seen;
        auto cancelOnFirst = connect(
            actions, &ResolveActions::resolveProgressed, this,
            [&](qint64 taken, qint64 total) {
                if (seen.taken >= 0)
                    return;
                seen = look(window, status, taken, total);
                status->cancelButton()->click();
            },
            Qt::BlockingQueuedConnection);
        QSignalSpy finished(actions, &ResolveActions::resolveFinished);
        actions->startResolve(request);
        QVERIFY(finished.wait(60000));
        disconnect(cancelOnFirst);
        const auto result = finished.at(0).at(0).value<ResolveResult>();
        QVERIFY(result.cancelled);
        QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
        QCOMPARE(seen.total, Dead);
        QVERIFY(seen.statusVisible);
        QVERIFY(seen.connectionVisible);
        QCOMPARE(seen.message, QString());
        const qint64 resolved = result.done.size();
        QCOMPARE(resolved, seen.taken);
        QVERIFY(resolved < Dead);
        QCOMPARE(status->text(), u"Resolved %1 of 500; cancelled"_qs.arg(resolved));
        QVERIFY(window.findChild<QLabel *>(u"connectionLabel"_qs)->isVisible());
        {
            const auto check = database->connect();
            const QSqlDatabase db = check->database();
            QCOMPARE(statusCount(db, u"RESOLVED"_qs), resolved);
            QCOMPARE(count(db, u"SELECT COUNT(*) FROM resolve_log"_qs), resolved);
            QCOMPARE(statusCount(db, u"DEAD"_qs), Dead - resolved);
        }

        // The same 500 again: the ones already resolved are skipped, not resolved twice.
        finished.clear();
        actions->startResolve(request);
        QVERIFY(finished.wait(60000));
        const auto rest = finished.at(0).at(0).value<ResolveResult>();
        QVERIFY2(rest.error.isEmpty(), qPrintable(rest.error));
        QCOMPARE(rest.done.size(), Dead - resolved);
        QCOMPARE(rest.skipped.size(), resolved);
        QCOMPARE(status->text(),
            u"Resolved %1 of 500 (%2 skipped)"_qs.arg(Dead - resolved).arg(resolved));
        const auto check = database->connect();
        const QSqlDatabase db = check->database();
        QCOMPARE(statusCount(db, u"DEAD"_qs), 0);
        QCOMPARE(count(db, u"SELECT COUNT(*) FROM resolve_log"_qs), Dead);
        QCOMPARE(doneTwice(db, u"resolve_log"_qs), 0);
    }

    void rateAndTimeLeft_data()
    {
        QTest::addColumn<qint64>("done");
        QTest::addColumn<qint64>("total");
        QTest::addColumn<qint64>("elapsedMs");
        QTest::addColumn<QString>("text");
        QTest::addRow("too early to tell")
            << qint64(20) << qint64(1762) << qint64(100) << QString();
        QTest::addRow("nothing done yet") << qint64(0) << qint64(1762) << qint64(5000) << QString();
        QTest::addRow("seconds left")
            << qint64(340) << qint64(1762) << qint64(1619) << u" · 210/s · about 7 s left"_qs;
        QTest::addRow("minutes left") << qint64(1000) << qint64(200000) << qint64(10000)
                                      << u" · 100/s · about 34 min left"_qs;
        QTest::addRow("hours left") << qint64(10) << qint64(100000) << qint64(10000)
                                    << u" · 1/s · about 27 h 46 min left"_qs;
        QTest::addRow("total unknown (an export)")
            << qint64(40000) << qint64(0) << qint64(2000) << u" · 20,000/s"_qs;
        QTest::addRow("all done") << qint64(1762) << qint64(1762) << qint64(8000) << u" · 220/s"_qs;
    }
    void rateAndTimeLeft()
    {
        QFETCH(qint64, done);
        QFETCH(qint64, total);
        QFETCH(qint64, elapsedMs);
        QFETCH(QString, text);
        QCOMPARE(JobStatus::rateText(done, total, elapsedMs), text);
    }
};

OUTBOX_TEST_MAIN(TestJobProgress, QApplication)
#include "tst_jobprogress.moc"
