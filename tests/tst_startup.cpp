// How the dashboard starts (DashboardApp, offscreen, both engines): it reopens the last database
// off the GUI thread, a first start opens the demo with its teaching panel, and a database that
// cannot be opened leaves a window naming the cause with Connect… offered, never an exit. The
// settings live in a temporary directory; the URL is remembered without its password.
#include "connectdialog.h"
#include "dashboardapp.h"
#include "dbconnection.h"
#include "mainwindow.h"
#include "startwindow.h"
#include "testdatabase.h"
#include "testmain.h"
#include "windowsettings.h"

#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QLabel>
#include <QPointer>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>

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
        QVERIFY(start->message().contains(cause));
        QVERIFY2(!start->message().contains(u"s3cret"_qs), qPrintable(start->message()));
        QVERIFY(start->connectButton()->isVisible());
        QVERIFY(start->connectButton()->isEnabled());
        QVERIFY(!WindowSettings::lastDatabase()); // nothing opened, nothing remembered
    }

    void connectOpensWithTheChosenProfile_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }

    // Connect… offers the profiles --profile takes; the one chosen is the one opened with (a
    // native outbox refused as pg-boss, then opened as native), and remembered with the URL.
    void connectOpensWithTheChosenProfile()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        QVERIFY(database->initialise());
        DashboardApp app;
        QString refusal;
        QStringList offered;
        int step = 0;
        QTimer answerer; // answers the modal dialog as an operator would
        connect(&answerer, &QTimer::timeout, this, [&] {
            auto *dialog = qobject_cast<ConnectDialog *>(QApplication::activeModalWidget());
            if (!dialog)
                return;
            auto *profiles = dialog->findChild<QComboBox *>(u"profileChoice"_qs);
            const QString error = dialog->findChild<QLabel *>(u"connectError"_qs)->text();
            if (step == 0) {
                for (int i = 0; i < profiles->count(); ++i)
                    offered << profiles->itemText(i);
                dialog->findChild<QComboBox *>()->setEditText(database->url());
                profiles->setCurrentIndex(profiles->findText(u"pg-boss"_qs));
                dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Open)->click();
                step = 1;
            } else if (step == 1 && !error.isEmpty() && error != u"Connecting…"_qs) {
                refusal = error;
                profiles->setCurrentIndex(profiles->findText(u"native"_qs));
                dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Open)->click();
                step = 2;
            }
        });
        answerer.start(20);
        QSignalSpy opened(&app, &DashboardApp::windowOpened);
        app.askForConnection();
        answerer.stop();
        QVERIFY2(offered.size() > 3 && offered.constFirst().startsWith(u"Detected"_qs)
                && offered.contains(u"pg-boss"_qs) && offered.constLast() == u"From file…"_qs,
            qPrintable(offered.join(u", "_qs)));
        QVERIFY2(refusal.contains(u"pg-boss"_qs), qPrintable(refusal));
        QCOMPARE(opened.count(), 1);
        QVERIFY(app.window());
        QCOMPARE(app.window()->profileName(), u"native"_qs);
        const auto last = WindowSettings::lastDatabase();
        QVERIFY(last);
        QCOMPARE(last->profile, u"native"_qs);
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
