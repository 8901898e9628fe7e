// A database restart that changes nothing raises nothing (PostgreSQL): a window whose outbox
// went red (one alert, "NAME: 10 DEAD events") loses its connection as in a crash
// (`pg_ctl stop -m immediate`) and gets it back a few seconds later. With the same DEAD count
// there is no new alert, no "down" alert either (shorter than AlertDecider::DownGraceMs), and the
// alert bar's row is the same row with the same time; with a DEAD count changed while the window
// could not see it, one new alert says what it was before.
// RUN_SERIAL: every other test shares that server. It is always started again, also when a test
// fails midway.
#include "alertbar.h"
#include "alertdecider.h"
#include "desktopalerts.h"
#include "englishplurals.h"
#include "healthmonitor.h"
#include "healthtiles.h"
#include "mainwindow.h"
#include "outboxstore.h"
#include "parkedevents.h"
#include "testdata.h"
#include "testdatabase.h"
#include "testmain.h"
#include "testserver.h"
#include "windowalerts.h"

#include <QElapsedTimer>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>

namespace {

constexpr int IntervalMs = 1000;

// `dead` events R-<first>… parked DEAD by a permanent rejection.
bool park(const QSqlDatabase &db, int first, int dead)
{
    // The server runs with synchronous_commit off: an immediate stop would lose them otherwise.
    return parkDead(db, u"R"_qs, first, dead) && QSqlQuery(db).exec(u"CHECKPOINT"_qs);
}

} // namespace

class TestAlertRestart : public QObject
{
    Q_OBJECT

    bool m_stopped = false;
    QTemporaryDir m_settings;
    EnglishPlurals m_plurals;

private slots:
    void initTestCase()
    {
        QVERIFY(m_settings.isValid());
        QCoreApplication::setOrganizationName(u"OutboxHealthTest"_qs);
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settings.path());
        QCoreApplication::installTranslator(&m_plurals);
        const QString why = TestServer::unavailableReason();
        if (why.isEmpty())
            return;
        if (TestData::inCi())
            QFAIL(qPrintable(why));
        QSKIP(qPrintable(why));
    }

    void cleanup()
    {
        QString error;
        if (m_stopped && TestServer::start(&error))
            m_stopped = false;
        QVERIFY2(!m_stopped, qPrintable(error)); // leave the server running for every other test
    }

    void restartThatChangesNothingRaisesNothing_data()
    {
        QTest::addColumn<int>("parkedMeanwhile");
        QTest::addColumn<QString>("alert"); // after the restart; empty: none
        QTest::addRow("the same DEAD count: nothing") << 0 << QString();
        QTest::addRow("five more DEAD meanwhile: one alert")
            << 5 << u"%1: 15 DEAD events (10 DEAD events before the connection was lost)"_qs;
    }
    void restartThatChangesNothingRaisesNothing()
    {
        QFETCH(int, parkedMeanwhile);
        QFETCH(QString, alert);
        FRESH_DATABASE(database, u"postgresql"_qs);
        const auto setup = database->initialise();
        QVERIFY(setup && QSqlQuery(setup->database()).exec(u"CHECKPOINT"_qs));
        WindowOptions options;
        options.markedForSimulation = false;
        MainWindow window(database->connect(), options);
        window.monitor()->setAdaptive(false);
        window.monitor()->setInterval(IntervalMs);
        DesktopAlerts *alerts = window.windowAlerts()->alerts();
        alerts->setUseTray(false);
        QSignalSpy alerted(alerts, &DesktopAlerts::alerted);
        window.show();
        QTRY_COMPARE_WITH_TIMEOUT(
            window.tiles()->valueText(HealthTiles::Tile::Dead), u"0"_qs, 15000);
        QVERIFY(park(setup->database(), 1, 10));
        QTRY_COMPARE_WITH_TIMEOUT(alerted.size(), 1, 15000);
        const QString name = window.outboxName();
        QCOMPARE(alerted.at(0).at(0).toString(), name + u": 10 DEAD events"_qs);
        const QStringList before = window.alertBar()->texts();
        QCOMPARE(before.size(), 1);

        // The server goes away and comes back within a few seconds.
        QElapsedTimer outage;
        outage.start();
        QString error;
        m_stopped = true;
        QVERIFY2(TestServer::stop(&error), qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(window.monitor()->isStale(), 2 * IntervalMs);
        window.monitor()->pause(); // what changes meanwhile, the window cannot see
        QVERIFY2(TestServer::start(&error), qPrintable(error));
        m_stopped = false;
        if (parkedMeanwhile > 0) {
            const auto writer = database->connect();
            QVERIFY(writer && park(writer->database(), 100, parkedMeanwhile));
        }
        window.monitor()->resume();
        QTRY_VERIFY_WITH_TIMEOUT(!window.monitor()->isStale(), 5 * IntervalMs);
        const QString dead = QString::number(10 + parkedMeanwhile);
        QTRY_COMPARE(window.tiles()->valueText(HealthTiles::Tile::Dead), dead);
        QVERIFY2(outage.elapsed() < AlertDecider::DownGraceMs,
            qPrintable(QString::number(outage.elapsed())));
        qInfo("back after an outage of %lld ms", outage.elapsed());
        // Two more snapshots: an alert would have come by then.
        QSignalSpy snapshots(window.monitor(), &HealthMonitor::snapshotChanged);
        QTRY_VERIFY_WITH_TIMEOUT(snapshots.size() >= 2, 5 * IntervalMs);

        QStringList texts;
        for (const QList<QVariant> &signal : alerted)
            texts << signal.at(0).toString();
        if (alert.isEmpty()) {
            QCOMPARE(texts, QStringList {name + u": 10 DEAD events"_qs}); // no "down" either
            QCOMPARE(window.alertBar()->texts(), before); // the same row, the same time
        } else {
            QCOMPARE(texts, QStringList({name + u": 10 DEAD events"_qs, alert.arg(name)}));
            QCOMPARE(window.alertBar()->texts().size(), 1);
            QVERIFY2(window.alertBar()->texts().constFirst().startsWith(
                         u"⚠ %1: %2 DEAD events"_qs.arg(name, dead)),
                qPrintable(window.alertBar()->texts().constFirst()));
        }
    }
};

OUTBOX_TEST_MAIN(TestAlertRestart, QApplication)
#include "tst_alertrestart.moc"
