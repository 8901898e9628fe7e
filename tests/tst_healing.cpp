// The window heals by itself (PostgreSQL): with a window open on the suite's own server, the
// server is stopped as in a crash (`pg_ctl stop -m immediate`). Within one refresh interval
// the banner names the cause and counts down to the next retry, and the tiles are greyed
// "stale since"; a replay attempted meanwhile fails with a plain message and changes nothing.
// Once the server is started again, within two refresh intervals the banner is gone, the
// tiles are current and show a row changed after the restart, the table lists it, and a replay
// works again. The banner, the status bar and the desktop alert name the outage in one
// sentence; a window that never had figures says so; the start-up window of an unreachable
// server retries by itself (and on Retry) and opens the window once the server is back.
// RUN_SERIAL: every other test shares that server. It is always started again, also when a
// test fails midway.
#include "alertbar.h"
#include "alertdecider.h"
#include "dashboardapp.h"
#include "desktopalerts.h"
#include "eventlistmodel.h"
#include "healthmonitor.h"
#include "healthtiles.h"
#include "mainwindow.h"
#include "operatoractions.h"
#include "outboxstore.h"
#include "parkedevents.h"
#include "stalebanner.h"
#include "startwindow.h"
#include "testdata.h"
#include "testdatabase.h"
#include "testmain.h"
#include "testserver.h"
#include "windowalerts.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>

namespace {

constexpr int IntervalMs = 1000;

// The suite's server runs with synchronous_commit off: an immediate stop would lose the last
// commits of the setup (the schema included) before the WAL writer flushed them.
bool flushed(const QSqlDatabase &db)
{
    return QSqlQuery(db).exec(u"CHECKPOINT"_qs);
}

QString deadTile(const MainWindow &window)
{
    return window.tiles()->valueText(HealthTiles::Tile::Dead);
}

} // namespace

class TestHealing : public QObject
{
    Q_OBJECT

    bool m_stopped = false;
    QTemporaryDir m_settings; // the start-up window remembers the database it opened

