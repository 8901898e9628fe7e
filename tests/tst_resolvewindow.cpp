// Resolving and reopening parked events from the window, as an operator would: the action
// closes the selected DEAD events without delivering them, once, recorded who and why; the
// Resolved tile, the state filter, the lifecycle diagram and the detail pane follow; Reopen
// puts a RESOLVED one back to DEAD, once, with its audit row on the Audit page and a transient
// status-bar message instead of a message box; the row menu offers each action only on rows
// it applies to; the dialogs open on the reason, Enter there confirms nothing, and Resolve asks
// for the typed count above Replay's threshold; read-only and a version 1 schema refuse and say
// why (what to run), changing nothing.
#include "detailpane.h"
#include "eventlistmodel.h"
#include "eventtablemenu.h"
#include "filterbar.h"
#include "fixturescript.h"
#include "healthtiles.h"
#include "jobstatus.h"
#include "mainwindow.h"
#include "operatoractions.h"
#include "operatorrunner.h"
#include "parkedevents.h"
#include "reopenactions.h"
#include "reopendialog.h"
#include "replaydialog.h"
#include "replaylogmodel.h"
#include "resolveactions.h"
#include "resolvedialog.h"
#include "schema.h"
#include "testdata.h"
#include "testdatabase.h"
#include "testmain.h"
#include "testwindow.h"

#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTableView>
#include <QTimer>

namespace {

qint64 count(const QSqlDatabase &db, const QString &sql)
{
    return scalar(db, sql).toLongLong();
}

qint64 statusCount(const QSqlDatabase &db, const QString &status)
{
    return count(db, u"SELECT COUNT(*) FROM delivery_outbox WHERE status = '%1'"_qs.arg(status));
}

ResolveRequest request(const QStringList &ids)
{
    ResolveRequest request;
    request.eventIds = ids;
    request.operatorName = u"alice"_qs;
    request.reason = u"order cancelled upstream"_qs;
    return request;
}

ResolveResult resolveAndWait(MainWindow &window, const ResolveRequest &request)
{
    QSignalSpy finished(window.resolveActions(), &ResolveActions::resolveFinished);
    window.resolveActions()->startResolve(request);
    if (!finished.wait(30000))
        return {{}, {}, u"no answer"_qs};
    return finished.at(0).at(0).value<ResolveResult>();
}

// The row menu's action whose text starts with `text` (none: not offered).
QAction *menuAction(QMenu *menu, const QString &text)
{
    for (QAction *action : menu->actions()) {
        if (action->text().startsWith(text))
            return action;
    }
    return nullptr;
}

// The row menu of `eventId`, as a right click on it shows it (the row made current first).
std::unique_ptr<QMenu> rowMenu(MainWindow &window, const QString &eventId)
{
    const int row = window.eventModel()->rowOfEvent(eventId);
    return std::unique_ptr<QMenu>(
        window.tableMenu()->menuFor(window.eventView()->model()->index(row, 0)));
}

// Which of Replay, Resolve and Reopen the row menu of `eventId` enables, e.g. "Resolve Reopen".
QString enabledActions(MainWindow &window, const QString &eventId)
{
    const std::unique_ptr<QMenu> menu = rowMenu(window, eventId);
    QStringList enabled;
    for (const QString &action :
        {u"Replay selected"_qs, u"Resolve selected"_qs, u"Reopen selected"_qs}) {
        QAction *item = menuAction(menu.get(), action);
        if (!item)
            return u"no "_qs + action;
        if (item->isEnabled())
            enabled << action.section(u' ', 0, 0);
    }
    return enabled.join(u' ');
}

QString statusOf(MainWindow &window, const QString &eventId)
{
    const int row = window.eventModel()->rowOfEvent(eventId);
    return row < 0 ? QString()
                   : window.eventModel()->index(row, 0).data(EventListModel::StatusRole).toString();
}

// Answers an operator dialog as an operator would: checks where the focus is, types a reason,
// presses Enter in it (which must confirm nothing), then clicks the confirm button. Anything
// else modal (a message box) is recorded and closed.
class DialogAnswerer : public QObject
{
public:
    explicit DialogAnswerer(QString name)
        : m_name(std::move(name))
    {
        connect(&m_timer, &QTimer::timeout, this, &DialogAnswerer::answer);
        m_timer.start(20);
    }
    QString focusedOnOpen; // the object name of the dialog's focus widget
    bool openAfterEnter = false;
    qint64 auditRowsAfterEnter = -1;
    QString box; // the text of a message box, if one was shown
    std::function<qint64()> auditRows; // read after Enter

private:
    void answer()
    {
        QWidget *modal = QApplication::activeModalWidget();
        if (auto *dialog = qobject_cast<OperatorDialog *>(modal)) {
            if (!dialog->isVisible())
                return;
            focusedOnOpen = dialog->focusWidget() ? dialog->focusWidget()->objectName() : QString();
            auto *reason = dialog->findChild<QLineEdit *>(m_name + u"Reason"_qs);
            reason->setText(u"resolved by mistake"_qs);
            QTest::keyClick(reason, Qt::Key_Return);
            openAfterEnter = dialog->isVisible() && dialog->result() == 0;
            if (auditRows)
                auditRowsAfterEnter = auditRows();
            dialog->findChild<QPushButton *>(m_name + u"Ok"_qs)->click();
        } else if (auto *message = qobject_cast<QMessageBox *>(modal)) {
            box = message->text();
            message->accept();
        }
    }
    QString m_name;
    QTimer m_timer;
};

} // namespace

