// How the dashboard starts (DashboardApp, offscreen, both engines): it reopens the last database
// off the GUI thread, a first start opens the demo with its teaching panel, and a database that
// cannot be opened leaves a window naming the cause with Connect… offered, never an exit: in the
// banner's words, with Retry, tried again by itself when the server could not be reached. The
// settings live in a temporary directory; the URL is remembered without its password.
#include "dashboardapp.h"
#include "dbconnection.h"
#include "failurecause.h"
#include "healthmonitor.h"
#include "mainwindow.h"
#include "stalebanner.h"
#include "startwindow.h"
#include "testdatabase.h"
#include "testmain.h"
#include "windowsettings.h"

#include <QDockWidget>
#include <QPointer>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>

class TestStartup : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_config.isValid());
        qRegisterMetaType<MainWindow *>();
        QStandardPaths::setTestModeEnabled(true); // the demo database too stays out of $HOME
        QCoreApplication::setOrganizationName(u"OutboxHealthTest"_qs);
        QCoreApplication::setApplicationName(u"Outbox Health"_qs);
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_config.path());
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_config.path());
    }

    void init() { QSettings().clear(); }

    void unreachableDatabaseShowsTheCause_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("shown");
        QTest::addRow("sqlite, no such file")
            << u"sqlite:/nonexistent-dir/outbox.sqlite"_qs << u"sqlite:/nonexistent-dir"_qs;
        QTest::addRow("postgresql, nothing listening")
            << u"postgresql://monitor:s3cret@127.0.0.1:1/shop"_qs
            << u"postgresql://monitor@127.0.0.1:1/shop"_qs;
    }

    void unreachableDatabaseShowsTheCause()
    {
        QFETCH(QString, url);
        QFETCH(QString, shown);
        DashboardApp app;
        QSignalSpy failed(&app, &DashboardApp::openFailed);
        app.openUrl(url, false);
        // The start window is there at once, saying what it opens: the GUI thread never waited.
        QVERIFY(app.startWindow());
        QVERIFY(app.startWindow()->isVisible());
        QVERIFY(app.startWindow()->message().contains(shown));
        QVERIFY(failed.wait(20000));
        QVERIFY(!app.window());
        StartWindow *start = app.startWindow();
        QVERIFY(start->isVisible());
        const QString cause = failed.at(0).at(0).toString();
        QVERIFY(!cause.isEmpty());
        QVERIFY(start->message().contains(u"Could not open"_qs));
        // The cause in the plain words the window's banner uses; the driver's words behind
        // Details; a server that cannot be reached is tried again by itself, and Retry is there.
        const FailureCause plain = FailureCause::of(cause);
        QVERIFY2(start->message().contains(u"Cannot reach the database: "_qs + plain.plain),
            qPrintable(start->message()));
        QCOMPARE(start->detail(), plain.detail);
        QVERIFY2(!start->message().contains(u"s3cret"_qs), qPrintable(start->message()));
        QVERIFY(!start->detail().contains(u"s3cret"_qs));
        QVERIFY(start->connectButton()->isVisible());
        QVERIFY(start->connectButton()->isEnabled());
        QVERIFY(start->retryButton()->isVisible());
        QVERIFY(start->retryDelayMs() > 0);
        QVERIFY2(start->retryText().startsWith(u"Retrying in "_qs), qPrintable(start->retryText()));
        QVERIFY(!WindowSettings::lastDatabase()); // nothing opened, nothing remembered
    }

    // One outage, one sentence: the start window names an unreachable server as the window's
    // stale banner and the status bar do.
    void startWindowAndBannerNameAnOutageAlike()
    {
        const QString url = u"postgresql://monitor@127.0.0.1:1/shop"_qs;
        DashboardApp app;
        QSignalSpy failed(&app, &DashboardApp::openFailed);
        app.openUrl(url, true);
        QVERIFY(failed.wait(20000));
        HealthMonitor monitor(DatabaseUrl::parse(url, nullptr));
        StaleBanner banner(&monitor);
        monitor.refreshNow();
        QTRY_VERIFY_WITH_TIMEOUT(monitor.isStale() && monitor.isConnectionFailure(), 20000);
        const QString sentence = monitor.failureHeadline() + u"."_qs;
        QVERIFY2(app.startWindow()->message().split(u'\n').value(1) == sentence,
            qPrintable(app.startWindow()->message() + u" | "_qs + sentence));
        QVERIFY2(banner.text().startsWith(sentence), qPrintable(banner.text()));
        QVERIFY(!banner.detail().isEmpty() && !app.startWindow()->detail().isEmpty());
    }

    // A database that answers but cannot be opened (no outbox in it) is not retried by itself:
    // the start window says so, and Retry opens the window once the cause is fixed.
    void retryOpensOnceFixed_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void retryOpensOnceFixed()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        QVERIFY(database->connect(false)); // the database exists, without the outbox's tables
        DashboardApp app;
        QSignalSpy failed(&app, &DashboardApp::openFailed);
        QSignalSpy opened(&app, &DashboardApp::windowOpened);
        app.openUrl(database->url(), false);
        QVERIFY(failed.wait(20000));
        StartWindow *start = app.startWindow();
        QVERIFY(start->isVisible());
        QCOMPARE(start->retryDelayMs(), 0);
        QVERIFY2(start->retryText().startsWith(u"Not retrying by itself"_qs),
            qPrintable(start->retryText()));
        QVERIFY(start->retryButton()->isVisible() && start->retryButton()->isEnabled());

        QVERIFY(database->initialise());
        QTest::mouseClick(start->retryButton(), Qt::LeftButton);
        QVERIFY(opened.wait(20000));
        QVERIFY(app.window());
        QVERIFY(!start->isVisible());
        QCOMPARE(failed.size(), 1);
    }

    void reopensTheLastDatabase_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }

    void reopensTheLastDatabase()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        QVERIFY(database->initialise());
        DatabaseUrl withPassword = DatabaseUrl::parse(database->url(), nullptr);
        QString given = database->url();
        if (engine == u"postgresql"_qs && !given.contains(u'@'))
            given.replace(u"://"_qs,
                u"://"_qs + qEnvironmentVariable("USER", u"postgres"_qs) + u":s3cret@"_qs);
        QPointer<MainWindow> window;
        {
            DashboardApp first;
            first.openUrl(given, true);
            QTRY_VERIFY_WITH_TIMEOUT(first.window(), 20000);
            QVERIFY(first.window()->openOptions().readOnly);
            window = first.window();
        }
        // The window (and its worker threads, a snapshot perhaps still running) goes with the
        // app object, before QApplication: quitting never leaves a worker reading on.
        QVERIFY(window.isNull());
        const auto last = WindowSettings::lastDatabase();
        QVERIFY(last);
        QVERIFY(!last->demo);
        QVERIFY(last->readOnly);
        QVERIFY2(!last->url.contains(u"s3cret"_qs), qPrintable(last->url));
        QCOMPARE(last->url, withPassword.toStorableString());

        DashboardApp next; // a start without --db
        QSignalSpy opened(&next, &DashboardApp::windowOpened);
        next.openLast(false);
        QVERIFY(opened.wait(20000));
        QCOMPARE(next.window()->url().toStorableString(), withPassword.toStorableString());
        QVERIFY(next.window()->openOptions().readOnly);
        // Not the demo: no teaching panel shown, however the database is marked.
        QVERIFY(!next.window()->teachingDock() || !next.window()->teachingDock()->isVisible());
    }

    void firstStartOpensTheDemo()
    {
        QVERIFY(!WindowSettings::lastDatabase());
        const int guiConnections = DbConnection::everOpenedOn(QThread::currentThread());
        DashboardApp app;
        QSignalSpy opened(&app, &DashboardApp::windowOpened);
        app.openLast(false); // the demo database is made on a thread of its own
        QVERIFY(opened.wait(20000));
        QVERIFY(app.window());
        QCOMPARE(DbConnection::everOpenedOn(QThread::currentThread()), guiConnections);
        QVERIFY(app.window()->teachingDock());
        QVERIFY(app.window()->teachingDock()->isVisible());
        const auto last = WindowSettings::lastDatabase();
        QVERIFY(last && last->demo);
        app.window()->close();
    }

private:
    QTemporaryDir m_config;
};

OUTBOX_TEST_MAIN(TestStartup, QApplication)
#include "tst_startup.moc"
