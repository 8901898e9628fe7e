// Operator actions from the window, as an operator would use them: replay selected and bulk
// replay with the audit log updated, the replay dialog's confirmation rules, the Replay and
// Resolve shortcuts (unique in the window, acting on the selected DEAD rows), read-only mode
// refusing every mutation, and payloads redacted on screen and in the CSV export.
#include "detailpane.h"
#include "eventlistmodel.h"
#include "eventtablecadence.h"
#include "mainwindow.h"
#include "operatoractions.h"
#include "outboxstore.h"
#include "parkedevents.h"
#include "replaydialog.h"
#include "replaylogmodel.h"
#include "resolveactions.h"
#include "resolvedialog.h"
#include "testdatabase.h"
#include "testmain.h"
#include "testwindow.h"

#include <QAction>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTimer>

namespace {

// `dead` events parked DEAD by a permanent rejection and one delivered, at wall-clock times.
bool park(const QSqlDatabase &db, int dead,
    const QString &payload = QStringLiteral("{\"sku\":\"SKU-1\",\"quantity\":1}"))
{
    return parkEvents(db, dead, [payload](int) { return payload; });
}

qint64 count(const QSqlDatabase &db, const QString &sql)
{
    return scalar(db, sql).toLongLong();
}

} // namespace

class TestOperatorActions : public QObject
{
    Q_OBJECT

private slots:
    // Ctrl+Shift+R replays and Ctrl+Shift+X resolves the selected DEAD rows (each opens its
    // dialog first); no other action of the window takes either key, and with no DEAD row
    // selected they do nothing.
    void replayAndResolveHaveShortcuts()
    {
        FRESH_DATABASE(database, QStringLiteral("sqlite"));
        const auto setup = database->initialise();
        QVERIFY(setup && park(setup->database(), 2));
        MainWindow window(database->connect(), {});
        window.show();
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QTRY_COMPARE(window.eventModel()->rowCount(), 3);
        QTRY_COMPARE(window.resolveActions()->refusal(), QString());
        const QKeySequence replayKey(Qt::CTRL | Qt::SHIFT | Qt::Key_R);
        const QKeySequence resolveKey(Qt::CTRL | Qt::SHIFT | Qt::Key_X);
        QCOMPARE(window.operatorActions()->replaySelectedAction()->shortcut(), replayKey);
        QCOMPARE(window.resolveActions()->resolveSelectedAction()->shortcut(), resolveKey);
        for (const QAction *action : window.findChildren<QAction *>()) {
            if (action == window.operatorActions()->replaySelectedAction()
                || action == window.resolveActions()->resolveSelectedAction())
                continue;
            for (const QKeySequence &key : action->shortcuts())
                QVERIFY2(key != replayKey && key != resolveKey,
                    qPrintable(action->text() + u" takes "_qs + key.toString()));
        }

        // What each key opens, answered with Cancel: nothing is changed.
        QStringList opened;
        QTimer answer;
        connect(&answer, &QTimer::timeout, this, [&opened] {
            if (auto *dialog = qobject_cast<OperatorDialog *>(QApplication::activeModalWidget())) {
                opened << dialog->windowTitle();
                dialog->reject();
            }
        });
        answer.start(20);
        QTest::keyClick(&window, Qt::Key_R, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(opened, QStringList()); // nothing selected: the action is disabled
        QTRY_VERIFY(window.selectEvent(u"P-0001"_qs));
        QTRY_VERIFY(window.operatorActions()->replaySelectedAction()->isEnabled());
        window.eventView()->setFocus();
        QTest::keyClick(&window, Qt::Key_R, Qt::ControlModifier | Qt::ShiftModifier);
        QTRY_COMPARE(opened, QStringList {u"Replay parked events"_qs});
        window.activateWindow(); // the dialog has closed
        QVERIFY(QTest::qWaitForWindowActive(&window));
        QVERIFY(window.resolveActions()->resolveSelectedAction()->isEnabled());
        QTest::keyClick(&window, Qt::Key_X, Qt::ControlModifier | Qt::ShiftModifier);
        QTRY_COMPARE(
            opened, (QStringList {u"Replay parked events"_qs, u"Resolve parked events"_qs}));
        QCOMPARE(count(setup->database(),
                     u"SELECT COUNT(*) FROM delivery_outbox WHERE status = 'DEAD'"_qs),
            2);
    }

    void replaySelectedRecordsTheAudit()
    {
        FRESH_DATABASE(database, QStringLiteral("sqlite"));
        const auto setup = database->initialise();
        QVERIFY(setup && park(setup->database(), 3));
        MainWindow window(database->connect(), {});
        window.show();
        QTRY_COMPARE(window.eventModel()->rowCount(), 4);
        QVERIFY(window.operatorActions()->canReplay());

        QSignalSpy finished(window.operatorActions(), &OperatorActions::replayFinished);
        ReplayRequest request;
        request.eventIds = {u"P-0001"_qs, u"P-0002"_qs, u"P-0000"_qs}; // the last one is DELIVERED
        request.operatorName = u"alice"_qs;
        request.reason = u"consumer schema fixed"_qs;
        window.operatorActions()->startReplay(request);
        QVERIFY(finished.wait());
        const ReplayResult result = finished.at(0).at(0).value<ReplayResult>();
        QCOMPARE(result.replayed, QStringList({u"P-0001"_qs, u"P-0002"_qs}));
        QCOMPARE(result.skipped, QStringList {u"P-0000"_qs});
        QCOMPARE(count(setup->database(),
                     u"SELECT COUNT(*) FROM delivery_outbox WHERE status = 'DEAD'"_qs),
            1);
        QTRY_COMPARE(window.replayLog()->rowCount(), 2); // the audit tab follows
        QVERIFY(window.selectEvent(u"P-0001"_qs));
        QTRY_COMPARE(window.detailPane()->replayModel()->rowCount(), 1);
        QCOMPARE(window.detailPane()
                     ->replayModel()
                     ->index(0, ReplayLogModel::OperatorColumn)
                     .data()
                     .toString(),
            u"alice"_qs);
    }

    // The table reads its rows on its own cadence, spaced by their cost; an operator's own
    // replay from the window shows in the table at once, not when that cadence next reads.
    void aReplayedRowShowsItsNewStateAtOnce()
    {
        FRESH_DATABASE(database, QStringLiteral("sqlite"));
        const auto setup = database->initialise();
        QVERIFY(setup && park(setup->database(), 2));
        MainWindow window(database->connect(), {});
        window.show();
        EventListModel *events = window.eventModel();
        QTRY_COMPARE(events->rowCount(), 3);
        QTRY_VERIFY(!events->isLoading());
        // Reads that cost 6 s, as an unindexed payload search does: the cadence waits long.
        emit events->refreshCost(6000);
        const int spacing = events->cadence()->spacingMs();
        QVERIFY2(spacing >= 30000, qPrintable(QString::number(spacing)));
        const auto state = [events] {
            return events->index(events->rowOfEvent(u"P-0001"_qs), 0)
                .data(EventListModel::StatusRole)
                .toString();
        };
        QCOMPARE(state(), u"DEAD"_qs);

        QSignalSpy finished(window.operatorActions(), &OperatorActions::replayFinished);
        ReplayRequest request;
        request.eventIds = {u"P-0001"_qs};
        request.operatorName = u"alice"_qs;
        request.reason = u"consumer fixed"_qs;
        QElapsedTimer clock;
        clock.start();
        window.operatorActions()->startReplay(request);
        QVERIFY(finished.wait());
        QTRY_COMPARE_WITH_TIMEOUT(state(), u"PENDING"_qs, spacing / 4);
        QVERIFY2(clock.elapsed() < spacing / 4, qPrintable(QString::number(clock.elapsed())));
    }

    void bulkReplayCoversEveryMatchingRow()
    {
        FRESH_DATABASE(database, QStringLiteral("sqlite"));
        const auto setup = database->initialise();
        QVERIFY(setup && park(setup->database(), 260)); // more than one page of the table
        MainWindow window(database->connect(), {});
        EventFilter dead;
        dead.state = EventFilter::State::Dead;
        window.eventModel()->setFilter(dead);
        QTRY_VERIFY(!window.eventModel()->isLoading());
        QCOMPARE(window.eventModel()->rowCount(), EventListModel::PageSize); // one page loaded

        QSignalSpy finished(window.operatorActions(), &OperatorActions::replayFinished);
        ReplayRequest request;
        request.operatorName = u"bob"_qs;
        request.reason = u"downstream back"_qs;
        request.spreadMs = 600000;
        window.operatorActions()->startReplay(request, dead);
        QVERIFY(finished.wait());
        QCOMPARE(finished.at(0).at(0).value<ReplayResult>().replayed.size(), 260);
        QCOMPARE(count(setup->database(),
                     u"SELECT COUNT(*) FROM delivery_outbox WHERE status = 'DEAD'"_qs),
            0);
        QCOMPARE(count(setup->database(), u"SELECT COUNT(*) FROM replay_log"_qs), 260);
        const qint64 spread = count(setup->database(),
            u"SELECT MAX(next_attempt_at) - MIN(next_attempt_at) FROM delivery_outbox WHERE status = 'PENDING'"_qs);
        QVERIFY(spread > 590000 && spread < 600000);
    }

    void dialogNeedsReasonAndTypedCountAboveHundred()
    {
        ReplayDialog few({u"A"_qs}, 1);
        QVERIFY(!few.isComplete()); // no reason yet
        few.findChild<QLineEdit *>(u"replayReason"_qs)->setText(u"fixed"_qs);
        QVERIFY(few.isComplete());
        QVERIFY(!few.operatorName().isEmpty()); // the OS user by default
        QVERIFY(!few.findChild<QLineEdit *>(u"replayConfirm"_qs));

        ReplayDialog many({u"A"_qs, u"B"_qs}, 150);
        many.findChild<QLineEdit *>(u"replayReason"_qs)->setText(u"fixed"_qs);
        QVERIFY(!many.isComplete());
        many.findChild<QLineEdit *>(u"replayConfirm"_qs)->setText(u"149"_qs);
        QVERIFY(!many.isComplete());
        many.findChild<QLineEdit *>(u"replayConfirm"_qs)->setText(u"150"_qs);
        QVERIFY(many.isComplete());
        many.findChild<QLineEdit *>(u"replayOperator"_qs)->setText(u"  "_qs);
        QVERIFY(!many.isComplete());
    }

    void readOnlyRefusesEveryMutation_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void readOnlyRefusesEveryMutation()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        QVERIFY(setup && park(setup->database(), 2));
        ReadOnlyWindow window(database->url());
        QVERIFY(!window.operatorActions()->replaySelectedAction()->isEnabled());
        QVERIFY(!window.operatorActions()->replayMatchingAction()->isEnabled());
        QVERIFY(window.operatorActions()->exportEventsAction()->isEnabled()); // reading is fine
        QVERIFY(!window.session()); // no simulator on a read-only connection
        // What the window's workers open is read-only too.
        QVERIFY(window.openOptions().readOnly);
        QString error;
        const auto workerConnection
            = DbConnection::open(window.url(), window.openOptions(), &error);
        QVERIFY2(workerConnection, qPrintable(error));
        QSqlQuery write(workerConnection->database());
        QVERIFY(
            !write.exec(u"UPDATE delivery_outbox SET status = 'PENDING' WHERE status = 'DEAD'"_qs));
        QCOMPARE(count(setup->database(),
                     u"SELECT COUNT(*) FROM delivery_outbox WHERE status = 'DEAD'"_qs),
            2);
    }

