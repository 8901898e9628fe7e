// Connect… opens the database off the GUI thread: while a server that never answers keeps the
// connect attempt waiting, the GUI thread goes on (its timers fire) and the dialog says it is
// connecting with Open disabled; the answer names the cause. A database that opens comes back
// with what the window needs (URL, profile, whether it is marked for simulation), on both
// engines, and a window built from it opens no connection on the GUI thread.
#include "connectdialog.h"
#include "connectionopener.h"
#include "dbconnection.h"
#include "healthmonitor.h"
#include "mainwindow.h"
#include "silentport.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QThread>
#include <QTimer>

class TestConnectionOpener : public QObject
{
    Q_OBJECT

private slots:
    void unansweredServerLeavesTheGuiThreadFree()
    {
        SilentPort silent;
        QVERIFY(silent.port() > 0);
        ConnectionOpener opener;
        QSignalSpy failed(&opener, &ConnectionOpener::failed);
        QSignalSpy opened(&opener, &ConnectionOpener::opened);
        QTimer ticker;
        QSignalSpy ticks(&ticker, &QTimer::timeout);
        ticker.start(20);
        opener.start(
            QStringLiteral("postgresql://nobody@127.0.0.1:%1/outbox").arg(silent.port()), true);
        QVERIFY(opener.isBusy());
        // The connect attempt waits for its timeout; the GUI thread's timers go on meanwhile.
        QTRY_VERIFY_WITH_TIMEOUT(ticks.count() >= 10, 2000);
        QVERIFY(failed.isEmpty());
        QVERIFY(failed.wait(15000));
        QVERIFY(opened.isEmpty());
        QVERIFY2(failed.at(0).at(0).toString().contains(QString::number(silent.port())),
            qPrintable(failed.at(0).at(0).toString()));
        QVERIFY(!opener.isBusy());
    }

    void badUrlFailsWithItsReason()
    {
        ConnectionOpener opener;
        QSignalSpy failed(&opener, &ConnectionOpener::failed);
        opener.start(QStringLiteral("mysql://host/db"), false);
        QVERIFY(failed.wait(5000));
        QVERIFY(!failed.at(0).at(0).toString().isEmpty());
    }

    void opensWhatTheWindowNeeds_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void opensWhatTheWindowNeeds()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        QVERIFY(database->initialise()); // native schema, marked for simulation
        ConnectionOpener opener;
        QSignalSpy opened(&opener, &ConnectionOpener::opened);
        QThread *gui = QThread::currentThread();
        const int everBefore = DbConnection::everOpenedOn(gui);
        opener.start(database->url(), true);
        QVERIFY(opened.wait(15000));
        const auto result = opened.at(0).at(0).value<OpenedDatabase>();
        QVERIFY(result.markedForSimulation);
        QVERIFY(result.readOnly);
        QVERIFY(!result.profile || result.profile->isNative());
        QCOMPARE(DbConnection::everOpenedOn(gui), everBefore);

        WindowOptions options;
        options.readOnly = result.readOnly;
        options.profile = result.profile;
        options.markedForSimulation = false; // no teaching panel: this test is about reads
        MainWindow window(result.url, options);
        window.show();
        QTRY_VERIFY_WITH_TIMEOUT(window.monitor()->hasSnapshot(), 15000);
        QCOMPARE(DbConnection::everOpenedOn(gui), everBefore);
    }

    void dialogSaysItIsConnecting()
    {
        ConnectDialog dialog;
        QSignalSpy requested(&dialog, &ConnectDialog::openRequested);
        auto *url = dialog.findChild<QComboBox *>();
        url->setEditText(QStringLiteral("sqlite:/tmp/outbox.sqlite"));
        QPushButton *open = dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Open);
        dialog.show();
        open->click();
        QCOMPARE(requested.count(), 1);
        QVERIFY(dialog.isVisible()); // open is asked for; the dialog waits for the answer
        dialog.setConnecting(true);
        QVERIFY(!open->isEnabled());
        const QList<QLabel *> labels = dialog.findChildren<QLabel *>();
        QVERIFY(std::any_of(labels.cbegin(), labels.cend(),
            [](const QLabel *label) { return label->text() == QStringLiteral("Connecting…"); }));
        open->click(); // disabled: nothing more is asked for
        QCOMPARE(requested.count(), 1);
        dialog.setConnecting(false);
        dialog.showError(QStringLiteral("cannot open: refused"));
        QVERIFY(open->isEnabled());
        QVERIFY(dialog.isVisible());
        dialog.finish();
        QCOMPARE(dialog.result(), int(QDialog::Accepted));
    }
};

OUTBOX_TEST_MAIN(TestConnectionOpener, QApplication)
#include "tst_connectionopener.moc"
