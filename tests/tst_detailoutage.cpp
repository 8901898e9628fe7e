// The detail pane while the PostgreSQL server is down (stopped with `pg_ctl stop -m immediate`
// and started again): the pane keeps the selected event's summary and attempts and says the
// read failed — never "no longer in the outbox" nor an empty attempt history — and shows the
// event again, read on a fresh connection, once the server is back. RUN_SERIAL: it stops the
// server every other test shares.
#include "attemptmodel.h"
#include "detailpane.h"
#include "eventlistmodel.h"
#include "mainwindow.h"
#include "outboxstore.h"
#include "testdatabase.h"
#include "testmain.h"
#include "testserver.h"

class TestDetailOutage : public QObject
{
    Q_OBJECT

private slots:
    void cleanup()
    {
        QString error;
        if (TestServer::unavailableReason().isEmpty())
            TestServer::start(&error); // leave the server running, also after a failure
    }

    void failedReadKeepsTheLastValuesUntilTheServerReturns()
    {
        if (const QString why = TestServer::unavailableReason(); !why.isEmpty())
            QSKIP(qPrintable(why));
        FRESH_DATABASE(database, u"postgresql"_qs);
        {
            const auto setup = database->initialise();
            QVERIFY(setup);
            OutboxStore store(setup->database());
            const qint64 now = QDateTime::currentMSecsSinceEpoch() - 60000;
            QVERIFY(store.insertEvent(
                {u"E-1"_qs, u"Order"_qs, u"E-1"_qs, u"StockReserved"_qs, u"{}"_qs, now}));
            const ClaimResult claim = store.claim(u"E-1"_qs, u"w"_qs, now);
            QVERIFY(store.fail(claim.claim, now, ErrorCategory::Permanent, u"schema"_qs).ok);
        }
        WindowOptions options;
        options.markedForSimulation = false;
        MainWindow window(database->connect(), options);
        QTRY_VERIFY(window.eventModel()->rowOfEvent(u"E-1"_qs) >= 0);
        DetailPane *pane = window.detailPane();
        QVERIFY(window.selectEvent(u"E-1"_qs));
        QTRY_COMPARE(pane->attemptModel()->rowCount(), 1);
        QTRY_VERIFY(!pane->isLoading());
        const QString summary = pane->summaryText();
        QVERIFY(summary.contains(u"DEAD"_qs));

        QString error;
        QVERIFY2(TestServer::stop(&error), qPrintable(error));
        pane->refresh();
        QTRY_VERIFY_WITH_TIMEOUT(pane->statusText().contains(u"Could not read E-1"_qs), 15000);
        QCOMPARE(pane->summaryText(), summary);
        QVERIFY(!pane->summaryText().contains(u"no longer in the outbox"_qs));
        QCOMPARE(pane->attemptModel()->rowCount(), 1);

        QVERIFY2(TestServer::start(&error), qPrintable(error));
        pane->refresh();
        QTRY_COMPARE_WITH_TIMEOUT(pane->statusText(), QString(), 15000);
        QCOMPARE(pane->summaryText(), summary);
        QCOMPARE(pane->attemptModel()->rowCount(), 1);
    }
};

OUTBOX_TEST_MAIN(TestDetailOutage, QApplication)
#include "tst_detailoutage.moc"
