// The window as an operator on a laptop uses it (offscreen, both engines): at 1366×768 nothing
// overlaps and the table shows at least 15 rows; the teaching panel closes and comes back from
// the View menu; what the operator arranged is there again in the next window (QSettings,
// isolated in a temporary directory); shortcuts, the row context menu and the tiles do what
// they say.
#include "activefilterbar.h"
#include "alertbar.h"
#include "detailpane.h"
#include "errorspage.h"
#include "eventlistmodel.h"
#include "eventtablemenu.h"
#include "filterbar.h"
#include "fulltextdelegate.h"
#include "healthmonitor.h"
#include "healthtiles.h"
#include "hintbar.h"
#include "mainwindow.h"
#include "outboxstore.h"
#include "pagenavigator.h"
#include "parkedevents.h"
#include "stalebanner.h"
#include "teachpage.h"
#include "testdatabase.h"
#include "testmain.h"
#include "windowsettings.h"
#include <QListWidget>

#include <QAction>
#include <QClipboard>
#include <QDockWidget>
#include <QHeaderView>
#include <QHelpEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QScrollArea>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QSplitter>
#include <QSqlError>
#include <QSqlQuery>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextDocument>
#include <QToolBar>
#include <QToolButton>
#include <QToolTip>

namespace {

// A maximised window on a 1366×768 screen, less a title bar and a taskbar.
constexpr QSize Laptop(1366, 700);
constexpr int DeadEvents = 40;

int visibleRows(const QTableView *view)
{
    const int first = view->rowAt(0);
    int last = view->rowAt(view->viewport()->height() - 1);
    if (last < 0)
        last = view->model()->rowCount() - 1;
    return first < 0 ? 0 : last - first + 1;
}

// What a label shows: its text, or the text its markup renders to.
QString shownText(const QLabel *label)
{
    if (!label)
        return {};
    const bool plain = label->textFormat() == Qt::PlainText
        || (label->textFormat() == Qt::AutoText && !Qt::mightBeRichText(label->text()));
    if (plain)
        return label->text();
    QTextDocument document;
    document.setHtml(label->text());
    return document.toPlainText();
}

// What a user sees of a tooltip: Qt shows it as markup when it may be markup.
QString shownToolTip(const QString &tip)
{
    if (!Qt::mightBeRichText(tip))
        return tip;
    QTextDocument document;
    document.setHtml(tip);
    return document.toPlainText();
}

QRect globalRect(const QWidget *widget)
{
    return QRect(widget->mapToGlobal(QPoint(0, 0)), widget->size());
}

QAction *menuAction(QMenuBar *bar, const QString &menu, const QString &text)
{
    for (QAction *top : bar->actions()) {
        if (top->menu() && top->menu()->objectName() == menu) {
            for (QAction *action : top->menu()->actions()) {
                if (action->text().remove(QLatin1Char('&')).startsWith(text))
                    return action;
            }
        }
    }
    return nullptr;
}

QAction *contextAction(QMenu *menu, const QString &text)
{
    for (QAction *action : menu->actions()) {
        if (action->text().startsWith(text))
            return action;
    }
    return nullptr;
}

} // namespace