class TestResolveWindow : public QObject
{
    Q_OBJECT

private slots:
    void resolvesOnceAndTheWindowFollows_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void resolvesOnceAndTheWindowFollows()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        QVERIFY(setup && parkEvents(setup->database(), 3));
        MainWindow window(database->connect(), {});
        window.show();
        QTRY_COMPARE(window.eventModel()->rowCount(), 4);
        QAction *resolve = window.resolveActions()->resolveSelectedAction();
        // Once the first snapshot told the schema's version; the action waits for a DEAD row.
        QTRY_COMPARE(window.resolveActions()->refusal(), QString());
        QVERIFY(!resolve->isEnabled());
        QTRY_VERIFY(window.selectEvent(u"P-0002"_qs));
        QTRY_VERIFY(resolve->isEnabled());
        QTRY_COMPARE(window.tiles()->valueText(HealthTiles::Tile::Resolved), u"0"_qs);
        QVERIFY(!window.findChild<QLabel *>(u"schemaNoteLabel"_qs)->isVisibleTo(&window));

        const ResolveResult first = resolveAndWait(window, request({u"P-0001"_qs, u"P-0000"_qs}));
        QVERIFY2(first.error.isEmpty(), qPrintable(first.error));
        QCOMPARE(first.done, QStringList {u"P-0001"_qs});
        QCOMPARE(first.skipped, QStringList {u"P-0000"_qs}); // DELIVERED: not touched
        QCOMPARE(statusCount(setup->database(), u"RESOLVED"_qs), 1);
        QCOMPARE(statusCount(setup->database(), u"DEAD"_qs), 2);
        QCOMPARE(count(setup->database(),
                     u"SELECT COUNT(*) FROM resolve_log WHERE event_id = 'P-0001' AND"
                     " operator = 'alice'"_qs),
            1);

        // The tiles follow: one resolved, out of the DEAD count.
        QTRY_COMPARE(window.tiles()->valueText(HealthTiles::Tile::Resolved), u"1"_qs);
        QCOMPARE(window.tiles()->valueText(HealthTiles::Tile::Dead), u"2"_qs);

        // A second operator resolving the same event is told it was skipped; nothing written.
        const ResolveResult second = resolveAndWait(window, request({u"P-0001"_qs}));
        QVERIFY(second.done.isEmpty());
        QCOMPARE(second.skipped, QStringList {u"P-0001"_qs});
        QCOMPARE(count(setup->database(), u"SELECT COUNT(*) FROM resolve_log"_qs), 1);

        // The detail says who closed it and why.
        QTRY_VERIFY(window.selectEvent(u"P-0001"_qs));
        QTRY_VERIFY2(window.detailPane()->summaryText().contains(u"Resolved by alice at "_qs),
            qPrintable(window.detailPane()->summaryText()));
        QVERIFY(window.detailPane()->summaryText().contains(u"order cancelled upstream"_qs));
        QVERIFY(window.detailPane()->summaryText().contains(u"RESOLVED"_qs));

