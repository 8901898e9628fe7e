// Signals in step, as an operator sees them: the DEAD tile's "(3 on hold)" is gone within one
// refresh once those events are replayed elsewhere (the diagnosis budget of a large outbox
// notwithstanding); starting a teaching scenario empties the tables without a "healthy again",
// while a real recovery still says it; one bulk replay is one Audit row ("Replayed 5 events —
// alice: fix deployed — …") that expands to its five events, while `outboxctl export --audit`
// keeps one line per event.
#include "alertbar.h"
#include "auditjobmodel.h"
#include "auditpage.h"
#include "desktopalerts.h"
#include "diagnosismonitor.h"
#include "englishplurals.h"
#include "healthmonitor.h"
#include "healthtiles.h"
#include "mainwindow.h"
#include "operatornotes.h"
#include "outboxctlrun.h"
#include "parkedevents.h"
#include "replayer.h"
#include "replaylogmodel.h"
#include "teachingsession.h"
#include "testdatabase.h"
#include "testmain.h"
#include "windowalerts.h"

#include <QAbstractItemModelTester>
#include <QElapsedTimer>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTreeView>

namespace {

constexpr int IntervalMs = 1000;

// P-0001 … P-<count>, as one operator's one job.
bool replay(const QSqlDatabase &db, int first, int count, const QString &who, const QString &why)
{
    ReplayRequest request;
    for (int i = first; i < first + count; ++i)
        request.eventIds << QStringLiteral("P-%1").arg(i, 4, 10, QLatin1Char('0'));
    request.operatorName = who;
    request.reason = why;
    request.now = QDateTime::currentMSecsSinceEpoch();
    const ReplayResult result = Replayer(db).replay(request);
    return result.error.isEmpty() && result.replayed.size() == count;
}

void refreshEverySecond(MainWindow &window)
{
    window.monitor()->setAdaptive(false); // the interval the test assumes, whatever it costs
    window.monitor()->setInterval(IntervalMs);
}

} // namespace

