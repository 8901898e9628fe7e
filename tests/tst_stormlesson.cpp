// The outage storm as the teaching panel tells it, on both engines: the attempts read back from
// delivery_attempt after OutageStorm::run give the very numbers the run computed (retries per
// bucket, peak in one instant, delivered, last instant) for every policy kind it is shown with,
// and the narration tells the herd under exponential.
#include "outagestorm.h"
#include "stormlesson.h"
#include "testdatabase.h"
#include "testmain.h"

class TestStormLesson : public QObject
{
    Q_OBJECT

private slots:
    void theLessonHasTheRunsNumbers_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<QString>("policy");
        QStringList policies = OutageStorm::policies();
        policies << u"full-jitter:base=100,max=30000"_qs << u"fixed:500"_qs;
        for (const char *engine : {"sqlite", "postgresql", "mysql"}) {
            for (const QString &policy : std::as_const(policies))
                QTest::addRow("%s: %s", engine, qPrintable(policy))
                    << QString::fromLatin1(engine) << policy;
        }
    }
    void theLessonHasTheRunsNumbers()
    {
        QFETCH(QString, engine);
        QFETCH(QString, policy);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        RetryPolicy retry;
        QVERIFY(RetryPolicy::parse(policy, &retry, nullptr));
        StormRun run;
        QString error;
        QVERIFY2(
            OutageStorm::run(connection->database(), retry, 1, &run, &error), qPrintable(error));
        StormLesson lesson;
        QVERIFY2(StormLesson::read(connection->database(), &lesson, &error), qPrintable(error));

        QCOMPARE(lesson.events(), OutageStorm::Events);
        QCOMPARE(lesson.retriesPerBucket(OutageStorm::BucketWidth), run.retriesPerBucket);
        QCOMPARE(lesson.peakRetriesSameInstant(), run.peakSameInstant);
        QCOMPARE(lesson.delivered(), run.delivered);
        QCOMPARE(lesson.dead(), run.dead);
        QCOMPARE(lesson.finishedAt(), run.finishedAt);
    }

    void theNarrationTellsTheHerd()
    {
        FRESH_DATABASE(database, u"sqlite"_qs);
        const auto connection = database->initialise();
        QVERIFY(connection);
        RetryPolicy exponential, random;
        QVERIFY(RetryPolicy::parse(OutageStorm::policies().at(0), &exponential, nullptr));
        QVERIFY(RetryPolicy::parse(OutageStorm::policies().at(1), &random, nullptr));
        StormRun run;
        QString error;
        QVERIFY(OutageStorm::run(connection->database(), exponential, 1, &run, &error));
        StormLesson lesson;
        QVERIFY(StormLesson::read(connection->database(), &lesson, &error));
        lesson.policy = exponential.spec();
        lesson.comparisonPolicy = random.spec();
        lesson.comparisonPeak = 7;
        lesson.outageUntil = OutageStorm::OutageUntil;

        QCOMPARE(lesson.narrationBetween(-1, 0),
            QStringList {u"t=0  The transport goes down until t=2000. All 200 events are "
                         "attempted at once and all fail; each is given a due time for its "
                         "retry."_qs});
        QCOMPARE(lesson.narrationBetween(0, 100),
            QStringList {u"t=100  Attempt 2: 200 events retry in one and the same instant, a "
                         "thundering herd; all fail, the transport is still down."_qs});
        QCOMPARE(lesson.narrationBetween(100, 1500).size(), 3); // attempts 3, 4 and 5
        const QStringList end = lesson.narrationBetween(1500, 3100);
        QCOMPARE(end.size(), 3);
        QCOMPARE(end.at(0), u"t=2000  The outage is over: the transport answers again."_qs);
        QCOMPARE(end.at(1),
            u"t=3100  Attempt 6: 200 events retry in one and the same instant, a thundering "
            "herd; all are delivered."_qs);
        QCOMPARE(end.at(2),
            u"Peak: 200 retries in one instant under "_qs + exponential.spec()
                + u", against 7 under "_qs + random.spec()
                + u". 200 of 200 events delivered by t=3100, 0 DEAD."_qs);
    }
};

OUTBOX_TEST_MAIN(TestStormLesson, QCoreApplication)
#include "tst_stormlesson.moc"