        // The Resolved tile is a filter: only the resolved event is listed.
        QTest::mouseClick(window.tiles()->tileWidget(HealthTiles::Tile::Resolved), Qt::LeftButton);
        QTRY_COMPARE(window.eventModel()->rowCount(), 1);
        QCOMPARE(window.eventModel()->eventIdAt(0), u"P-0001"_qs);
        const auto *state = window.findChild<QComboBox *>(u"stateFilter"_qs);
        QCOMPARE(state->currentText(), u"Resolved"_qs);
    }

    // A resolved event reopened from its row: Reopen is offered only on RESOLVED rows, the
    // dialog opens on the reason and Enter there changes nothing; the click reopens it once,
    // with its reopen_log row, shown on the Audit page; the success is a status-bar message,
    // no message box. A second operator reopening it is told it was skipped.
    void reopenFromTheRowMenu_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void reopenFromTheRowMenu()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        QVERIFY(setup && parkEvents(setup->database(), 3));
        const QSqlDatabase db = setup->database();
        MainWindow window(database->connect(), {});
        window.show();
        QTRY_COMPARE(window.eventModel()->rowCount(), 4);
        QTRY_COMPARE(window.reopenActions()->refusal(), QString());
        const ResolveResult resolved = resolveAndWait(window, request({u"P-0001"_qs}));
        QCOMPARE(resolved.done, QStringList {u"P-0001"_qs});
        QTRY_COMPARE(statusOf(window, u"P-0001"_qs), u"RESOLVED"_qs);

        // Each row offers only what applies to it; a delivered row has no error to filter by.
        QCOMPARE(enabledActions(window, u"P-0000"_qs), QString()); // DELIVERED
        QVERIFY(!menuAction(rowMenu(window, u"P-0000"_qs).get(), u"Filter by this error"_qs));
        QCOMPARE(enabledActions(window, u"P-0002"_qs), u"Replay Resolve"_qs); // DEAD
        QVERIFY(menuAction(rowMenu(window, u"P-0002"_qs).get(), u"Filter by this error"_qs));
        QCOMPARE(enabledActions(window, u"P-0001"_qs), u"Reopen"_qs); // RESOLVED
        // The Actions menu's actions are the same ones: they follow the selection.
        QAction *reopen = window.reopenActions()->reopenSelectedAction();
        QVERIFY(reopen->isEnabled());
        QVERIFY(!window.resolveActions()->resolveSelectedAction()->isEnabled());
        QVERIFY(!window.operatorActions()->replaySelectedAction()->isEnabled());

        QSignalSpy finished(window.reopenActions(), &ReopenActions::reopenFinished);
        DialogAnswerer answers(u"reopen"_qs);
        answers.auditRows = [&db] { return count(db, u"SELECT COUNT(*) FROM reopen_log"_qs); };
        reopen->trigger();
        QVERIFY(finished.wait(30000));
        const ReopenResult result = finished.at(0).at(0).value<ReopenResult>();
        QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
        QCOMPARE(result.done, QStringList {u"P-0001"_qs});
        QCOMPARE(answers.focusedOnOpen, u"reopenReason"_qs);
        QVERIFY(answers.openAfterEnter);
        QCOMPARE(answers.auditRowsAfterEnter, 0); // Enter reopened nothing
        // No message box: the status bar says it, for a while.
        QVERIFY(!QApplication::activeModalWidget());
        QCOMPARE(answers.box, QString());
        QTRY_VERIFY2(window.findChild<JobStatus *>(u"reopenStatus"_qs)->text().startsWith(u"Reopened 1 event"_qs),
            qPrintable(window.findChild<JobStatus *>(u"reopenStatus"_qs)->text()));
        QCOMPARE(statusCount(db, u"DEAD"_qs), 3);
        QCOMPARE(count(db,
                     u"SELECT COUNT(*) FROM reopen_log WHERE event_id = 'P-0001'"
                     " AND reason = 'resolved by mistake'"_qs),
            1);
        // The Audit page lists the reopen and the resolve before it, newest first.
        ReplayLogModel *audit = window.replayLog();
        QTRY_COMPARE(audit->rowCount(), 2);
        QCOMPARE(audit->index(0, ReplayLogModel::ActionColumn).data().toString(), u"Reopen"_qs);
        QCOMPARE(audit->index(0, ReplayLogModel::EventColumn).data().toString(), u"P-0001"_qs);
        QCOMPARE(audit->index(0, ReplayLogModel::ReasonColumn).data().toString(),
            u"resolved by mistake"_qs);
        QCOMPARE(audit->index(1, ReplayLogModel::ActionColumn).data().toString(), u"Resolve"_qs);
        // DEAD again: the row offers Replay and Resolve, no longer Reopen.
        QTRY_COMPARE(statusOf(window, u"P-0001"_qs), u"DEAD"_qs);
        QCOMPARE(enabledActions(window, u"P-0001"_qs), u"Replay Resolve"_qs);

        // A second operator, a moment later: skipped, nothing written.
        ReopenRequest again;
        again.eventIds = {u"P-0001"_qs};
        again.operatorName = u"bob"_qs;
        again.reason = u"same"_qs;
        window.reopenActions()->startReopen(again);
        QVERIFY(finished.wait(30000));
        const ReopenResult second = finished.at(1).at(0).value<ReopenResult>();
        QVERIFY(second.done.isEmpty());
        QCOMPARE(second.skipped, QStringList {u"P-0001"_qs});
        QCOMPARE(count(db, u"SELECT COUNT(*) FROM reopen_log"_qs), 1);
    }

    // Resolve from the window: the same dialog rules, and a success without a message box.
    void resolveSucceedsWithoutAMessageBox_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void resolveSucceedsWithoutAMessageBox()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        QVERIFY(setup && parkEvents(setup->database(), 2));
        const QSqlDatabase db = setup->database();
        MainWindow window(database->connect(), {});
        window.show();
        QTRY_COMPARE(window.eventModel()->rowCount(), 3);
        QTRY_VERIFY(window.selectEvent(u"P-0002"_qs));
        QAction *resolve = window.resolveActions()->resolveSelectedAction();
        QTRY_VERIFY(resolve->isEnabled());

        QSignalSpy finished(window.resolveActions(), &ResolveActions::resolveFinished);
        DialogAnswerer answers(u"resolve"_qs);
        answers.auditRows = [&db] { return count(db, u"SELECT COUNT(*) FROM resolve_log"_qs); };
        resolve->trigger();
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.at(0).at(0).value<ResolveResult>().done, QStringList {u"P-0002"_qs});
        QCOMPARE(answers.focusedOnOpen, u"resolveReason"_qs);
        QVERIFY(answers.openAfterEnter);
        QCOMPARE(answers.auditRowsAfterEnter, 0);
        QVERIFY(!QApplication::activeModalWidget());
        QCOMPARE(answers.box, QString());
        QTRY_VERIFY2(window.findChild<JobStatus *>(u"resolveStatus"_qs)->text().startsWith(u"Resolved 1 event"_qs),
            qPrintable(window.findChild<JobStatus *>(u"resolveStatus"_qs)->text()));
        QTRY_COMPARE(window.replayLog()->rowCount(), 1);
        QCOMPARE(window.replayLog()->index(0, ReplayLogModel::ActionColumn).data().toString(),
            u"Resolve"_qs);
        QCOMPARE(statusCount(db, u"RESOLVED"_qs), 1);
    }

    // Every operator dialog opens on the reason, and Enter in its fields confirms nothing.
    void dialogsOpenOnTheReasonAndEnterConfirmsNothing_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addRow("replay") << u"replay"_qs;
        QTest::addRow("resolve") << u"resolve"_qs;
        QTest::addRow("reopen") << u"reopen"_qs;
    }
    void dialogsOpenOnTheReasonAndEnterConfirmsNothing()
    {
        QFETCH(QString, name);
        const QStringList ids = {u"A"_qs, u"B"_qs};
        std::unique_ptr<OperatorDialog> dialog;
        if (name == u"replay"_qs)
            dialog = std::make_unique<ReplayDialog>(ids, 2);
        else if (name == u"resolve"_qs)
            dialog = std::make_unique<ResolveDialog>(ids, 2);
        else
            dialog = std::make_unique<ReopenDialog>(ids, 2);
        QSignalSpy accepted(dialog.get(), &QDialog::accepted);
        dialog->show();
        QVERIFY(QTest::qWaitForWindowExposed(dialog.get()));
        auto *reason = dialog->findChild<QLineEdit *>(name + u"Reason"_qs);
        QCOMPARE(dialog->focusWidget(), reason);
        reason->setText(u"consumer fixed"_qs);
        QVERIFY(dialog->isComplete());
        auto *ok = dialog->findChild<QPushButton *>(name + u"Ok"_qs);
        QVERIFY(ok->isEnabled());
        QVERIFY(!ok->isDefault());
        for (QLineEdit *field : dialog->findChildren<QLineEdit *>()) {
            QTest::keyClick(field, Qt::Key_Return);
            QTest::keyClick(field, Qt::Key_Enter);
        }
        QVERIFY(dialog->isVisible());
        QCOMPARE(accepted.count(), 0);
        QTest::keyClick(ok, Qt::Key_Return); // the button focused: still only a click or Space
        QCOMPARE(accepted.count(), 0);
        ok->click();
        QCOMPARE(accepted.count(), 1);
    }

    // Above the threshold Replay uses, Resolve asks for the count typed, as Replay does.
    void resolveAboveTheThresholdNeedsTheTypedCount()
    {
        const qint64 above = OperatorDialog::TypedConfirmationAbove + 1;
        QStringList ids;
        for (qint64 i = 0; i < above; ++i)
            ids << u"E-%1"_qs.arg(i);
        ResolveDialog dialog(ids, above);
        dialog.findChild<QLineEdit *>(u"resolveReason"_qs)->setText(u"obsolete"_qs);
        auto *confirm = dialog.findChild<QLineEdit *>(u"resolveConfirm"_qs);
        QVERIFY(confirm);
        QVERIFY(!dialog.isComplete());
        confirm->setText(QString::number(above - 1));
        QVERIFY(!dialog.isComplete());
        confirm->setText(QString::number(above));
        QVERIFY(dialog.isComplete());
        // At the threshold nothing is typed.
        ResolveDialog small(ids.mid(0, int(above - 1)), above - 1);
        QVERIFY(!small.findChild<QLineEdit *>(u"resolveConfirm"_qs));
    }

    void dialogNeedsReasonAndOperator()
    {
        ResolveDialog dialog({u"A"_qs, u"B"_qs}, 2);
        QVERIFY(!dialog.isComplete()); // no reason yet
        dialog.findChild<QLineEdit *>(u"resolveReason"_qs)->setText(u"duplicate order"_qs);
        QVERIFY(dialog.isComplete());
        QVERIFY(!dialog.operatorName().isEmpty()); // the OS user by default
        dialog.findChild<QLineEdit *>(u"resolveOperator"_qs)->setText(u"  "_qs);
        QVERIFY(!dialog.isComplete());
    }

    void readOnlyRefusesAndChangesNothing_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void readOnlyRefusesAndChangesNothing()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        QVERIFY(setup && parkEvents(setup->database(), 2));
        ReadOnlyWindow window(database->url());
        QTRY_COMPARE(window.tiles()->valueText(HealthTiles::Tile::Resolved), u"0"_qs);
        QAction *resolve = window.resolveActions()->resolveSelectedAction();
        QVERIFY(!resolve->isEnabled());
        QVERIFY2(resolve->toolTip().contains(u"Read-only"_qs), qPrintable(resolve->toolTip()));
        const ResolveResult result = resolveAndWait(window, request({u"P-0001"_qs}));
        QVERIFY(result.done.isEmpty());
        QVERIFY2(result.error.contains(u"read-only"_qs), qPrintable(result.error));
        QCOMPARE(statusCount(setup->database(), u"DEAD"_qs), 2);
        QCOMPARE(count(setup->database(), u"SELECT COUNT(*) FROM resolve_log"_qs), 0);
    }

    // A database made before RESOLVED existed: no Resolved figure, Resolve refused with what to
    // run, and the status bar says so; nothing is migrated behind the operator's back.
    void versionOneSchemaSaysWhatToRun_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void versionOneSchemaSaysWhatToRun()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        {
            const auto connection = database->connect(false);
            QVERIFY(connection);
            QVERIFY(runSqlScript(connection->database(),
                TestData::path(u"fixtures/schema-v1-%1.sql"_qs.arg(engine))));
            QVERIFY(runSqlScript(connection->database(), TestData::path("fixtures/native.sql")));
        }
        MainWindow window(database->connect(), {});
        window.show();
        const auto *note = window.findChild<QLabel *>(u"schemaNoteLabel"_qs);
        QTRY_VERIFY(note->isVisibleTo(&window));
        QVERIFY2(note->toolTip().contains(u"outboxctl migrate"_qs), qPrintable(note->toolTip()));
        QCOMPARE(window.tiles()->valueText(HealthTiles::Tile::Resolved), u"n/a"_qs);
        QVERIFY(window.tiles()->toolTipText(HealthTiles::Tile::Resolved).contains(u"migrate"_qs));
        QAction *resolve = window.resolveActions()->resolveSelectedAction();
        QVERIFY(!resolve->isEnabled());
        QVERIFY2(
            resolve->toolTip().contains(u"outboxctl migrate"_qs), qPrintable(resolve->toolTip()));

        const auto check = database->connect(false);
        const qint64 dead = statusCount(check->database(), u"DEAD"_qs);
        const ResolveResult result = resolveAndWait(window, request({u"N-dead"_qs}));
        QVERIFY(result.done.isEmpty());
        QVERIFY2(result.error.contains(u"outboxctl migrate"_qs), qPrintable(result.error));
        QCOMPARE(statusCount(check->database(), u"DEAD"_qs), dead);
        QCOMPARE(Schema::version(check->database(), nullptr), 1);
    }
};

OUTBOX_TEST_MAIN(TestResolveWindow, QApplication)
#include "tst_resolvewindow.moc"
