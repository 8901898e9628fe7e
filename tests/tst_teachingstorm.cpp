// The outage storm and the seed claims in the teaching panel, on both engines: the storm runs
// on the session's worker (Start returns before it has), is charted to its end, and the peak
// the panel shows is the one OutageStorm::run computes for the same policy: the whole herd in
// one instant under exponential, far fewer under exponential-random once the learner switches.
// A seed scenario ends with its claim and the numbers of its run.
#include "dbconnection.h"
#include "outagestorm.h"
#include "scenarioclaim.h"
#include "sqldialect.h"
#include "stormchart.h"
#include "teachingsession.h"
#include "teachpage.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QSqlQuery>

namespace {

// The peak OutageStorm::run computes for `spec` on a database of its own (seed 1, as the panel).
int referencePeak(const QString &engine, const QString &spec, QString *error)
{
    QString skip, fail;
    const auto database = TestDatabase::create(engine, &skip, &fail);
    const auto connection = database ? database->initialise() : nullptr;
    RetryPolicy policy;
    StormRun run;
    // The session the panel's worker runs its storms in (on SQLite, no sync per transaction):
    // the same rows and peak, without some 2,400 syncs on a loaded disk.
    if (connection) {
        for (const QString &statement : connection->dialect().simulationSessionStatements())
            QSqlQuery(connection->database()).exec(statement);
    }
    if (!connection || !RetryPolicy::parse(spec, &policy, error)
        || !OutageStorm::run(connection->database(), policy, 1, &run, error))
        return -1;
    return run.peakSameInstant;
}

struct Panel
{
    explicit Panel(const TestDatabase &database)
        : session(DatabaseUrl::parse(database.url(), nullptr))
        , panel(&session)
    {
        panel.setRowCount(0, false); // an empty outbox: Start does not ask
        panel.show();
        picker = panel.findChild<QComboBox *>(u"scenarioPicker"_qs);
        stormPolicy = panel.findChild<QComboBox *>(u"stormPolicy"_qs);
        start = panel.findChild<QPushButton *>(u"startButton"_qs);
        session.setSpeed(50); // the learner's fastest pace
    }
    bool ended() const { return session.storm() && session.now() >= session.storm()->finishedAt(); }

    TeachingSession session;
    TeachPage panel;
    QComboBox *picker = nullptr;
    QComboBox *stormPolicy = nullptr;
    QPushButton *start = nullptr;
};

} // namespace

class TestTeachingStorm : public QObject
{
    Q_OBJECT

private slots:
    void theHerdFormsAndJitterDissolvesIt_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void theHerdFormsAndJitterDissolvesIt()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        QVERIFY(database->initialise());
        QString error;
        const QString exponential = OutageStorm::policies().at(0);
        const QString random = OutageStorm::policies().at(1);
        const int herd = referencePeak(engine, exponential, &error);
        const int spread = referencePeak(engine, random, &error);
        QVERIFY2(herd > 0 && spread > 0, qPrintable(error));

        Panel p(*database);
        // Told at the session's own limit, twice the learner's fastest pace: the same storm and
        // peaks, each told in half the time (the clock ticks every 2 ms instead of 4 ms).
        p.session.setSpeed(100);
        p.picker->setCurrentIndex(p.picker->findData(u"outage-storm"_qs));
        p.stormPolicy->setCurrentIndex(p.stormPolicy->findText(exponential));
        p.start->click();
        QCOMPARE(p.session.mode(), TeachingSession::Mode::Storm);
        QVERIFY(!p.session.storm()); // still on the worker: the window went on
        StormChart *chart = p.panel.stormChart();
        QVERIFY(chart->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(p.ended(), 30000);
        QTRY_VERIFY(!p.session.isPlaying());
        QCOMPARE(chart->peakShown(), herd);
        QCOMPARE(herd, OutageStorm::Events); // every event in one instant
        QVERIFY2(chart->peakText().startsWith(
                     u"Peak: %1 retries in one instant under %2; %3 under %4"_qs.arg(herd)
                         .arg(exponential)
                         .arg(spread)
                         .arg(random)),
            qPrintable(chart->peakText()));
        QTRY_VERIFY(p.panel.narrationText().contains(
            u"t=100  Attempt 2: 200 events retry in one and the same instant"_qs));
        QVERIFY(p.panel.narrationText().contains(u"t=2000  The outage is over"_qs));

        // The learner switches the policy: the storm runs again under it.
        p.stormPolicy->setCurrentIndex(p.stormPolicy->findText(random));
        emit p.stormPolicy->activated(p.stormPolicy->currentIndex());
        QTRY_VERIFY_WITH_TIMEOUT(p.ended() && p.session.storm()->policy == random, 30000);
        QCOMPARE(chart->peakShown(), spread);
        QVERIFY2(spread < herd / 4, qPrintable(QString::number(spread)));
        QTRY_VERIFY(p.panel.narrationText().contains(
            u"Peak: %1 retries in one instant under %2, against %3 under %4."_qs.arg(spread)
                .arg(random)
                .arg(herd)
                .arg(exponential)));
    }

    void aMalformedPolicyChangesNothing()
    {
        FRESH_DATABASE(database, u"sqlite"_qs);
        QVERIFY(database->initialise());
        Panel p(*database);
        p.picker->setCurrentIndex(p.picker->findData(u"outage-storm"_qs));
        p.stormPolicy->setEditText(u"exponential:initial=-5"_qs);
        p.start->click();
        QCOMPARE(p.session.mode(), TeachingSession::Mode::Idle);
        QVERIFY(!p.panel.stormChart()->isVisible());
    }

    void aSeedEndsWithItsClaim_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void aSeedEndsWithItsClaim()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        QVERIFY(database->initialise());
        Panel p(*database);
        p.picker->setCurrentIndex(p.picker->findData(u"lost-ack"_qs));
        p.start->click();
        QVERIFY(p.panel.claimText().isEmpty());
        p.session.play();
        QTRY_VERIFY_WITH_TIMEOUT(!p.panel.claimText().isEmpty(), 20000);
        QCOMPARE(p.panel.claimText(),
            u"Claim shown: EVENT-42 was delivered twice by the transport but applied once: "
            "RESPONSE_LOST then DUPLICATE; stock 10 → 8, one ledger row."_qs);
        QTRY_VERIFY(p.panel.narrationText().contains(u"Claim: EVENT-42 was delivered twice"_qs));
    }
};

OUTBOX_TEST_MAIN(TestTeachingStorm, QApplication)
#include "tst_teachingstorm.moc"
