// The dashboard window under the offscreen platform, as a learner and an operator use it: step
// the lost-ack scenario, select EVENT-42, read its two attempts in the detail pane; watch the
// live relay fill the tiles; filter the table; a hidden window polls less.
#include "attemptmodel.h"
#include "overviewpage.h"
#include "detailpane.h"
#include "eventlistmodel.h"
#include "filterbar.h"
#include "healthmonitor.h"
#include "healthtiles.h"
#include "hintbar.h"
#include "historymodel.h"
#include "historymonitor.h"
#include "mainwindow.h"
#include "operatoractions.h"
#include "outboxrows.h"
#include "replaypreview.h"
#include "teachpage.h"
#include "teachingsession.h"
#include "testdatabase.h"
#include "testmain.h"
#include "thresholdsdialog.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QLineSeries>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QTableView>
#include <QTemporaryDir>
#include <QToolButton>

class TestDashboard : public QObject
{
    Q_OBJECT

private slots:
    void steppingLostAckShowsBothAttempts()
    {
        FRESH_DATABASE(database, QStringLiteral("sqlite"));
        QVERIFY(database->initialise());
        MainWindow window(database->connect(), {});
        window.show();
        QVERIFY(window.session());
        QString error;
        QSignalSpy started(window.session(), &TeachingSession::startFinished);
        QVERIFY2(
            window.session()->startScenario(QStringLiteral("lost-ack"), &error), qPrintable(error));
        // The scenario starts on the session's worker; steps asked for meanwhile run after it.
        for (int i = 0; i < 3; ++i) // t=0: claim, call (the consumer commits, the response is
            window.session()->step(); // lost), failure
        for (int i = 0; i < 3; ++i) // t=10: the retry's claim, call (a DUPLICATE) and ack
            window.session()->step();
        QTRY_COMPARE(started.count(), 1);
        QVERIFY2(started.at(0).at(0).toBool(), qPrintable(started.at(0).at(1).toString()));
        QTRY_COMPARE(window.session()->now(), 10);

        QTRY_VERIFY(window.eventModel()->rowOfEvent(QStringLiteral("EVENT-42")) >= 0);
        QTRY_COMPARE(window.tiles()->valueText(HealthTiles::Tile::Delivered), u"1"_qs);
        QVERIFY(window.selectEvent(QStringLiteral("EVENT-42")));
        auto *attempts = window.findChild<QTableView *>(QStringLiteral("attemptView"));
        QVERIFY(attempts);
        QTRY_COMPARE(attempts->model()->rowCount(), 2);
        auto cell = [&](int row, int column) {
            return attempts->model()->index(row, column).data().toString();
        };
        QCOMPARE(cell(0, AttemptModel::OutcomeColumn), u"RETRY"_qs);
        QCOMPARE(cell(0, AttemptModel::NextAttemptColumn), u"t=10"_qs);
        QCOMPARE(cell(1, AttemptModel::ClaimedColumn), u"t=10"_qs);
        QCOMPARE(cell(1, AttemptModel::OutcomeColumn), u"DELIVERED"_qs);
        QCOMPARE(cell(1, AttemptModel::ConsumerResultColumn), u"DUPLICATE"_qs);
        auto *panel = window.findChild<TeachPage *>();
        QVERIFY(panel);
        QTRY_VERIFY(
            panel->narrationText().contains(u"the consumer commits, but the response is lost"_qs));
        QVERIFY(panel->narrationText().contains(u"retry at t=10 with the same event ID"_qs));
    }

    void liveRelayFillsTheTiles()
    {
        FRESH_DATABASE(database, QStringLiteral("sqlite"));
        QVERIFY(database->initialise());
        WindowOptions options;
        options.startLiveRelay = true;
        MainWindow window(database->connect(), options);
        window.show();
        window.session()->setSpeed(10);
        QTRY_VERIFY_WITH_TIMEOUT(
            window.tiles()->valueText(HealthTiles::Tile::Delivered).toInt() >= 5, 30000);
        QTRY_VERIFY(window.eventModel()->rowCount() >= 5);
        // The DEAD filter shows DEAD rows only.
        auto *filter = window.findChild<FilterBar *>();
        EventFilter dead;
        dead.state = EventFilter::State::Dead;
        filter->setFilter(dead);
        QVERIFY(window.eventModel()->isLoading());
        QTRY_VERIFY(!window.eventModel()->isLoading());
        for (int row = 0; row < window.eventModel()->rowCount(); ++row)
            QCOMPARE(window.eventModel()->index(row, 0).data(EventListModel::StatusRole).toString(),
                u"DEAD"_qs);
    }