    void payloadsAreRedactedOnScreenAndInTheExport()
    {
        FRESH_DATABASE(database, QStringLiteral("sqlite"));
        const auto setup = database->initialise();
        const QString payload
            = u"{\"sku\":\"SKU-9\",\"customer\":{\"Email\":\"ann@example.org\",\"cards\":[{\"cardNumber\":\"4111111111111111\"}]},\"apiToken\":\"t0p\"}"_qs;
        QVERIFY(setup && park(setup->database(), 1, payload));
        MainWindow window(database->connect(), {});
        QTRY_VERIFY(window.selectEvent(u"P-0001"_qs)); // once the table's rows arrive
        QVERIFY(!window.detailPane()->payloadText().contains(u"SKU-9"_qs)); // hidden until asked
        QTRY_VERIFY(window.detailPane()->summaryText().contains(u"DEAD"_qs));
        QVERIFY(!window.detailPane()->payloadText().contains(u"SKU-9"_qs)); // still hidden
        QTest::mouseClick(
            window.detailPane()->findChild<QWidget *>(u"revealPayload"_qs), Qt::LeftButton);
        QTRY_VERIFY2(window.detailPane()->payloadText().contains(u"SKU-9"_qs),
            qPrintable(window.detailPane()->payloadText()));
        const QString shown = window.detailPane()->payloadText();
        for (const QString &secret : {u"ann@example.org"_qs, u"4111111111111111"_qs, u"t0p"_qs})
            QVERIFY2(!shown.contains(secret), qPrintable(shown));
        QVERIFY(shown.contains(u"***"_qs));

        QTemporaryDir dir;
        const QString path = dir.filePath(u"events.csv"_qs);
        QSignalSpy exported(window.operatorActions(), &OperatorActions::exportFinished);
        QVERIFY(window.operatorActions()->startExportEvents(path));
        QVERIFY(exported.wait());
        QVERIFY2(exported.at(0).at(0).toBool(), qPrintable(exported.at(0).at(3).toString()));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString csv = QString::fromUtf8(file.readAll());
        QCOMPARE(csv.count(QLatin1Char('\n')), 3); // header + 2 events
        QVERIFY(csv.contains(u"SKU-9"_qs));
        for (const QString &secret : {u"ann@example.org"_qs, u"4111111111111111"_qs, u"t0p"_qs})
            QVERIFY2(!csv.contains(secret), qPrintable(csv));
    }
};

OUTBOX_TEST_MAIN(TestOperatorActions, QApplication)
#include "tst_operatoractions.moc"
