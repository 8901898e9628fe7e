// The event table's selection and the detail pane agree, as an operator relies on before
// pressing Replay: the selection follows a replayed event to its new row (or is cleared, the
// detail saying why, when the event left the table); a filter that hides the selected event
// is said so in the detail; an unfinished attempt whose lease ran out reads LEASE EXPIRED;
// a short attempt's timeline axis starts at its claim and is readable. Both engines.
#include "attemptmodel.h"
#include "detailpane.h"
#include "eventlistmodel.h"
#include "filterbar.h"
#include "mainwindow.h"
#include "operatoractions.h"
#include "outboxstore.h"
#include "parkedevents.h"
#include "retrytimeline.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QDateTime>
#include <QItemSelectionModel>
#include <QSignalSpy>
#include <QTableView>
#include <QValueAxis>

namespace {

QString currentId(const MainWindow &window)
{
    return window.eventView()->currentIndex().data(EventListModel::EventIdRole).toString();
}

QStringList selectedIds(const MainWindow &window)
{
    QStringList ids;
    for (const QModelIndex &index : window.eventView()->selectionModel()->selectedRows())
        ids << index.data(EventListModel::EventIdRole).toString();
    return ids;
}

ReplayRequest replayOf(const QString &eventId)
{
    ReplayRequest request;
    request.eventIds = {eventId};
    request.operatorName = QStringLiteral("alice");
    request.reason = QStringLiteral("consumer fixed");
    return request;
}

} // namespace

class TestSelectionDetail : public QObject
{
    Q_OBJECT

private slots:
    void selectionFollowsAReplay_data()
    {
        TestDatabase::addEngineColumn(), TestDatabase::addEngineRows();
    }
    void selectionFollowsAReplay()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        QVERIFY(setup && parkEvents(setup->database(), 5));
        MainWindow window(database->connect(), {});
        window.show();
        // Most failures first: the replay resets P-0003's failures, so its row moves down.
        window.eventView()->sortByColumn(EventListModel::FailuresColumn, Qt::DescendingOrder);
        QTRY_COMPARE(window.eventModel()->rowCount(), 6);
        QTRY_VERIFY(!window.eventModel()->isLoading());
        QVERIFY(window.selectEvent(u"P-0003"_qs));
        QTRY_VERIFY(window.detailPane()->summaryText().contains(u"DEAD"_qs));
        const int rowBefore = window.eventView()->currentIndex().row();

