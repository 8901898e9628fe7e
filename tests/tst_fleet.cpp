// The fleet view and desktop alerts in real windows over real databases (offscreen, both
// engines): one row per outbox with its figures, worst first (a down outbox and a bad line of the
// file above a red one above a healthy one), no password anywhere, an alert bar (no tray under
// offscreen) when an outbox of the fleet or a single window's tile turns red, Mute remembered,
// and a double-click that opens the outbox in its own window.
#include "alertbar.h"
#include "alertdecider.h"
#include "dashboardapp.h"
#include "diagnosismonitor.h"
#include "diagnosisquery.h"
#include "fixturescript.h"
#include "fleetconfig.h"
#include "fleetmodel.h"
#include "fleetproxy.h"
#include "fleetwindow.h"
#include "healthmonitor.h"
#include "healthtiles.h"
#include "hostilefile.h"
#include "mainwindow.h"
#include "parkedevents.h"
#include "passwordrole.h"
#include "stalebanner.h"
#include "testdata.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QElapsedTimer>
#include <QMenu>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSqlQuery>
#include <QSystemTrayIcon>
#include <QTableView>
#include <QTemporaryDir>

namespace {

QString downUrl(const QString &engine)
{
    return engine == QLatin1String("sqlite") ? u"sqlite:/nonexistent-dir/outbox.sqlite"_qs
                                             : u"postgresql://monitor:s3cret@127.0.0.1:1/shop"_qs;
}

// Every text the model shows, in every role a user sees.
QString everything(const QAbstractItemModel &model)
{
    QString all;
    for (int row = 0; row < model.rowCount(); ++row) {
        for (int column = 0; column < model.columnCount(); ++column) {
            const QModelIndex index = model.index(row, column);
            all += index.data().toString() + QLatin1Char('\n')
                + index.data(Qt::ToolTipRole).toString() + QLatin1Char('\n');
        }
    }
    return all;
}

QString column(const QAbstractItemModel &model, int column)
{
    QStringList values;
    for (int row = 0; row < model.rowCount(); ++row)
        values << model.index(row, column).data().toString();
    return values.join(QLatin1Char('|'));
}

bool writeFile(const QString &path, const QString &text)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(text.toUtf8()) > 0;
}

// Opens `path` in a fleet view (read off the GUI thread) and waits for the answer: empty when
// the view opened, else the error it gave.
QString openFleet(DashboardApp &app, const QString &path)
{
    QSignalSpy opened(&app, &DashboardApp::fleetOpened);
    QSignalSpy failed(&app, &DashboardApp::fleetOpenFailed);
    app.openFleet(path);
    if (!QTest::qWaitFor([&] { return !opened.isEmpty() || !failed.isEmpty(); }, 15000))
        return u"no answer within 15 s"_qs;
    return failed.isEmpty() ? QString() : failed.constFirst().constFirst().toString();
}

} // namespace

