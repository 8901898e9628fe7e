// The window's reads off the GUI thread, as an operator would notice them, on both engines:
// the detail pane fills from its worker (the payload only once asked for), a failed read keeps
// the last values and says it failed (never "no longer in the outbox"), an event that truly
// left says so; the CSV export streams with progress in the status bar, beside the connection,
// and can be cancelled there (nothing left behind); closing the window during a bulk replay
// leaves the outbox consistent; and a whole window session (the diagnosis and the detail's
// explanation included) runs no SQL statement on the GUI thread, nor does the teaching session
// (the live relay's producer and a scenario's steps).
#include "attemptmodel.h"
#include "auditpage.h"
#include "csvexportjob.h"
#include "detailpane.h"
#include "diagnosismonitor.h"
#include "eventlistmodel.h"
#include "eventtablecadence.h"
#include "filterbar.h"
#include "healthmonitor.h"
#include "jobstatus.h"
#include "mainwindow.h"
#include "operatoractions.h"
#include "outboxgenerator.h"
#include "outboxstore.h"
#include "parkedevents.h"
#include "replaydialog.h"
#include "replaylogmodel.h"
#include "teachpage.h"
#include "teachingsession.h"
#include "testdatabase.h"
#include "testmain.h"
#include "testwindow.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QLabel>
#include <QPointer>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSqlError>
#include <QStatusBar>
#include <QTableView>
#include <QThread>
#include <QTimer>

namespace {

// `dead` events parked DEAD by a permanent rejection after one attempt, and one delivered;
// each payload names its own SKU and carries a secret the detail pane must mask.
bool park(const QSqlDatabase &db, int dead)
{
    return parkEvents(db, dead,
        [](int i) { return QStringLiteral("{\"sku\":\"SKU-%1\",\"token\":\"s3cret\"}").arg(i); });
}

qint64 count(const QSqlDatabase &db, const QString &sql)
{
    return scalar(db, sql).toLongLong();
}

// Qt's warnings that a connection was used from a thread it does not belong to, or after it
// died: any of them fails the test that installed the catcher.
QStringList g_threadWarnings;
QtMessageHandler g_previousHandler = nullptr;

void catchThreadWarnings(QtMsgType type, const QMessageLogContext &context, const QString &text)
{
    if (text.contains(u"does not belong to the calling thread"_qs)
        || text.contains(u"database not open"_qs))
        g_threadWarnings << text;
    if (g_previousHandler)
        g_previousHandler(type, context, text);
}

} // namespace

