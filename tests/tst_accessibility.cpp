// The window for a keyboard and a screen reader, on a seeded outbox (40 DEAD events, the teaching
// panel open): every page shown in turn, the accessibility tree walked from the window, and no
// interactive element (button, check box, combo box, text field, spin box, slider, table, list,
// tab) without a name; every tile, chart and drawn widget has a name and a description that says
// its figures. Tab leaves the event table without changing the selected event, and Shift+F10 and
// the Menu key open the row menu of the current row.
#include "overviewpage.h"
#include "englishplurals.h"
#include "errorgroupmodel.h"
#include "errorspage.h"
#include "eventlistmodel.h"
#include "filterbar.h"
#include "healthmonitor.h"
#include "healthtiles.h"
#include "lifecyclepage.h"
#include "mainwindow.h"
#include "pagenavigator.h"
#include "parkedevents.h"
#include "diagnosisstatusline.h"
#include "policylabpage.h"
#include "reopenactions.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QAccessible>
#include <QAction>
#include <QApplication>
#include <QChartView>
#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QItemSelectionModel>
#include <QListWidget>
#include <QMenu>
#include <QSettings>
#include <QTableView>

namespace {

constexpr int DeadEvents = 40;

bool isInteractive(QAccessible::Role role)
{
    switch (role) {
    case QAccessible::PushButton:
    case QAccessible::CheckBox:
    case QAccessible::RadioButton:
    case QAccessible::ComboBox:
    case QAccessible::EditableText:
    case QAccessible::SpinBox:
    case QAccessible::Slider:
    case QAccessible::Dial:
    case QAccessible::Table:
    case QAccessible::List:
    case QAccessible::Tree:
    case QAccessible::PageTab:
    case QAccessible::ButtonMenu:
    case QAccessible::ButtonDropDown:
    case QAccessible::MenuItem:
        return true;
    default:
        return false;
    }
}

// Where an element is, for the failure message: its class and object names up to the window.
QString pathOf(const QAccessibleInterface *element)
{
    QStringList path;
    for (const QAccessibleInterface *at = element; at; at = at->parent()) {
        const QObject *object = at->object();
        if (!object)
            continue;
        path.prepend(QString::fromLatin1(object->metaObject()->className())
            + (object->objectName().isEmpty() ? QString() : u'#' + object->objectName()));
        if (object->isWidgetType() && static_cast<const QWidget *>(object)->isWindow())
            break;
    }
    return path.join(u" > "_qs);
}

// The visible interactive elements under `element` that have no name. Tables, lists and combo
// boxes are named as a whole: their cells and items are data, not controls.
void collectUnnamed(QAccessibleInterface *element, QStringList *unnamed, int depth = 0)
{
    if (!element || !element->isValid() || element->state().invisible || depth > 60)
        return;
    const QAccessible::Role role = element->role();
    if (isInteractive(role) && element->text(QAccessible::Name).trimmed().isEmpty())
        unnamed->append(pathOf(element));
    if (role == QAccessible::Table || role == QAccessible::List || role == QAccessible::Tree
        || role == QAccessible::ComboBox)
        return;
    for (int i = 0; i < element->childCount(); ++i)
        collectUnnamed(element->child(i), unnamed, depth + 1);
}

// The widgets that only draw (charts, the diagram, the tiles): a name and a description each.
QStringList undescribed(const QWidget *root)
{
    QList<const QWidget *> drawn;
    for (const QChartView *chart : root->findChildren<QChartView *>())
        drawn << chart;
    for (const LifecyclePage *diagram : root->findChildren<LifecyclePage *>())
        drawn << diagram;
    for (const QWidget *tile : root->findChildren<QWidget *>(u"healthTile"_qs))
        drawn << tile;
    QStringList missing;
    for (const QWidget *widget : std::as_const(drawn)) {
        if (!widget->isVisible())
            continue;
        if (widget->accessibleName().isEmpty() || widget->accessibleDescription().isEmpty())
            missing << QString::fromLatin1(widget->metaObject()->className()) + u'#'
                    + widget->objectName();
    }
    return missing;
}

} // namespace