    // The demo's guided path teaches what it says: the hint bar's Show me picks a DEAD event,
    // the replay dialog's preview warns it is likely to fail again (a PERMANENT error), and
    // replayed, it does fail again: each demo event's fault is its own.
    void theDemosHintEventBehavesAsTheDialogSays()
    {
        FRESH_DATABASE(database, QStringLiteral("sqlite"));
        QVERIFY(database->initialise());
        WindowOptions options;
        options.startLiveRelay = true;
        MainWindow window(database->connect(), options);
        window.show();
        window.session()->setSpeed(10);
        QTRY_VERIFY_WITH_TIMEOUT(
            window.tiles()->valueText(HealthTiles::Tile::Dead).toInt() >= 1, 60000);
        auto *hint = window.findChild<HintBar *>();
        QVERIFY(hint);
        emit hint->showMeRequested();
        QTableView *view = window.eventView();
        QTRY_COMPARE(view->currentIndex().data(EventListModel::StatusRole).toString(), u"DEAD"_qs);
        const QString id = view->currentIndex().data(EventListModel::EventIdRole).toString();

        const auto connection = database->connect();
        ReplayRequest request;
        request.eventIds = {id};
        request.operatorName = u"dana"_qs;
        request.reason = u"the hint's event"_qs;
        QString error;
        const auto preview = ReplayPreview::compute(connection->database(), nullptr, request, &error);
        QVERIFY2(preview, qPrintable(error));
        QVERIFY2(preview->warning.startsWith(u"likely to fail again"_qs), qPrintable(id));
        const auto attemptsAndStatus = [&] {
            QSqlQuery query(connection->database());
            query.prepare(u"SELECT o.status, (SELECT COUNT(*) FROM delivery_attempt a "
                          "WHERE a.event_id = o.event_id) FROM delivery_outbox o "
                          "WHERE o.event_id = :id"_qs);
            query.bindValue(u":id"_qs, id);
            if (!query.exec() || !query.next())
                return std::pair {QString(), qint64(-1)};
            return std::pair {query.value(0).toString(), query.value(1).toLongLong()};
        };
        const qint64 attemptsBefore = attemptsAndStatus().second;
        QVERIFY(attemptsBefore >= 1);

        QSignalSpy replayed(window.operatorActions(), &OperatorActions::replayFinished);
        window.operatorActions()->startReplay(request);
        QVERIFY(replayed.wait(20000));
        // Claimed and called again by the demo's relay: rejected again, parked DEAD again.
        QTRY_VERIFY_WITH_TIMEOUT(attemptsAndStatus().second > attemptsBefore, 30000);
        QTRY_COMPARE(attemptsAndStatus().first, u"DEAD"_qs);

        // No finding is always on: the DEAD events are of several types and errors.
        window.session()->setSpeed(30);
        const auto distinctAmongDead = [&](const QString &column) {
            QSqlQuery query(connection->database());
            query.exec(u"SELECT COUNT(*), COUNT(DISTINCT %1) FROM delivery_outbox "
                       "WHERE status = 'DEAD'"_qs.arg(column)); // a fixed column name
            return query.next() && query.value(0).toInt() >= 12 ? query.value(1).toInt() : 0;
        };
        QTRY_VERIFY_WITH_TIMEOUT(distinctAmongDead(u"event_type"_qs) >= 2, 60000);
        QVERIFY(distinctAmongDead(u"last_error"_qs) >= 2);
    }

    void tileThresholdsComeFromTheSettings()
    {
        QTemporaryDir settingsDir;
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settingsDir.path());
        TileThresholds thresholds;
        thresholds.dead = {5, 6};
        ThresholdsDialog::save(thresholds);
        ThresholdsDialog dialog(ThresholdsDialog::load());
        QCOMPARE(dialog.thresholds().dead.amber, 5);
        QCOMPARE(dialog.thresholds().oldestPendingMs.red, TileThresholds().oldestPendingMs.red);