    bool stopServer()
    {
        QString error;
        m_stopped = true;
        const bool ok = TestServer::stop(&error);
        if (!ok)
            qWarning("%s", qPrintable(error));
        return ok;
    }
    bool startServer()
    {
        QString error;
        const bool ok = TestServer::start(&error);
        if (ok)
            m_stopped = false;
        else
            qWarning("%s", qPrintable(error));
        return ok;
    }

private slots:
    void initTestCase()
    {
        QVERIFY(m_settings.isValid());
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(u"OutboxHealthTest"_qs);
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settings.path());
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_settings.path());
        const QString why = TestServer::unavailableReason();
        if (why.isEmpty())
            return;
        if (TestData::inCi())
            QFAIL(qPrintable(why));
        QSKIP(qPrintable(why));
    }

    void cleanup()
    {
        if (m_stopped)
            QVERIFY(startServer()); // leave the server running for every other test
    }

    void windowMarksStaleAndHeals()
    {
        FRESH_DATABASE(database, u"postgresql"_qs);
        {
            const auto setup = database->initialise();
            QVERIFY(
                setup && parkDead(setup->database(), u"H"_qs, 0, 2) && flushed(setup->database()));
        }
        WindowOptions options;
        options.readOnly = true;
        MainWindow window(database->connect(), options);
        window.monitor()->setAdaptive(false); // the interval the test assumes, whatever it costs
        window.monitor()->setInterval(IntervalMs);
        // The alerts' clock skips the down grace period once the outage is seen, instead of the
        // test waiting it out (15 s of real time).
        qint64 skippedMs = 0;
        QElapsedTimer steady;
        steady.start();
        window.windowAlerts()->alerts()->setClock([&] { return steady.elapsed() + skippedMs; });
        window.show();
        QTRY_COMPARE(deadTile(window), u"2"_qs);
        auto *banner = window.findChild<StaleBanner *>(u"staleBanner"_qs);
        auto *refresh = window.findChild<QLabel *>(u"refreshLabel"_qs);
        QVERIFY(banner && refresh);
        QVERIFY(!banner->isVisible());
        QVERIFY(!window.tiles()->isStale());

        auto *connection = window.findChild<QLabel *>(u"connectionLabel"_qs);
        QVERIFY(connection);
        QVERIFY2(connection->text().startsWith(u"Connected: "_qs), qPrintable(connection->text()));

        QVERIFY(stopServer());
        QElapsedTimer outage;
        outage.start();
        QTRY_VERIFY_WITH_TIMEOUT(banner->isVisible(), IntervalMs);
        // Within one interval; QTRY's last poll may land a poll step (50 ms) or two after its
        // timeout on a loaded machine (1,020 ms seen once).
        QVERIFY2(
            outage.elapsed() <= IntervalMs + 100, qPrintable(QString::number(outage.elapsed())));
        QVERIFY2(banner->text().startsWith(u"Cannot reach the database: "_qs),
            qPrintable(banner->text()));
        QVERIFY2(window.monitor()->lastFailure().contains(u"server"_qs),
            qPrintable(window.monitor()->lastFailure()));
        QTRY_VERIFY2(banner->text().contains(u"Retrying in "_qs), qPrintable(banner->text()));
        QVERIFY(window.tiles()->isStale());
        QVERIFY2(window.tiles()->hintText(HealthTiles::Tile::Dead).startsWith(u"stale since "_qs),
            qPrintable(window.tiles()->hintText(HealthTiles::Tile::Dead)));
        QCOMPARE(deadTile(window), u"2"_qs); // the last figures, greyed, not blanked
        QVERIFY2(refresh->text().startsWith(u"Stale since "_qs), qPrintable(refresh->text()));
        QVERIFY(!refresh->text().contains(QChar(u'\n')));
        // One outage, one sentence: the banner, the status bar and the desktop alert name it
        // alike (the driver's words behind Details), and the alert follows the cause of now.
        const auto sentence = [&window] { return window.monitor()->failureHeadline(); };
        QTRY_VERIFY2(banner->text().startsWith(sentence() + u"."_qs), qPrintable(banner->text()));
        QVERIFY(!banner->detail().isEmpty());
        // The whole line in the tooltip (the label is cut to leave room for the others).
        QTRY_COMPARE(connection->toolTip().section(u'\n', 0, 0),
            u"Not connected: "_qs + window.monitor()->lastFailure());
        QVERIFY(connection->toolTip().contains(u"Details: "_qs));
        // Down once no figures came for the grace period (a restart of a few seconds is not).
        if (outage.elapsed() < AlertDecider::DownGraceMs - IntervalMs) // not on a stalled machine
            QVERIFY2(window.alertBar()->texts().isEmpty(),
                qPrintable(window.alertBar()->texts().join(u'|')));
        skippedMs = AlertDecider::DownGraceMs;
        QTRY_COMPARE_WITH_TIMEOUT(window.alertBar()->texts().value(0).section(u"  ("_qs, 0, 0),
            u"⚠ %1: down — %2"_qs.arg(window.outboxName(), sentence()),
            AlertDecider::DownGraceMs + 2 * IntervalMs);

        QVERIFY(startServer());
        QElapsedTimer back;
        back.start();
        {
            const auto writer = database->connect(); // a change made after the restart
            QVERIFY(writer && parkDead(writer->database(), u"H"_qs, 10, 1));
        }
        // The tiles and the table: the table's worker kept its connection from before the
        // outage, finds it dead on the first refresh and reads again on a fresh one at once.
        QTRY_VERIFY_WITH_TIMEOUT(!banner->isVisible() && deadTile(window) == u"3"_qs
                && window.eventModel()->rowOfEvent(u"H-0010"_qs) >= 0,
            2 * IntervalMs);
        QVERIFY2(back.elapsed() <= 2 * IntervalMs, qPrintable(QString::number(back.elapsed())));
        QVERIFY(!window.tiles()->isStale());
        QCOMPARE(window.tiles()->hintText(HealthTiles::Tile::Dead), u"need an operator"_qs);
        QVERIFY2(refresh->text().startsWith(u"Refreshed "_qs), qPrintable(refresh->text()));
        QVERIFY2(connection->text().startsWith(u"Connected: "_qs), qPrintable(connection->text()));
        // Back, but amber (3 DEAD): the alert's row says so instead of "down".
        QTRY_VERIFY2(window.alertBar()->texts().value(0).startsWith(
                         u"⚠ %1: 3 DEAD events"_qs.arg(window.outboxName())),
            qPrintable(window.alertBar()->texts().value(0)));
    }

    // A window that never had figures says so: "no figures yet" on the tiles and in the status
    // bar, never "stale since" nor "Connected"; "Connecting to …" before the first answer.
    void windowWithoutFiguresSaysSo()
    {
        FRESH_DATABASE(database, u"postgresql"_qs);
        {
            const auto setup = database->initialise();
            QVERIFY(
                setup && parkDead(setup->database(), u"H"_qs, 0, 1) && flushed(setup->database()));
        }
        QVERIFY(stopServer());
        WindowOptions options;
        options.readOnly = true;
        options.markedForSimulation = false;
        MainWindow window(DatabaseUrl::parse(database->url(), nullptr), options);
        window.monitor()->setAdaptive(false);
        window.monitor()->setInterval(IntervalMs);
        auto *connection = window.findChild<QLabel *>(u"connectionLabel"_qs);
        auto *refresh = window.findChild<QLabel *>(u"refreshLabel"_qs);
        auto *banner = window.findChild<StaleBanner *>(u"staleBanner"_qs);
        QVERIFY(connection && refresh && banner);
        QVERIFY2(
            connection->text().startsWith(u"Connecting to "_qs), qPrintable(connection->text()));
        window.show();
        QTRY_VERIFY_WITH_TIMEOUT(window.monitor()->isStale(), 5 * IntervalMs);
        QTRY_COMPARE(connection->toolTip().section(u'\n', 0, 0),
            u"Not connected: "_qs + window.monitor()->lastFailure());
        QVERIFY(connection->text().startsWith(u"Not connected: "_qs));
        QCOMPARE(window.tiles()->hintText(HealthTiles::Tile::Dead), u"no figures yet"_qs);
        QCOMPARE(refresh->text(), u"No figures yet"_qs);
        QVERIFY2(banner->text().contains(u"No figures yet."_qs), qPrintable(banner->text()));
        QVERIFY(!banner->text().contains(u"stale since"_qs, Qt::CaseInsensitive));

        QVERIFY(startServer());
        QTRY_VERIFY_WITH_TIMEOUT(
            !window.monitor()->isStale() && deadTile(window) == u"1"_qs, 5 * IntervalMs);
        QVERIFY2(connection->text().startsWith(u"Connected: "_qs), qPrintable(connection->text()));
        QCOMPARE(window.tiles()->hintText(HealthTiles::Tile::Dead), u"need an operator"_qs);
    }

    // The start-up window of an unreachable server retries by itself on the banner's backoff
    // and opens the window once the server is back; Retry tries at once.
    void startWindowRetriesUntilTheServerIsBack()
    {
        FRESH_DATABASE(database, u"postgresql"_qs);
        {
            const auto setup = database->initialise();
            QVERIFY(setup && flushed(setup->database()));
        }
        QVERIFY(stopServer());
        DashboardApp app;
        QSignalSpy failed(&app, &DashboardApp::openFailed);
        QSignalSpy opened(&app, &DashboardApp::windowOpened);
        app.openUrl(database->url(), true);
        QVERIFY(failed.wait(20000));
        StartWindow *start = app.startWindow();
        QVERIFY(start && start->isVisible());
        QVERIFY2(start->message().contains(u"Cannot reach the database: "_qs),
            qPrintable(start->message()));
        QVERIFY(start->retryButton()->isVisible() && start->retryButton()->isEnabled());
        // By itself, on the banner's backoff: 0.5 s after the first failure, 1 s after the second…
        QCOMPARE(start->retryDelayMs(),
            HealthMonitor::retryDelayMs(1, HealthMonitor::DefaultIntervalMs));
        QTRY_VERIFY_WITH_TIMEOUT(failed.size() >= 3, 20000);
        QCOMPARE(start->retryDelayMs(),
            HealthMonitor::retryDelayMs(
                start->consecutiveFailures(), HealthMonitor::DefaultIntervalMs));
        QVERIFY2(start->retryText().startsWith(u"Retrying in "_qs), qPrintable(start->retryText()));
        QVERIFY(!app.window());
        // Retry: at once, not at the end of the countdown.
        const int before = failed.size();
        QTest::mouseClick(start->retryButton(), Qt::LeftButton);
        QCOMPARE(start->retryText(), u"Retrying now…"_qs);
        QVERIFY(!start->retryButton()->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(failed.size() > before, 20000);

        QVERIFY(startServer());
        QVERIFY(opened.wait(30000)); // without a click
        QVERIFY(app.window());
        QVERIFY(!start->isVisible());
    }

    void replayDuringTheOutageChangesNothing()
    {
        FRESH_DATABASE(database, u"postgresql"_qs);
        {
            const auto setup = database->initialise();
            QVERIFY(
                setup && parkDead(setup->database(), u"H"_qs, 0, 1) && flushed(setup->database()));
        }
        MainWindow window(database->connect(), {});
        window.monitor()->setAdaptive(false); // the interval the test assumes, whatever it costs
        window.monitor()->setInterval(IntervalMs);
        window.show();
        QTRY_COMPARE(deadTile(window), u"1"_qs);
        OperatorActions *actions = window.operatorActions();
        QSignalSpy finished(actions, &OperatorActions::replayFinished);
        ReplayRequest request;
        request.eventIds = {u"H-0000"_qs};
        request.operatorName = u"alice"_qs;
        request.reason = u"consumer fixed"_qs;

        QVERIFY(stopServer());
        actions->startReplay(request);
        QVERIFY(finished.wait(15000));
        const ReplayResult failed = finished.constLast().constFirst().value<ReplayResult>();
        QVERIFY(failed.replayed.isEmpty());
        QVERIFY2(failed.error.contains(u"cannot open"_qs), qPrintable(failed.error));
        QVERIFY(!actions->isBusy());
        QVERIFY2(actions->canReplay(), qPrintable(actions->replayRefusal()));

        QVERIFY(startServer());
        {
            const auto check = database->connect();
            QVERIFY(check);
            QCOMPARE(scalar(check->database(),
                         u"SELECT COUNT(*) FROM delivery_outbox WHERE status = 'DEAD'"_qs)
                         .toLongLong(),
                1); // the failed replay changed nothing
        }
        QTRY_VERIFY_WITH_TIMEOUT(!window.monitor()->isStale(), 2 * IntervalMs);
        actions->startReplay(request); // and works again without a restart
        QVERIFY(finished.wait(15000));
        const ReplayResult replayed = finished.constLast().constFirst().value<ReplayResult>();
        QVERIFY2(replayed.error.isEmpty(), qPrintable(replayed.error));
        QCOMPARE(replayed.replayed, QStringList {u"H-0000"_qs});
        QTRY_COMPARE(deadTile(window), u"0"_qs);
    }
};

OUTBOX_TEST_MAIN(TestHealing, QApplication)
#include "tst_healing.moc"
