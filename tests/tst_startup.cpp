// How the dashboard starts (DashboardApp, offscreen, both engines): it reopens the last database
// off the GUI thread, a first start opens the demo with its teaching panel, and a database that
// cannot be opened leaves a window naming the cause with Connect… offered, never an exit: in the
// banner's words, with Retry, tried again by itself when the server could not be reached. The
// settings live in a temporary directory; the URL is remembered without its password. A link
// given as the one argument (outbox-health:open?…) opens its view: the page, the filter and the
// event with its detail; View › Copy link to this view gives a link that opens the same view.
#include "connectdialog.h"
#include "copylinkaction.h"
#include "dashboardapp.h"
#include "dashboardoptions.h"
#include "dbconnection.h"
#include "detailpane.h"
#include "eventlistmodel.h"
#include "failurecause.h"
#include "filterbar.h"
#include "healthmonitor.h"
#include "linkconfirmation.h"
#include "mainwindow.h"
#include "parkedevents.h"
#include "sqldialect.h"
#include "stalebanner.h"
#include "startwindow.h"
#include "teachingsession.h"
#include "teachpage.h"
#include "testdatabase.h"
#include "testmain.h"
#include "viewlink.h"
#include "windowsettings.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QCommandLineParser>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>
#include <QUrl>

namespace {

// What outbox-dashboard does with a link as its one argument, up to opening the database.
std::unique_ptr<DashboardApp> openLink(const QString &link, QString *error)
{
    QByteArray program("outbox-dashboard");
    QByteArray text = link.toLocal8Bit();
    char *argv[] = {program.data(), text.data()};
    QStringList arguments;
    if (!DashboardOptions::argumentsOfLink(2, argv, &arguments, error))
        return nullptr;
    QCommandLineParser parser;
    DashboardOptions::add(parser);
    if (!parser.parse(arguments)) {
        *error = parser.errorText();
        return nullptr;
    }
    const std::optional<EventView> view = DashboardOptions::viewFromArguments(arguments, error);
    if (!view)
        return nullptr;
    if (*error = DashboardOptions::conflict(parser); !error->isEmpty())
        return nullptr;
    auto app = std::make_unique<DashboardApp>();
    DashboardOptions::applyView(*app, parser, *view);
    app->openUrl(parser.value(u"db"_qs), parser.isSet(u"read-only"_qs));
    return app;
}

QString currentId(const MainWindow &window)
{
    return window.eventView()->currentIndex().data(EventListModel::EventIdRole).toString();
}

} // namespace

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

    // Connect… offers each engine with its fields: MySQL (MariaDB) builds a mysql:// URL on
    // port 3306 with the TLS choice (ssl-mode=REQUIRED and the CA file); a password typed in its
    // field is for this session only: never in the URL shown, never stored. A recent URL picked
    // fills the fields again, and a password never follows the URL to another server.
    void connectBuildsAServerUrlFromItsFields()
    {
        {
            ConnectDialog dialog;
            auto *url = dialog.findChild<QComboBox *>();
            auto *engines = dialog.findChild<QComboBox *>(u"engineChoice"_qs);
            auto *port = dialog.findChild<QSpinBox *>(u"serverPort"_qs);
            auto *tls = dialog.findChild<QCheckBox *>(u"serverTls"_qs);
            QVERIFY(url && engines && port && tls);
            QStringList offered;
            for (int i = 0; i < engines->count(); ++i)
                offered << engines->itemText(i);
            QVERIFY2(offered.size() == 3, qPrintable(offered.join(u" | "_qs)));
            const auto offers = [&](const QString &text) {
                return std::any_of(offered.cbegin(), offered.cend(),
                    [&](const QString &item) { return item.contains(text); });
            };
            QVERIFY2(offers(u"PostgreSQL"_qs) && offers(u"SQLite"_qs) && offers(u"mariadb://"_qs)
                    && offers(u"MySQL"_qs),
                qPrintable(offered.join(u" | "_qs)));
            const int mySql = engines->findText(u"MySQL"_qs, Qt::MatchStartsWith);
            engines->setCurrentIndex(mySql);
            emit engines->activated(mySql);
            QCOMPARE(port->value(), 3306);
            QVERIFY(tls->isVisibleTo(&dialog));
            QTest::keyClicks(dialog.findChild<QLineEdit *>(u"serverHost"_qs), u"db.example"_qs);
            QTest::keyClicks(dialog.findChild<QLineEdit *>(u"serverUser"_qs), u"ops"_qs);
            QTest::keyClicks(dialog.findChild<QLineEdit *>(u"serverDatabase"_qs), u"orders"_qs);
            QCOMPARE(url->currentText(), u"mysql://ops@db.example:3306/orders"_qs);
            tls->click();
            QTest::keyClicks(
                dialog.findChild<QLineEdit *>(u"serverCaFile"_qs), u"/etc/outbox/ca 1.crt"_qs);
            QCOMPARE(url->currentText(),
                u"mysql://ops@db.example:3306/orders?ssl-mode=REQUIRED&ssl-ca=/etc/outbox/ca%201.crt"_qs);
            auto *password = dialog.findChild<QLineEdit *>(u"serverPassword"_qs);
            QCOMPARE(password->echoMode(), QLineEdit::Password);
            QTest::keyClicks(password, u"s3cr3t@pw"_qs);
            QVERIFY(!url->currentText().contains(u"s3cr3t"_qs));
            const DatabaseUrl opened = DatabaseUrl::parse(dialog.url(), nullptr);
            QVERIFY(opened.isValid());
            QCOMPARE(opened.engine(), Engine::MySql);
            QCOMPARE(opened.password(), u"s3cr3t@pw"_qs);
            QCOMPARE(opened.option(u"ssl-ca"_qs), u"/etc/outbox/ca 1.crt"_qs);
            QCOMPARE(opened.option(u"ssl-mode"_qs), u"REQUIRED"_qs);
            ConnectDialog::remember(dialog.url());

            // PostgreSQL: its port, no ssl- options in its URLs, so no TLS row.
            const int postgreSql = engines->findText(u"PostgreSQL"_qs, Qt::MatchStartsWith);
            engines->setCurrentIndex(postgreSql);
            emit engines->activated(postgreSql);
            QCOMPARE(port->value(), 5432);
            QVERIFY(!tls->isVisibleTo(&dialog));
            QCOMPARE(url->currentText(), u"postgresql://ops@db.example:5432/orders"_qs);
            // Another server typed as a URL: the password typed for the first is not sent there.
            url->setEditText(u"mysql://ops@other.example/orders"_qs);
            QVERIFY(password->text().isEmpty());
            QCOMPARE(dialog.url(), u"mysql://ops@other.example/orders"_qs);
        }
        QSettings settings;
        settings.sync();
        QFile file(settings.fileName());
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(!file.readAll().contains("s3cr3t"));
        QCOMPARE(ConnectDialog::recentConnections().value(0),
            u"mysql://ops@db.example/orders?ssl-mode=REQUIRED&ssl-ca=/etc/outbox/ca%201.crt"_qs);

        ConnectDialog again; // the recent URL fills the fields
        QVERIFY(again.findChild<QComboBox *>(u"engineChoice"_qs)
                    ->currentText()
                    .startsWith(u"MySQL"_qs));
        QCOMPARE(again.findChild<QLineEdit *>(u"serverHost"_qs)->text(), u"db.example"_qs);
        QCOMPARE(again.findChild<QSpinBox *>(u"serverPort"_qs)->value(), 3306);
        QVERIFY(again.findChild<QCheckBox *>(u"serverTls"_qs)->isChecked());
        QCOMPARE(
            again.findChild<QLineEdit *>(u"serverCaFile"_qs)->text(), u"/etc/outbox/ca 1.crt"_qs);
        QVERIFY(again.findChild<QLineEdit *>(u"serverPassword"_qs)->text().isEmpty());
    }

    void connectOpensAServerFromItsFields_data()
    {
        TestDatabase::addEngineColumn();
        QTest::addRow("postgresql") << u"postgresql"_qs;
        QTest::addRow("mysql") << u"mysql"_qs;
    }

    // The fields alone (no URL typed) open a server's outbox, remembered without a password.
    void connectOpensAServerFromItsFields()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        QVERIFY(database->initialise());
        const DatabaseUrl target = DatabaseUrl::parse(database->url(), nullptr);
        QVERIFY(target.isValid() && target.password().isEmpty());
        DashboardApp app;
        bool asked = false;
        QTimer answerer;
        connect(&answerer, &QTimer::timeout, this, [&] {
            auto *dialog = qobject_cast<ConnectDialog *>(QApplication::activeModalWidget());
            if (!dialog || asked)
                return;
            asked = true;
            auto *engines = dialog->findChild<QComboBox *>(u"engineChoice"_qs);
            const int index
                = engines->findText(SqlDialect::of(target.engine()).title(), Qt::MatchStartsWith);
            engines->setCurrentIndex(index);
            emit engines->activated(index);
            QTest::keyClicks(dialog->findChild<QLineEdit *>(u"serverHost"_qs), target.host());
            dialog->findChild<QSpinBox *>(u"serverPort"_qs)->setValue(target.port());
            QTest::keyClicks(dialog->findChild<QLineEdit *>(u"serverUser"_qs), target.user());
            QTest::keyClicks(
                dialog->findChild<QLineEdit *>(u"serverDatabase"_qs), target.databaseName());
            dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Open)->click();
        });
        answerer.start(20);
        QSignalSpy opened(&app, &DashboardApp::windowOpened);
        app.askForConnection();
        answerer.stop();
        QCOMPARE(opened.count(), 1);
        QVERIFY(app.window());
        QCOMPARE(app.window()->url().toStorableString(), target.toStorableString());
        QCOMPARE(ConnectDialog::recentConnections().value(0), target.toStorableString());
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
        // Not the demo: the relay does not run, however the database is marked.
        QVERIFY(!next.window()->session()
            || next.window()->session()->mode() == TeachingSession::Mode::Idle);
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
        QVERIFY(app.window()->teachPage()); // the simulator, a page in the rail
        QCOMPARE(app.window()->session()->mode(), TeachingSession::Mode::LiveRelay);
        const auto last = WindowSettings::lastDatabase();
        QVERIFY(last && last->demo);
        app.window()->close();
    }

    // outbox-dashboard 'outbox-health:open?db=…&state=dead&event=P-0007': the Events page on DEAD
    // events with P-0007 selected and its detail showing; Copy link gives that view back, and
    // the link it copies opens the same view again.
    void aLinkOpensItsViewAndCopyLinkGivesItBack_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void aLinkOpensItsViewAndCopyLinkGivesItBack()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        {
            const auto connection = database->initialise();
            QVERIFY(connection);
            QVERIFY(parkEvents(connection->database(), 12));
        }
        const QString db = DatabaseUrl::parse(database->url(), nullptr).toStorableString();
        const QString link = u"outbox-health:open?db="_qs
            + QString::fromLatin1(QUrl::toPercentEncoding(db, ":/@"))
            + u"&state=dead&event=P-0007"_qs;
        QString error;
        const std::unique_ptr<DashboardApp> app = openLink(link, &error);
        QVERIFY2(app, qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(app->window(), 20000);
        MainWindow *window = app->window();
        QCOMPARE(window->currentPage(), u"events"_qs);
        QCOMPARE(window->filterBar()->filter().state, EventFilter::State::Dead);
        QTRY_COMPARE(currentId(*window), u"P-0007"_qs);
        QCOMPARE(window->detailPane()->eventId(), u"P-0007"_qs);
        QTRY_VERIFY(window->detailPane()->summaryText().contains(u"P-0007"_qs));
        for (int row = 0; row < window->eventModel()->rowCount(); ++row)
            QCOMPARE(
                window->eventModel()->index(row, 0).data(EventListModel::StatusRole).toString(),
                u"DEAD"_qs);

        // View › Copy link to this view, once the operator sorted by failures.
        window->eventView()->sortByColumn(EventListModel::FailuresColumn, Qt::DescendingOrder);
        auto *viewMenu = window->menuBar()->findChild<QMenu *>(u"viewMenu"_qs);
        QVERIFY(viewMenu);
        auto *copy = window->findChild<QAction *>(u"copyLinkAction"_qs);
        QVERIFY(copy);
        QVERIFY(viewMenu->actions().contains(copy));
        QApplication::clipboard()->clear();
        copy->trigger();
        const QString copied = QApplication::clipboard()->text();
        QVERIFY(!window->statusBar()->currentMessage().isEmpty());
        const auto back = ViewLink::fromUrl(copied, &error);
        QVERIFY2(back, qPrintable(error + u": "_qs + copied));
        QCOMPARE(back->db, db);
        QCOMPARE(back->state, u"dead"_qs);
        QCOMPARE(back->event, u"P-0007"_qs);
        QCOMPARE(back->tab, u"events"_qs);
        QCOMPARE(back->sort, u"failures:desc"_qs);
        QVERIFY(!back->readOnly);

        // The copied link opens the same view (in a window of its own).
        const std::unique_ptr<DashboardApp> again = openLink(copied, &error);
        QVERIFY2(again, qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(again->window(), 20000);
        MainWindow *same = again->window();
        QCOMPARE(same->currentPage(), u"events"_qs);
        QCOMPARE(same->filterBar()->filter(), window->filterBar()->filter());
        QCOMPARE(same->eventView()->horizontalHeader()->sortIndicatorSection(),
            int(EventListModel::FailuresColumn));
        QCOMPARE(same->eventView()->horizontalHeader()->sortIndicatorOrder(), Qt::DescendingOrder);
        QTRY_COMPARE(currentId(*same), u"P-0007"_qs);
        QCOMPARE(CopyLinkAction::linkTo(*same), copied);

        // A payload search travels as search-mode=payload (a link carries one search).
        EventFilter payload;
        payload.payloadContains = u"{\"kind\":\"refund\"}"_qs;
        same->filterBar()->setFilter(payload);
        const auto withPayload = ViewLink::fromUrl(CopyLinkAction::linkTo(*same), &error);
        QVERIFY2(withPayload, qPrintable(error));
        QCOMPARE(withPayload->searchMode, u"payload"_qs);
        QCOMPARE(withPayload->search, payload.payloadContains);
        QVERIFY(!CopyLinkAction::filterIsPartial(*same));
    }

    // A link's event the filter hides still shows in the detail, which says why it is not
    // selected; a link's page is the page shown.
    void aLinksEventOutsideItsFilterShowsInTheDetail()
    {
        FRESH_DATABASE(database, u"sqlite"_qs);
        {
            const auto connection = database->initialise();
            QVERIFY(connection);
            QVERIFY(parkEvents(connection->database(), 3));
        }
        QString error;
        const std::unique_ptr<DashboardApp> app = openLink(
            u"outbox-health:open?db="_qs + database->url() + u"&state=dead&select=P-0000"_qs,
            &error);
        QVERIFY2(app, qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(app->window(), 20000);
        MainWindow *window = app->window();
        QTRY_VERIFY(window->detailPane()->summaryText().contains(u"DELIVERED"_qs));
        QCOMPARE(window->detailPane()->eventId(), u"P-0000"_qs);
        QTRY_VERIFY2(
            window->detailPane()->noticeText().contains(u"P-0000 is hidden by State: DEAD"_qs),
            qPrintable(window->detailPane()->noticeText()));
        QVERIFY(!window->eventView()->currentIndex().isValid());

        const std::unique_ptr<DashboardApp> errors
            = openLink(u"outbox-health:open?db="_qs + database->url() + u"&tab=errors"_qs, &error);
        QVERIFY2(errors, qPrintable(error));
        QTRY_VERIFY_WITH_TIMEOUT(errors->window(), 20000);
        QCOMPARE(errors->window()->currentPage(), u"errors"_qs);
    }

    // Refused before any window: what is wrong, in one line, and nothing opened.
    void aBadLinkOpensNothing_data()
    {
        QTest::addColumn<QString>("link");
        QTest::addColumn<QString>("error");
        QTest::addRow("password")
            << u"outbox-health:open?db=postgresql://ops:s3cret@127.0.0.1:1/orders"_qs
            << u"the link's \"db\" holds a password: a link never carries one (use ~/.pgpass or "
               "PGPASSWORD)"_qs;
        QTest::addRow("unknown page")
            << u"outbox-health:open?db=sqlite:/nonexistent/x.sqlite&tab=kitchen"_qs
            << u"unknown page \"kitchen\" (one of: overview, events, errors, diagnosis, audit, "
               "lifecycle, policy, teach)"_qs;
        QTest::addRow("unknown state")
            << u"outbox-health:open?db=sqlite:/nonexistent/x.sqlite&state=sleeping"_qs
            << u"unknown state \"sleeping\" (one of: any, pending, due, scheduled, in-flight, "
               "lease-expired, delivered, dead, resolved)"_qs;
        QTest::addRow("demo and db")
            << u"outbox-health:open?db=sqlite:/nonexistent/x.sqlite&demo=true"_qs
            << u"--demo and --db exclude each other"_qs;
        QTest::addRow("slot without db") << u"outbox-health:open?demo=true&cdc-slot=dbz"_qs
                                         << u"--cdc-slot needs --db (a replication slot is "
                                            "PostgreSQL's)"_qs;
        QTest::addRow("slot name PostgreSQL refuses")
            << u"outbox-health:open?db=sqlite:/nonexistent/x.sqlite&cdc-slot=Robert%27);DROP"_qs
            << u"--cdc-slot: a replication slot's name is 1 to 63 lower-case letters, digits "
               "and underscores"_qs;
    }
    void aBadLinkOpensNothing()
    {
        QFETCH(QString, link);
        QFETCH(QString, error);
        QString why;
        QVERIFY(!openLink(link, &why));
        QCOMPARE(why, error);
    }

    // A link to a database this computer never opened asks first, Cancel the default; one that
    // Connect… remembered (or the last one opened) opens at once. The question names the
    // server without a password.
    void aLinkToAnUnknownDatabaseAsksFirst()
    {
        const QString url = u"postgresql://ops:s3cret@db.example:5433/orders"_qs;
        QVERIFY(!LinkConfirmation::isKnownDatabase(url));
        const QString question = LinkConfirmation::question(url);
        QVERIFY2(
            question.contains(u"postgresql://ops@db.example:5433/orders"_qs), qPrintable(question));
        QVERIFY(!question.contains(u"s3cret"_qs));

        QString shown;
        bool defaultIsCancel = false;
        QTimer::singleShot(0, this, [&] {
            auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
            QVERIFY(box);
            QCOMPARE(box->objectName(), u"linkConfirmationBox"_qs);
            QCOMPARE(box->textFormat(), Qt::PlainText);
            shown = box->text();
            defaultIsCancel = box->defaultButton() == box->button(QMessageBox::Cancel);
            box->button(QMessageBox::Cancel)->click();
        });
        QVERIFY(!LinkConfirmation::confirm(url));
        QCOMPARE(shown, question);
        QVERIFY(defaultIsCancel);

        // Known once Connect… remembered it (stored without its password): no question.
        ConnectDialog::remember(url);
        QVERIFY(LinkConfirmation::isKnownDatabase(url));
        QVERIFY(LinkConfirmation::isKnownDatabase(u"postgresql://ops@db.example:5433/orders"_qs));
        QVERIFY(!LinkConfirmation::isKnownDatabase(u"postgresql://ops@db.example:5433/other"_qs));
        QVERIFY(LinkConfirmation::confirm(url));
        QVERIFY(!QApplication::activeModalWidget());
    }

private:
    QTemporaryDir m_config;
};

OUTBOX_TEST_MAIN(TestStartup, QApplication)
#include "tst_startup.moc"