class TestAccessibility : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QCoreApplication::installTranslator(&m_plurals); // "40 DEAD events", as the program says
    }

    void init() { QSettings().clear(); }

    void everyPageNamesItsControlsAndDescribesItsFigures_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }

    void everyPageNamesItsControlsAndDescribesItsFigures()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        std::unique_ptr<MainWindow> window = openWindow(*database);
        QVERIFY(window);
        QStringList unnamed, missing;
        const QList<QAction *> pageActions = window->pages()->pageActions();
        for (int i = 0; i < pageActions.size(); ++i) {
            pageActions.at(i)->trigger();
            const QString key = window->pages()->pageKeys().at(i);
            QTRY_VERIFY(window->pages()->page(key)->isVisible());
            if (key == u"policy"_qs) // the lab's charts once its simulation answered
                QTRY_VERIFY_WITH_TIMEOUT(
                    window->policyLab()->peakText().startsWith(u"A: peak"_qs), 30000);
            if (key == u"errors"_qs)
                QTRY_VERIFY(
                    qobject_cast<ErrorsPage *>(window->pages()->page(key))->model()->rowCount()
                    > 0);
            QStringList found;
            collectUnnamed(QAccessible::queryAccessibleInterface(window.get()), &found);
            for (const QString &element : std::as_const(found))
                unnamed << key + u": "_qs + element;
            for (const QString &widget : undescribed(window.get()))
                missing << key + u": "_qs + widget;
        }
        unnamed.removeDuplicates();
        missing.removeDuplicates();
        for (const QString &element : std::as_const(unnamed) + missing)
            qWarning().noquote() << element; // the message below may be cut
        QVERIFY2(unnamed.isEmpty(), qPrintable(u"without a name: "_qs + unnamed.join(u"; "_qs)));
        QVERIFY2(missing.isEmpty(),
            qPrintable(u"without a name or description: "_qs + missing.join(u"; "_qs)));

        // The descriptions say the figures the pictures show.
        const QString dead = window->tiles()->summaryText(HealthTiles::Tile::Dead);
        QVERIFY2(dead.startsWith(u"40 DEAD events, red (amber from 1, red from 10)"_qs),
            qPrintable(dead));
        QCOMPARE(window->tiles()->tileWidget(HealthTiles::Tile::Dead)->accessibleName(),
            u"DEAD tile"_qs);
        const QString delivered = window->tiles()->summaryText(HealthTiles::Tile::Delivered);
        QVERIFY2(delivered.startsWith(u"1 event delivered"_qs), qPrintable(delivered));
        const QString failures = window->charts()->summaryText(u"failuresChart"_qs);
        QVERIFY2(failures.contains(u"1 failure: 0 pending, 40 DEAD"_qs), qPrintable(failures));
        const auto *lifecycle = window->findChild<LifecyclePage *>();
        QVERIFY(lifecycle);
        QVERIFY2(lifecycle->summaryText().contains(u"DEAD 40"_qs)
                && lifecycle->summaryText().contains(u"DELIVERED 1"_qs),
            qPrintable(lifecycle->summaryText()));
        const auto *storm = window->findChild<QChartView *>(u"policyStormChart"_qs);
        QVERIFY(storm);
        QVERIFY2(storm->accessibleDescription().contains(u"a peak of"_qs),
            qPrintable(storm->accessibleDescription()));
        const auto *errors = window->findChild<QChartView *>(u"errorGroupsChart"_qs);
        QVERIFY(errors);
        QVERIFY2(errors->accessibleDescription().contains(u"40 events (40 DEAD)"_qs),
            qPrintable(errors->accessibleDescription()));
    }

    void tabLeavesTheTableAndKeepsTheSelection_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }

    void tabLeavesTheTableAndKeepsTheSelection()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        std::unique_ptr<MainWindow> window = openWindow(*database);
        QVERIFY(window);
        QTableView *view = window->eventView();
        QVERIFY(window->selectEvent(u"P-0003"_qs));
        view->setFocus();
        QTRY_VERIFY(view->hasFocus());
        const QModelIndexList selected = view->selectionModel()->selectedRows();
        QCOMPARE(selected.size(), 1);

        QTest::keyClick(view, Qt::Key_Tab);
        QVERIFY2(!view->hasFocus() && QApplication::focusWidget(), "Tab stayed in the event table");
        QVERIFY(!view->isAncestorOf(QApplication::focusWidget()));
        QCOMPARE(view->currentIndex().data(EventListModel::EventIdRole).toString(), u"P-0003"_qs);
        QCOMPARE(view->selectionModel()->selectedRows(), selected);

        view->setFocus();
        QTRY_VERIFY(view->hasFocus());
        QTest::keyClick(view, Qt::Key_Backtab, Qt::ShiftModifier);
        QVERIFY2(!view->hasFocus(), "Shift+Tab stayed in the event table");
        QCOMPARE(view->currentIndex().data(EventListModel::EventIdRole).toString(), u"P-0003"_qs);
        QCOMPARE(view->selectionModel()->selectedRows(), selected);
    }

    // The tiles are in the Tab chain, each with a visible focus border, and before the page rail
    // as they stand above it; Tab on the way never changes the event selected; Enter or Space on
    // a tile filters the table, as a click does.
    void tabReachesTheTilesAndKeepsTheSelection()
    {
        FRESH_DATABASE(database, u"sqlite"_qs);
        std::unique_ptr<MainWindow> window = openWindow(*database);
        QVERIFY(window);
        QTableView *view = window->eventView();
        QVERIFY(window->selectEvent(u"P-0003"_qs));
        view->setFocus();
        QTRY_VERIFY(view->hasFocus());
        const QModelIndexList selected = view->selectionModel()->selectedRows();
        QWidget *rail = window->pages()->rail();
        QStringList tiles; // in the order Tab reaches them
        bool railAfterTiles = false;
        QWidget *lastTile = window->tiles()->tileWidget(HealthTiles::Tile::OldestPending);
        for (int press = 0; press < 200 && !railAfterTiles; ++press) {
            QWidget *before = QApplication::focusWidget();
            QTest::keyClick(before, Qt::Key_Tab);
            QWidget *focus = QApplication::focusWidget();
            QVERIFY(focus);
            QCOMPARE(
                view->currentIndex().data(EventListModel::EventIdRole).toString(), u"P-0003"_qs);
            QCOMPARE(view->selectionModel()->selectedRows(), selected);
            if (focus->objectName() == u"healthTile"_qs && !tiles.contains(focus->accessibleName()))
                tiles << focus->accessibleName();
            railAfterTiles = focus == rail && before == lastTile; // the next stop
        }
        QCOMPARE(tiles,
            QStringList({u"Due tile"_qs, u"Scheduled tile"_qs, u"In flight tile"_qs,
                u"Lease expired tile"_qs, u"Delivered tile"_qs, u"DEAD tile"_qs,
                u"Resolved tile"_qs, u"Oldest pending tile"_qs}));
        QVERIFY2(railAfterTiles, "the page rail does not follow the tiles");

        QWidget *dead = window->tiles()->tileWidget(HealthTiles::Tile::Dead);
        dead->setFocus();
        QTRY_VERIFY(dead->hasFocus());
        QVERIFY2(dead->styleSheet().contains(u":focus"_qs), "no focus border");
        QTest::keyClick(dead, Qt::Key_Return);
        QCOMPARE(window->filterBar()->filter().state, EventFilter::State::Dead);
        QWidget *delivered = window->tiles()->tileWidget(HealthTiles::Tile::Delivered);
        delivered->setFocus();
        QTRY_VERIFY(delivered->hasFocus());
        QTest::keyClick(delivered, Qt::Key_Space);
        QCOMPARE(window->filterBar()->filter().state, EventFilter::State::Delivered);
    }

    // The keyboard's path: the window opens with the keyboard in the event table (never the
    // refresh interval); Ctrl+3, Down, Return show an error group's events; `/` reaches the
    // search; Ctrl+N puts the keyboard in each page. Names say the purpose, not only the value.
    void keyboardPathsAreShortAndNamesSayThePurpose()
    {
        FRESH_DATABASE(database, u"sqlite"_qs);
        std::unique_ptr<MainWindow> window = openWindow(*database);
        QVERIFY(window);
        QTRY_COMPARE(QApplication::focusWidget(), static_cast<QWidget *>(window->eventView()));

        QTest::keyClick(window.get(), Qt::Key_3, Qt::ControlModifier);
        QCOMPARE(window->currentPage(), u"errors"_qs);
        auto *errors = qobject_cast<ErrorsPage *>(window->pages()->page(u"errors"_qs));
        QCOMPARE(QApplication::focusWidget(), static_cast<QWidget *>(errors->view()));
        QTRY_VERIFY(errors->model()->rowCount() > 0);
        QTest::keyClick(errors->view(), Qt::Key_Down);
        QTest::keyClick(errors->view(), Qt::Key_Return);
        QCOMPARE(window->currentPage(), u"events"_qs);
        QVERIFY(!window->filterBar()->filter().errorSignature.isEmpty());

        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Slash);
        QCOMPARE(QApplication::focusWidget(),
            static_cast<QWidget *>(window->filterBar()->searchField()));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Slash); // typed, not a shortcut
        QCOMPARE(window->filterBar()->searchField()->text(), u"/"_qs);

        for (int page = 1; page <= window->pages()->pageKeys().size(); ++page) {
            QTest::keyClick(window.get(), Qt::Key(Qt::Key_0 + page), Qt::ControlModifier);
            QWidget *shown = window->pages()->page(window->pages()->pageKeys().at(page - 1));
            QWidget *focus = QApplication::focusWidget();
            QVERIFY2(focus && (focus == shown || shown->isAncestorOf(focus)),
                qPrintable(window->currentPage() + u": focus outside the page"_qs));
        }
        QCOMPARE(window->pages()->rail()->accessibleDescription(),
            u"The window's pages: Ctrl+1 to Ctrl+8 show them"_qs); // Teach: a simulation
        QCOMPARE(window->reopenActions()->reopenSelectedAction()->shortcut(),
            QKeySequence(u"Ctrl+Shift+O"_qs));

        window->filterByTile(int(HealthTiles::Tile::Dead));
        const auto *state = window->filterBar()->findChild<QComboBox *>(u"stateFilter"_qs);
        QVERIFY(state);
        QCOMPARE(state->accessibleName(), u"State filter: DEAD"_qs);
        window->showPage(u"diagnosis"_qs);
        QStringList names; // one "Show events" per finding, each saying which
        QTRY_VERIFY(!window->findChildren<QPushButton *>(
            QRegularExpression(u"^showEvents_"_qs)).isEmpty());
        for (const QPushButton *show :
            window->findChildren<QPushButton *>(QRegularExpression(u"^showEvents_"_qs)))
            if (show->isVisible())
                names << show->accessibleName();
        QVERIFY(!names.isEmpty());
        for (const QString &name : std::as_const(names))
            QVERIFY2(name.startsWith(u"Show events: "_qs), qPrintable(name));
        QCOMPARE(QSet<QString>(names.begin(), names.end()).size(), names.size());
        QTRY_VERIFY(!window->diagnosisStatus()->accessibleName().isEmpty());
        QVERIFY2(!window->diagnosisStatus()->accessibleName().contains(u'…'),
            qPrintable(window->diagnosisStatus()->accessibleName()));
        // Only a click reaches the refresh interval (View › Refresh interval from the keyboard).
        QCOMPARE(window->intervalBox()->focusPolicy(), Qt::ClickFocus);

        // A tile is a button with a press action, which filters as Enter does.
        QAccessibleInterface *tile = QAccessible::queryAccessibleInterface(
            window->tiles()->tileWidget(HealthTiles::Tile::Delivered));
        QVERIFY(tile && tile->actionInterface());
        QCOMPARE(tile->role(), QAccessible::Button);
        QVERIFY(tile->actionInterface()->actionNames().contains(
            QAccessibleActionInterface::pressAction()));
        tile->actionInterface()->doAction(QAccessibleActionInterface::pressAction());
        QCOMPARE(window->filterBar()->filter().state, EventFilter::State::Delivered);
    }

    void menuKeysOpenTheRowMenu_data()
    {
        QTest::addColumn<int>("key");
        QTest::addColumn<int>("modifiers");
        QTest::addRow("Shift+F10") << int(Qt::Key_F10) << int(Qt::ShiftModifier);
        QTest::addRow("the Menu key") << int(Qt::Key_Menu) << int(Qt::NoModifier);
    }

    void menuKeysOpenTheRowMenu()
    {
        QFETCH(int, key);
        QFETCH(int, modifiers);
        FRESH_DATABASE(database, u"sqlite"_qs);
        std::unique_ptr<MainWindow> window = openWindow(*database);
        QVERIFY(window);
        QTableView *view = window->eventView();
        QVERIFY(window->selectEvent(u"P-0007"_qs));
        // The row high in the table: a menu below the screen's edge would be moved up.
        view->scrollTo(view->currentIndex(), QAbstractItemView::PositionAtTop);
        view->setFocus();
        QTRY_VERIFY(view->hasFocus());
        QVERIFY(!QApplication::activePopupWidget());

        QTest::keyClick(view, Qt::Key(key), Qt::KeyboardModifiers(modifiers));
        QTRY_VERIFY(qobject_cast<QMenu *>(QApplication::activePopupWidget()));
        auto *menu = qobject_cast<QMenu *>(QApplication::activePopupWidget());
        QStringList texts;
        for (const QAction *action : menu->actions())
            texts << action->text();
        QVERIFY2(texts.contains(u"Copy event ID"_qs), qPrintable(texts.join(u", "_qs)));
        // At the current row, which stays the current one.
        const QRect row = view->visualRect(view->currentIndex());
        QVERIFY2(qAbs(menu->y() - view->viewport()->mapToGlobal(row.bottomLeft()).y()) <= 2,
            qPrintable(u"menu at y %1, row bottom at %2"_qs.arg(menu->y()).arg(
                view->viewport()->mapToGlobal(row.bottomLeft()).y())));
        QCOMPARE(view->currentIndex().data(EventListModel::EventIdRole).toString(), u"P-0007"_qs);
        menu->close();
        QTRY_VERIFY(!QApplication::activePopupWidget());
    }

private:
    // The seeded outbox in a window with the teaching panel, its first rows and figures in.
    static std::unique_ptr<MainWindow> openWindow(const TestDatabase &database)
    {
        const auto setup = database.initialise(); // marked for simulation: the panel exists
        if (!setup || !parkEvents(setup->database(), DeadEvents))
            return nullptr;
        auto window = std::make_unique<MainWindow>(database.connect(), WindowOptions {});
        window->resize(1366, 700);
        window->show();
        if (!QTest::qWaitForWindowExposed(window.get()))
            return nullptr;
        if (!QTest::qWaitFor([&window] {
                return window->eventModel()->rowCount() > DeadEvents
                    && window->monitor()->hasSnapshot();
            }))
            return nullptr;
        return window;
    }

    EnglishPlurals m_plurals;
};

OUTBOX_TEST_MAIN(TestAccessibility, QApplication)
#include "tst_accessibility.moc"
