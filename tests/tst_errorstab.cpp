// The Errors tab and the replay dialog's preview as an operator uses them, on both engines: the
// tab lists a seeded outbox's error groups (the counts a user reads, and the chart's bars) once
// shown, with no connection on the GUI thread; selecting a group filters nothing, Show events
// (or a double click) filters the event table to exactly its events and one click clears it;
// "Replay group…" replays the group's DEAD events once, after a dialog whose preview counts them
// and warns of the PERMANENT error, and a second replay changes nothing; a read-only window
// refuses. The preview alone shows its counts, skips and due times and leaves every table as it
// was. Through profiles: namastack (last_error mapped) groups and filters its rows; gruelbox (no
// last error) says the tab is not available.
#include "activefilterbar.h"
#include "detailpane.h"
#include "errorgroupmodel.h"
#include "errorspage.h"
#include "eventlistmodel.h"
#include "filterbar.h"
#include "fixturescript.h"
#include "jobstatus.h"
#include "mainwindow.h"
#include "operatoractions.h"
#include "outboxrows.h"
#include "profileregistry.h"
#include "replaydialog.h"
#include "resolveactions.h"
#include "resolvedialog.h"
#include "testdata.h"
#include "testdatabase.h"
#include "testmain.h"
#include "testwindow.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChartView>
#include <QHeaderView>
#include <QHorizontalStackedBarSeries>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QTableView>
#include <QTimer>
#include <QToolButton>

namespace {

constexpr qint64 Minute = 60000;
const QString Http400 = u"HTTP <n> for order <n>"_qs;
const QString Timeout = u"timeout after <n> ms"_qs;

OutboxRow failed(const QString &id, const QString &status, const QString &type,
    const QString &error, const QString &category, qint64 now)
{
    OutboxRow row = failedRow(id, status, error, category, now);
    row.type = type;
    return row;
}

// Two groups: "HTTP <n> for order <n>" (4 DEAD OrderPlaced and one PaymentCaptured retrying,
// PERMANENT) and "timeout after <n> ms" (2 DEAD StockReserved, TRANSIENT); a delivered event
// that once failed with an HTTP 400 (in no group) and two that never failed.
bool seedGroups(const QSqlDatabase &db)
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    QList<OutboxRow> rows;
    for (int i = 1; i <= 4; ++i)
        rows << failed(u"G-400-%1"_qs.arg(i), u"DEAD"_qs, u"OrderPlaced"_qs,
            u"HTTP 400 for order 100%1"_qs.arg(i), u"PERMANENT"_qs, now);
    rows << failed(u"G-400-5"_qs, u"PENDING"_qs, u"PaymentCaptured"_qs,
        u"HTTP 400 for order 1005"_qs, u"PERMANENT"_qs, now);
    rows << failed(u"G-400-done"_qs, u"DELIVERED"_qs, u"OrderPlaced"_qs,
        u"HTTP 400 for order 1006"_qs, u"PERMANENT"_qs, now);
    for (int i = 1; i <= 2; ++i)
        rows << failed(u"G-timeout-%1"_qs.arg(i), u"DEAD"_qs, u"StockReserved"_qs,
            u"timeout after %1 ms"_qs.arg(3000 * i), u"TRANSIENT"_qs, now);
    for (int i = 1; i <= 2; ++i) {
        OutboxRow fine;
        fine.id = u"G-ok-%1"_qs.arg(i);
        fine.createdAt = fine.nextAttemptAt = now - Minute;
        rows << fine;
    }
    for (const OutboxRow &row : std::as_const(rows)) {
        if (!insertRow(db, row))
            return false;
    }
    return true;
}

const QStringList Http400Events
    = {u"G-400-1"_qs, u"G-400-2"_qs, u"G-400-3"_qs, u"G-400-4"_qs, u"G-400-5"_qs};
const QStringList Http400Dead = {u"G-400-1"_qs, u"G-400-2"_qs, u"G-400-3"_qs, u"G-400-4"_qs};

QString cell(const ErrorGroupModel *model, int row, int column)
{
    return model->index(row, column).data().toString();
}

void clickRow(QTableView *view, int row)
{
    const QRect rect = view->visualRect(view->model()->index(row, 0));
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, rect.center());
}

qint64 count(const QSqlDatabase &db, const QString &sql)
{
    return scalar(db, sql).toLongLong();
}