class TestWindowWorkers : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        g_threadWarnings.clear();
        g_previousHandler = qInstallMessageHandler(catchThreadWarnings);
    }
    void cleanup()
    {
        qInstallMessageHandler(g_previousHandler);
        QVERIFY2(g_threadWarnings.isEmpty(), qPrintable(g_threadWarnings.join(u'\n')));
    }

    void detailLoadsOnTheWorker_data()
    {
        TestDatabase::addEngineColumn(), TestDatabase::addEngineRows();
    }
    void detailLoadsOnTheWorker()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        QVERIFY(setup && park(setup->database(), 2));
        MainWindow window(database->connect(), simulationOff());
        window.show();
        QTRY_VERIFY(window.eventModel()->rowOfEvent(u"P-0002"_qs) >= 0);
        DetailPane *pane = window.detailPane();
        QAbstractItemModelTester tester(
            pane->attemptModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(window.selectEvent(u"P-0002"_qs));
        QTRY_VERIFY2(pane->summaryText().contains(u"DEAD"_qs), qPrintable(pane->summaryText()));
        QVERIFY(pane->summaryText().contains(u"P-0002"_qs));
        QTRY_VERIFY(!pane->isLoading());
        QCOMPARE(pane->statusText(), QString());
        QCOMPARE(pane->attemptModel()->rowCount(), 1);
        QCOMPARE(pane->attemptModel()->index(0, AttemptModel::OutcomeColumn).data().toString(),
            u"DEAD"_qs);
        QCOMPARE(pane->replayModel()->rowCount(), 0);

        // The payload is read only when asked for, and its secrets stay masked.
        QVERIFY(!pane->payloadText().contains(u"SKU-2"_qs));
        QTest::mouseClick(pane->findChild<QPushButton *>(u"revealPayload"_qs), Qt::LeftButton);
        QTRY_VERIFY2(pane->payloadText().contains(u"SKU-2"_qs), qPrintable(pane->payloadText()));
        QVERIFY(!pane->payloadText().contains(u"s3cret"_qs));

        // An event that truly left the outbox says so, and has no attempts any more.
        QSqlQuery remove(setup->database());
        QVERIFY(remove.exec(u"DELETE FROM delivery_attempt WHERE event_id = 'P-0002'"_qs));
        QVERIFY(remove.exec(u"DELETE FROM delivery_outbox WHERE event_id = 'P-0002'"_qs));
        pane->refresh();
        QTRY_VERIFY2(pane->summaryText().contains(u"no longer in the outbox"_qs),
            qPrintable(pane->summaryText()));
        QCOMPARE(pane->attemptModel()->rowCount(), 0);
    }

    // The Audit page of an outbox replayed for years holds its newest 1,000 entries, newest
    // first, and says that Export replay log… has the rest: a window left open keeps a page, not
    // the whole log.
    void auditPageHoldsTheNewestEntries_data()
    {
        TestDatabase::addEngineColumn(), TestDatabase::addEngineRows();
    }
    void auditPageHoldsTheNewestEntries()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        QVERIFY(setup && park(setup->database(), 1));
        QSqlDatabase db = setup->database();
        const int logged = ReplayLogModel::AuditRows + 5;
        QVERIFY(db.transaction());
        QSqlQuery insert(db);
        QVERIFY(insert.prepare(
            u"INSERT INTO replay_log (event_id, replayed_at, operator, reason, reset_failures,"
            " failures_before) VALUES ('P-0001', :at, 'alice', :reason, FALSE, 1)"_qs));
        for (int i = 1; i <= logged; ++i) {
            insert.bindValue(u":at"_qs, qint64(i) * 1000);
            insert.bindValue(u":reason"_qs, QStringLiteral("entry %1").arg(i));
            QVERIFY2(insert.exec(), qPrintable(insert.lastError().text()));
        }
        QVERIFY(db.commit());
        MainWindow window(database->connect(), simulationOff());
        window.show();
        window.showTab(u"audit"_qs);
        QTRY_COMPARE_WITH_TIMEOUT(window.replayLog()->rowCount(), ReplayLogModel::AuditRows, 15000);
        const QAbstractItemModel *log = window.replayLog();
        QCOMPARE(log->index(0, ReplayLogModel::ReasonColumn).data().toString(),
            QStringLiteral("entry %1").arg(logged)); // the newest first
        QCOMPARE(log->index(ReplayLogModel::AuditRows - 1, ReplayLogModel::ReasonColumn)
                     .data()
                     .toString(),
            u"entry 6"_qs);
        const auto *page = window.findChild<AuditPage *>();
        QVERIFY(page);
        QCOMPARE(page->truncatedText(),
            u"The newest 1,000 entries; File › Export replay log… writes them all."_qs);

        // A log that fits is shown whole, without the line.
        QSqlQuery trim(db);
        QVERIFY(trim.exec(u"DELETE FROM replay_log WHERE reason <> 'entry 1'"_qs));
        window.refreshAction()->trigger(); // View › Refresh
        QTRY_COMPARE_WITH_TIMEOUT(window.replayLog()->rowCount(), 1, 15000);
        QCOMPARE(page->truncatedText(), QString());
    }

    // The adaptive interval charges the snapshot alone: the table's refresh after it, on its
    // own worker, is the table's cost (its own cadence), never added to the health interval.
    void tableRefreshCostIsNotChargedToTheInterval()
    {
        FRESH_DATABASE(database, u"sqlite"_qs);
        const auto setup = database->initialise();
        QVERIFY(setup && park(setup->database(), 2));
        MainWindow window(database->connect(), simulationOff());
        window.show();
        QTRY_VERIFY(window.eventModel()->rowOfEvent(u"P-0002"_qs) >= 0);
        QTRY_VERIFY(!window.eventModel()->isLoading());
        window.monitor()->pause(); // one snapshot, by hand, and the refresh it triggers
        // A periodic snapshot sent just before the pause, and the table refresh it triggers,
        // answer first, so the spies count only the one by hand.
        QTRY_VERIFY(!window.monitor()->isWaiting() && !window.eventModel()->isLoading());
        QSignalSpy costs(window.eventModel(), &EventListModel::refreshCost);
        QSignalSpy snapshots(window.monitor(), &HealthMonitor::snapshotChanged);
        window.monitor()->refreshNow();
        QTRY_COMPARE(costs.count(), 1); // the table's refresh after the snapshot answered
        QCOMPARE(snapshots.count(), 1);
        QCOMPARE(window.eventModel()->cadence()->lastCostMs(),
            costs.constLast().constFirst().toLongLong());
        QCOMPARE(window.monitor()->lastCostMs(), window.monitor()->snapshot().queryMs);
    }

    void failedReadKeepsTheLastValues_data()
    {
        TestDatabase::addEngineColumn(), TestDatabase::addEngineRows();
    }
    void failedReadKeepsTheLastValues()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        QVERIFY(setup && park(setup->database(), 2));
        MainWindow window(database->connect(), simulationOff());
        QTRY_VERIFY(window.eventModel()->rowOfEvent(u"P-0001"_qs) >= 0);
        DetailPane *pane = window.detailPane();
        QVERIFY(window.selectEvent(u"P-0001"_qs));
        QTRY_COMPARE(pane->attemptModel()->rowCount(), 1);
        QTRY_VERIFY(!pane->isLoading());
        const QString summary = pane->summaryText();

        // The attempt history cannot be read (as when the server is gone mid-read): the pane
        // says the read failed and keeps what it showed; it does not claim the event vanished.
        QSqlQuery alter(setup->database());
        QVERIFY2(alter.exec(u"ALTER TABLE delivery_attempt RENAME TO delivery_attempt_away"_qs),
            qPrintable(alter.lastError().text()));
        pane->refresh();
        QTRY_VERIFY2(pane->statusText().contains(u"Could not read P-0001"_qs),
            qPrintable(pane->statusText()));
        QTRY_VERIFY(!pane->isLoading()); // a snapshot may have asked again meanwhile
        QVERIFY(pane->statusText().contains(u"Could not read P-0001"_qs));
        QCOMPARE(pane->summaryText(), summary);
        QVERIFY(!pane->summaryText().contains(u"no longer in the outbox"_qs));
        QCOMPARE(pane->attemptModel()->rowCount(), 1); // not "has no attempts yet"

        // The table is back: the next read heals the pane, on a fresh connection.
        QVERIFY(alter.exec(u"ALTER TABLE delivery_attempt_away RENAME TO delivery_attempt"_qs));
        pane->refresh();
        QTRY_COMPARE(pane->statusText(), QString());
        QCOMPARE(pane->attemptModel()->rowCount(), 1);
    }

    void exportStreamsAndCancels_data()
    {
        TestDatabase::addEngineColumn(), TestDatabase::addEngineRows();
    }
    void exportStreamsAndCancels()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        QString error;
        {
            const auto setup = database->initialise();
            QVERIFY(setup);
            OutboxGenerator generator(setup->database());
            const bool generated
                = generator.generate({5000, 7, QDateTime::currentMSecsSinceEpoch()}, &error)
                      .has_value();
            QVERIFY2(generated, qPrintable(error));
        }
        MainWindow window(database->connect(), simulationOff());
        window.show();
        OperatorActions *actions = window.operatorActions();
        QTemporaryDir dir;

        // The whole export: progress in thousands of rows, then every row in the file.
        JobStatus *status = window.statusBar()->findChild<JobStatus *>(u"exportStatus"_qs);
        QVERIFY(status);
        QLabel *connection = window.findChild<QLabel *>(u"connectionLabel"_qs);
        const QString path = dir.filePath(u"events.csv"_qs);
        QSignalSpy finished(actions, &OperatorActions::exportFinished);
        QVERIFY(actions->startExportEvents(path));
        QVERIFY(actions->isExporting());
        QVERIFY(!actions->exportEventsAction()->isEnabled()); // one export at a time
        QVERIFY(status->isVisible());
        QVERIFY(status->cancelButton()->isVisible());
        QVERIFY(connection->isVisible()); // beside the export, not under it
        QVERIFY(finished.wait(60000));
        QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(finished.at(0).at(3).toString()));
        QCOMPARE(finished.at(0).at(2).toLongLong(), 5000);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        qint64 lines = 0;
        while (!file.readLine().isEmpty())
            ++lines;
        QCOMPARE(lines, 5001); // the header and every event
        file.close();
        // The outcome in the export's own part of the status bar: the connection and the
        // health line stay (QStatusBar::showMessage would hide them).
        QVERIFY2(status->text().contains(u"5,000 rows"_qs), qPrintable(status->text()));
        QVERIFY(!status->cancelButton()->isVisible());
        QCOMPARE(window.statusBar()->currentMessage(), QString());
        QVERIFY(connection->isVisible());
        QVERIFY(actions->exportEventsAction()->isEnabled());

        // Cancelled from the status bar after the first thousand rows: the partial file is
        // deleted (an earlier file would stay as it was) and the window says so.
        const QString cancelled = dir.filePath(u"cancelled.csv"_qs);
        finished.clear();
        QVERIFY(actions->startExportEvents(cancelled));
        // The worker waits while the operator reads the first figure and clicks Cancel, so the
        // click lands at row 1,000 however fast the engine is.
        QString shown;
        bool connectionShown = false;
        connect(
            actions->exportJob(), &CsvExportJob::progressed, status,
            [&] {
                shown = status->text();
                connectionShown = connection->isVisible();
                status->cancelButton()->click();
            },
            Qt::BlockingQueuedConnection);
        QVERIFY(finished.wait(60000));
        QVERIFY2(shown.contains(u"1,000 rows written"_qs), qPrintable(shown));
        QVERIFY(connectionShown);
        QCOMPARE(finished.at(0).at(0).toBool(), false);
        QCOMPARE(finished.at(0).at(1).toBool(), true);
        QCOMPARE(finished.at(0).at(2).toLongLong(), 1000);
        QVERIFY(!QFile::exists(cancelled));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList {u"events.csv"_qs});
        QCOMPARE(
            status->text(), u"Export cancelled after 1,000 rows; the partial file was deleted."_qs);
        QCOMPARE(window.statusBar()->currentMessage(), QString());
        QVERIFY(connection->isVisible());
    }

    void replayMatchingCountsOnAWorkerFirst_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void replayMatchingCountsOnAWorkerFirst()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        {
            const auto setup = database->initialise();
            QVERIFY(setup && park(setup->database(), 150));
        }
        MainWindow window(database->connect(), simulationOff());
        window.show();
        QAction *action = window.operatorActions()->replayMatchingAction();
        // The dialog that opens when the count arrives is read and closed unanswered.
        QStringList seen;
        QTimer closer;
        connect(&closer, &QTimer::timeout, this, [&] {
            auto *dialog = qobject_cast<ReplayDialog *>(QApplication::activeModalWidget());
            if (!dialog)
                return;
            for (const QLabel *label : dialog->findChildren<QLabel *>())
                seen << label->text();
            dialog->reject();
        });
        closer.start(20);
        action->trigger();
        QVERIFY(action->text().contains(u"Counting"_qs)); // the count runs on the replay thread
        QVERIFY(!action->isEnabled());
        QTRY_VERIFY(!seen.isEmpty());
        QVERIFY2(seen.join(u' ').contains(u"150"_qs), qPrintable(seen.join(u' ')));
        QTRY_VERIFY(action->isEnabled());
        QCOMPARE(action->text(), u"Replay all matching…"_qs);
    }

    void closingDuringABulkReplayLeavesItConsistent_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void closingDuringABulkReplayLeavesItConsistent()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const int dead = 1000;
        {
            const auto setup = database->initialise();
            QVERIFY(setup && park(setup->database(), dead));
        }
        auto *window = new MainWindow(database->connect(), simulationOff());
        window->show();
        EventFilter filter;
        filter.state = EventFilter::State::Dead;
        ReplayRequest request;
        request.operatorName = u"carol"_qs;
        request.reason = u"closing test"_qs;
        window->operatorActions()->startReplay(request, filter);
        QVERIFY(window->operatorActions()->isBusy());
        const auto watch = database->connect();
        QTRY_VERIFY(count(watch->database(),
                        u"SELECT COUNT(*) FROM delivery_outbox WHERE status = 'PENDING'"_qs)
            > 0); // under way (on a fast machine it may already have finished)
        delete window; // stops the replay between two events and waits for its thread

        const auto check = database->connect();
        QVERIFY(check);
        const QSqlDatabase db = check->database();
        const qint64 pending
            = count(db, u"SELECT COUNT(*) FROM delivery_outbox WHERE status = 'PENDING'"_qs);
        const qint64 stillDead
            = count(db, u"SELECT COUNT(*) FROM delivery_outbox WHERE status = 'DEAD'"_qs);
        qInfo("closed with %lld of %d events replayed", pending, dead);
        QCOMPARE(pending + stillDead, qint64(dead));
        QCOMPARE(count(db, u"SELECT COUNT(*) FROM replay_log"_qs), pending);
        QCOMPARE(count(db,
                     u"SELECT COUNT(*) FROM delivery_outbox o WHERE status = 'PENDING' AND "
                     "(SELECT COUNT(*) FROM replay_log r WHERE r.event_id = o.event_id) <> 1"_qs),
            0); // one replay-log row for each replayed event, none for the others
    }

    void noStatementRunsOnTheGuiThread_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void noStatementRunsOnTheGuiThread()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        {
            const auto setup = database->initialise();
            QVERIFY(setup && park(setup->database(), 300)); // more than one page of the table
        }
        QThread *gui = QThread::currentThread();
        const int openBefore = DbConnection::openCountOn(gui);
        auto connection = database->connect();
        QVERIFY(connection);
        const int everBefore = DbConnection::everOpenedOn(gui);
        // No connection on the GUI thread means no statement there; none is opened later.
        auto guiConnections = [&] { return DbConnection::openCountOn(gui) - openBefore; };
        {
            MainWindow window(std::move(connection), simulationOff());
            window.show();
            QCOMPARE(guiConnections(), 0);
            QTRY_VERIFY(window.eventModel()->rowCount() > 0);

            // Filter to DEAD, sort by failures, select, scroll to the bottom.
            EventFilter dead;
            dead.state = EventFilter::State::Dead;
            window.findChild<FilterBar *>()->setFilter(dead);
            window.eventView()->sortByColumn(EventListModel::FailuresColumn, Qt::DescendingOrder);
            QTRY_VERIFY(window.eventModel()->rowCount() > 0);
            QTRY_COMPARE(
                window.eventModel()->index(0, 0).data(EventListModel::StatusRole).toString(),
                u"DEAD"_qs);
            const QString id = window.eventModel()->eventIdAt(0);
            const QString sku = QStringLiteral("SKU-%1").arg(id.mid(2).toInt());
            QVERIFY(window.selectEvent(id));
            QTRY_COMPARE(window.detailPane()->attemptModel()->rowCount(), 1);
            QScrollBar *scroll = window.eventView()->verticalScrollBar();
            scroll->setValue(scroll->maximum());
            QTRY_COMPARE(guiConnections(), 0);

            // Replay one DEAD event; the detail and the replay log tab follow.
            QSignalSpy replayed(window.operatorActions(), &OperatorActions::replayFinished);
            ReplayRequest request;
            request.eventIds = {id};
            request.operatorName = u"dana"_qs;
            request.reason = u"session test"_qs;
            window.operatorActions()->startReplay(request);
            QVERIFY(replayed.wait(20000));
            QCOMPARE(replayed.at(0).at(0).value<ReplayResult>().replayed, QStringList {id});
            window.showTab(u"audit"_qs);
            QTRY_COMPARE(window.replayLog()->rowCount(), 1);
            QTRY_COMPARE(window.detailPane()->replayModel()->rowCount(), 1);
            QTest::mouseClick(
                window.detailPane()->findChild<QPushButton *>(u"revealPayload"_qs), Qt::LeftButton);
            QTRY_VERIFY(window.detailPane()->payloadText().contains(sku));

            // Export the filtered events.
            QTemporaryDir dir;
            QSignalSpy exported(window.operatorActions(), &OperatorActions::exportFinished);
            QVERIFY(window.operatorActions()->startExportEvents(dir.filePath(u"dead.csv"_qs)));
            QVERIFY(exported.wait(20000));
            QVERIFY2(exported.at(0).at(0).toBool(), qPrintable(exported.at(0).at(3).toString()));

            // The diagnosis (on the health thread) and the selected event's explanation (on the
            // detail worker) arrive too.
            window.showTab(u"diagnosis"_qs);
            QTRY_VERIFY(window.diagnosis()->hasResult());
            QTRY_VERIFY(!window.detailPane()->explanationText().isEmpty());

            QCOMPARE(guiConnections(), 0);
            QCOMPARE(DbConnection::everOpenedOn(gui), everBefore);
        }
        QCOMPARE(guiConnections(), 0); // still none after closing
    }
    void teachingSessionRunsNoStatementOnTheGuiThread_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void teachingSessionRunsNoStatementOnTheGuiThread()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        QVERIFY(database->initialise()); // marked for simulation
        QThread *gui = QThread::currentThread();
        const int openBefore = DbConnection::openCountOn(gui);
        auto connection = database->connect();
        QVERIFY(connection);
        const int everBefore = DbConnection::everOpenedOn(gui);
        auto guiConnections = [&] { return DbConnection::openCountOn(gui) - openBefore; };
        {
            WindowOptions options;
            options.markedForSimulation = true; // told, not read on the GUI thread
            options.startLiveRelay = true;
            MainWindow window(std::move(connection), options);
            window.show();
            TeachingSession *session = window.session();
            QVERIFY(session);
            QCOMPARE(session->mode(), TeachingSession::Mode::LiveRelay);
            QVERIFY(session->isPlaying());
            QCOMPARE(guiConnections(), 0);

            // The producer adds events and the relay works them: rows appear in the table.
            session->setSpeed(10);
            QTRY_VERIFY_WITH_TIMEOUT(window.eventModel()->rowCount() >= 5, 30000);
            QVERIFY(window.eventModel()->eventIdAt(0).startsWith(u"EV-"_qs));
            QCOMPARE(guiConnections(), 0);

            // A scenario clears the simulation tables and steps on the worker.
            QSignalSpy started(session, &TeachingSession::startFinished);
            QString error;
            QVERIFY2(session->startScenario(u"lost-ack"_qs, &error), qPrintable(error));
            QVERIFY(started.wait(20000));
            QVERIFY2(started.at(0).at(0).toBool(), qPrintable(started.at(0).at(1).toString()));
            for (int i = 0; i < 3; ++i) // t=0: claim, call (the response is lost), failure
                session->step();
            session->step(); // t=10: the retry's claim
            QTRY_COMPARE(session->now(), 10);
            QTRY_COMPARE(window.eventModel()->rowCount(), 1);
            QTRY_COMPARE(window.eventModel()->eventIdAt(0), u"EVENT-42"_qs);
            // Played to its end: the session pauses by itself and says so.
            session->setSpeed(100);
            session->play();
            QTRY_VERIFY_WITH_TIMEOUT(!session->isPlaying(), 20000);
            auto *panel = window.findChild<TeachPage *>();
            QVERIFY(panel);
            QTRY_VERIFY(panel->narrationText().contains(u"End of the scenario"_qs));

            QCOMPARE(guiConnections(), 0);
            QCOMPARE(DbConnection::everOpenedOn(gui), everBefore);
        }
        QCOMPARE(guiConnections(), 0);
    }
};

OUTBOX_TEST_MAIN(TestWindowWorkers, QApplication)
#include "tst_windowworkers.moc"