class TestSignals : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_settings.isValid());
        QCoreApplication::setOrganizationName(u"OutboxHealthTest"_qs);
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settings.path());
        QCoreApplication::installTranslator(&m_plurals); // "5 events", as the program says
    }
    void init() { QSettings().clear(); }

    // Three of five DEAD events on hold; another operator replays those three. The tile drops
    // "(3 on hold)" at the next refresh, although the diagnosis is budgeted as on an outbox where
    // it costs seconds (not again for ten minutes after a snapshot).
    void onHoldFollowsAReplayWithinOneRefresh_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void onHoldFollowsAReplayWithinOneRefresh()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        QVERIFY(setup && parkEvents(setup->database(), 5));
        const QSqlDatabase db = setup->database();
        OperatorNotes notes(db);
        for (const QString &id : {u"P-0001"_qs, u"P-0002"_qs, u"P-0003"_qs}) {
            QString error;
            QVERIFY2(notes.add({{id, {}}, u"alice"_qs, u"until the fix deploys"_qs,
                                   OperatorNotes::OnHold, 1000},
                         &error),
                qPrintable(error));
        }
        MainWindow window(database->connect(), {});
        refreshEverySecond(window);
        window.diagnosis()->setMinimumSpacingMs(10 * 60 * 1000);
        window.show();
        QTRY_COMPARE_WITH_TIMEOUT(window.tiles()->deadText(), u"5 DEAD (3 on hold)"_qs, 15000);

        QElapsedTimer since;
        since.start();
        QVERIFY(replay(db, 1, 3, u"bob"_qs, u"fix deployed"_qs)); // as outboxctl replay would
        // One interval for the next snapshot, one more for the diagnosis it sets off.
        QTRY_COMPARE_WITH_TIMEOUT(window.tiles()->deadText(), u"2 DEAD"_qs, 2 * IntervalMs);
        qInfo("the tile followed the replay after %lld ms", since.elapsed());
    }

    // The window saw the outbox go red and alerted; then a teaching scenario starts (its tables
    // emptied, nothing DEAD), or the DEAD events are delivered for real. Only the second is a
    // recovery.
    void scenarioStartIsNotARecovery_data()
    {
        QTest::addColumn<bool>("scenario");
        QTest::addRow("a scenario started: no healthy again") << true;
        QTest::addRow("the DEAD events delivered: healthy again") << false;
    }
    void scenarioStartIsNotARecovery()
    {
        QFETCH(bool, scenario);
        FRESH_DATABASE(database, u"sqlite"_qs);
        const auto setup = database->initialise(); // marked for simulation: it can teach
        QVERIFY(setup);
        MainWindow window(database->connect(), {});
        QVERIFY(window.session());
        refreshEverySecond(window);
        DesktopAlerts *alerts = window.windowAlerts()->alerts();
        alerts->setUseTray(false);
        QSignalSpy alerted(alerts, &DesktopAlerts::alerted);
        window.show();
        QTRY_COMPARE_WITH_TIMEOUT(window.tiles()->deadText(), u"0 DEAD"_qs, 15000);
        QVERIFY(parkEvents(setup->database(), 10));
        QTRY_COMPARE_WITH_TIMEOUT(alerted.size(), 1, 15000);
        const QString name = window.outboxName();
        QCOMPARE(alerted.at(0).at(0).toString(), name + u": 10 DEAD events"_qs);

        if (scenario) {
            QString error;
            QVERIFY2(
                window.session()->startScenario(u"retry-schedule"_qs, &error), qPrintable(error));
        } else {
            QSqlQuery deliver(setup->database());
            QVERIFY(deliver.exec(u"UPDATE delivery_outbox SET status = 'DELIVERED',"
                                 " delivered_at = created_at WHERE status = 'DEAD'"_qs));
        }
        QTRY_COMPARE_WITH_TIMEOUT(window.tiles()->deadText(), u"0 DEAD"_qs, 15000);
        // Two more snapshots of the healthy outbox: any alert would have come by then.
        QSignalSpy snapshots(window.monitor(), &HealthMonitor::snapshotChanged);
        QTRY_VERIFY_WITH_TIMEOUT(snapshots.size() >= 2, 5 * IntervalMs);
        const QStringList texts = window.alertBar()->texts();
        if (scenario) {
            QCOMPARE(alerted.size(), 1);
            QVERIFY2(texts.isEmpty(), qPrintable(texts.join(u" | "_qs))); // its old row gone too
        } else {
            QCOMPARE(alerted.size(), 2);
            QVERIFY2(alerted.at(1).at(0).toString().startsWith(name + u": healthy again"_qs),
                qPrintable(alerted.at(1).at(0).toString()));
            QVERIFY2(texts.value(0).startsWith(u"✓ "_qs + name + u": healthy again"_qs),
                qPrintable(texts.join(u" | "_qs)));
        }
    }

    // One bulk replay by alice, then one event by bob: two Audit rows, newest first, alice's
    // expanding to her five events (still expanded after the log is read again); export --audit
    // still has one line per event.
    void bulkReplayIsOneAuditEntry_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void bulkReplayIsOneAuditEntry()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        QVERIFY(setup && parkEvents(setup->database(), 7));
        const QSqlDatabase db = setup->database();
        QVERIFY(replay(db, 1, 5, u"alice"_qs, u"fix deployed"_qs));
        QVERIFY(replay(db, 6, 1, u"bob"_qs, u"one more try"_qs));
        MainWindow window(database->connect(), {});
        refreshEverySecond(window);
        window.show();
        window.showTab(u"audit"_qs);
        auto *page = window.findChild<AuditPage *>();
        QVERIFY(page && page->jobs());
        AuditJobModel *jobs = page->jobs();
        QAbstractItemModelTester tester(
            jobs, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTRY_COMPARE_WITH_TIMEOUT(window.replayLog()->rowCount(), 6, 15000);
        QCOMPARE(jobs->rowCount(), 2);
        const QString bobWhen = jobs->index(0, 0, jobs->index(0, 0)).data().toString();
        QCOMPARE(jobs->summary(0), u"Replayed P-0006 — bob: one more try — "_qs + bobWhen);
        const QModelIndex alice = jobs->index(1, 0);
        const QString aliceWhen = jobs->index(0, 0, alice).data().toString();
        QCOMPARE(
            alice.data().toString(), u"Replayed 5 events — alice: fix deployed — "_qs + aliceWhen);
        QCOMPARE(jobs->rowCount(alice), 5);
        QStringList events;
        for (int row = 0; row < 5; ++row) {
            const QModelIndex event = jobs->index(row, ReplayLogModel::EventColumn, alice);
            events << event.data().toString();
            QCOMPARE(jobs->index(row, ReplayLogModel::OperatorColumn, alice).data().toString(),
                u"alice"_qs);
        }
        events.sort();
        QCOMPARE(events,
            QStringList({u"P-0001"_qs, u"P-0002"_qs, u"P-0003"_qs, u"P-0004"_qs, u"P-0005"_qs}));
        QVERIFY(page->view()->isFirstColumnSpanned(1, {})); // the summary across the row
        QVERIFY(page->view()->isExpanded(jobs->index(0, 0))); // the newest open at first
        QVERIFY(!page->view()->isExpanded(alice));
        page->view()->expand(alice);

        // Another replay: the log is read again, alice's job stays open.
        QVERIFY(replay(db, 7, 1, u"carol"_qs, u"last one"_qs));
        QTRY_COMPARE_WITH_TIMEOUT(jobs->rowCount(), 3, 15000);
        QVERIFY(jobs->summary(0).startsWith(u"Replayed P-0007 — carol: last one — "_qs));
        QVERIFY(jobs->summary(2).startsWith(u"Replayed 5 events — alice"_qs));
        QVERIFY(page->view()->isExpanded(jobs->index(2, 0)));
        QVERIFY(page->view()->isExpanded(jobs->index(1, 0)));
        QVERIFY(!page->view()->isExpanded(jobs->index(0, 0))); // only the first read opens one

        // The CLI's export is per event, as before: seven replay lines, five of them alice's.
        if (engine == u"sqlite"_qs) {
            const Run run = outboxctl({u"export"_qs, u"--db"_qs, database->url(), u"--audit"_qs});
            QCOMPARE(run.exitCode, 0);
            QCOMPARE(run.out.filter(u",replay,"_qs).size(), 7);
            QCOMPARE(run.out.filter(u",alice,fix deployed,"_qs).size(), 5);
        }
    }

private:
    QTemporaryDir m_settings;
    EnglishPlurals m_plurals;
};

OUTBOX_TEST_MAIN(TestSignals, QApplication)
#include "tst_signals.moc"