// Answers the modal dialogs of a replay as an operator would: the replay dialog once its
// preview is there (read, a reason typed, confirmed), then the message saying what happened.
class DialogAnswerer : public QObject
{
public:
    DialogAnswerer()
    {
        connect(&m_timer, &QTimer::timeout, this, &DialogAnswerer::answer);
        m_timer.start(20);
    }
    QString preview;
    QString warning;
    QString message;

private:
    void answer()
    {
        QWidget *modal = QApplication::activeModalWidget();
        if (auto *dialog = qobject_cast<ReplayDialog *>(modal)) {
            if (!dialog->isPreviewReady())
                return;
            preview = dialog->previewText();
            warning = dialog->previewWarning();
            dialog->findChild<QLineEdit *>(u"replayReason"_qs)->setText(u"consumer fixed"_qs);
            dialog->findChild<QPushButton *>(u"replayOk"_qs)->click();
        } else if (auto *resolve = qobject_cast<ResolveDialog *>(modal)) {
            preview = resolve->findChild<QPlainTextEdit *>(u"resolvePreview"_qs)->toPlainText();
            resolve->findChild<QLineEdit *>(u"resolveReason"_qs)->setText(u"orders void"_qs);
            resolve->findChild<QPushButton *>(u"resolveOk"_qs)->click();
        } else if (auto *box = qobject_cast<QMessageBox *>(modal)) {
            message = box->text();
            box->accept();
        }
    }
    QTimer m_timer;
};

OutboxProfile builtIn(const QString &name)
{
    QString error;
    const auto profile = ProfileRegistry::byName(name, &error);
    if (!profile)
        qFatal("%s", qPrintable(error));
    return *profile;
}

} // namespace

