// Filters an operator can see, on both engines: moving the selection on the Errors page (by
// keyboard) filters nothing; Show events opens the Events page with the group's filter as a chip,
// and removing a chip (Delete, or a click) widens the table; while a new filter's rows are read
// the old rows are greyed and the filter line says "searching…"; Find event (Ctrl+F) finds an
// ID the filters hide, shows it in the detail and names the filter that hides it, and says so
// when no event has the ID; "Filter by this error" filters by the error's signature (its group
// on the Errors page), not by its category. Through a profile (namastack) the lookup reads the
// profile's table.
#include "activefilterbar.h"
#include "detailpane.h"
#include "errorgroupmodel.h"
#include "errorspage.h"
#include "eventlistmodel.h"
#include "eventspage.h"
#include "eventtablemenu.h"
#include "filterbar.h"
#include "fixturescript.h"
#include "mainwindow.h"
#include "outboxrows.h"
#include "profileregistry.h"
#include "statuscolorproxy.h"
#include "testdata.h"
#include "testdatabase.h"
#include "testmain.h"
#include "testwindow.h"

#include <QAction>
#include <QApplication>
#include <QBrush>
#include <QDateTime>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QSettings>
#include <QTableView>
#include <QTemporaryDir>
#include <QToolButton>

namespace {

constexpr qint64 Minute = 60000;
const QString Http400 = u"HTTP <n> for order <n>"_qs;
const QString Timeout = u"timeout after <n> ms"_qs;

// "HTTP <n> for order <n>": 4 DEAD and one retrying (PERMANENT); "timeout after <n> ms": 2 DEAD
// (TRANSIENT); a delivered event that once failed with a PERMANENT error of another group; two
// pending events that never failed. 10 events.
bool seed(const QSqlDatabase &db)
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    QList<OutboxRow> rows;
    for (int i = 1; i <= 4; ++i)
        rows << failedRow(u"G-400-%1"_qs.arg(i), u"DEAD"_qs, u"HTTP 400 for order 100%1"_qs.arg(i),
            u"PERMANENT"_qs, now);
    rows << failedRow(
        u"G-400-5"_qs, u"PENDING"_qs, u"HTTP 400 for order 1005"_qs, u"PERMANENT"_qs, now);
    rows << failedRow(u"G-schema-done"_qs, u"DELIVERED"_qs, u"schema mismatch in field total"_qs,
        u"PERMANENT"_qs, now);
    for (int i = 1; i <= 2; ++i)
        rows << failedRow(u"G-timeout-%1"_qs.arg(i), u"DEAD"_qs,
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

QStringList chipNames(const ActiveFilterBar *bar)
{
    QStringList names;
    for (const QToolButton *chip : bar->chips())
        names << chip->accessibleName();
    return names;
}

QToolButton *chipFor(const ActiveFilterBar *bar, const QString &criterion)
{
    for (QToolButton *chip : bar->chips()) {
        if (chip->accessibleName() == u"Remove filter "_qs + criterion)
            return chip;
    }
    return nullptr;
}

bool settled(const MainWindow &window)
{
    return !window.eventModel()->isLoading();
}

} // namespace

class TestVisibleFilters : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        // No saved window state or filter of a developer's own.
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settings.path());
    }

    void errorsSelectionFiltersNothingAndShowEventsAddsChips_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void errorsSelectionFiltersNothingAndShowEventsAddsChips()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        QVERIFY(setup && seed(setup->database()));
        MainWindow window(database->connect(), simulationOff());
        window.show();
        QTRY_COMPARE(window.eventModel()->rowCount(), 10);
        auto *active = window.findChild<ActiveFilterBar *>();
        QVERIFY(active && active->chips().isEmpty() && !active->isVisible());

        // The keyboard walks the groups: no filter, the table and the page stay as they were.
        window.showTab(u"errors"_qs);
        auto *errors = window.findChild<ErrorsPage *>();
        QTRY_COMPARE(errors->model()->rowCount(), 2);
        QTableView *groups = errors->view();
        groups->setFocus();
        QTest::keyClick(groups, Qt::Key_Down);
        QTest::keyClick(groups, Qt::Key_Down);
        QTest::keyClick(groups, Qt::Key_Up);
        QVERIFY(errors->selectedGroup());
        QCOMPARE(errors->selectedGroup()->signature, Http400);
        QCOMPARE(window.filterBar()->filter(), EventFilter());
        QCOMPARE(window.eventModel()->filter(), EventFilter());
        QCOMPARE(window.currentPage(), u"errors"_qs);
        QVERIFY(active->chips().isEmpty());

        // Show events: the Events page, the group's filter a chip that says what it is.
        auto *show = errors->findChild<QPushButton *>(u"showGroupEventsButton"_qs);
        QVERIFY(show && show->isEnabled());
        QTest::mouseClick(show, Qt::LeftButton);
        QCOMPARE(window.currentPage(), u"events"_qs);
        QCOMPARE(chipNames(active), QStringList {u"Remove filter Error: "_qs + Http400});
        QVERIFY(active->isVisible() && active->chips().constFirst()->isVisible());
        QTRY_COMPARE(tableIds(window),
            QStringList(
                {u"G-400-1"_qs, u"G-400-2"_qs, u"G-400-3"_qs, u"G-400-4"_qs, u"G-400-5"_qs}));

        // A second criterion is a second chip; Delete on it removes it and the table widens.
        EventFilter deadOnly = window.filterBar()->filter();
        deadOnly.state = EventFilter::State::Dead;
        window.filterBar()->setFilter(deadOnly);
        QCOMPARE(chipNames(active),
            QStringList({u"Remove filter State: DEAD"_qs, u"Remove filter Error: "_qs + Http400}));
        QTRY_COMPARE(window.eventModel()->rowCount(), 4);
        QToolButton *state = chipFor(active, u"State: DEAD"_qs);
        QVERIFY(state);
        state->setFocus();
        QTest::keyClick(state, Qt::Key_Delete);
        QCOMPARE(chipNames(active), QStringList {u"Remove filter Error: "_qs + Http400});
        QCOMPARE(window.filterBar()->filter().state, EventFilter::State::Any);
        QTRY_COMPARE(window.eventModel()->rowCount(), 5);
        // A click on the last one: every event again, and the line says nothing is filtered.
        QTest::mouseClick(chipFor(active, u"Error: "_qs + Http400), Qt::LeftButton);
        QCOMPARE(window.filterBar()->filter(), EventFilter());
        QVERIFY(active->chips().isEmpty());
        QTRY_COMPARE(window.eventModel()->rowCount(), 10);

        // Enter on a group shows its events too.
        window.showTab(u"errors"_qs);
        groups->setFocus();
        QTest::keyClick(groups, Qt::Key_Down);
        QCOMPARE(window.currentPage(), u"errors"_qs);
        QTest::keyClick(groups, Qt::Key_Return);
        QCOMPARE(window.currentPage(), u"events"_qs);
        QCOMPARE(chipNames(active), QStringList {u"Remove filter Error: "_qs + Timeout});
        QTRY_COMPARE(tableIds(window), QStringList({u"G-timeout-1"_qs, u"G-timeout-2"_qs}));
    }

    void oldRowsGreyWhileANewFilterIsRead_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void oldRowsGreyWhileANewFilterIsRead()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        QVERIFY(setup && seed(setup->database()));
        MainWindow window(database->connect(), simulationOff());
        window.show();
        QTRY_COMPARE(window.eventModel()->rowCount(), 10);
        QTRY_VERIFY(settled(window));
        StatusColorProxy *colours = window.eventsPage()->colours();
        auto *active = window.findChild<ActiveFilterBar *>();
        const QModelIndex first = window.eventView()->model()->index(0, 0);
        QVERIFY(first.data(Qt::ForegroundRole).value<QBrush>().color()
            != StatusColorProxy::dimmedText());

        // Until the new rows come, the old ones are grey and the line says it is searching:
        // never "State: DEAD" above rows that are not.
        EventFilter dead;
        dead.state = EventFilter::State::Dead;
        window.filterBar()->setFilter(dead);
        QVERIFY(window.eventModel()->isReloading());
        QCOMPARE(active->text(), u"Filtered: State: DEAD — searching…"_qs);
        QVERIFY(colours->isDimmed());
        QCOMPARE(active->rows(), ActiveFilterBar::Rows::Searching);
        QCOMPARE(window.eventView()
                     ->model()
                     ->index(0, 0)
                     .data(Qt::ForegroundRole)
                     .value<QBrush>()
                     .color(),
            StatusColorProxy::dimmedText());
        QTRY_COMPARE(window.eventModel()->rowCount(), 6);
        QTRY_VERIFY(!colours->isDimmed());
        QCOMPARE(active->text(), u"Filtered: State: DEAD"_qs);
        QVERIFY(window.eventView()
                    ->model()
                    ->index(0, 0)
                    .data(Qt::ForegroundRole)
                    .value<QBrush>()
                    .color()
            != StatusColorProxy::dimmedText());
    }

    void findEventNamesTheFilterThatHidesIt_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void findEventNamesTheFilterThatHidesIt()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        QVERIFY(setup && seed(setup->database()));
        MainWindow window(database->connect(), simulationOff());
        window.show();
        QTRY_COMPARE(window.eventModel()->rowCount(), 10);
        EventFilter pending;
        pending.state = EventFilter::State::Pending;
        window.filterBar()->setFilter(pending);
        QTRY_COMPARE(tableIds(window), QStringList({u"G-400-5"_qs, u"G-ok-1"_qs, u"G-ok-2"_qs}));
        auto *active = window.findChild<ActiveFilterBar *>();

        // Ctrl+F from another page: the Find field on the Events page, then an ID it hides.
        window.showTab(u"overview"_qs);
        QTest::keyClick(&window, Qt::Key_F, Qt::ControlModifier);
        QCOMPARE(window.currentPage(), u"events"_qs);
        QTRY_VERIFY(window.filterBar()->findField()->hasFocus());
        QTest::keyClicks(window.filterBar()->findField(), u"G-timeout-1"_qs);
        QTest::keyClick(window.filterBar()->findField(), Qt::Key_Return);
        const QString hidden = u"G-timeout-1 is hidden by State: PENDING. Clear filters to see it "
                               u"in the table; the detail shows it."_qs;
        QTRY_COMPARE(active->findMessage(), hidden);
        QTRY_COMPARE(window.detailPane()->eventId(), u"G-timeout-1"_qs);
        QTRY_COMPARE(window.detailPane()->noticeText(), hidden);
        QCOMPARE(window.filterBar()->filter(), pending); // finding changes no filter
        QVERIFY(!window.eventView()->selectionModel()->hasSelection());

        // An ID no event has.
        window.filterBar()->findField()->clear();
        QTest::keyClicks(window.filterBar()->findField(), u"G-none"_qs);
        QTest::keyClick(window.filterBar()->findField(), Qt::Key_Return);
        QTRY_COMPARE(active->findMessage(), u"No event with ID G-none in this outbox."_qs);

        // One the filters show: selected, nothing to say.
        window.filterBar()->findField()->clear();
        QTest::keyClicks(window.filterBar()->findField(), u"G-ok-2"_qs);
        QTest::keyClick(window.filterBar()->findField(), Qt::Key_Return);
        QTRY_COMPARE(active->findMessage(), QString());
        QTRY_COMPARE(
            window.eventView()->currentIndex().data(EventListModel::EventIdRole).toString(),
            u"G-ok-2"_qs);
        QCOMPARE(window.detailPane()->noticeText(), QString());
    }

    // --select (MainWindow::openEvent) on an event the view never listed names the filter that
    // hides it, never "no longer in the current view".
    void selectNamesWhyAnEventIsNotListed()
    {
        FRESH_DATABASE(database, u"sqlite"_qs);
        const auto setup = database->initialise();
        QVERIFY(setup && seed(setup->database()));
        MainWindow window(database->connect(), simulationOff());
        EventFilter dead;
        dead.state = EventFilter::State::Dead;
        window.openEventView(dead, EventListModel::AgeColumn, Qt::AscendingOrder);
        window.openEvent(u"G-ok-1"_qs);
        window.show();
        QTRY_COMPARE(window.eventModel()->rowCount(), 6);
        QTRY_COMPARE(window.detailPane()->noticeText(),
            u"G-ok-1 is hidden by State: DEAD. Clear filters to see it in the table; the detail "
            u"shows it."_qs);
        window.openEvent(u"G-gone"_qs);
        QTRY_COMPARE(
            window.detailPane()->noticeText(), u"No event with ID G-gone in this outbox."_qs);
    }

    void filterByThisErrorUsesItsSignature_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void filterByThisErrorUsesItsSignature()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        QVERIFY(setup && seed(setup->database()));
        MainWindow window(database->connect(), simulationOff());
        window.show();
        QTRY_COMPARE(window.eventModel()->rowCount(), 10);
        const int row = window.eventModel()->rowOfEvent(u"G-400-2"_qs);
        std::unique_ptr<QMenu> menu(
            window.tableMenu()->menuFor(window.eventView()->model()->index(row, 0)));
        QAction *byError = nullptr;
        for (QAction *action : menu->actions()) {
            if (action->text().startsWith(u"Filter by this error"_qs))
                byError = action;
        }
        QVERIFY(byError);
        QCOMPARE(byError->text(), u"Filter by this error (HTTP <n> for order <n>)"_qs);
        byError->trigger();
        // Its group, as the Errors page lists it: not every PERMANENT event (the delivered
        // schema mismatch is one too).
        QCOMPARE(window.filterBar()->filter().errorSignature, Http400);
        QCOMPARE(window.filterBar()->filter().errorCategory, QString());
        QCOMPARE(chipNames(window.findChild<ActiveFilterBar *>()),
            QStringList {u"Remove filter Error: "_qs + Http400});
        QTRY_COMPARE(tableIds(window),
            QStringList(
                {u"G-400-1"_qs, u"G-400-2"_qs, u"G-400-3"_qs, u"G-400-4"_qs, u"G-400-5"_qs}));
    }

    // Through a profile (namastack, last_error mapped): the lookup reads the profile's table.
    void findEventThroughAProfile()
    {
        FRESH_DATABASE(database, u"postgresql"_qs);
        auto connection = database->connect(false);
        QVERIFY(connection);
        QVERIFY(runSqlScript(connection->database(), TestData::path("fixtures/namastack.sql")));
        WindowOptions options = simulationOff();
        QString error;
        const auto profile = ProfileRegistry::byName(u"namastack"_qs, &error);
        QVERIFY2(profile, qPrintable(error));
        options.profile = *profile;
        MainWindow window(std::move(connection), options);
        window.show();
        window.showTab(u"errors"_qs);
        auto *errors = window.findChild<ErrorsPage *>();
        QTRY_COMPARE(errors->model()->rowCount(), 3);
        errors->view()->setCurrentIndex(errors->model()->index(0, 0));
        errors->showSelectedEvents();
        QTRY_COMPARE(tableIds(window),
            QStringList({u"40000000-0000-4000-8000-000000000002"_qs,
                u"40000000-0000-4000-8000-000000000006"_qs}));
        QLineEdit *find = window.filterBar()->findField();
        find->setText(u"40000000-0000-4000-8000-000000000007"_qs);
        QTest::keyClick(find, Qt::Key_Return);
        auto *active = window.findChild<ActiveFilterBar *>();
        QTRY_COMPARE(active->findMessage(),
            u"40000000-0000-4000-8000-000000000007 is hidden by Error: Connection refused. Clear "
            u"filters to see it in the table; the detail shows it."_qs);
        find->setText(u"40000000-0000-4000-8000-000000000099"_qs);
        QTest::keyClick(find, Qt::Key_Return);
        QTRY_COMPARE(active->findMessage(),
            u"No event with ID 40000000-0000-4000-8000-000000000099 in this outbox."_qs);
    }

private:
    QTemporaryDir m_settings;
};

OUTBOX_TEST_MAIN(TestVisibleFilters, QApplication)
#include "tst_visiblefilters.moc"
