// The Teach page's change-data-capture lesson, without a window: a stalled connector leaves
// the slot inactive and its lag and retained WAL grow with every insert; resumed, it catches up
// to a lag of 0; past max_slot_wal_keep_size a checkpoint loses the slot and the events it had
// not published, and the lesson says so with their number.
#include "cdclesson.h"
#include "simulatedcdcrelay.h"
#include "testmain.h"

#include <QSignalSpy>

namespace {

using Relay = SimulatedCdcRelay;

// One simulated second: the service's inserts, then the clock.
void second(Relay &relay, qint64 *now, int inserts = 50)
{
    relay.insert(inserts);
    *now += 1000;
    relay.advance(*now);
}

} // namespace

class TestCdcLesson : public QObject
{
    Q_OBJECT

private slots:
    void aRunningConnectorKeepsNoLag()
    {
        Relay relay;
        qint64 now = 0;
        relay.advance(now);
        for (int i = 0; i < 12; ++i)
            second(relay, &now);
        QVERIFY(relay.slotActive());
        QCOMPARE(relay.lagBytes(), 0);
        QCOMPARE(relay.eventsPublished(), 600);
        QCOMPARE(relay.walStatusName(), u"reserved"_qs);
        QCOMPARE(relay.inactiveForMs(now), std::nullopt);
        QCOMPARE(relay.walLsn(), Relay::StartLsn + 600 * relay.settings().walPerInsert);
        QCOMPARE(*relay.walRateBytesPerSecond(), 50.0 * relay.settings().walPerInsert);
    }

    void aStalledConnectorsLagGrowsWithEveryInsert()
    {
        Relay relay;
        qint64 now = 0;
        relay.advance(now);
        second(relay, &now);
        relay.stallConnector(now);
        QVERIFY(!relay.slotActive());
        qint64 lag = relay.lagBytes();
        const qint64 confirmed = relay.confirmedFlushLsn();
        for (int i = 1; i <= 15; ++i) {
            second(relay, &now, i); // a growing number of inserts a second
            QVERIFY2(relay.lagBytes() > lag, qPrintable(QString::number(i)));
            QCOMPARE(relay.lagBytes() - lag, i * relay.settings().walPerInsert);
            QVERIFY(relay.retainedBytes() >= relay.lagBytes());
            QCOMPARE(relay.confirmedFlushLsn(), confirmed);
            QCOMPARE(*relay.inactiveForMs(now), i * 1000);
            lag = relay.lagBytes();
        }
        QCOMPARE(relay.eventsBehind(), 15 * 16 / 2);
        second(relay, &now, 0); // a quiet second: nothing written, nothing more behind
        QCOMPARE(relay.lagBytes(), lag);
    }

    void resumedItCatchesUp()
    {
        Relay relay;
        qint64 now = 0;
        relay.advance(now);
        relay.stallConnector(now);
        for (int i = 0; i < 25; ++i)
            second(relay, &now);
        QCOMPARE(relay.walStatusName(), u"extended"_qs); // 2.4 MiB retained: past max_wal_size
        const qint64 lagWhenResumed = relay.lagBytes();
        relay.resumeConnector(now);
        QVERIFY(relay.slotActive());
        QCOMPARE(relay.inactiveForMs(now), std::nullopt);
        second(relay, &now);
        QVERIFY(relay.lagBytes() < lagWhenResumed); // it reads faster than it is written
        for (int i = 0; i < 4 && relay.lagBytes() > 0; ++i)
            second(relay, &now);
        QCOMPARE(relay.lagBytes(), 0);
        QCOMPARE(relay.eventsPublished(), relay.eventsInserted());
        for (int i = 0; i < 5; ++i) // the next checkpoint frees what the slot retained
            second(relay, &now);
        QCOMPARE(relay.walStatusName(), u"reserved"_qs);
        QVERIFY(relay.retainedBytes() <= relay.settings().maxWalSizeBytes);
        QCOMPARE(relay.eventsLost(), 0);
    }