        FRESH_DATABASE(database, QStringLiteral("sqlite"));
        QVERIFY(database->initialise());
        MainWindow window(database->connect(), {});
        QCOMPARE(window.tiles()->thresholds().dead.red, 6);
    }

    // The Charts tab's range buttons, end to end: the window reads the chosen range on its
    // worker and the charts show its buckets (60 minutes, 96 quarter hours, 168 hours); a
    // delivery three hours ago shows in the 24 h and 7 d latency charts only. The choice is
    // remembered.
    void chartsTabShowsTheChosenRange()
    {
        QTemporaryDir settingsDir;
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settingsDir.path());
        FRESH_DATABASE(database, QStringLiteral("sqlite"));
        {
            const auto connection = database->initialise();
            QVERIFY(connection);
            OutboxRow row;
            row.id = u"OLD-DELIVERY"_qs;
            row.status = u"DELIVERED"_qs;
            row.deliveredAt = QDateTime::currentMSecsSinceEpoch() - 3 * 3600000;
            row.createdAt = *row.deliveredAt - 2500;
            row.nextAttemptAt = row.createdAt;
            QVERIFY(insertRow(connection->database(), row));
        }
        auto window = std::make_unique<MainWindow>(database->connect(), WindowOptions {});
        window->show();
        const auto seriesOf = [&window](const QString &chart, int index) {
            auto *view = window->findChild<QChartView *>(chart);
            return qobject_cast<QLineSeries *>(view->chart()->series().at(index));
        };
        // Opened on Events: the history is not read until the Overview page shows it (a wanted
        // history starts reading on the snapshot's signal, so it would be running or read).
        QTRY_VERIFY(window->monitor()->hasSnapshot());
        QCOMPARE(window->currentPage(), u"events"_qs);
        const auto *history = window->findChild<HistoryMonitor *>();
        QVERIFY(history);
        QVERIFY(!history->isRunning());
        QVERIFY(!history->hasHistory());
        QCOMPARE(seriesOf(u"throughputChart"_qs, 0)->count(), 0);
        QVERIFY(window->charts()->summaryText(u"throughputChart"_qs).contains(u"not read yet"_qs));
        window->showTab(u"charts"_qs);
        QTRY_COMPARE(seriesOf(u"throughputChart"_qs, 0)->count(), 60);
        QCOMPARE(seriesOf(u"latencyChart"_qs, 0)->count(), 0); // nothing in the last hour
        const QList<std::pair<QString, int>> ranges = {{u"range24h"_qs, 96}, {u"range7d"_qs, 168}};
        for (const auto &[button, buckets] : ranges) {
            QTest::mouseClick(window->findChild<QToolButton *>(button), Qt::LeftButton);
            QTRY_COMPARE(seriesOf(u"throughputChart"_qs, 0)->count(), buckets);
            QTRY_COMPARE(seriesOf(u"latencyChart"_qs, 0)->count(), 1);
            QCOMPARE(seriesOf(u"latencyChart"_qs, 0)->at(0).y(), 2.5); // p50, in seconds
        }
        window->close(); // saves the settings
        window.reset();
        MainWindow again(database->connect(), {});
        QCOMPARE(again.charts()->range(), HistoryRange::Week);
        QVERIFY(again.findChild<QToolButton *>(u"range7d"_qs)->isChecked());
    }

    void hiddenWindowRefreshesLessOften()
    {
        FRESH_DATABASE(database, QStringLiteral("sqlite"));
        QVERIFY(database->initialise());
        MainWindow window(database->connect(), {});
        window.show();
        QVERIFY(!window.monitor()->isSlowed());
        window.hide();
        QVERIFY(window.monitor()->isSlowed());
        QCOMPARE(window.monitor()->effectiveInterval(),
            HealthMonitor::DefaultIntervalMs * HealthMonitor::SlowedFactor);
        window.show();
        QVERIFY(!window.monitor()->isSlowed());
    }
    void aStartThatFailsOnItsWorkerSaysWhy()
    {
        // No such database: the scenario and the live relay are accepted at once, then the
        // session's worker (or the relay's workers) cannot connect, and the panel says why.
        QTemporaryDir dir;
        QString error;
        const DatabaseUrl url = DatabaseUrl::parse(
            QStringLiteral("sqlite:") + dir.filePath(u"missing.db"_qs), &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        TeachingSession session(url);
        TeachPage panel(&session);
        QSignalSpy started(&session, &TeachingSession::startFinished);
        QVERIFY(session.startScenario(u"lost-ack"_qs, &error));
        QVERIFY(started.wait(10000));
        QCOMPARE(started.at(0).at(0).toBool(), false);
        QVERIFY(!started.at(0).at(1).toString().isEmpty());
        QCOMPARE(session.mode(), TeachingSession::Mode::Idle);
        QTRY_VERIFY2(
            panel.narrationText().contains(u"Error: "_qs), qPrintable(panel.narrationText()));

        started.clear();
        QVERIFY(session.startLiveRelay(TeachingSession::demoRelayConfig(), 3, &error));
        session.play();
        QVERIFY(started.wait(10000));
        QCOMPARE(started.at(0).at(0).toBool(), false);
        QCOMPARE(session.mode(), TeachingSession::Mode::Idle);
        QVERIFY(!session.isPlaying());
        QCOMPARE(started.size(), 1); // one report, not one per part

        // A bad request changes nothing and says so at once.
        RelayConfig none = TeachingSession::demoRelayConfig();
        none.workers = 0;
        QVERIFY(!session.startLiveRelay(none, 3, &error));
        QVERIFY(!error.isEmpty());
        QVERIFY(!session.startScenario(u"no-such-scenario"_qs, &error));
        QVERIFY(error.contains(u"no-such-scenario"_qs));
    }
};

OUTBOX_TEST_MAIN(TestDashboard, QApplication)
#include "tst_dashboard.moc"
