// Health never waits on the event table, in the window on PostgreSQL: while an unindexed payload
// search runs for seconds on the table's worker (payloads of 2 MB each, every one parsed as
// JSON; the snapshot never reads the payload), the tiles keep refreshing at their interval; the
// table's own status says it searches and for how long, then that the statement timeout
// cancelled it, and it spaces its next reads by their cost; the health status bar says none of
// it. When the snapshot itself is costly, the status bar and the toolbar show the same interval,
// and it comes back down two snapshots after the cost does.
#include "eventlistmodel.h"
#include "eventtablecadence.h"
#include "healthmonitor.h"
#include "intervalbox.h"
#include "mainwindow.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QSqlError>

namespace {

constexpr int IntervalS = 1;
constexpr int TableTimeoutMs = 3000;

// `rows` delivered events whose payloads hold 2 MB each (compressed on disk to a few kB, and
// copied, so the insert is quick): a payload search parses every one of them as JSON (some
// 50 ms each), the snapshot reads none.
bool insertBigPayloads(const QSqlDatabase &db, int rows, qint64 now)
{
    const QString columns = u"INSERT INTO delivery_outbox (event_id, aggregate_type, aggregate_id,"
                            " event_type, payload, status, failures, next_attempt_at, created_at,"
                            " delivered_at)"_qs;
    QSqlQuery first(db);
    first.prepare(columns
        + u" VALUES ('E-00000', 'order', 'A-0', 'OrderPlaced', '{\"blob\":\"' ||"
          " repeat('x', 2000000) || '\"}', 'DELIVERED', 0, :now, :now, :now)"_qs);
    first.bindValue(u":now"_qs, now);
    QSqlQuery copies(db);
    copies.prepare(columns
        + u" SELECT 'E-' || lpad(g::text, 5, '0'), 'order', 'A-' || g, 'OrderPlaced',"
          " (SELECT payload FROM delivery_outbox WHERE event_id = 'E-00000'), 'DELIVERED', 0,"
          " :now, CAST(:now AS bigint) - g, :now FROM generate_series(1, :rows) AS g"_qs);
    copies.bindValue(u":now"_qs, now);
    copies.bindValue(u":rows"_qs, rows - 1);
    for (QSqlQuery *query : {&first, &copies}) {
        if (!query->exec()) {
            qWarning("%s", qPrintable(query->lastError().text()));
            return false;
        }
    }
    return true;
}

WindowOptions plainWindow()
{
    WindowOptions options;
    options.markedForSimulation = false;
    return options;
}

QString refreshLabel(const MainWindow &window)
{
    const auto *label = window.findChild<QLabel *>(u"refreshLabel"_qs);
    return label ? label->text() : QString();
}

// "every 3 s" in a text, or -1.
int everySeconds(const QString &text, const QString &pattern)
{
    const auto match = QRegularExpression(pattern).match(text);
    return match.hasMatch() ? match.captured(1).toInt() : -1;
}

} // namespace