        QSignalSpy finished(window.operatorActions(), &OperatorActions::replayFinished);
        ReplayRequest request = replayOf(u"P-0003"_qs);
        request.resetBudget = true; // failures back to 0
        window.operatorActions()->startReplay(request);
        QVERIFY(finished.wait());
        // Same event, new state: the detail re-reads it and the highlight stays on it.
        QTRY_VERIFY2(window.detailPane()->summaryText().contains(u"PENDING"_qs),
            qPrintable(window.detailPane()->summaryText()));
        QCOMPARE(window.detailPane()->eventId(), u"P-0003"_qs);
        QTRY_COMPARE(currentId(window), u"P-0003"_qs);
        // It moved, and so did we (the table's refresh may come after the detail's: the snapshot
        // that triggers it can wait behind a diagnosis on the health thread).
        QTRY_VERIFY(window.eventView()->currentIndex().row() != rowBefore);
        QCOMPARE(currentId(window), u"P-0003"_qs);
        QCOMPARE(selectedIds(window), QStringList {u"P-0003"_qs});
        QCOMPARE(window.detailPane()->noticeText(), QString());
    }

    void aReplayedEventLeavingTheTableClearsTheSelection_data()
    {
        TestDatabase::addEngineColumn(), TestDatabase::addEngineRows();
    }
    void aReplayedEventLeavingTheTableClearsTheSelection()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        QVERIFY(setup && parkEvents(setup->database(), 5));
        MainWindow window(database->connect(), {});
        window.show();
        EventFilter dead;
        dead.state = EventFilter::State::Dead;
        window.openEventView(dead, EventListModel::EventIdColumn, Qt::AscendingOrder);
        QTRY_COMPARE(window.eventModel()->rowCount(), 5);
        QTRY_VERIFY(!window.eventModel()->isLoading());
        QVERIFY(window.selectEvent(u"P-0002"_qs));

        QSignalSpy finished(window.operatorActions(), &OperatorActions::replayFinished);
        window.operatorActions()->startReplay(replayOf(u"P-0002"_qs));
        QVERIFY(finished.wait());
        QTRY_COMPARE(window.eventModel()->rowCount(), 4);
        // Nothing else is highlighted in its place: Replay would have nothing to act on.
        QTRY_COMPARE(selectedIds(window), QStringList());
        QVERIFY(!window.eventView()->currentIndex().isValid());
        QCOMPARE(window.detailPane()->eventId(), u"P-0002"_qs);
        QTRY_VERIFY(window.detailPane()->summaryText().contains(u"PENDING"_qs));
        QVERIFY2(window.detailPane()->noticeText().contains(
                     u"P-0002 is no longer in the current view"_qs),
            qPrintable(window.detailPane()->noticeText()));
    }

    void aFilterHidingTheSelectedEventSaysSo_data()
    {
        TestDatabase::addEngineColumn(), TestDatabase::addEngineRows();
    }
    void aFilterHidingTheSelectedEventSaysSo()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        QVERIFY(setup && parkEvents(setup->database(), 3));
        MainWindow window(database->connect(), {});
        window.show();
        QTRY_COMPARE(window.eventModel()->rowCount(), 4);
        QTRY_VERIFY(!window.eventModel()->isLoading());
        QVERIFY(window.selectEvent(u"P-0001"_qs));
        QCOMPARE(window.detailPane()->noticeText(), QString());

        auto *filter = window.findChild<FilterBar *>();
        EventFilter delivered;
        delivered.state = EventFilter::State::Delivered;
        filter->setFilter(delivered);
        QTRY_COMPARE(window.eventModel()->rowCount(), 1);
        QTRY_VERIFY2(window.detailPane()->noticeText().contains(
                         u"P-0001 is hidden by the current filter"_qs),
            qPrintable(window.detailPane()->noticeText()));
        QCOMPARE(window.detailPane()->eventId(), u"P-0001"_qs);
        QCOMPARE(selectedIds(window), QStringList());

        filter->setFilter({}); // back in the table: selected again, the notice gone
        QTRY_COMPARE(currentId(window), u"P-0001"_qs);
        QCOMPARE(window.detailPane()->noticeText(), QString());
    }

    void attemptsShowLeaseExpired_data()
    {
        TestDatabase::addEngineColumn(), TestDatabase::addEngineRows();
    }
    void attemptsShowLeaseExpired()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        QVERIFY(setup);
        OutboxStore store(setup->database());
        const qint64 minuteAgo = QDateTime::currentMSecsSinceEpoch() - 60000;
        const auto insert = [&](const QString &id) {
            return store.insertEvent(
                {id, u"Order"_qs, id, u"StockReserved"_qs, u"{}"_qs, minuteAgo});
        };
        // A worker claimed X a minute ago with a 30 ms lease and never reported back; Y's
        // worker holds an hour's lease.
        QVERIFY(insert(u"X"_qs) && insert(u"Y"_qs));
        QVERIFY(store.claim(u"X"_qs, u"w1"_qs, minuteAgo).ok);
        store.setLeaseDuration(3600 * 1000);
        QVERIFY(store.claim(u"Y"_qs, u"w2"_qs, minuteAgo).ok);

        MainWindow window(database->connect(), {});
        window.show();
        QTRY_COMPARE(window.eventModel()->rowCount(), 2);
        auto *attempts = window.findChild<QTableView *>(u"attemptView"_qs);
        const auto outcome = [attempts] {
            return attempts->model()->index(0, AttemptModel::OutcomeColumn).data().toString();
        };
        QVERIFY(window.selectEvent(u"X"_qs));
        QTRY_COMPARE(attempts->model()->rowCount(), 1);
        QTRY_COMPARE(outcome(), u"LEASE EXPIRED"_qs);
        QVERIFY(window.selectEvent(u"Y"_qs));
        QTRY_COMPARE(outcome(), u"in flight"_qs);

        // Once another worker takes X over, the stored LEASE_EXPIRED reads the same.
        store.setLeaseDuration(30);
        QVERIFY(store.claim(u"X"_qs, u"w3"_qs, QDateTime::currentMSecsSinceEpoch()).ok);
        QVERIFY(window.selectEvent(u"X"_qs));
        QTRY_COMPARE(attempts->model()->rowCount(), 2);
        QCOMPARE(outcome(), u"LEASE EXPIRED"_qs);
    }

    // A delivered event that failed before: its summary names that error as an earlier
    // attempt's, never as its last error; each attempt's message carries its worker and times
    // on a line of its own.
    void aDeliveredEventsErrorIsAnEarlierAttempts()
    {
        FRESH_DATABASE(database, u"sqlite"_qs);
        const auto setup = database->initialise();
        QVERIFY(setup);
        OutboxStore store(setup->database());
        const qint64 minuteAgo = QDateTime::currentMSecsSinceEpoch() - 60000;
        QVERIFY(store.insertEvent(
            {u"D"_qs, u"Order"_qs, u"D"_qs, u"StockReserved"_qs, u"{}"_qs, minuteAgo}));
        const ClaimResult first = store.claim(u"D"_qs, u"w1"_qs, minuteAgo);
        QVERIFY(first.ok);
        QVERIFY(store
                    .fail(first.claim, minuteAgo + 120, ErrorCategory::Transient,
                        u"broker unavailable"_qs)
                    .ok);
        const ClaimResult second = store.claim(u"D"_qs, u"w2"_qs, minuteAgo + 40000);
        QVERIFY(second.ok);
        QVERIFY(store.ack(second.claim, minuteAgo + 40200).ok);

        MainWindow window(database->connect(), {});
        window.show();
        QTRY_COMPARE(window.eventModel()->rowCount(), 1);
        QVERIFY(window.selectEvent(u"D"_qs));
        QTRY_VERIFY(window.detailPane()->summaryText().contains(u"DELIVERED"_qs));
        const QString summary = window.detailPane()->summaryText();
        QVERIFY2(
            summary.contains(u"Error of an earlier attempt: TRANSIENT — broker unavailable"_qs),
            qPrintable(summary));
        QVERIFY2(!summary.contains(u"Last error"_qs), qPrintable(summary));
        auto *attempts = window.findChild<QTableView *>(u"attemptView"_qs);
        QTRY_COMPARE(attempts->model()->rowCount(), 2);
        const QString attempt1
            = attempts->model()->index(0, AttemptModel::ErrorColumn).data().toString();
        QVERIFY2(attempt1.startsWith(u"broker unavailable\nw1 at "_qs), qPrintable(attempt1));
        QVERIFY2(attempt1.contains(u" for 120 ms; next due "_qs), qPrintable(attempt1));
        QVERIFY(attempts->isColumnHidden(AttemptModel::WorkerColumn));
    }

    void unfinishedAttemptsInTheModel()
    {
        AttemptModel model;
        QAbstractItemModelTester tester(&model);
        const auto row = [](int number, const QVariant &outcome) {
            return QVariantList {number, u"w"_qs, 10 * number, QVariant(), outcome, QVariant(),
                QVariant(), QVariant(), QVariant()};
        };
        // An earlier unfinished attempt was superseded by a later claim: its lease ran out.
        model.setRows(u"E"_qs, {row(1, QVariant()), row(2, QVariant())}, true);
        const auto shown = [&model](int r) {
            return model.index(r, AttemptModel::OutcomeColumn).data().toString();
        };
        QCOMPARE(shown(0), u"LEASE EXPIRED"_qs);
        QCOMPARE(shown(1), u"in flight"_qs);
        model.setRows(u"E"_qs, {row(1, u"LEASE_EXPIRED"_qs), row(2, QVariant())}, false);
        QCOMPARE(shown(0), u"LEASE EXPIRED"_qs);
        QCOMPARE(shown(1), u"LEASE EXPIRED"_qs);
        QCOMPARE(model.index(1, AttemptModel::OutcomeColumn).data(AttemptModel::OutcomeRole),
            QVariant(u"LEASE_EXPIRED"_qs));
    }

    void aShortAttemptGetsAReadableAxis_data()
    {
        QTest::addColumn<qint64>("low");
        QTest::addColumn<qint64>("high");
        QTest::addColumn<bool>("logical");
        QTest::addRow("1 ms attempt") << qint64(0) << qint64(1) << false;
        QTest::addRow("instant attempt") << qint64(0) << qint64(0) << false;
        QTest::addRow("retries over 70 units") << qint64(0) << qint64(70) << true;
        QTest::addRow("ten minutes of retries") << qint64(0) << qint64(600000) << false;
        QTest::addRow("a back-off of 40 s") << qint64(0) << qint64(40000) << false;
    }
    void aShortAttemptGetsAReadableAxis()
    {
        QFETCH(qint64, low);
        QFETCH(qint64, high);
        QFETCH(bool, logical);
        const RetryTimeline::AxisRange range = RetryTimeline::axisRange(low, high, logical);
        QVERIFY2(range.min >= 0, "the axis never starts before the first claim");
        QVERIFY(range.min <= low / range.divisor);
        QVERIFY(range.max > high / range.divisor);
        QVERIFY(range.max - range.min >= 10); // a sensible minimum span
        QVERIFY(range.tickCount >= 3 && range.tickCount <= 11);
        // Round ticks: the step is 1, 2 or 5 times a power of ten.
        const double step = (range.max - range.min) / (range.tickCount - 1);
        const double mantissa = step / std::pow(10.0, std::floor(std::log10(step)));
        QVERIFY2(qFuzzyCompare(mantissa, 1.0) || qFuzzyCompare(mantissa, 2.0)
                || qFuzzyCompare(mantissa, 5.0),
            qPrintable(QString::number(step)));
        // Humane units: seconds of retries are not counted in ms, nor ten minutes in s.
        const qint64 span = high - low;
        if (!logical && span >= RetryTimeline::MinutesFromMs)
            QCOMPARE(range.unit, u"min"_qs);
        else if (!logical && span >= RetryTimeline::SecondsFromMs)
            QCOMPARE(range.unit, u"s"_qs);
    }

    void theTimelineOfAOneMillisecondAttempt()
    {
        AttemptModel model;
        RetryTimeline timeline;
        timeline.setModel(&model);
        const qint64 claimed = QDateTime::currentMSecsSinceEpoch();
        model.setRows(u"E"_qs,
            {{1, u"w"_qs, claimed, claimed + 1, u"DELIVERED"_qs, QVariant(), QVariant(),
                u"APPLIED"_qs, QVariant()}});
        QCOMPARE(timeline.timeAxis()->min(), 0.0);
        QVERIFY(timeline.timeAxis()->max() >= 10);
        QVERIFY(timeline.timeAxis()->titleText().contains(u"ms"_qs));
    }
};

OUTBOX_TEST_MAIN(TestSelectionDetail, QApplication)
#include "tst_selectiondetail.moc"