    void pastTheLimitTheSlotIsLost()
    {
        Relay relay;
        const qint64 limit = *relay.settings().maxSlotWalKeepBytes;
        qint64 now = 0;
        relay.advance(now);
        relay.stallConnector(now);
        while (relay.retainedBytes() <= limit && now < 120000) {
            QVERIFY(*relay.safeWalSizeBytes() >= 0);
            second(relay, &now);
            QVERIFY(relay.runwayMs().has_value()); // safe_wal_size at the WAL rate
        }
        QCOMPARE(relay.walStatusName(), u"unreserved"_qs);
        QVERIFY(*relay.safeWalSizeBytes() < 0);
        QCOMPARE(*relay.runwayMs(), 0);
        while (!relay.isLost() && now < 120000)
            second(relay, &now);
        QVERIFY(relay.isLost()); // at the next checkpoint
        QCOMPARE(now % relay.settings().checkpointEveryMs, 0);
        QCOMPARE(relay.walStatusName(), u"lost"_qs);
        QCOMPARE(relay.restartLsn(), std::nullopt);
        QCOMPARE(relay.safeWalSizeBytes(), std::nullopt);
        QCOMPARE(relay.retainedBytes(), 0);
        QVERIFY(relay.inactiveForMs(now).has_value());

        relay.resumeConnector(now); // nothing to resume from
        QVERIFY(!relay.slotActive());
        second(relay, &now);
        const qint64 behind = relay.eventsBehind();
        relay.recreateSlot(now);
        QCOMPARE(relay.eventsLost(), behind);
        QVERIFY(relay.slotActive());
        QCOMPARE(relay.lagBytes(), 0);
        QCOMPARE(relay.walStatusName(), u"reserved"_qs);
        second(relay, &now);
        QCOMPARE(relay.eventsPublished(), relay.eventsInserted() - behind);
    }

    void withoutALimitTheSlotIsNeverLost()
    {
        Relay::Settings settings;
        settings.maxSlotWalKeepBytes.reset(); // -1: PostgreSQL's default
        Relay relay(settings);
        qint64 now = 0;
        relay.advance(now);
        relay.stallConnector(now);
        for (int i = 0; i < 120; ++i)
            second(relay, &now);
        QVERIFY(!relay.isLost());
        QCOMPARE(relay.walStatusName(), u"extended"_qs);
        QCOMPARE(relay.safeWalSizeBytes(), std::nullopt);
        QCOMPARE(relay.runwayMs(), std::nullopt);
        QCOMPARE(relay.retainedBytes(), 120 * 50 * settings.walPerInsert);
    }

    void lsnsAndSizesReadAsPostgresqlShowsThem()
    {
        QCOMPARE(Relay::lsnText(Relay::StartLsn), u"0/16B3D88"_qs);
        QCOMPARE(Relay::lsnText((qint64(2) << 32) + 0xA0), u"2/A0"_qs);
        QCOMPARE(CdcLesson::bytesText(0), u"0 bytes"_qs);
        QCOMPARE(CdcLesson::bytesText(500 * 1024), u"500 KiB"_qs);
        QCOMPARE(CdcLesson::bytesText(1363148), u"1.3 MiB"_qs);
        QCOMPARE(CdcLesson::bytesText(-2 * 1024 * 1024), u"−2 MiB"_qs);
        QCOMPARE(CdcLesson::bytesText(qint64(21) * 1024 * 1024 + 300 * 1024), u"21 MiB"_qs);
    }

    // The lesson as the page drives it: Step moves its clock a second; the stall, the loss and
    // what it costs are told.
    void theLessonTellsTheStallAndTheLoss()
    {
        CdcLesson lesson;
        QSignalSpy told(&lesson, &CdcLesson::narrated);
        lesson.start();
        QCOMPARE(lesson.now(), 0);
        lesson.step();
        QCOMPARE(lesson.now(), CdcLesson::StepMs);
        QCOMPARE(lesson.relay().lagBytes(), 0);
        lesson.stallConnector();
        QVERIFY(told.last().at(0).value<QStringList>().join(u' ').contains(u"inactive"_qs));
        qint64 lag = 0;
        for (int i = 0; i < 10; ++i) {
            lesson.step();
            QVERIFY(lesson.relay().lagBytes() > lag);
            lag = lesson.relay().lagBytes();
        }
        while (!lesson.relay().isLost() && lesson.now() < 120000)
            lesson.step();
        QVERIFY(lesson.relay().isLost());
        const QString loss = told.last().at(0).value<QStringList>().join(u' ');
        QVERIFY2(loss.contains(QLocale().toString(lesson.relay().eventsBehind()) + u" events"_qs),
            qPrintable(loss));
        QVERIFY(loss.contains(u"lost"_qs));
        lesson.recreateSlot();
        lesson.step();
        QVERIFY(lesson.relay().slotActive());
        QCOMPARE(lesson.relay().lagBytes(), 0);
    }

    void playStepsOnItsOwn()
    {
        CdcLesson lesson;
        lesson.start();
        lesson.setSpeed(50);
        lesson.play();
        QVERIFY(lesson.isPlaying());
        QTRY_VERIFY(lesson.now() >= 3 * CdcLesson::StepMs);
        lesson.pause();
        QVERIFY(!lesson.isPlaying());
    }
};

OUTBOX_TEST_MAIN(TestCdcLesson, QCoreApplication)
#include "tst_cdclesson.moc"