class TestHealthCadence : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QCoreApplication::setApplicationName(u"tst_healthcadence"_qs);
        QSettings().setValue(u"window/statementTimeoutMs"_qs, TableTimeoutMs);
    }
    void cleanupTestCase() { QSettings().remove(u"window/statementTimeoutMs"_qs); }

    void slowTableSearchDoesNotHoldTheTiles()
    {
        FRESH_DATABASE(database, u"postgresql"_qs);
        const auto setup = database->initialise();
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        QVERIFY(setup && insertBigPayloads(setup->database(), 600, now));
        MainWindow window(database->connect(), plainWindow());
        window.intervalBox()->setValue(IntervalS);
        window.show();
        HealthMonitor *monitor = window.monitor();
        EventListModel *table = window.eventModel();
        QTRY_VERIFY(monitor->hasSnapshot() && table->rowCount() > 0 && !table->isLoading());

        QList<qint64> snapshotAt;
        QElapsedTimer clock;
        clock.start();
        connect(
            monitor, &HealthMonitor::snapshotChanged, this, [&] { snapshotAt << clock.elapsed(); });
        auto *payload = window.findChild<QLineEdit *>(u"payloadFilter"_qs);
        QVERIFY(payload);
        QTest::keyClicks(payload, uR"({"orderId": "ORDER-4711"})"_qs);
        QTRY_VERIFY(table->isLoading());
        const qint64 searchFrom = clock.elapsed();

        // The table says it searches, and for how long; the status bar says nothing of it.
        const auto *searching = window.findChild<QLabel *>(u"eventLoadingLabel"_qs);
        QVERIFY(searching);
        QTRY_VERIFY(searching->isVisible() && searching->text().startsWith(u"Searching… 1."_qs));
        QVERIFY2(!refreshLabel(window).contains(u"Search"_qs), qPrintable(refreshLabel(window)));

        QTRY_VERIFY_WITH_TIMEOUT(!table->isLoading(), 30000);
        const qint64 searchTo = clock.elapsed();
        QVERIFY2(searchTo - searchFrom >= TableTimeoutMs - 100, qPrintable(table->lastError()));
        QVERIFY(!searching->isVisible());

        // The tiles kept their interval all along: from the last snapshot before the search to
        // the first after it, no gap much longer than the interval.
        QTRY_VERIFY(snapshotAt.constLast() > searchTo);
        QList<qint64> across = snapshotAt;
        while (across.size() > 1 && across.at(1) <= searchFrom)
            across.removeFirst(); // from the last one before the search on
        while (across.size() > 1 && across.at(across.size() - 2) > searchTo)
            across.removeLast(); // to the first one after it
        const QString seen = QDebug::toString(snapshotAt) + u" search "_qs
            + QString::number(searchFrom) + u"–"_qs + QString::number(searchTo);
        QVERIFY2(across.size() >= (searchTo - searchFrom) / (IntervalS * 1000), qPrintable(seen));
        for (qsizetype i = 1; i < across.size(); ++i)
            QVERIFY2(
                across.at(i) - across.at(i - 1) <= 2 * IntervalS * 1000 + 500, qPrintable(seen));
        // The interval follows the snapshot's own few milliseconds, never the table's 3 s.
        QVERIFY2(monitor->costBasisMs() < 200, qPrintable(QString::number(monitor->costBasisMs())));
        QCOMPARE(monitor->effectiveInterval(),
            HealthMonitor::adaptiveIntervalMs(monitor->costBasisMs(), IntervalS * 1000));

        // Cancelled at the table's statement timeout: said under the table, not in the status bar.
        QVERIFY(table->hasTimedOut());
        const auto *message = window.findChild<QLabel *>(u"eventMessageLabel"_qs);
        QVERIFY(message);
        QVERIFY2(message->toolTip().startsWith(u"Cancelled at the statement timeout (3 s)."_qs),
            qPrintable(message->toolTip()));
        QVERIFY2(!refreshLabel(window).contains(u"timeout"_qs), qPrintable(refreshLabel(window)));

        // The table spaces its own next read by what this one cost; the tiles do not.
        const auto *cadence = window.findChild<QLabel *>(u"eventCadenceLabel"_qs);
        QVERIFY(cadence);
        QTRY_VERIFY(cadence->isVisible());
        QVERIFY2(cadence->text().startsWith(u"rows re-read every 60 s: a read takes 3."_qs),
            qPrintable(cadence->text()));

        // The outbox changes: the tiles show it at their next refresh; the table's read waits
        // for its own spacing instead of running the costly search again at once.
        QSqlQuery change(setup->database());
        QVERIFY(change.exec(u"UPDATE delivery_outbox SET status = 'DEAD', delivered_at = NULL,"
                            " failures = 3 WHERE event_id = 'E-00001'"_qs));
        QTRY_COMPARE_WITH_TIMEOUT(monitor->snapshot().counts.dead, qint64(1), 5000);
        QVERIFY(table->cadence()->isWaiting());
        QVERIFY(!table->isLoading());

        // The outbox keeps changing for ten seconds, a row parked DEAD at every snapshot: the
        // tiles follow each change at their interval, the costly table does not run again, and
        // nothing the table does stretches the tiles' interval.
        const qsizetype before = snapshotAt.size();
        int parked = 1;
        const auto parking = connect(monitor, &HealthMonitor::snapshotChanged, this, [&] {
            QSqlQuery park(setup->database());
            park.exec(u"UPDATE delivery_outbox SET status = 'DEAD', delivered_at = NULL,"
                      " failures = 3 WHERE event_id = 'E-%1'"_qs.arg(++parked, 5, 10, QChar(u'0')));
        });
        QTRY_VERIFY_WITH_TIMEOUT(
            snapshotAt.size() > before && snapshotAt.constLast() - snapshotAt.at(before) >= 10000,
            20000);
        disconnect(parking);
        const QList<qint64> changing = snapshotAt.mid(before);
        for (qsizetype i = 1; i < changing.size(); ++i)
            QVERIFY2(changing.at(i) - changing.at(i - 1) <= 2 * IntervalS * 1000 + 500,
                qPrintable(QDebug::toString(changing)));
        QVERIFY2(monitor->snapshot().counts.dead >= changing.size() - 1,
            qPrintable(QString::number(monitor->snapshot().counts.dead)));
        QVERIFY(!table->isLoading() && table->cadence()->isWaiting());
        QVERIFY2(monitor->costBasisMs() < 200, qPrintable(QString::number(monitor->costBasisMs())));

        // The toolbar and the status bar say the same interval (the snapshot's few ms may
        // stretch 1 s a little on a loaded machine: then both say so).
        const int shown = IntervalBox::shownSeconds(*monitor);
        const QString box = window.intervalBox()->text();
        QCOMPARE(everySeconds(refreshLabel(window), u"every (\\d+) s"_qs), shown);
        QVERIFY2(box == u"every %1 s (now %2 s)"_qs.arg(IntervalS).arg(shown)
                || (shown == IntervalS && box == u"every %1 s"_qs.arg(IntervalS)),
            qPrintable(box));
    }

    // A costly snapshot stretches the interval: the toolbar names the interval kept, and the
    // status bar the same number; two cheap snapshots bring both back.
    void statusBarAndToolbarAgree()
    {
        FRESH_DATABASE(database, u"postgresql"_qs);
        const auto setup = database->initialise();
        QVERIFY(setup);
        MainWindow window(database->connect(), plainWindow());
        window.show();
        HealthMonitor *monitor = window.monitor();
        QTRY_VERIFY(monitor->hasSnapshot());
        monitor->pause();
        QTRY_VERIFY(!monitor->isWaiting());
        // Snapshots answered by hand with the cost a big outbox's would have (the worker's own
        // answers to the same requests come later and are dropped as not newer).
        const auto answer = [monitor](qint64 costMs) {
            HealthSnapshot snapshot = monitor->snapshot();
            snapshot.queryMs = costMs;
            monitor->refreshNow();
            monitor->acceptSnapshot(monitor->lastRequestId(), snapshot);
        };
        for (int i = 0; i < 3; ++i)
            answer(100); // 100 ms × 75: every 7.5 s, shown as 8 s
        QCOMPARE(window.intervalBox()->text(), u"every 2 s (now 8 s)"_qs);
        QVERIFY2(window.intervalBox()->toolTip().contains(u"the snapshot takes 100 ms"_qs),
            qPrintable(window.intervalBox()->toolTip()));
        QCOMPARE(everySeconds(refreshLabel(window), u"every (\\d+) s \\(adaptive\\)"_qs), 8);
        const auto *label = window.findChild<QLabel *>(u"refreshLabel"_qs);
        QVERIFY(label->toolTip().contains(u"Refreshed every 8 s instead of 2 s"_qs));

        answer(5);
        QCOMPARE(window.intervalBox()->text(), u"every 2 s (now 8 s)"_qs); // one is not a trend
        answer(5);
        QCOMPARE(window.intervalBox()->text(), u"every 2 s"_qs);
        QCOMPARE(everySeconds(refreshLabel(window), u"every (\\d+) s$"_qs), 2);
        QCOMPARE(monitor->effectiveInterval(), 2000);
    }
};

OUTBOX_TEST_MAIN(TestHealthCadence, QApplication)
#include "tst_healthcadence.moc"