class TestFleet : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_settings.isValid());
        QCoreApplication::setOrganizationName(u"OutboxHealthTest"_qs);
        QCoreApplication::setApplicationName(u"Outbox Health"_qs);
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settings.path());
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_settings.path());
        // Offscreen has no system tray: the alert bar is the path under test.
        QVERIFY(!QSystemTrayIcon::isSystemTrayAvailable());
        qRegisterMetaType<FleetWindow *>(); // DashboardApp::fleetOpened, as a QSignalSpy records it
    }
    void init() { QSettings().clear(); }

    void rowsWorstFirst_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void rowsWorstFirst()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(healthy, engine);
        FRESH_DATABASE(red, engine);
        healthy->initialise();
        QVERIFY(parkEvents(red->initialise()->database(), 12));
        FleetModel model;
        QAbstractItemModelTester modelTester(&model);
        FleetProxy proxy;
        proxy.setSourceModel(&model);
        QAbstractItemModelTester proxyTester(&proxy);
        model.setLines(
            {u"# the shop's outboxes"_qs, u"shop=%1"_qs.arg(healthy->url()),
                u"orders=%1;profile=native"_qs.arg(red->url()), QString(),
                u"billing=%1"_qs.arg(downUrl(engine)), u"oops"_qs, u"shop=%1"_qs.arg(red->url())},
            u"fleet.conf"_qs);
        model.setInterval(300);
        QCOMPARE(model.rowCount(), 5);
        QCOMPARE(column(model, FleetModel::NameColumn),
            u"shop|orders|billing|fleet.conf:6|fleet.conf:7"_qs);
        model.start();
        // Every outbox answered: up with its figures, or down with the cause.
        QTRY_COMPARE_WITH_TIMEOUT(
            column(model, FleetModel::StatusColumn).count(u"waiting"_qs), 0, 15000);
        QTRY_VERIFY_WITH_TIMEOUT(
            model.index(2, FleetModel::StatusColumn).data().toString() == u"down"_qs, 15000);
        QCOMPARE(model.index(0, FleetModel::StatusColumn).data().toString(), u"up"_qs);
        QCOMPARE(model.index(0, FleetModel::WorstColumn).data().toString(), u"healthy"_qs);
        QCOMPARE(model.index(1, FleetModel::DeadColumn).data().toString(), u"12"_qs);
        QCOMPARE(model.index(1, FleetModel::WorstColumn).data().toString(), u"12 DEAD events"_qs);
        QCOMPARE(model.index(1, FleetModel::WorstColumn).data(FleetModel::LevelRole).toInt(),
            int(HealthGrade::Level::Red));
        QCOMPARE(
            model.index(1, FleetModel::OldestPendingColumn).data().toString(), u"none pending"_qs);
        QCOMPARE(model.index(2, FleetModel::DeadColumn).data().toString(), u"—"_qs);
        // A down outbox and a bad line say why where the worst figure would be.
        QVERIFY(!model.index(2, FleetModel::WorstColumn).data().toString().isEmpty());
        QCOMPARE(model.index(3, FleetModel::StatusColumn).data().toString(), u"not configured"_qs);
        QVERIFY(model.index(3, FleetModel::WorstColumn)
                    .data()
                    .toString()
                    .startsWith(u"expected NAME=URL"_qs));
        QCOMPARE(model.index(4, FleetModel::WorstColumn).data().toString(),
            u"outbox shop is named twice"_qs);
        QCOMPARE(model.stateAt(0), AlertDecider::State::Healthy);
        QCOMPARE(model.stateAt(1), AlertDecider::State::Red);
        QCOMPARE(model.stateAt(2), AlertDecider::State::Down);
        // Worst first: down and the bad lines (file order), red, healthy.
        QCOMPARE(column(proxy, FleetModel::NameColumn),
            u"billing|fleet.conf:6|fleet.conf:7|orders|shop"_qs);
        QVERIFY(!everything(model).contains(u"s3cret"_qs));
        QVERIFY(!everything(proxy).contains(u"s3cret"_qs));
        // The figures' cells in their tile's colours; the down status in red.
        QVERIFY(proxy.index(3, FleetModel::DeadColumn).data(Qt::BackgroundRole).isValid());
        QVERIFY(!proxy.index(4, FleetModel::DeadColumn).data(Qt::BackgroundRole).isValid());
        QVERIFY(proxy.index(0, FleetModel::StatusColumn).data(Qt::BackgroundRole).isValid());

        // Each row reads only the grade's figures; its diagnosis says what the diagnosis engine
        // says of that database, and colours the cell by the worst finding.
        QVERIFY(model.monitorAt(0)->snapshot().isSummary);
        QTRY_COMPARE_WITH_TIMEOUT(model.index(0, FleetModel::DiagnosisColumn).data().toString(),
            u"No findings"_qs, 15000);
        QTRY_VERIFY_WITH_TIMEOUT(model.diagnosisAt(1)->hasResult(), 15000);
        auto connection = red->connect(false);
        QVERIFY(connection);
        QString error;
        const std::optional<DiagnosisResult> expected = DiagnosisQuery::run(
            connection->database(), QDateTime::currentMSecsSinceEpoch(), &error);
        QVERIFY2(expected, qPrintable(error));
        QVERIFY(!expected->findings.isEmpty());
        QCOMPARE(
            model.index(1, FleetModel::DiagnosisColumn).data().toString(), expected->headline());
        const QString tip
            = model.index(1, FleetModel::DiagnosisColumn).data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.startsWith(
                     Finding::severityName(expected->findings.constFirst().severity).toUpper()),
            qPrintable(tip));
        QVERIFY(tip.contains(u"Diagnosed at"_qs));
        QVERIFY(proxy.index(3, FleetModel::DiagnosisColumn).data(Qt::BackgroundRole).isValid());
        QVERIFY(!proxy.index(4, FleetModel::DiagnosisColumn).data(Qt::BackgroundRole).isValid());
        QCOMPARE(model.index(2, FleetModel::DiagnosisColumn).data().toString(), u"—"_qs);
    }

    // A line without ;profile= is read with the profile `outboxctl --db URL` would choose, as
    // serve reads it: another library's outbox shows its figures, not a missing table.
    void entryWithoutProfileIsDetected()
    {
        FRESH_DATABASE(database, u"postgresql"_qs);
        auto connection = database->connect(false);
        QVERIFY(connection);
        QVERIFY(runSqlScript(connection->database(), TestData::path("fixtures/gruelbox.sql")));
        FleetModel model;
        model.setLines({u"legacy=%1"_qs.arg(database->url()),
                           u"named=%1;profile=gruelbox"_qs.arg(database->url())},
            u"fleet.conf"_qs);
        model.start();
        for (const int row : {0, 1}) {
            QTRY_COMPARE_WITH_TIMEOUT(
                model.index(row, FleetModel::StatusColumn).data().toString(), u"up"_qs, 15000);
            QVERIFY(model.profileAt(row));
            QCOMPARE(model.profileAt(row)->name(), u"gruelbox"_qs);
            QCOMPARE(
                model.index(row, FleetModel::DeadColumn).data().toString(), u"1"_qs); // blocked
            // Diagnosed through the profile too: a headline, not a failure.
            QTRY_VERIFY_WITH_TIMEOUT(model.diagnosisAt(row)->hasResult(), 15000);
            QVERIFY2(model.diagnosisAt(row)->lastError().isEmpty(),
                qPrintable(model.diagnosisAt(row)->lastError()));
            QCOMPARE(model.index(row, FleetModel::DiagnosisColumn).data().toString(),
                model.diagnosisAt(row)->result().headline());
        }
    }

    // A diagnosis costs a few snapshots: a fleet row's follows its snapshots at most once a
    // minute, however often they come.
    void diagnosisAtMostOnceAMinute()
    {
        FRESH_DATABASE(red, u"sqlite"_qs);
        QVERIFY(parkEvents(red->initialise()->database(), 3));
        FleetModel model;
        model.setLines({u"orders=%1"_qs.arg(red->url())});
        model.setInterval(100);
        QSignalSpy diagnoses(model.diagnosisAt(0), &DiagnosisMonitor::resultChanged);
        QSignalSpy snapshots(model.monitorAt(0), &HealthMonitor::snapshotChanged);
        model.start();
        QVERIFY(diagnoses.wait(15000));
        // Longer than the spacing the diagnosis's own cost would ask, with snapshots meanwhile.
        QElapsedTimer since;
        since.start();
        const qsizetype snapshotsBefore = snapshots.size();
        const qint64 costSpacingMs
            = DiagnosisMonitor::spacingMs(model.diagnosisAt(0)->lastCostMs());
        QVERIFY(costSpacingMs < FleetModel::DiagnosisSpacingMs / 3);
        QTRY_VERIFY_WITH_TIMEOUT(
            snapshots.size() >= snapshotsBefore + 5 && since.elapsed() > costSpacingMs + 1000,
            FleetModel::DiagnosisSpacingMs / 2);
        QCOMPARE(diagnoses.size(), 1);
    }

    // ... but a row that turns red is diagnosed again at once: its diagnosis never says
    // "No findings" beside 12 DEAD events for a minute.
    void rowTurningRedIsDiagnosedAgain()
    {
        FRESH_DATABASE(database, u"sqlite"_qs);
        const auto connection = database->initialise();
        QVERIFY(connection);
        FleetModel model;
        model.setLines({u"orders=%1"_qs.arg(database->url())});
        model.setInterval(200);
        QSignalSpy diagnoses(model.diagnosisAt(0), &DiagnosisMonitor::resultChanged);
        model.start();
        QVERIFY(diagnoses.wait(15000));
        QTRY_COMPARE_WITH_TIMEOUT(model.index(0, FleetModel::DiagnosisColumn).data().toString(),
            u"No findings"_qs, 15000);
        // Parked one by one: a refresh may see the row amber first, then red; each change
        // diagnoses again, one that comes while a diagnosis runs right after it.
        QVERIFY(parkEvents(connection->database(), 12));
        QTRY_COMPARE_WITH_TIMEOUT(
            model.index(0, FleetModel::WorstColumn).data().toString(), u"12 DEAD events"_qs, 15000);
        // Well within the minute the spacing would otherwise wait.
        const auto explained = [&model] {
            const QString text = model.index(0, FleetModel::DiagnosisColumn).data().toString();
            return text != u"No findings"_qs && text.contains(u"finding"_qs);
        };
        QTRY_VERIFY_WITH_TIMEOUT(explained(), 15000);
        QVERIFY(diagnoses.size() >= 2);
    }

    void fleetAlertBarWhenAnOutboxTurnsRed_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void fleetAlertBarWhenAnOutboxTurnsRed()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(db, engine);
        const auto connection = db->initialise();
        QTemporaryDir dir;
        const QString path = dir.filePath(u"fleet.conf"_qs);
        QVERIFY(writeFile(path, u"orders=%1\n"_qs.arg(db->url())));
        FleetWindow fleet;
        QSignalSpy opened(&fleet, &FleetWindow::opened);
        // Before the file opens: the rows are read every 0.3 s from the start, instead of the
        // first periodic read waiting for its share of the default 5 s.
        fleet.model()->setInterval(300);
        fleet.openFile(path);
        QVERIFY(opened.wait(15000));
        fleet.show();
        QTRY_COMPARE_WITH_TIMEOUT(
            fleet.model()->index(0, FleetModel::StatusColumn).data().toString(), u"up"_qs, 15000);
        QVERIFY(!fleet.alertBar()->isVisible()); // healthy at first sight: no alert
        QVERIFY(parkEvents(connection->database(), 10));
        QTRY_VERIFY_WITH_TIMEOUT(fleet.alertBar()->isVisible(), 15000);
        QCOMPARE(fleet.alertBar()->texts().size(), 1);
        QVERIFY2(fleet.alertBar()->texts().constFirst().startsWith(u"⚠ orders: 10 DEAD events"_qs),
            qPrintable(fleet.alertBar()->texts().constFirst()));
        QVERIFY(fleet.summary().contains(u"1 red"_qs));
        // Once per crossing: later refreshes of the same red outbox add nothing.
        QSignalSpy refreshed(fleet.model(), &FleetModel::outboxUpdated);
        QVERIFY(refreshed.wait(20000));
        QVERIFY(refreshed.wait(20000));
        QCOMPARE(fleet.alertBar()->texts().size(), 1);
        // Mute: the bar empties, the name says so, and the settings remember it.
        auto *mute = fleet.alertBar()->findChild<QPushButton *>(u"alertMute"_qs);
        QVERIFY(mute);
        mute->click();
        QTRY_VERIFY(!fleet.alertBar()->isVisible());
        QVERIFY(AlertDecider::isMuted(u"orders"_qs));
        QTRY_COMPARE(fleet.proxy()->index(0, FleetModel::NameColumn).data().toString(),
            u"orders (muted)"_qs);
    }

    void windowAlertBarWhenATileTurnsRed_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void windowAlertBarWhenATileTurnsRed()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(db, engine);
        const auto connection = db->initialise();
        WindowOptions options;
        options.outboxName = u"shop"_qs;
        MainWindow window(connection->url(), options);
        window.monitor()->setInterval(300);
        window.show();
        QTRY_VERIFY_WITH_TIMEOUT(window.monitor()->hasSnapshot(), 15000);
        QVERIFY(!window.alertBar()->isVisible());
        QVERIFY(parkEvents(connection->database(), 10));
        QTRY_VERIFY_WITH_TIMEOUT(window.alertBar()->isVisible(), 15000);
        QVERIFY(window.alertBar()->texts().constFirst().startsWith(u"⚠ shop: 10 DEAD events"_qs));
        // Dismissed, it stays away while the tile stays red.
        auto *dismiss = window.alertBar()->findChild<QWidget *>(u"alertDismiss"_qs);
        QVERIFY(dismiss);
        QMetaObject::invokeMethod(dismiss, "click");
        QTRY_VERIFY(!window.alertBar()->isVisible());
        QSignalSpy snapshots(window.monitor(), &HealthMonitor::snapshotChanged);
        QVERIFY(snapshots.wait(20000));
        QVERIFY(snapshots.wait(20000));
        QVERIFY(!window.alertBar()->isVisible());
    }

    // The alert bar's row follows the figure: the DEAD tile grows from 10 to 15 and the row says
    // 15, keeping the time it was given; once the outbox is healthy the row says so.
    void windowAlertBarFollowsTheFigure_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void windowAlertBarFollowsTheFigure()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(db, engine);
        const auto connection = db->initialise();
        QVERIFY(connection);
        WindowOptions options;
        options.outboxName = u"shop"_qs;
        MainWindow window(connection->url(), options);
        window.monitor()->setInterval(300);
        window.show();
        QTRY_VERIFY_WITH_TIMEOUT(window.monitor()->hasSnapshot(), 15000);
        QVERIFY(parkEvents(connection->database(), 10));
        QTRY_VERIFY_WITH_TIMEOUT(window.alertBar()->isVisible(), 15000);
        const QString first = window.alertBar()->texts().value(0);
        QVERIFY2(first.startsWith(u"⚠ shop: 10 DEAD events  ("_qs), qPrintable(first));
        const QString given = first.mid(first.lastIndexOf(u'(')); // "(HH:mm:ss)"
        for (int i = 0; i < 5; ++i)
            QVERIFY(QSqlQuery(connection->database())
                        .exec(u"INSERT INTO delivery_outbox (event_id, aggregate_type, aggregate_id,"
                              " event_type, payload, status, failures, next_attempt_at, created_at)"
                              " VALUES ('M-%1', 'Order', 'M-%1', 'T', '{}', 'DEAD', 3, 0, 0)"_qs
                                  .arg(i)));
        QTRY_COMPARE_WITH_TIMEOUT(window.tiles()->valueText(HealthTiles::Tile::Dead), u"15"_qs, 15000);
        QTRY_COMPARE(window.alertBar()->texts(), QStringList {u"⚠ shop: 15 DEAD events  "_qs + given});

        QVERIFY(QSqlQuery(connection->database())
                    .exec(u"UPDATE delivery_outbox SET status = 'DELIVERED', delivered_at = %1"
                          " WHERE status = 'DEAD'"_qs.arg(QDateTime::currentMSecsSinceEpoch())));
        QTRY_VERIFY_WITH_TIMEOUT(
            window.alertBar()->texts().value(0).startsWith(u"✓ shop: healthy again"_qs), 15000);
        QCOMPARE(window.alertBar()->texts().size(), 1);
    }

    // A window mutes and unmutes its outbox from View › Mute desktop alerts, which follows a
    // mute made elsewhere (the bar's Mute, the fleet's row menu) each time the menu opens.
    void windowMutesFromTheViewMenu()
    {
        FRESH_DATABASE(db, u"sqlite"_qs);
        const auto connection = db->initialise();
        QVERIFY(connection);
        AlertDecider::setMuted(u"shop"_qs, true); // muted in an earlier session
        WindowOptions options;
        options.outboxName = u"shop"_qs;
        MainWindow window(connection->url(), options);
        window.monitor()->setInterval(300);
        window.show();
        auto *mute = window.findChild<QAction *>(u"muteAlertsAction"_qs);
        QVERIFY(mute);
        QCOMPARE(mute->text(), u"&Mute desktop alerts for shop"_qs);
        QVERIFY(mute->isChecked());
        mute->trigger(); // unmute
        QVERIFY(!AlertDecider::isMuted(u"shop"_qs));
        QTRY_VERIFY_WITH_TIMEOUT(window.monitor()->hasSnapshot(), 15000);
        QVERIFY(parkEvents(connection->database(), 10));
        QTRY_VERIFY_WITH_TIMEOUT(window.alertBar()->isVisible(), 15000);
        mute->trigger(); // mute: the outbox's alert goes with it
        QVERIFY(AlertDecider::isMuted(u"shop"_qs));
        QTRY_VERIFY(!window.alertBar()->isVisible());
        // Unmuted elsewhere: the menu shows it when it opens.
        AlertDecider::setMuted(u"shop"_qs, false);
        auto *view = window.findChild<QMenu *>(u"viewMenu"_qs);
        QVERIFY(view);
        emit view->aboutToShow();
        QVERIFY(!mute->isChecked());
        QVERIFY(!AlertDecider::isMuted(u"shop"_qs));
    }

    void doubleClickOpensTheOutboxWindow()
    {
        QString skip, fail;
        const auto db = TestDatabase::create(u"sqlite"_qs, &skip, &fail);
        QVERIFY(db);
        QVERIFY(parkEvents(db->initialise()->database(), 3));
        QTemporaryDir dir;
        const QString path = dir.filePath(u"fleet.conf"_qs);
        QVERIFY(writeFile(path, u"orders=%1\n"_qs.arg(db->url())));
        DashboardApp app;
        QCOMPARE(openFleet(app, path), QString());
        FleetWindow *fleet = app.fleetWindow();
        QVERIFY(fleet);
        QVERIFY(QTest::qWaitForWindowExposed(fleet));
        QTableView *view = fleet->view();
        const QRect cell = view->visualRect(fleet->proxy()->index(0, FleetModel::NameColumn));
        const auto openWindows = [] {
            QList<MainWindow *> windows;
            for (QWidget *w : QApplication::topLevelWidgets()) {
                if (auto *main = qobject_cast<MainWindow *>(w); main && main->isVisible())
                    windows << main;
            }
            return windows;
        };
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, cell.center());
        QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, cell.center());
        QTRY_COMPARE(openWindows().size(), 1); // one double-click, one window
        MainWindow *window = openWindows().constFirst();
        // Again, and with Enter: the open window comes to the front, no second one opens.
        window->showMinimized();
        QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, cell.center());
        QTest::keyClick(view, Qt::Key_Return);
        QCOMPARE(openWindows().size(), 1);
        QTRY_VERIFY(!window->isMinimized());
        QCOMPARE(window->url().toDisplayString(), db->url());
        QVERIFY(window->windowTitle().contains(u"orders"_qs));
        QCOMPARE(window->outboxName(), u"orders"_qs);
        QCOMPARE(window->currentPage(), u"events"_qs); // its events, the detail beside them
        QVERIFY(window->eventView()->isVisible());
        QTRY_COMPARE_WITH_TIMEOUT(window->monitor()->hasSnapshot(), true, 15000);
        QCOMPARE(window->monitor()->snapshot().counts.dead, 3);
        window->close();
    }

    void unreadableFileIsAnError()
    {
        DashboardApp app;
        const QString error = openFleet(app, u"/nonexistent-dir/fleet.conf"_qs);
        QVERIFY2(error.contains(u"cannot read fleet file /nonexistent-dir/fleet.conf"_qs),
            qPrintable(error));
        QVERIFY(!app.fleetWindow());
    }

    // What stands at the path cannot block the window or exhaust memory: a device, a FIFO (no
    // writer), a directory, a file over 1 MiB, a file with a password that others may read are
    // refused by name, and no fleet window opens.
    void hostileFleetFilesAreRefused_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("message");
        QTest::addRow("/dev/zero")
            << u"/dev/zero"_qs
            << u"not a fleet file: /dev/zero is a character device, not a file"_qs;
        QTest::addRow("a FIFO") << u"fifo"_qs << u"is a FIFO, not a file"_qs;
        QTest::addRow("a directory") << u"dir"_qs << u"is a directory, not a file"_qs;
        QTest::addRow("over 1 MiB") << u"big"_qs << u"is larger than 1 MiB"_qs;
        QTest::addRow("a password others may read")
            << u"exposed"_qs << u"holds a password and has group or world access"_qs;
    }
    void hostileFleetFilesAreRefused()
    {
        QFETCH(QString, kind);
        QFETCH(QString, message);
        QTemporaryDir dir;
        QString path = HostileFile::make(dir, kind);
        if (kind == u"exposed"_qs) {
            path = dir.filePath(u"fleet.conf"_qs);
            QVERIFY(writeFile(path, u"shop=postgresql://op:s3cret@127.0.0.1:1/shop\n"_qs));
            QVERIFY(QFile::setPermissions(
                path, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadOther));
        }
        QVERIFY(!path.isEmpty());
        DashboardApp app;
        const QString error = openFleet(app, path);
        QVERIFY2(error.contains(message), qPrintable(error));
        QVERIFY(!error.contains(u"s3cret"_qs));
        QVERIFY(!app.fleetWindow());
    }

    // The same file, private to its owner (0600), opens.
    void aPrivateFleetFileWithAPasswordOpens()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"fleet.conf"_qs);
        QVERIFY(writeFile(path, u"shop=postgresql://op:s3cret@127.0.0.1:1/shop\n"_qs));
        QVERIFY(QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner));
        FleetModel model;
        QSignalSpy loaded(&model, &FleetModel::loaded);
        QSignalSpy failed(&model, &FleetModel::loadFailed);
        model.loadFile(path);
        QVERIFY(loaded.wait(15000));
        QVERIFY(failed.isEmpty());
        QCOMPARE(model.rowCount(), 1);
        QVERIFY(model.isConfigured(0));
        QVERIFY(!everything(model).contains(u"s3cret"_qs));
    }

    // A wrong password (a real SQLSTATE 28P01) is not retried within every interval as an
    // outage is: the waits double past it (up to 5 min), and the row says so, without the
    // password.
    void wrongPasswordBacksOffAndSaysSo()
    {
        if (qEnvironmentVariableIsEmpty("OUTBOX_TEST_PG_URL"))
            QSKIP("no PostgreSQL server (scripts/test starts one)");
        const QString role = u"outbox_fleet_auth"_qs;
        const QString why = PasswordRole::create(role, u"the-right-one"_qs);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        FleetModel model;
        QAbstractItemModelTester tester(&model);
        model.setLines({u"auth="_qs + PasswordRole::url(role, u"wr0ng-pw"_qs)});
        model.setInterval(300);
        model.start();
        const HealthMonitor *monitor = model.monitorAt(0);
        // An outage's retries wait at most the interval; these go on doubling past it.
        QTRY_VERIFY_WITH_TIMEOUT(
            monitor->currentRetryDelayMs() >= 4 * monitor->adaptedInterval(), 30000);
        QVERIFY(monitor->isAuthenticationFailure());
        QCOMPARE(model.index(0, FleetModel::StatusColumn).data().toString(), u"down"_qs);
        const QString worst = model.index(0, FleetModel::WorstColumn).data().toString();
        QVERIFY2(worst.startsWith(u"the server rejected the user name or password; tries back "
                                  "off, next in "_qs),
            qPrintable(worst));
        QVERIFY(!everything(model).contains(u"wr0ng-pw"_qs));
        // The outbox's window says it too, under its countdown.
        const StaleBanner banner(model.monitorAt(0));
        QVERIFY2(banner.text().startsWith(u"Cannot reach the database: the server rejected the "
                                          "user name or password."_qs),
            qPrintable(banner.text()));
        QVERIFY2(banner.text().endsWith(u"Tries back off, up to one every 5 min."_qs),
            qPrintable(banner.text()));
    }

    // A fleet is at most 1,000 outboxes (a thread and a connection each): 50,000 lines stop at
    // line 1,001 with the cap named; 1,000 lines parse, a repeated name is still found among
    // them, and one profile file named by every line is read (and resolved) once, not for each
    // line (the parser keeps the profiles it resolved).
    void aFleetIsAtMostTheCap()
    {
        QTemporaryDir dir;
        const QString profile = dir.filePath(u"mine.profile"_qs);
        QFile builtIn(u":/profiles/native.profile"_qs);
        QVERIFY(builtIn.open(QIODevice::ReadOnly));
        QVERIFY(writeFile(profile,
            QString::fromUtf8(builtIn.readAll()).replace(u"name = native"_qs, u"name = mine"_qs)));
        QStringList lines;
        for (int i = 0; i < 50000; ++i)
            lines << u"o%1=sqlite:/tmp/o%1.sqlite;profile=%2"_qs.arg(i).arg(profile);
        QList<FleetEntry> entries;
        QString error;
        QVERIFY(!FleetConfig::parseLines(lines, u"fleet.conf"_qs, &entries, &error));
        QCOMPARE(error,
            u"fleet.conf:1001: more than 1000 outboxes: a fleet is at most 1000 (each is read by "
            "a thread and a connection of its own)"_qs);

        entries.clear();
        QVERIFY2(FleetConfig::parseLines(lines.mid(0, 1000), u"fleet.conf"_qs, &entries, &error),
            qPrintable(error));
        QCOMPARE(entries.size(), 1000);
        QCOMPARE(entries.constLast().name, u"o999"_qs);
        QVERIFY(entries.constLast().resolvedProfile);
        QCOMPARE(entries.constLast().resolvedProfile->name(), u"mine"_qs);
        FleetConfig::Parser parser;
        for (const QString &line : lines.mid(0, 1000))
            QVERIFY2(parser.parse(line, &error), qPrintable(error));
        QCOMPARE(parser.profilesResolved(), 1);

        entries.clear();
        QVERIFY(!FleetConfig::parseLines(
            lines.mid(0, 999) << lines.at(5), u"fleet.conf"_qs, &entries, &error));
        QCOMPARE(error, u"fleet.conf:1000: outbox o5 is named twice"_qs);
    }

private:
    QTemporaryDir m_settings;
};

OUTBOX_TEST_MAIN(TestFleet, QApplication)
#include "tst_fleet.moc"