class TestWindowUsability : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_config.isValid());
        QCoreApplication::setOrganizationName(u"OutboxHealthTest"_qs);
        QCoreApplication::setApplicationName(u"Outbox Health"_qs);
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_config.path());
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_config.path());
    }

    void init() { QSettings().clear(); }

    void fitsALaptop_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<bool>("teaching");
        QTest::addColumn<bool>("demo"); // the live relay and the first run's hint bar too
        QTest::addRow("sqlite, an outbox") << u"sqlite"_qs << false << false;
        QTest::addRow("sqlite, a simulation") << u"sqlite"_qs << true << false;
        QTest::addRow("sqlite, the demo's hint bar and relay") << u"sqlite"_qs << true << true;
        QTest::addRow("postgresql, an outbox") << u"postgresql"_qs << false << false;
        QTest::addRow("postgresql, a simulation") << u"postgresql"_qs << true << false;
    }

    void fitsALaptop()
    {
        QFETCH(QString, engine);
        QFETCH(bool, teaching);
        QFETCH(bool, demo);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise(); // marked for simulation
        QVERIFY(parkEvents(setup->database(), DeadEvents));
        WindowOptions options;
        options.markedForSimulation = teaching; // the Teach page in the rail
        options.startLiveRelay = demo;
        MainWindow window(database->connect(), options);
        window.resize(Laptop);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_VERIFY(window.eventModel()->rowCount() >= DeadEvents + 1); // the relay adds more
        if (demo)
            QVERIFY(window.findChild<HintBar *>());

        // The window can be as small as the laptop's screen, and is.
        const QSize minimum = window.minimumSizeHint().expandedTo(window.minimumSize());
        QVERIFY2(minimum.width() <= Laptop.width() && minimum.height() <= Laptop.height(),
            qPrintable(u"minimum %1×%2"_qs.arg(minimum.width()).arg(minimum.height())));
        QCOMPARE(window.size(), Laptop);
        QCOMPARE(window.teachPage() != nullptr, teaching);

        QTRY_VERIFY2(visibleRows(window.eventView()) >= 15,
            qPrintable(u"%1 rows visible (viewport %2 px)"_qs
                           .arg(visibleRows(window.eventView()))
                           .arg(window.eventView()->viewport()->height())));

        // The big parts each keep their own place inside the window.
        QList<QWidget *> parts
            = {window.menuBar(), window.findChild<QToolBar *>(), window.tiles(), window.filterBar(),
                window.eventView(), window.findChild<QScrollArea *>(u"detailScroll"_qs),
                window.pages()->rail(), window.statusBar()};
        if (demo)
            parts << window.findChild<HintBar *>();
        const QRect inside = globalRect(&window);
        for (int i = 0; i < parts.size(); ++i) {
            QVERIFY(parts.at(i));
            QVERIFY2(
                inside.contains(globalRect(parts.at(i))), qPrintable(parts.at(i)->objectName()));
            for (int j = i + 1; j < parts.size(); ++j) {
                QVERIFY2(!globalRect(parts.at(i)).intersects(globalRect(parts.at(j))),
                    qPrintable(QString::fromLatin1(parts.at(i)->metaObject()->className())
                        + u" overlaps "_qs
                        + QString::fromLatin1(parts.at(j)->metaObject()->className())));
            }
        }
        // The last error has room for a sentence, and never wraps into "broker …".
        QVERIFY(window.eventView()->columnWidth(EventListModel::LastErrorColumn) >= 200);
        QVERIFY(!window.eventView()->wordWrap());
    }

    void cutTextIsWholeInATooltip()
    {
        FRESH_DATABASE(database, u"sqlite"_qs);
        const auto setup = database->initialise();
        QVERIFY(parkEvents(setup->database(), 3));
        MainWindow window(database->connect(), {});
        window.show();
        QTRY_COMPARE(window.eventModel()->rowCount(), 4);
        QTableView *view = window.eventView();
        view->setColumnWidth(EventListModel::LastErrorColumn, 30);
        auto *delegate = qobject_cast<FullTextDelegate *>(view->itemDelegate());
        QVERIFY(delegate);
        const int dead = window.eventModel()->rowOfEvent(u"P-0001"_qs);
        const QModelIndex error = view->model()->index(dead, EventListModel::LastErrorColumn);
        QVERIFY(!error.data().toString().isEmpty());
        QStyleOptionViewItem option;
        option.initFrom(view);
        option.rect = view->visualRect(error);
        QCOMPARE(delegate->toolTipFor(option, error), error.data().toString());
        view->setColumnWidth(EventListModel::LastErrorColumn, 2000);
        option.rect = view->visualRect(error);
        QCOMPARE(delegate->toolTipFor(option, error), QString()); // it fits: no tooltip
    }

    // Teach is a page in the rail on a simulation database, with its shortcut, and none elsewhere.
    void teachIsAPageOnASimulationOnly()
    {
        FRESH_DATABASE(database, u"sqlite"_qs);
        QVERIFY(database->initialise());
        MainWindow window(database->connect(), {});
        window.show();
        QVERIFY(window.teachPage());
        const QStringList keys = window.pages()->pageKeys();
        QCOMPARE(keys.last(), TeachPage::Key);
        QAction *teach = window.pages()->pageActions().last();
        QCOMPARE(teach->shortcut(), QKeySequence(u"Ctrl+%1"_qs.arg(keys.size())));
        teach->trigger();
        QCOMPARE(window.currentPage(), TeachPage::Key);
        QTRY_COMPARE(QApplication::focusWidget(),
            window.teachPage()->findChild<QWidget *>(u"scenarioPicker"_qs));
        QVERIFY(!window.findChild<QDockWidget *>()); // no dock any more
        // Not a simulation's database: no page, no shortcut for it.
        QString error;
        WindowOptions none;
        none.markedForSimulation = false;
        MainWindow other(DatabaseUrl::parse(database->url(), &error), none);
        QVERIFY(!other.teachPage());
        QVERIFY(!other.pages()->pageKeys().contains(TeachPage::Key));
    }

    void settingsComeBackInTheNextWindow_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }

    void settingsComeBackInTheNextWindow()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        QVERIFY(parkEvents(setup->database(), 5));
        EventFilter dead;
        dead.state = EventFilter::State::Dead;
        dead.minFailures = 1;
        QList<int> sizes;
        QByteArray geometry;
        {
            MainWindow window(database->connect(), {});
            window.resize(1300, 700);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QTRY_VERIFY(window.eventModel()->rowCount() > 0);
            window.eventView()->setColumnWidth(EventListModel::TypeColumn, 222);
            QHeaderView *header = window.eventView()->horizontalHeader();
            header->moveSection(header->visualIndex(EventListModel::LastErrorColumn),
                1); // the error second
            window.eventView()->sortByColumn(EventListModel::FailuresColumn, Qt::DescendingOrder);
            window.splitter()->setSizes({700, 480});
            sizes = window.splitter()->sizes();
            window.filterBar()->setFilter(dead);
            window.intervalBox()->setValue(7);
            geometry = window.saveGeometry();
            QVERIFY(window.close());
        }
        LastDatabase last;
        last.url = database->url();
        if (engine == u"postgresql"_qs) {
            // The URL as typed with a password: it never reaches the settings.
            const int at = last.url.indexOf(u'@');
            if (at > 0)
                last.url.insert(at, u":s3cret"_qs);
            else
                last.url.replace(u"://"_qs, u"://postgres:s3cret@"_qs);
        }
        last.readOnly = true;
        WindowSettings::saveLastDatabase(last);

        MainWindow window(database->connect(), {});
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCOMPARE(window.size(), QSize(1300, 700));
        QCOMPARE(window.eventView()->columnWidth(EventListModel::TypeColumn), 222);
        QCOMPARE(
            window.eventView()->horizontalHeader()->visualIndex(EventListModel::LastErrorColumn),
            1);
        QCOMPARE(window.eventView()->horizontalHeader()->sortIndicatorSection(),
            int(EventListModel::FailuresColumn));
        QCOMPARE(window.eventModel()->sortColumn(), int(EventListModel::FailuresColumn));
        QCOMPARE(window.splitter()->sizes(), sizes);
        QCOMPARE(window.filterBar()->filter(), dead);
        QTRY_COMPARE(window.eventModel()->rowCount(), 5); // DEAD only
        QCOMPARE(window.monitor()->interval(), 7000);
        QCOMPARE(window.intervalBox()->value(), 7);
        QVERIFY(window.findChild<ActiveFilterBar *>()->text().contains(u"State: DEAD"_qs));

        const auto remembered = WindowSettings::lastDatabase();
        QVERIFY(remembered);
        QVERIFY(!remembered->demo);
        QVERIFY(remembered->readOnly);
        QVERIFY2(!remembered->url.contains(u"s3cret"_qs), qPrintable(remembered->url));
        QVERIFY(!QSettings().allKeys().isEmpty());
        for (const QString &key : QSettings().allKeys()) {
            QVERIFY2(!QSettings().value(key).toString().contains(u"s3cret"_qs), qPrintable(key));
        }
        QCOMPARE(remembered->url, DatabaseUrl::parse(last.url, nullptr).toStorableString());
    }

    void filterIsRememberedPerDatabase_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }

    // `--state dead` on one outbox once opened the next database (the demo) on "No events match
    // state dead": each database comes back with its own filter, a new one with none.
    void filterIsRememberedPerDatabase()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(orders, engine);
        FRESH_DATABASE(billing, engine);
        for (const TestDatabase *database : {orders.get(), billing.get()}) {
            const auto setup = database->initialise();
            QVERIFY(parkEvents(setup->database(), 3)); // 3 DEAD and 1 delivered
        }
        EventFilter dead;
        dead.state = EventFilter::State::Dead;
        {
            MainWindow window(orders->connect(), {});
            window.show();
            QTRY_COMPARE(window.eventModel()->rowCount(), 4);
            window.filterBar()->setFilter(dead);
            QTRY_COMPARE(window.eventModel()->rowCount(), 3);
            QVERIFY(window.close());
        }
        {
            MainWindow window(billing->connect(), {});
            window.show();
            QCOMPARE(window.filterBar()->filter(), EventFilter());
            QTRY_COMPARE(window.eventModel()->rowCount(), 4); // every event, not "No events match"
            QVERIFY(window.close());
        }
        MainWindow window(orders->connect(), {});
        window.show();
        QCOMPARE(window.filterBar()->filter(), dead);
        QTRY_COMPARE(window.eventModel()->rowCount(), 3);
    }

    void bannersMoveNothing_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }

    // The stale banner and the alert bar appear under the pages: the tiles and the event table's
    // top stay where the pointer found them (a banner once pushed them down 76 px), and they
    // cover nothing of the page (floating over its bottom edge, they hid the last rows).
    void bannersMoveNothing()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        QVERIFY(parkEvents(setup->database(), 3));
        MainWindow window(database->connect(), {});
        window.resize(Laptop);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_COMPARE(window.eventModel()->rowCount(), 4);
        QTRY_VERIFY(window.monitor()->hasSnapshot());
        const QRect tiles = globalRect(window.tiles());
        const QRect table = globalRect(window.eventView());
        auto *banner = window.findChild<StaleBanner *>(u"staleBanner"_qs);
        QVERIFY(banner);
        QVERIFY(!banner->isVisible());

        // The health figures can no longer be read: stale.
        QSqlQuery rename(setup->database());
        bool renamed = false; // once no read holds the table
        QTRY_VERIFY2((renamed = renamed
                             || rename.exec(
                                 u"ALTER TABLE delivery_outbox RENAME TO delivery_outbox_gone"_qs)),
            qPrintable(rename.lastError().text()));
        window.monitor()->refreshNow();
        QTRY_VERIFY(banner->isVisible());
        window.alertBar()->addAlert(u"shop"_qs, u"40 DEAD events"_qs);
        QTRY_VERIFY(window.alertBar()->isVisible());
        // The event list cannot be read either: its rows stay, the reason under them on one line
        // (a long server error once wrapped to three and pushed the table's bottom up 28 px).
        bool refreshed = false; // once no other read of the list runs
        QTRY_VERIFY(refreshed = refreshed || window.eventModel()->refresh());
        QTRY_VERIFY(!window.eventModel()->lastError().isEmpty());
        QCOMPARE(window.eventModel()->rowCount(), 4);
        const auto *reason = window.findChild<QLabel *>(u"eventMessageLabel"_qs);
        QVERIFY(reason && reason->isVisible() && !reason->text().isEmpty());
        QVERIFY2(
            reason->toolTip().contains(u"could not be read"_qs), qPrintable(reason->toolTip()));
        QApplication::sendPostedEvents(); // any layout the banners and the reason asked for
        QCOMPARE(globalRect(window.tiles()), tiles);
        QCOMPARE(globalRect(window.eventView()).topLeft(), table.topLeft());
        QCOMPARE(globalRect(window.eventView()).width(), table.width());
        // Shown whole, inside the window, under the pages: covering none of them.
        const QRect pages = globalRect(window.pages());
        for (const QWidget *shown :
            {static_cast<QWidget *>(banner), static_cast<QWidget *>(window.alertBar())}) {
            QVERIFY2(globalRect(&window).contains(globalRect(shown)),
                shown->metaObject()->className());
            QVERIFY2(!pages.intersects(globalRect(shown)), shown->metaObject()->className());
            QVERIFY2(globalRect(shown).top() > pages.bottom(), shown->metaObject()->className());
            // As tall as its lines need (the countdown rewrites the stale banner's each second).
            QTRY_VERIFY(shown->height() >= (shown->hasHeightForWidth()
                                ? shown->heightForWidth(shown->width())
                                : shown->sizeHint().height()));
        }
        QVERIFY(!globalRect(banner).intersects(globalRect(window.alertBar())));
    }

    void markupInDatabaseTextShowsLiterally_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }

    // An event ID and an error holding tags read as written in every label of the window: never
    // bold, never swallowed as an unknown tag.
    void markupInDatabaseTextShowsLiterally()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        const QString id = u"<b>EVQ7</b>"_qs;
        {
            OutboxStore store(setup->database());
            const qint64 now = QDateTime::currentMSecsSinceEpoch() - 60000;
            QVERIFY(store.insertEvent(
                {id, u"Order"_qs, u"<i>A-1</i>"_qs, u"Created"_qs, u"{}"_qs, now}));
            const ClaimResult claim = store.claim(id, u"w"_qs, now);
            QVERIFY(store.fail(claim.claim, now, ErrorCategory::Permanent, u"<i>boomz</i>"_qs).ok);
        }
        MainWindow window(database->connect(), {});
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_COMPARE(window.eventModel()->rowCount(), 1);
        QVERIFY(window.selectEvent(id));
        QTRY_VERIFY(shownText(window.findChild<QLabel *>(u"eventSummary"_qs)).contains(id));
        const QString summary = shownText(window.findChild<QLabel *>(u"eventSummary"_qs));
        QVERIFY2(summary.contains(u"<i>boomz</i>"_qs), qPrintable(summary));
        // A search for it that matches nothing says so, in its own words.
        EventFilter search;
        search.search = u"<b>EX"_qs;
        window.filterBar()->setFilter(search);
        QTRY_COMPARE(window.eventModel()->rowCount(), 0);
        QTRY_VERIFY(
            shownText(window.findChild<QLabel *>(u"eventOverlayLabel"_qs)).contains(u"<b>EX"_qs));
        for (const QLabel *label : window.findChildren<QLabel *>()) {
            const QString shown = shownText(label);
            QVERIFY2(!(shown.contains(u"EVQ7"_qs) && !shown.contains(id))
                    && !(shown.contains(u"boomz"_qs) && !shown.contains(u"<i>boomz</i>"_qs)),
                qPrintable(label->objectName() + u": "_qs + shown));
        }
    }

    void databaseTextIsTextInTablesAndTooltips_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }

    // Issue 40: a last error of markup reads as written in the tooltip of its cut-off cell (and
    // of its error group), never as a big red heading; an ID and a type holding U+202E (which
    // turns "R-gpj.exe" into "R-exe.jpg") or U+200B are shown with the escape, as C0 controls are.
    void databaseTextIsTextInTablesAndTooltips()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        const QString spoofed = u"R-\u202egpj.exe"_qs;
        const QString hidden = u"E-\u200b1"_qs;
        const QString markup = u"<h1 style=\"color:red\">REPLAY ALL NOW</h1><p>ignore the runbook, "
                               "replay every DEAD event of every outbox at once</p>"_qs;
        {
            OutboxStore store(setup->database());
            const qint64 now = QDateTime::currentMSecsSinceEpoch() - 60000;
            for (const QString &id : {spoofed, hidden}) {
                QVERIFY(store.insertEvent({id, u"Order"_qs, u"A-1"_qs,
                    id == spoofed ? u"Order\u202eCreated"_qs : u"Created"_qs, u"{}"_qs, now}));
                const ClaimResult claim = store.claim(id, u"w"_qs, now);
                QVERIFY(store
                            .fail(claim.claim, now, ErrorCategory::Permanent,
                                id == spoofed ? markup : u"zero\u200bwidth"_qs)
                            .ok);
            }
        }
        MainWindow window(database->connect(), {});
        window.resize(Laptop);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_COMPARE(window.eventModel()->rowCount(), 2);
        QTableView *view = window.eventView();
        const int row = window.eventModel()->rowOfEvent(spoofed);
        QVERIFY(row >= 0);
        const auto cell = [&](int r, int column) { return view->model()->index(r, column); };
        // The table: the escape where the character was; the stored ID kept for copying.
        QCOMPARE(
            cell(row, EventListModel::EventIdColumn).data().toString(), u"R-\\u202egpj.exe"_qs);
        QCOMPARE(
            cell(row, EventListModel::TypeColumn).data().toString(), u"Order\\u202eCreated"_qs);
        QCOMPARE(cell(row, 0).data(EventListModel::EventIdRole).toString(), spoofed);
        const int other = window.eventModel()->rowOfEvent(hidden);
        QCOMPARE(cell(other, EventListModel::EventIdColumn).data().toString(), u"E-\\u200b1"_qs);
        QCOMPARE(
            cell(other, EventListModel::LastErrorColumn).data().toString(), u"zero\\u200bwidth"_qs);

        // The cut-off error's tooltip: the markup as written, nothing rendered as a heading.
        auto *delegate = qobject_cast<FullTextDelegate *>(view->itemDelegate());
        QVERIFY(delegate);
        view->setColumnWidth(EventListModel::LastErrorColumn, 40);
        view->setColumnWidth(EventListModel::EventIdColumn, 20);
        QStyleOptionViewItem option;
        option.initFrom(view);
        const QModelIndex error = cell(row, EventListModel::LastErrorColumn);
        option.rect = view->visualRect(error);
        const QString tip = delegate->toolTipFor(option, error);
        QCOMPARE(shownToolTip(tip), markup);
        QTextDocument rendered;
        rendered.setHtml(tip);
        QVERIFY2(!rendered.toHtml().contains(u"<h1"_qs), qPrintable(rendered.toHtml()));
        const QModelIndex id = cell(row, EventListModel::EventIdColumn);
        option.rect = view->visualRect(id);
        QCOMPARE(shownToolTip(delegate->toolTipFor(option, id)), u"R-\\u202egpj.exe"_qs);

        // The Errors page's group: its signature and example the same way.
        window.showTab(u"errors"_qs);
        const auto *errors = window.findChild<ErrorsPage *>();
        QVERIFY(errors);
        QTRY_COMPARE(errors->view()->model()->rowCount(), 2);
        QStringList groupTips;
        for (int r = 0; r < errors->view()->model()->rowCount(); ++r)
            groupTips << shownToolTip(
                errors->view()->model()->index(r, 0).data(Qt::ToolTipRole).toString());
        QVERIFY2(groupTips.join(u'\n').contains(u"e.g. "_qs + markup),
            qPrintable(groupTips.join(u'\n')));
        QVERIFY2(groupTips.join(u'\n').contains(u"zero\\u200bwidth"_qs),
            qPrintable(groupTips.join(u'\n')));

        // A widget's tooltip quoting a server (here set by hand) is shown as written too.
        window.showTab(u"events"_qs);
        QLabel *label = window.findChild<QLabel *>(u"eventSummary"_qs);
        QVERIFY(label);
        label->setToolTip(markup);
        QHelpEvent help(QEvent::ToolTip, QPoint(1, 1), label->mapToGlobal(QPoint(1, 1)));
        QApplication::sendEvent(label, &help);
        QTRY_VERIFY(QToolTip::isVisible());
        QCOMPARE(shownToolTip(QToolTip::text()), markup);
        QToolTip::hideText();
    }

    void shortcutsDoWhatTheySay()
    {
        FRESH_DATABASE(database, u"sqlite"_qs);
        const auto setup = database->initialise();
        QVERIFY(parkEvents(setup->database(), 5));
        MainWindow window(database->connect(), {});
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.activateWindow();
        QTRY_COMPARE(window.eventModel()->rowCount(), 6);
        auto *search = window.filterBar()->findChild<QLineEdit *>(u"searchFilter"_qs);
        QVERIFY(search);

        // Ctrl+F: the Find event field has the focus; an ID and Enter show that event and
        // filter nothing.
        window.eventView()->setFocus();
        QTest::keyClick(&window, Qt::Key_F, Qt::ControlModifier);
        QLineEdit *find = window.filterBar()->findField();
        QTRY_VERIFY(find->hasFocus());
        QTest::keyClicks(find, u"P-0003"_qs);
        QTest::keyClick(find, Qt::Key_Return);
        QTRY_COMPARE(window.detailPane()->eventId(), u"P-0003"_qs);
        QCOMPARE(window.filterBar()->filter(), EventFilter());
        // Typing in the search field filters.
        search->setFocus();
        QTest::keyClicks(search, u"P-0003"_qs);
        QTRY_COMPARE(window.eventModel()->rowCount(), 1);
        // Esc: the search is cleared, every event back.
        QTest::keyClick(search, Qt::Key_Escape);
        QCOMPARE(search->text(), QString());
        QTRY_COMPARE(window.eventModel()->rowCount(), 6);

        // Ctrl+C in the table: the selected events' IDs, one a line.
        window.eventView()->setFocus();
        window.eventView()->selectionModel()->clearSelection();
        for (const QString &id : {u"P-0002"_qs, u"P-0004"_qs}) {
            window.eventView()->selectionModel()->select(
                window.eventView()->model()->index(window.eventModel()->rowOfEvent(id), 0),
                QItemSelectionModel::Select | QItemSelectionModel::Rows);
        }
        QApplication::clipboard()->clear();
        QTest::keyClick(window.eventView(), Qt::Key_C, Qt::ControlModifier);
        QStringList copied = QApplication::clipboard()->text().split(u'\n');
        copied.sort();
        QCOMPARE(copied, QStringList({u"P-0002"_qs, u"P-0004"_qs}));

        // F5 asks for a snapshot now.
        QSignalSpy snapshots(window.monitor(), &HealthMonitor::snapshotChanged);
        QTest::keyClick(window.eventView(), Qt::Key_F5);
        QVERIFY(snapshots.wait());

        // The menus carry the standard keys.
        QCOMPARE(menuAction(window.menuBar(), u"fileMenu"_qs, u"Quit"_qs)->shortcut(),
            QKeySequence(QKeySequence::Quit));
        QCOMPARE(menuAction(window.menuBar(), u"fileMenu"_qs, u"Export events"_qs)->shortcut(),
            QKeySequence(u"Ctrl+E"_qs));
        QCOMPARE(menuAction(window.menuBar(), u"actionsMenu"_qs, u"Refresh"_qs)->shortcut(),
            QKeySequence(Qt::Key_F5));
        QVERIFY(menuAction(window.menuBar(), u"helpMenu"_qs, u"About"_qs));
        const QString about = window.aboutText();
        QVERIFY(about.contains(QString::fromLatin1(qVersion())));
        QVERIFY(about.contains(window.url().toStorableString().toHtmlEscaped()));
        QVERIFY(about.contains(QCoreApplication::applicationVersion()));

        // View › Refresh interval sets the monitor's interval.
        QAction *every30 = nullptr;
        for (QAction *top : window.menuBar()->actions()) {
            if (QMenu *view = top->menu(); view && view->objectName() == u"viewMenu"_qs) {
                for (QAction *entry : view->actions()) {
                    if (entry->menu()) {
                        for (QAction *choice : entry->menu()->actions()) {
                            if (choice->data().toInt() == 30)
                                every30 = choice;
                        }
                    }
                }
            }
        }
        QVERIFY(every30);
        every30->trigger();
        QCOMPARE(window.monitor()->interval(), 30000);
    }

    void contextMenuDoesWhatItSays()
    {
        FRESH_DATABASE(database, u"sqlite"_qs);
        const auto setup = database->initialise();
        QVERIFY(parkEvents(setup->database(), 5));
        MainWindow window(database->connect(), {});
        window.show();
        QTRY_COMPARE(window.eventModel()->rowCount(), 6);
        QTableView *view = window.eventView();
        const auto rowOf = [&](const QString &id) {
            return view->model()->index(window.eventModel()->rowOfEvent(id), 0);
        };

        std::unique_ptr<QMenu> menu(window.tableMenu()->menuFor(rowOf(u"P-0003"_qs)));
        QCOMPARE(view->currentIndex().data(EventListModel::EventIdRole).toString(), u"P-0003"_qs);
        QApplication::clipboard()->clear();
        contextAction(menu.get(), u"Copy event ID"_qs)->trigger();
        QCOMPARE(QApplication::clipboard()->text(), u"P-0003"_qs);
        QVERIFY(contextAction(menu.get(), u"Replay selected"_qs));
        QVERIFY(contextAction(menu.get(), u"Replay selected"_qs)->isEnabled()); // DEAD
        window.showTab(u"charts"_qs);
        QCOMPARE(window.currentPage(), u"overview"_qs);
        contextAction(menu.get(), u"Show attempts"_qs)->trigger();
        QCOMPARE(window.currentPage(), u"events"_qs);
        QVERIFY(window.detailPane()->isVisible());

        // Filter by this error: its error group (the signature), the table and the chips follow.
        contextAction(menu.get(), u"Filter by this error"_qs)->trigger();
        QCOMPARE(window.filterBar()->filter().errorSignature, u"schema"_qs);
        QTRY_COMPARE(window.eventModel()->rowCount(), 5);
        auto *active = window.findChild<ActiveFilterBar *>();
        QVERIFY2(active->text().contains(u"Error: schema"_qs), qPrintable(active->text()));

        // Filter by this type: exactly that event type.
        const QString type
            = rowOf(u"P-0003"_qs).siblingAtColumn(EventListModel::TypeColumn).data().toString();
        menu.reset(window.tableMenu()->menuFor(rowOf(u"P-0003"_qs)));
        contextAction(menu.get(), u"Filter by this type"_qs)->trigger();
        QCOMPARE(window.filterBar()->filter().eventType, type);
        QVERIFY2(active->text().contains(u"Type: "_qs + type), qPrintable(active->text()));
        QTRY_VERIFY(!window.eventModel()->isLoading() && window.eventModel()->rowCount() > 0);
        for (int row = 0; row < window.eventModel()->rowCount(); ++row)
            QCOMPARE(window.eventModel()->index(row, EventListModel::TypeColumn).data().toString(),
                type);

        // One click clears the whole filter.
        QTest::mouseClick(active->clearButton(), Qt::LeftButton);
        QCOMPARE(window.filterBar()->filter(), EventFilter());
        QTRY_COMPARE(window.eventModel()->rowCount(), 6);
        QVERIFY(active->chips().isEmpty() && active->text().isEmpty());
    }

    void tileClickFiltersTheTable_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }

    void tileClickFiltersTheTable()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        QVERIFY(parkEvents(setup->database(), 5));
        MainWindow window(database->connect(), {});
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTRY_COMPARE(window.eventModel()->rowCount(), 6);
        QTRY_COMPARE(window.tiles()->valueText(HealthTiles::Tile::Dead), u"5"_qs);
        QTest::mouseClick(window.tiles()->tileWidget(HealthTiles::Tile::Dead), Qt::LeftButton);
        QCOMPARE(window.filterBar()->filter().state, EventFilter::State::Dead);
        QTRY_COMPARE(window.eventModel()->rowCount(), 5);
        auto *active = window.findChild<ActiveFilterBar *>();
        QVERIFY(active->isVisible());
        QVERIFY2(active->text().contains(u"State: DEAD"_qs), qPrintable(active->text()));
        QTest::mouseClick(window.tiles()->tileWidget(HealthTiles::Tile::Delivered), Qt::LeftButton);
        QTRY_COMPARE(window.eventModel()->rowCount(), 1);
        QCOMPARE(window.eventModel()->eventIdAt(0), u"P-0000"_qs);
        QTest::mouseClick(active->clearButton(), Qt::LeftButton);
        QTRY_COMPARE(window.eventModel()->rowCount(), 6);
    }

    // The rail, the View menu and Ctrl+1…8 show each page (Teach on a simulation database);
    // the old tab names still work; a tile
    // clicked on another page lands on Events; an older version's splitter key is ignored.
    void pagesSwitchFromTheRailMenuAndShortcuts()
    {
        FRESH_DATABASE(database, u"sqlite"_qs);
        const auto setup = database->initialise();
        QVERIFY(parkEvents(setup->database(), 5));
        QSettings().setValue(u"window/splitter"_qs, QByteArray("an older version's tab pane"));
        MainWindow window(database->connect(), {});
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.activateWindow();
        QCOMPARE(window.currentPage(), u"events"_qs); // it opens on the events
        QVERIFY(window.eventView()->isVisible() && window.detailPane()->isVisible());
        const QStringList pages = {u"overview"_qs, u"events"_qs, u"errors"_qs, u"diagnosis"_qs,
            u"audit"_qs, u"lifecycle"_qs, u"policy"_qs, u"teach"_qs};
        QCOMPARE(window.pages()->pageKeys(), pages);
        auto *view = window.findChild<QMenu *>(u"viewMenu"_qs);
        QVERIFY(view);
        for (int i = 0; i < int(pages.size()); ++i) {
            QAction *entry = view->actions().at(i); // View lists them first, in order
            QCOMPARE(entry->shortcut(), QKeySequence(u"Ctrl+%1"_qs.arg(i + 1)));
            QCOMPARE(entry->text(), window.pages()->rail()->item(i)->text());
            QTest::keyClick(&window, Qt::Key(Qt::Key_1 + i), Qt::ControlModifier);
            QCOMPARE(window.currentPage(), pages.at(i));
            QVERIFY(window.pages()->page(pages.at(i))->isVisible());
            QCOMPARE(window.pages()->rail()->currentRow(), i);
        }
        window.pages()->rail()->setCurrentRow(2); // a click on the rail
        QCOMPARE(window.currentPage(), u"errors"_qs);
        window.showTab(u"detail"_qs);
        QCOMPARE(window.currentPage(), u"events"_qs);
        window.showTab(u"charts"_qs);
        QCOMPARE(window.currentPage(), u"overview"_qs);
        QCOMPARE(MainWindow::pageForName(u"no-such-page"_qs), QString());

        QTRY_COMPARE(window.tiles()->valueText(HealthTiles::Tile::Dead), u"5"_qs);
        QTest::mouseClick(window.tiles()->tileWidget(HealthTiles::Tile::Dead), Qt::LeftButton);
        QCOMPARE(window.currentPage(), u"events"_qs);
        QTRY_COMPARE(window.eventModel()->rowCount(), 5);
        QVERIFY(window.splitter()->sizes().constFirst() > 0); // the old key restored nothing
        QVERIFY(window.close());
        QVERIFY(!QSettings().contains(u"window/splitter"_qs));
        QVERIFY(QSettings().contains(u"window/eventsSplitter"_qs));
    }

private:
    QTemporaryDir m_config;
};

OUTBOX_TEST_MAIN(TestWindowUsability, QApplication)
#include "tst_windowusability.moc"