class TestErrorsTab : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        // No saved window state or filter of a developer's own.
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settings.path());
    }

    void tabListsTheGroupsAndFiltersTheTable_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void tabListsTheGroupsAndFiltersTheTable()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        QVERIFY(setup && seedGroups(setup->database()));
        MainWindow window(database->connect(), simulationOff());
        window.show();
        const QThread *gui = QThread::currentThread();
        const int everOpened = DbConnection::everOpenedOn(gui);
        auto *errors = window.findChild<ErrorsPage *>();
        QVERIFY(errors);
        ErrorGroupModel *model = errors->model();
        QAbstractItemModelTester tester(
            model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTRY_COMPARE(window.eventModel()->rowCount(), 10);
        QVERIFY(!errors->isVisible());
        QCOMPARE(model->rowCount(), 0); // a hidden tab reads nothing

        window.showTab(u"errors"_qs);
        QTRY_COMPARE(model->rowCount(), 2);
        QTRY_COMPARE(errors->statusText(), u"2 error groups, 7 events failed (6 DEAD)"_qs);
        QCOMPARE(cell(model, 0, ErrorGroupModel::SignatureColumn), Http400);
        QCOMPARE(cell(model, 0, ErrorGroupModel::EventsColumn), u"5"_qs);
        QCOMPARE(cell(model, 0, ErrorGroupModel::DeadColumn), u"4"_qs);
        QCOMPARE(cell(model, 0, ErrorGroupModel::RetryingColumn), u"1"_qs);
        QCOMPARE(cell(model, 0, ErrorGroupModel::CategoryColumn), u"PERMANENT"_qs);
        QCOMPARE(
            cell(model, 0, ErrorGroupModel::TypesColumn), u"OrderPlaced 4, PaymentCaptured 1"_qs);
        QCOMPARE(cell(model, 1, ErrorGroupModel::SignatureColumn), Timeout);
        QCOMPARE(cell(model, 1, ErrorGroupModel::EventsColumn), u"2"_qs);
        QCOMPARE(cell(model, 1, ErrorGroupModel::DeadColumn), u"2"_qs);
        QCOMPARE(cell(model, 1, ErrorGroupModel::CategoryColumn), u"TRANSIENT"_qs);

        // The chart: one bar per group, DEAD and retrying stacked, the largest on top (drawn
        // last: a horizontal series draws its first bar at the bottom).
        auto *chart = errors->findChild<QChartView *>(u"errorGroupsChart"_qs);
        QVERIFY(chart);
        auto *bars = qobject_cast<QHorizontalStackedBarSeries *>(chart->chart()->series().value(0));
        QVERIFY(bars);
        QTRY_COMPARE(bars->barSets().size(), 2);
        QCOMPARE(bars->barSets().at(0)->label(), u"DEAD"_qs);
        QCOMPARE(bars->barSets().at(0)->count(), 2);
        QCOMPARE(bars->barSets().at(0)->at(0), 2.0); // the timeouts, at the bottom
        QCOMPARE(bars->barSets().at(0)->at(1), 4.0); // the HTTP 400s, on top
        QCOMPARE(bars->barSets().at(1)->at(1), 1.0);
        // Each bar is labelled with its group's number in the table, never a cut signature.
        auto *groups
            = qobject_cast<QBarCategoryAxis *>(chart->chart()->axes(Qt::Vertical).value(0));
        QVERIFY(groups);
        QCOMPARE(groups->categories(), (QStringList {u"2"_qs, u"1"_qs}));
        QVERIFY(errors->view()->verticalHeader()->isVisible());

        // Selecting a group filters nothing; Show events shows exactly its events (not the
        // delivered one that once failed) on the Events page, each with its detail.
        ActiveFilterBar *active = window.findChild<ActiveFilterBar *>();
        clickRow(errors->view(), 0);
        clickRow(errors->view(), 1);
        QCOMPARE(window.filterBar()->filter(), EventFilter());
        QCOMPARE(window.currentPage(), u"errors"_qs);
        auto *show = errors->findChild<QPushButton *>(u"showGroupEventsButton"_qs);
        QVERIFY(show && show->isEnabled());
        QTest::mouseClick(show, Qt::LeftButton);
        QCOMPARE(window.currentPage(), u"events"_qs);
        QVERIFY(window.eventView()->isVisible() && !errors->isVisible());
        QTRY_COMPARE(tableIds(window), QStringList({u"G-timeout-1"_qs, u"G-timeout-2"_qs}));
        QVERIFY2(active->text().contains(Timeout), qPrintable(active->text()));
        window.selectEvent(u"G-timeout-2"_qs); // the detail names it once its read answers
        QTRY_COMPARE(window.detailPane()->eventId(), u"G-timeout-2"_qs);
        QVERIFY(window.detailPane()->isVisible());
        // One click clears it; a double click on a group shows its events again.
        QTest::mouseClick(active->clearButton(), Qt::LeftButton);
        QTRY_COMPARE(window.eventModel()->rowCount(), 10);
        QVERIFY(active->text().isEmpty());
        window.showTab(u"errors"_qs);
        QTRY_VERIFY(!errors->isLoading()); // the groups read again: not reset under the clicks
        const QRect first = errors->view()->visualRect(errors->view()->model()->index(0, 0));
        clickRow(errors->view(), 0); // QTest's double click on a widget is the second click only
        QCOMPARE(window.currentPage(), u"errors"_qs);
        QTest::mouseDClick(errors->view()->viewport(), Qt::LeftButton, {}, first.center());
        QCOMPARE(window.currentPage(), u"events"_qs);
        QTRY_COMPARE(tableIds(window), Http400Events);
        QVERIFY2(active->text().contains(Http400), qPrintable(active->text()));
        QCOMPARE(DbConnection::everOpenedOn(gui), everOpened); // all of it on workers
    }

    void replayGroupReplaysItsDeadEventsOnce_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void replayGroupReplaysItsDeadEventsOnce()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        QVERIFY(setup && seedGroups(setup->database()));
        const QSqlDatabase db = setup->database();
        MainWindow window(database->connect(), simulationOff());
        window.show();
        window.showTab(u"errors"_qs);
        auto *errors = window.findChild<ErrorsPage *>();
        QTRY_COMPARE(errors->model()->rowCount(), 2);
        QPushButton *replay = errors->replayButton();
        // Enabled only on a group: none, or the largest once the keyboard is in the table (the
        // window opens with it in the shown page).
        QVERIFY(!replay->isEnabled() || errors->selectedGroup());
        clickRow(errors->view(), 0);
        QTRY_VERIFY(replay->isEnabled());

        QSignalSpy finished(window.operatorActions(), &OperatorActions::replayFinished);
        DialogAnswerer answers;
        QTest::mouseClick(replay, Qt::LeftButton);
        QVERIFY(finished.wait(20000));
        const ReplayResult result = finished.at(0).at(0).value<ReplayResult>();
        QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
        QCOMPARE(result.replayed, Http400Dead);
        QVERIFY(result.skipped.isEmpty());
        QVERIFY2(
            answers.preview.startsWith(u"Would replay 4 events, each with one more attempt."_qs),
            qPrintable(answers.preview));
        QVERIFY2(
            answers.preview.contains(u"By type: OrderPlaced (4)"_qs), qPrintable(answers.preview));
        QVERIFY2(answers.preview.contains(u"By error group: HTTP <n> for order <n> (4)"_qs),
            qPrintable(answers.preview));
        QVERIFY2(answers.warning.contains(u"likely to fail again: fix the consumer first"_qs),
            qPrintable(answers.warning));
        // A success is a status-bar message, no message box.
        QCOMPARE(answers.message, QString());
        QVERIFY(!QApplication::activeModalWidget());
        QTRY_VERIFY2(
            window.findChild<JobStatus *>(u"replayStatus"_qs)->text().contains(u"Replayed 4"_qs),
            qPrintable(window.findChild<JobStatus *>(u"replayStatus"_qs)->text()));
        QCOMPARE(count(db, u"SELECT COUNT(*) FROM delivery_outbox WHERE status = 'DEAD'"_qs), 2);
        QCOMPARE(count(db, u"SELECT COUNT(*) FROM replay_log"_qs), 4);
        QCOMPARE(count(db, u"SELECT COUNT(DISTINCT event_id) FROM replay_log"_qs), 4);

        // The tab follows: the group has no DEAD event left, so nothing to replay.
        QTRY_COMPARE(cell(errors->model(), 0, ErrorGroupModel::DeadColumn), u"0"_qs);
        QTRY_VERIFY(!replay->isEnabled());
        QCOMPARE(replay->toolTip(), u"None of this group's events is DEAD"_qs);
        // Replaying the same events again changes nothing.
        ReplayRequest again;
        again.eventIds = Http400Dead;
        again.operatorName = u"dana"_qs;
        again.reason = u"twice"_qs;
        window.operatorActions()->startReplay(again);
        QVERIFY(finished.wait(20000));
        const ReplayResult second = finished.at(1).at(0).value<ReplayResult>();
        QVERIFY(second.replayed.isEmpty());
        QCOMPARE(second.skipped, Http400Dead);
        QCOMPARE(count(db, u"SELECT COUNT(*) FROM replay_log"_qs), 4);
    }

    // "Resolve group…" closes every DEAD event of the group (not the retrying one) without
    // delivery, once, each with its resolve_log row; the tab then has nothing left to resolve.
    void resolveGroupResolvesItsDeadEventsOnce_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void resolveGroupResolvesItsDeadEventsOnce()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        QVERIFY(setup && seedGroups(setup->database()));
        const QSqlDatabase db = setup->database();
        MainWindow window(database->connect(), simulationOff());
        window.show();
        window.showTab(u"errors"_qs);
        auto *errors = window.findChild<ErrorsPage *>();
        QTRY_COMPARE(errors->model()->rowCount(), 2);
        QPushButton *resolve = errors->resolveButton();
        QVERIFY(resolve);
        QVERIFY(!resolve->isEnabled() || errors->selectedGroup()); // only on a group
        clickRow(errors->view(), 0);
        QTRY_VERIFY2(resolve->isEnabled(), qPrintable(resolve->toolTip()));

        QSignalSpy finished(window.resolveActions(), &ResolveActions::resolveFinished);
        DialogAnswerer answers;
        QTest::mouseClick(resolve, Qt::LeftButton);
        QVERIFY(finished.wait(20000));
        const ResolveResult result = finished.at(0).at(0).value<ResolveResult>();
        QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
        QCOMPARE(result.done, Http400Dead);
        QCOMPARE(answers.preview.split(u'\n'), Http400Dead); // the dialog listed exactly them
        QCOMPARE(answers.message, QString());
        QTRY_VERIFY2(
            window.findChild<JobStatus *>(u"resolveStatus"_qs)->text().contains(u"Resolved 4"_qs),
            qPrintable(window.findChild<JobStatus *>(u"resolveStatus"_qs)->text()));
        QCOMPARE(
            count(db, u"SELECT COUNT(*) FROM delivery_outbox WHERE status = 'RESOLVED'"_qs), 4);
        QCOMPARE(count(db, u"SELECT COUNT(*) FROM resolve_log WHERE reason = 'orders void'"_qs), 4);
        QCOMPARE(count(db,
                     u"SELECT COUNT(*) FROM delivery_outbox WHERE event_id = 'G-400-5'"
                     " AND status = 'PENDING'"_qs),
            1); // the retrying one is left to its retries

        // The tab follows: the group keeps its retrying event only (now the smaller group, still
        // selected), with no DEAD event left, so nothing to resolve.
        QTRY_VERIFY(errors->model()->rowOfSignature(Http400) >= 0
            && cell(errors->model(), errors->model()->rowOfSignature(Http400),
                   ErrorGroupModel::DeadColumn)
                == u"0"_qs);
        QCOMPARE(errors->selectedGroup()->signature, Http400);
        QTRY_VERIFY(!resolve->isEnabled());
        QCOMPARE(resolve->toolTip(), u"None of this group's events is DEAD"_qs);
    }

    void readOnlyRefusesGroupReplay_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void readOnlyRefusesGroupReplay()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        QVERIFY(setup && seedGroups(setup->database()));
        ReadOnlyWindow window(database->url(), simulationOff());
        window.show();
        window.showTab(u"errors"_qs);
        auto *errors = window.findChild<ErrorsPage *>();
        QTRY_COMPARE(errors->model()->rowCount(), 2); // reading is fine
        clickRow(errors->view(), 0);
        QTest::keyClick(errors->view(), Qt::Key_Return); // Enter: the group's events
        QTRY_COMPARE(window.eventModel()->rowCount(), 5); // and filtering
        QPushButton *replay = errors->replayButton();
        QVERIFY(!replay->isEnabled());
        QVERIFY2(replay->toolTip().startsWith(u"Read-only"_qs), qPrintable(replay->toolTip()));
        QTest::mouseClick(replay, Qt::LeftButton);
        QVERIFY(!QApplication::activeModalWidget());
        QVERIFY(!window.operatorActions()->isBusy());
        QCOMPARE(count(setup->database(),
                     u"SELECT COUNT(*) FROM delivery_outbox WHERE status = 'DEAD'"_qs),
            6);
    }

    void previewShowsWhatWouldHappenAndChangesNothing_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void previewShowsWhatWouldHappenAndChangesNothing()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        QVERIFY(setup && seedGroups(setup->database()));
        const QStringList before = everyRow(setup->database());
        QString error;
        TriageReader reader(DatabaseUrl::parse(database->url(), &error));
        constexpr qint64 now = 1796115783000; // 2026-12-01 09:03:03 UTC
        const auto clock = [] { return now; };

        QStringList ids = Http400Dead;
        ids << u"G-ok-1"_qs << u"NO-SUCH"_qs;
        ReplayDialog dialog(ids, ids.size());
        dialog.showPreview(&reader, {ids, std::nullopt}, clock);
        dialog.show();
        QTRY_VERIFY(dialog.isPreviewReady());
        const QString text = dialog.previewText();
        QVERIFY2(text.startsWith(u"Would replay 4 events, each with one more attempt."_qs),
            qPrintable(text));
        QVERIFY2(text.contains(u"By type: OrderPlaced (4)\n"_qs), qPrintable(text));
        QVERIFY2(
            text.contains(u"By error group: HTTP <n> for order <n> (4)\n"_qs), qPrintable(text));
        QVERIFY2(text.contains(u"Due: all at once, at 09:03:03 UTC"_qs), qPrintable(text));
        QVERIFY2(text.contains(u"Left out 2 events no longer DEAD or not found: G-ok-1 (not "
                               "DEAD: it is PENDING), NO-SUCH (not found)"_qs),
            qPrintable(text));
        // The plan's count, not the selection's: 4 of the 6 IDs will be replayed.
        QCOMPARE(dialog.findChild<QPushButton *>(u"replayOk"_qs)->text(), u"Replay 4 event(s)"_qs);
        QCOMPARE(dialog.previewWarning(),
            u"Warning: likely to fail again: fix the consumer first (4 of 4 share the PERMANENT "
            "error HTTP <n> for order <n>)"_qs);
        // Every wrapped line of the preview is shown: the dialog grew to fit it.
        for (const char *name : {"replayPreviewText", "replayPreviewWarning"}) {
            const auto *label = dialog.findChild<QLabel *>(QLatin1String(name));
            QVERIFY(label);
            QTRY_VERIFY2(label->height() >= label->heightForWidth(label->width()), name);
        }

        // Spread over ten minutes, with a fresh budget: computed again.
        dialog.findChild<QSpinBox *>()->setValue(10);
        QTRY_VERIFY2(dialog.previewText().contains(u"Due: spread from 09:03:03 to"_qs),
            qPrintable(dialog.previewText()));
        const auto reset = dialog.findChildren<QRadioButton *>();
        for (QRadioButton *button : reset) {
            if (button->text().startsWith(u"Reset"_qs))
                button->setChecked(true);
        }
        QTRY_VERIFY2(dialog.previewText().contains(u"each with a fresh attempt budget"_qs),
            qPrintable(dialog.previewText()));

        // Every DEAD event, as "Replay all matching…" finds them: 4 of 6 PERMANENT.
        ReplayDialog all({}, 6);
        EventFilter dead;
        dead.state = EventFilter::State::Dead;
        all.showPreview(&reader, {{}, dead}, clock);
        QTRY_VERIFY(all.isPreviewReady());
        QVERIFY2(all.previewText().startsWith(u"Would replay 6 events"_qs),
            qPrintable(all.previewText()));
        QVERIFY2(all.previewText().contains(u"By type: OrderPlaced (4), StockReserved (2)"_qs),
            qPrintable(all.previewText()));
        QVERIFY(all.previewWarning().contains(u"4 of 6"_qs));

        // A transient group: no warning.
        ReplayDialog timeouts({}, 2);
        const QStringList timeoutIds = {u"G-timeout-1"_qs, u"G-timeout-2"_qs};
        timeouts.showPreview(&reader, {timeoutIds, std::nullopt}, clock);
        QTRY_VERIFY(timeouts.isPreviewReady());
        QVERIFY2(timeouts.previewText().contains(u"By error group: timeout after <n> ms (2)"_qs),
            qPrintable(timeouts.previewText()));
        QCOMPARE(timeouts.previewWarning(), QString());

        QCOMPARE(everyRow(setup->database()), before);
    }

    void groupsThroughAProfile()
    {
        FRESH_DATABASE(database, u"postgresql"_qs);
        auto connection = database->connect(false);
        QVERIFY(connection);
        QVERIFY(runSqlScript(connection->database(), TestData::path("fixtures/namastack.sql")));
        WindowOptions options = simulationOff();
        options.profile = builtIn(u"namastack"_qs);
        MainWindow window(std::move(connection), options);
        window.show();
        window.showTab(u"errors"_qs);
        auto *errors = window.findChild<ErrorsPage *>();
        ErrorGroupModel *model = errors->model();
        QTRY_COMPARE(model->rowCount(), 3);
        QCOMPARE(cell(model, 0, ErrorGroupModel::SignatureColumn), u"Connection refused"_qs);
        QCOMPARE(cell(model, 0, ErrorGroupModel::EventsColumn), u"2"_qs);
        QCOMPARE(cell(model, 0, ErrorGroupModel::DeadColumn), u"1"_qs);
        QCOMPARE(cell(model, 0, ErrorGroupModel::FirstSeenColumn), u"n/a"_qs); // no history
        QCOMPARE(cell(model, 1, ErrorGroupModel::SignatureColumn),
            u"Invoice invoice-<n> rejected: unknown customer"_qs);
        QCOMPARE(cell(model, 2, ErrorGroupModel::SignatureColumn), u"Read timed out"_qs);
        clickRow(errors->view(), 0);
        QTest::keyClick(errors->view(), Qt::Key_Return); // Enter: the group's events
        QTRY_COMPARE(tableIds(window),
            QStringList({u"40000000-0000-4000-8000-000000000002"_qs,
                u"40000000-0000-4000-8000-000000000006"_qs}));
        window.showTab(u"errors"_qs);
        clickRow(errors->view(), 1);
        QTest::keyClick(errors->view(), Qt::Key_Return);
        QTRY_COMPARE(tableIds(window), QStringList({u"40000000-0000-4000-8000-000000000007"_qs}));
        QTRY_VERIFY(errors->replayButton()->isEnabled()); // namastack replays by statement
    }

    void notAvailableWithoutLastError()
    {
        FRESH_DATABASE(database, u"postgresql"_qs);
        auto connection = database->connect(false);
        QVERIFY(connection);
        QVERIFY(runSqlScript(connection->database(), TestData::path("fixtures/gruelbox.sql")));
        WindowOptions options = simulationOff();
        options.profile = builtIn(u"gruelbox"_qs);
        MainWindow window(std::move(connection), options);
        window.show();
        window.showTab(u"errors"_qs);
        auto *errors = window.findChild<ErrorsPage *>();
        QVERIFY2(errors->statusText().contains(u"not available for gruelbox"_qs),
            qPrintable(errors->statusText()));
        QVERIFY(!errors->isLoading());
        QCOMPARE(errors->model()->rowCount(), 0);
        QVERIFY(!errors->replayButton()->isEnabled());
        QVERIFY(errors->replayButton()->toolTip().contains(u"no last error"_qs));
    }

private:
    QTemporaryDir m_settings;
};

OUTBOX_TEST_MAIN(TestErrorsTab, QApplication)
#include "tst_errorstab.moc"
