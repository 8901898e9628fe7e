// The dashboard's display widgets as a user sees them: tiles changing colour at their limits,
// charts following their models (values, axes, labels), the lifecycle diagram drawing its
// counts without overlapping text, the retry timeline of real attempt rows, DEAD rows coloured.
// With OUTBOX_SCREENSHOT_DIR set, each widget is also saved there as a PNG for a visual check.
#include "agehistogrammodel.h"
#include "attemptmodel.h"
#include "attemptshistogrammodel.h"
#include "bytetext.h"
#include "errorcategorymodel.h"
#include "eventlistmodel.h"
#include "eventwait.h"
#include "healthquery.h"
#include "healthtiles.h"
#include "historymodel.h"
#include "lifecyclepage.h"
#include "notedialog.h"
#include "numbertext.h"
#include "outboxctlrun.h"
#include "outboxrows.h"
#include "outboxstore.h"
#include "overviewpage.h"
#include "payloadeditdialog.h"
#include "resolvedialog.h"
#include "retrytimeline.h"
#include "statuscolorproxy.h"
#include "testdatabase.h"
#include "testmain.h"
#include "thresholdwords.h"
#include "timeformat.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QCategoryAxis>
#include <QChartView>
#include <QDir>
#include <QImage>
#include <QLabel>
#include <QLineSeries>
#include <QPieSeries>
#include <QPlainTextEdit>
#include <QPointer>
#include <QSignalSpy>
#include <QStackedBarSeries>
#include <QToolButton>
#include <QValueAxis>
#include <cmath>

namespace {

constexpr qint64 EpochNow = 1700000000000;

// An outbox after a short outage: a backlog, a few retries, three events parked DEAD.
HealthSnapshot busySnapshot()
{
    HealthSnapshot snapshot;
    snapshot.now = EpochNow;
    snapshot.counts = {42, 17, 8, 2, 12840, 3};
    snapshot.estimated = {u"delivered"_qs};
    snapshot.oldestPendingAgeMs = 754000;
    const QList<qint64> ageCounts = {14, 20, 18, 9, 6, 2, 0};
    for (int i = 0; i < ageCounts.size(); ++i) {
        const std::optional<qint64> bound = i < HealthSnapshot::ageBoundsMs().size()
            ? std::optional<qint64>(HealthSnapshot::ageBoundsMs().at(i))
            : std::nullopt;
        snapshot.ageHistogram << AgeBucket {bound, ageCounts.at(i)};
    }
    snapshot.attemptsHistogram = {{0, 40, 0}, {1, 15, 0}, {2, 14, 1}, {3, 0, 2}};
    snapshot.errorCategories = {{u"TRANSIENT"_qs, 29}, {u"PERMANENT"_qs, 3}};
    for (int i = 0; i < HealthSnapshot::ThroughputMinutes; ++i) {
        const bool outage = i >= 35 && i < 45;
        const qint64 delivered = outage ? 20 : 180 + qRound(40 * std::sin(i / 6.0));
        const qint64 failed = outage ? 150 : 4 + i % 3;
        snapshot.throughput << ThroughputMinute {
            EpochNow - (HealthSnapshot::ThroughputMinutes - i) * HealthSnapshot::MinuteMs,
            delivered, failed};
    }
    return snapshot;
}

// A history of `range` at EpochNow: steady deliveries with an outage, latency per bucket, and
// every seventh bucket without any delivery (no latency point there).
DeliveryHistory busyHistory(HistoryRange range, qint64 now = EpochNow)
{
    DeliveryHistory history;
    history.range = range;
    history.now = now;
    const int count = DeliveryHistory::bucketCount(range);
    const qint64 first = DeliveryHistory::firstBucketStart(range, now);
    for (int i = 0; i < count; ++i) {
        HistoryBucket bucket;
        bucket.start = first + i * DeliveryHistory::bucketMs(range);
        const bool outage = i >= count * 6 / 10 && i < count * 7 / 10;
        bucket.failed = outage ? 150 : 4 + i % 3;
        if (i % 7 != 3) {
            bucket.delivered = outage ? 20 : 180 + qRound(40 * std::sin(i / 6.0));
            const qint64 base = outage ? 9000 : 300 + 50 * (i % 5);
            bucket.latency = {bucket.delivered, base, base * 3, base * 6};
        }
        history.buckets << bucket;
    }
    return history;
}

void saveScreenshot(QWidget *widget, const QString &name)
{
    const QString dir = qEnvironmentVariable("OUTBOX_SCREENSHOT_DIR");
    if (dir.isEmpty())
        return;
    widget->show();
    QVERIFY(QTest::qWaitForWindowExposed(widget));
    QCoreApplication::sendPostedEvents(); // chart layouts are requested by posted events
    QDir().mkpath(dir);
    QVERIFY(widget->grab().save(dir + u"/"_qs + name + u".png"_qs));
}

QChart *chartNamed(QWidget *panel, const QString &name)
{
    auto *view = panel->findChild<QChartView *>(name);
    return view ? view->chart() : nullptr;
}

QList<qreal> columnValues(const QAbstractItemModel &model, int column)
{
    QList<qreal> values;
    for (int row = 0; row < model.rowCount(); ++row)
        values << model.index(row, column).data().toReal();
    return values;
}

QList<qreal> setValues(const QBarSet *set)
{
    QList<qreal> values;
    for (int i = 0; i < set->count(); ++i)
        values << set->at(i);
    return values;
}

QValueAxis *verticalAxis(QChart *chart)
{
    const QList<QAbstractAxis *> axes = chart->axes(Qt::Vertical);
    return axes.isEmpty() ? nullptr : qobject_cast<QValueAxis *>(axes.first());
}

NewEvent newEvent(const QString &id, qint64 createdAt)
{
    return {id, u"Order"_qs, u"1"_qs, u"OrderPlaced"_qs, u"{}"_qs, createdAt};
}

enum class Story { RetriesThenDelivered, LeaseExpiredRetryDead, InstantRetriesThenDead };

// Three attempts of one event, as the relay would record them.
bool writeAttempts(OutboxStore &store, const QString &id, Story story)
{
    const auto fail = [&](qint64 claimAt, qint64 failAt, ErrorCategory category, qint64 offset) {
        const ClaimResult claim = store.claim(id, u"w"_qs, offset + claimAt);
        return claim.ok && store.fail(claim.claim, offset + failAt, category, u"503"_qs).ok;
    };
    switch (story) {
    case Story::RetriesThenDelivered:
        return store.insertEvent(newEvent(id, 0)) && fail(0, 5, ErrorCategory::Transient, 0)
            && fail(15, 20, ErrorCategory::Transient, 0)
            && store.ack(store.claim(id, u"w"_qs, 40).claim, 45, u"APPLIED"_qs).ok;
    case Story::LeaseExpiredRetryDead: // the first worker goes silent past its lease
        return store.insertEvent(newEvent(id, EpochNow)) && store.claim(id, u"w1"_qs, EpochNow).ok
            && fail(50, 60, ErrorCategory::Transient, EpochNow)
            && fail(70, 75, ErrorCategory::Permanent, EpochNow);
    case Story::InstantRetriesThenDead: // the simulator's attempts take no time at all
        return store.insertEvent(newEvent(id, 0)) && fail(0, 0, ErrorCategory::Transient, 0)
            && fail(10, 10, ErrorCategory::Transient, 0)
            && fail(30, 30, ErrorCategory::Permanent, 0);
    }
    return false;
}

int pointCount(QChart *chart, QAbstractSeries::SeriesType type)
{
    int count = 0;
    for (QAbstractSeries *series : chart->series()) {
        if (series->type() == type)
            count += int(static_cast<QXYSeries *>(series)->count());
    }
    return count;
}

QXYSeries *seriesNamed(QChart *chart, const QString &name)
{
    for (QAbstractSeries *series : chart->series()) {
        if (series->name() == name)
            return static_cast<QXYSeries *>(series);
    }
    return nullptr;
}

QList<qreal> xValues(const QXYSeries *series)
{
    QList<qreal> xs;
    for (const QPointF &point : series->points())
        xs << point.x();
    return xs;
}

} // namespace

Q_DECLARE_METATYPE(Story)

class TestWidgets : public QObject
{
    Q_OBJECT

private slots:
    void tilesTurnAmberThenRed_data()
    {
        QTest::addColumn<qint64>("dead");
        QTest::addColumn<HealthTiles::Level>("level");
        QTest::addRow("no DEAD rows stay normal") << qint64(0) << HealthTiles::Level::Normal;
        QTest::addRow("one DEAD row is amber") << qint64(1) << HealthTiles::Level::Amber;
        QTest::addRow("nine DEAD rows are still amber") << qint64(9) << HealthTiles::Level::Amber;
        QTest::addRow("ten DEAD rows are red") << qint64(10) << HealthTiles::Level::Red;
    }
    void tilesTurnAmberThenRed()
    {
        QFETCH(qint64, dead);
        QFETCH(HealthTiles::Level, level);
        HealthTiles tiles;
        HealthSnapshot snapshot;
        snapshot.counts.dead = dead;
        tiles.setSnapshot(snapshot);
        QCOMPARE(tiles.valueText(HealthTiles::Tile::Dead), QString::number(dead));
        QCOMPARE(tiles.level(HealthTiles::Tile::Dead), level);
        QCOMPARE(tiles.level(HealthTiles::Tile::Delivered), HealthTiles::Level::Normal);
    }

    // Rows whose created_at is no time are said, not folded into a wrapped or missing age.
    void oldestTileNamesImplausibleTimes()
    {
        HealthTiles tiles;
        HealthSnapshot snapshot;
        snapshot.now = EpochNow; // a wall clock: ages in ms, s, min
        snapshot.oldestPendingAgeMs = 1000;
        tiles.setSnapshot(snapshot);
        QCOMPARE(tiles.level(HealthTiles::Tile::OldestPending), HealthTiles::Level::Normal);
        QCOMPARE(tiles.hintText(HealthTiles::Tile::OldestPending), u"age of oldest PENDING"_qs);

        snapshot.implausible.createdBefore1970 = 1;
        snapshot.implausible.createdInFuture = 2;
        tiles.setSnapshot(snapshot);
        QCOMPARE(tiles.valueText(HealthTiles::Tile::OldestPending), u"1.0 s"_qs);
        QCOMPARE(tiles.level(HealthTiles::Tile::OldestPending), HealthTiles::Level::Amber);
        QCOMPARE(tiles.hintText(HealthTiles::Tile::OldestPending),
            u"3 without a plausible created_at"_qs);
        QVERIFY2(tiles.toolTipText(HealthTiles::Tile::OldestPending)
                     .contains(u"1 PENDING row has created_at before 1970; 2 PENDING rows have "
                               "created_at in the future"_qs),
            qPrintable(tiles.toolTipText(HealthTiles::Tile::OldestPending)));
    }

    // The words the window and outboxctl share: humane durations (exact values only in JSON),
    // counts with separators, tile limits.
    void humaneWords_data()
    {
        QTest::addColumn<QString>("actual");
        QTest::addColumn<QString>("expected");
        QTest::addRow("10 min, not 10 min 0 s")
            << TimeFormat::ageInTwoUnits(600000) << u"10 min"_qs;
        QTest::addRow("9 min 59 s, rounded down")
            << TimeFormat::ageInTwoUnits(599999) << u"9 min 59 s"_qs;
        QTest::addRow("2 h 5 min") << TimeFormat::ageInTwoUnits(7500000) << u"2 h 5 min"_qs;
        QTest::addRow("2 h") << TimeFormat::ageInTwoUnits(7200000) << u"2 h"_qs;
        QTest::addRow("9.5 s") << TimeFormat::ageInTwoUnits(9500) << u"9.5 s"_qs;
        QTest::addRow("1,757") << NumberText::count(1757) << u"1,757"_qs;
        QTest::addRow("1,234,567") << NumberText::count(1234567) << u"1,234,567"_qs;
        QTest::addRow("999") << NumberText::count(999) << u"999"_qs;
        QTest::addRow("1 event") << NumberText::counted(1, u"event"_qs, u"events"_qs)
                                 << u"1 event"_qs;
        QTest::addRow("1,200 error groups") << NumberText::counted(1200, u"error group"_qs,
            u"error groups"_qs) << u"1,200 error groups"_qs;
        QTest::addRow("0 findings")
            << NumberText::counted(0, u"finding"_qs, u"findings"_qs) << u"0 findings"_qs;
        QTest::addRow("256 MiB, as sizes read everywhere")
            << ByteText::format(qint64(256) << 20) << u"256 MiB"_qs;
        const TileThresholds tiles;
        using U = ThresholdWords::Unit;
        QTest::addRow("DEAD red from 10")
            << ThresholdWords::redFrom(tiles.dead, U::Count) << u"red from 10"_qs;
        QTest::addRow("oldest red from 10 min")
            << ThresholdWords::redFrom(tiles.oldestPendingMs, U::Age) << u"red from 10 min"_qs;
        QTest::addRow("due limits") << ThresholdWords::limits(tiles.due, U::Count)
                                    << u"amber from 1,000, red from 10,000"_qs;
        QTest::addRow("a default limit is the tile's")
            << ThresholdWords::violation({u"max_dead"_qs, 9, 1970}, tiles, true, u"max-dead"_qs)
            << u"DEAD is 1,970, red from 10"_qs;
        QTest::addRow("a flag's limit is the flag's")
            << ThresholdWords::violation({u"max_dead"_qs, 9, 12}, tiles, false, u"max-dead"_qs)
            << u"DEAD is 12, above 9 (--max-dead)"_qs;
    }
    void humaneWords()
    {
        QFETCH(QString, actual);
        QFETCH(QString, expected);
        QCOMPARE(actual, expected);
    }

    // The window and outboxctl check tell one story on the same outbox: the same words for a
    // tile's limit ("red from 10", "red from 10 min", from ThresholdWords), the same humane age
    // and the same separated count, while check's JSON keeps the exact numbers.
    void tilesAndCheckSayTheSameWords()
    {
        FRESH_DATABASE(database, u"sqlite"_qs);
        const auto connection = database->initialise();
        QVERIFY(connection);
        QSqlDatabase db = connection->database();
        const qint64 now = EpochNow;
        QVERIFY(db.transaction());
        for (int i = 0; i < 1200; ++i) {
            OutboxRow row;
            row.id = u"D-"_qs + QString::number(i);
            row.status = u"DEAD"_qs;
            row.createdAt = row.nextAttemptAt = now - 3600000;
            row.failures = 3;
            QVERIFY(insertRow(db, row));
        }
        OutboxRow old;
        old.id = u"P-old"_qs;
        old.createdAt = now - 750000; // 12 min 30 s
        old.nextAttemptAt = now + 60000;
        QVERIFY(insertRow(db, old));
        QVERIFY(db.commit());
        QString error;
        const auto snapshot = HealthQuery::compute(db, now, &error);
        QVERIFY2(snapshot, qPrintable(error));

        const TileThresholds limits;
        const QString deadRed = ThresholdWords::redFrom(limits.dead, ThresholdWords::Unit::Count);
        const QString ageRed
            = ThresholdWords::redFrom(limits.oldestPendingMs, ThresholdWords::Unit::Age);
        QCOMPARE(deadRed, u"red from 10"_qs);
        QCOMPARE(ageRed, u"red from 10 min"_qs);

        HealthTiles tiles;
        tiles.setSnapshot(*snapshot);
        QCOMPARE(tiles.valueText(HealthTiles::Tile::Dead), u"1,200"_qs);
        QCOMPARE(tiles.valueText(HealthTiles::Tile::OldestPending), u"12 min 30 s"_qs);
        QVERIFY2(tiles.summaryText(HealthTiles::Tile::Dead).contains(deadRed),
            qPrintable(tiles.summaryText(HealthTiles::Tile::Dead)));
        QVERIFY2(tiles.toolTipText(HealthTiles::Tile::OldestPending).contains(ageRed),
            qPrintable(tiles.toolTipText(HealthTiles::Tile::OldestPending)));

        const QStringList check
            = {u"check"_qs, u"--db"_qs, database->url(), u"--now"_qs, QString::number(now)};
        const Run text = outboxctl(check);
        QCOMPARE(text.exitCode, 1);
        QCOMPARE(text.out.constLast(),
            u"UNHEALTHY: oldest pending is 12 min 30 s, "_qs + ageRed + u"; DEAD is 1,200, "_qs
                + deadRed);
        QVERIFY2(text.out.contains(u"oldest:   12 min 30 s"_qs), qPrintable(text.out.join(u'\n')));
        QVERIFY2(text.out.join(u'\n').contains(u"1,200 dead"_qs), qPrintable(text.out.join(u'\n')));
        const Run json = outboxctl(check + QStringList {u"--json"_qs});
        QCOMPARE(json.exitCode, 1);
        QVERIFY(json.out.constFirst().contains(u"\"dead\":1200,"_qs));
        QVERIFY(json.out.constFirst().contains(u"\"oldest_pending_age_ms\":750000,"_qs));
        QVERIFY(json.out.constFirst().contains(
            u"{\"threshold\":\"max_oldest_pending_ms\",\"limit\":599999,\"value\":750000}"_qs));
    }

    void tilesShowEstimatesAndAges()
    {
        HealthTiles tiles;
        QCOMPARE(tiles.valueText(HealthTiles::Tile::Due), u"—"_qs); // nothing known yet
        HealthSnapshot snapshot;
        snapshot.counts.delivered = 12;
        tiles.setSnapshot(snapshot);
        QCOMPARE(tiles.valueText(HealthTiles::Tile::Delivered), u"12"_qs);
        QCOMPARE(tiles.valueText(HealthTiles::Tile::OldestPending), u"—"_qs);

        snapshot = busySnapshot();
        tiles.setSnapshot(snapshot);
        QVERIFY(tiles.valueText(HealthTiles::Tile::Delivered).startsWith(u"≈ "_qs));
        QCOMPARE(tiles.valueText(HealthTiles::Tile::OldestPending), u"12 min 34 s"_qs);
        QCOMPARE(tiles.level(HealthTiles::Tile::OldestPending), HealthTiles::Level::Red);
        QCOMPARE(tiles.level(HealthTiles::Tile::LeaseExpired), HealthTiles::Level::Amber);
        QCOMPARE(tiles.level(HealthTiles::Tile::Due), HealthTiles::Level::Normal);

        TileThresholds relaxed;
        relaxed.dead = {5, 50};
        relaxed.oldestPendingMs = {3600000, 86400000};
        tiles.setThresholds(relaxed);
        QCOMPARE(tiles.level(HealthTiles::Tile::Dead), HealthTiles::Level::Normal);
        QCOMPARE(tiles.level(HealthTiles::Tile::OldestPending), HealthTiles::Level::Normal);
        tiles.setThresholds({});
        tiles.resize(1100, tiles.sizeHint().height());
        saveScreenshot(&tiles, u"healthtiles"_qs);
    }

    void chartsFollowTheirModels()
    {
        AgeHistogramModel ages;
        AttemptsHistogramModel failures;
        HistoryModel throughput;
        QAbstractItemModelTester tester(&throughput);
        ErrorCategoryModel categories;
        OverviewPage panel(&ages, &failures, &throughput, &categories);
        HealthSnapshot snapshot = busySnapshot();
        DeliveryHistory history = busyHistory(HistoryRange::Hour);
        for (int round = 0; round < 2; ++round) {
            ages.setSnapshot(snapshot);
            failures.setSnapshot(snapshot);
            throughput.setHistory(history);
            categories.setSnapshot(snapshot);
            verifyAgeChart(&panel, ages);
            verifyFailuresChart(&panel, failures);
            verifyThroughputChart(&panel, throughput);
            verifyCategoryChart(&panel, categories);
            if (round == 0) {
                panel.resize(1000, 640);
                saveScreenshot(&panel, u"chartspanel"_qs);
                panel.resize(panel.minimumSizeHint());
                saveScreenshot(&panel, u"chartspanel-narrow"_qs);
            }
            // A much bigger backlog, and events that failed more often: axes must follow.
            for (AgeBucket &bucket : snapshot.ageHistogram)
                bucket.count *= 1000;
            snapshot.attemptsHistogram << FailuresBucket {4, 7, 0} << FailuresBucket {5, 0, 900};
            history.buckets.last().delivered = 25000;
        }
        categories.setSnapshot(HealthSnapshot {});
        QCOMPARE(chartNamed(&panel, u"categoryChart"_qs)->title(), u"Error categories: none"_qs);
        panel.setBudget(5);
        QVERIFY(chartNamed(&panel, u"failuresChart"_qs)->title().contains(u"budget 5"_qs));
        auto *categoryAxis = qobject_cast<QBarCategoryAxis *>(
            chartNamed(&panel, u"failuresChart"_qs)->axes(Qt::Horizontal).first());
        QCOMPARE(categoryAxis->categories().last(), u"5"_qs);
        QCOMPARE(categoryAxis->titleText(), u"failures so far (budget spent at 5)"_qs);
    }

    // A live outbox changes the figures of every snapshot, not their number: the bar charts
    // change their bars in place. Made anew per snapshot, Qt Charts kept the old bars: the
    // demo's memory grew by about 0.15 MB a minute (docs/benchmarks/idle.md, Memory).
    void barChartsKeepTheirBarsAcrossSnapshots()
    {
        AgeHistogramModel ages;
        AttemptsHistogramModel failures;
        QAbstractItemModelTester agesTester(&ages);
        QAbstractItemModelTester failuresTester(&failures);
        HistoryModel history;
        ErrorCategoryModel categories;
        OverviewPage panel(&ages, &failures, &history, &categories);
        panel.resize(1000, 640);
        HealthSnapshot snapshot = busySnapshot();
        ages.setSnapshot(snapshot);
        failures.setSnapshot(snapshot);
        QChart *ageChart = chartNamed(&panel, u"ageChart"_qs);
        QChart *failuresChart = chartNamed(&panel, u"failuresChart"_qs);
        const auto barSets = [](QChart *chart) {
            const auto *series = qobject_cast<QAbstractBarSeries *>(chart->series().first());
            QList<QPointer<QBarSet>> sets;
            for (QBarSet *set : series->barSets())
                sets << set;
            return sets;
        };
        const QList<QPointer<QBarSet>> ageSets = barSets(ageChart);
        const QList<QPointer<QBarSet>> failureSets = barSets(failuresChart);
        const qsizetype items = ageChart->scene()->items().size();
        for (int round = 1; round <= 300; ++round) {
            snapshot.ageHistogram.first().count = round;
            snapshot.attemptsHistogram.first().pending = round;
            snapshot.attemptsHistogram.last().dead = 2 * round;
            ages.setSnapshot(snapshot);
            failures.setSnapshot(snapshot);
        }
        // The same sets: none deleted (a null QPointer) and made anew.
        for (const QPointer<QBarSet> &set : ageSets + failureSets)
            QVERIFY(set);
        QVERIFY(barSets(ageChart) == ageSets);
        QVERIFY(barSets(failuresChart) == failureSets);
        QCOMPARE(ageChart->scene()->items().size(), items);
        verifyAgeChart(&panel, ages); // the bars show the last snapshot's figures
        verifyFailuresChart(&panel, failures);
        QCOMPARE(ageSets.first()->at(0), 300);
        QCOMPARE(failureSets.last()->at(failures.rowCount() - 1), 600);
        QVERIFY2(panel.summaryText(u"failuresChart"_qs).contains(u"600 DEAD"_qs),
            qPrintable(panel.summaryText(u"failuresChart"_qs)));
        // A snapshot with more rows still reaches the chart (a reset).
        snapshot.attemptsHistogram << FailuresBucket {4, 7, 0};
        failures.setSnapshot(snapshot);
        verifyFailuresChart(&panel, failures);
    }

    // The range buttons: a click asks for the range (rangeChanged), and the charts show the
    // buckets of the history that arrives: 60 minutes, 96 quarter hours or 168 hours, with a
    // latency point only where something was delivered.
    void chartsSwitchHistoryRange_data()
    {
        QTest::addColumn<HistoryRange>("range");
        QTest::addColumn<QString>("button");
        QTest::addColumn<int>("buckets");
        QTest::addColumn<qreal>("axisStart");
        QTest::addColumn<QString>("title");
        QTest::addRow("24 h") << HistoryRange::Day << u"range24h"_qs << 96 << qreal(-24)
                              << u"per 15 min"_qs;
        QTest::addRow("7 d") << HistoryRange::Week << u"range7d"_qs << 168 << qreal(-7)
                             << u"per hour"_qs;
        QTest::addRow("1 h") << HistoryRange::Hour << u"range1h"_qs << 60 << qreal(-60)
                             << u"per minute"_qs;
    }
    void chartsSwitchHistoryRange()
    {
        QFETCH(HistoryRange, range);
        QFETCH(QString, button);
        QFETCH(int, buckets);
        QFETCH(qreal, axisStart);
        QFETCH(QString, title);
        AgeHistogramModel ages;
        AttemptsHistogramModel failures;
        HistoryModel history;
        QAbstractItemModelTester tester(&history);
        ErrorCategoryModel categories;
        OverviewPage panel(&ages, &failures, &history, &categories);
        panel.resize(1200, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        history.setHistory(
            busyHistory(HistoryRange::Hour == range ? HistoryRange::Week : HistoryRange::Hour));
        QSignalSpy asked(&panel, &OverviewPage::rangeChanged);
        auto *toolButton = panel.findChild<QToolButton *>(button);
        QVERIFY(toolButton);
        if (range == HistoryRange::Hour) // already chosen: choose another one first
            panel.setRange(HistoryRange::Week);
        asked.clear();
        QTest::mouseClick(toolButton, Qt::LeftButton);
        QCOMPARE(asked.size(), 1);
        QCOMPARE(asked.constFirst().constFirst().value<HistoryRange>(), range);
        QCOMPARE(panel.range(), range);
        QVERIFY(toolButton->isChecked());
        QTest::mouseClick(toolButton, Qt::LeftButton); // the same range again: nothing asked
        QCOMPARE(asked.size(), 1);

        const DeliveryHistory answer = busyHistory(range);
        history.setHistory(answer);
        QChart *throughput = chartNamed(&panel, u"throughputChart"_qs);
        QVERIFY2(throughput->title().contains(title), qPrintable(throughput->title()));
        auto *delivered = qobject_cast<QLineSeries *>(throughput->series().at(0));
        QCOMPARE(delivered->count(), buckets);
        QCOMPARE(delivered->points().last().x(), 0);
        QCOMPARE(delivered->points().first().x(),
            qreal(1 - buckets) / HistoryModel::bucketsPerUnit(range));
        auto *axis = qobject_cast<QValueAxis *>(throughput->axes(Qt::Horizontal).first());
        QCOMPARE(axis->min(), axisStart);
        QCOMPARE(axis->max(), 0);

        QChart *latency = chartNamed(&panel, u"latencyChart"_qs);
        QVERIFY2(latency->title().contains(title), qPrintable(latency->title()));
        QCOMPARE(latency->series().size(), 3);
        int withDeliveries = 0;
        for (const HistoryBucket &bucket : answer.buckets)
            withDeliveries += bucket.latency.count > 0 ? 1 : 0;
        QVERIFY(withDeliveries < buckets); // some buckets have no latency at all
        const auto *p95 = qobject_cast<QLineSeries *>(latency->series().at(1));
        QCOMPARE(p95->name(), u"p95"_qs);
        QCOMPARE(p95->count(), withDeliveries);
        // The newest bucket with deliveries is the last point, at its place and in seconds.
        qsizetype newest = answer.buckets.size() - 1;
        while (answer.buckets.at(newest).latency.count == 0)
            --newest;
        QCOMPARE(p95->points().last(),
            QPointF(qreal(newest + 1 - buckets) / HistoryModel::bucketsPerUnit(range),
                *answer.buckets.at(newest).latency.p95Ms / 1000.0));
        qreal highest = 0;
        for (const QPointF &point : p95->points())
            highest = std::max(highest, point.y());
        QVERIFY(qobject_cast<QValueAxis *>(latency->axes(Qt::Vertical).first())->max() >= highest);
        if (range == HistoryRange::Week)
            saveScreenshot(&panel, u"chartspanel-7d"_qs);
    }

    // A teaching scenario's logical clock counts units: the history charts say units where the
    // wall clock's say minutes and seconds, as the tiles and the table do.
    void historyChartsSpeakUnitsOnALogicalClock()
    {
        AgeHistogramModel ages;
        AttemptsHistogramModel failures;
        HistoryModel history;
        ErrorCategoryModel categories;
        OverviewPage panel(&ages, &failures, &history, &categories);
        panel.resize(1200, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        const DeliveryHistory answer = busyHistory(HistoryRange::Hour, 300); // t=300
        history.setHistory(answer);

        QChart *throughput = chartNamed(&panel, u"throughputChart"_qs);
        QCOMPARE(throughput->title(), u"Attempts per 60000 units"_qs);
        const auto *ago = qobject_cast<QValueAxis *>(throughput->axes(Qt::Horizontal).first());
        QCOMPARE(ago->titleText(), u"× 60000 units ago"_qs);
        QChart *latency = chartNamed(&panel, u"latencyChart"_qs);
        QCOMPARE(latency->title(), u"Latency per 60000 units"_qs);
        QCOMPARE(qobject_cast<QValueAxis *>(latency->axes(Qt::Vertical).first())->titleText(),
            u"units"_qs);
        // The newest latency in units, as the events' own times read.
        const auto *p95 = qobject_cast<QLineSeries *>(latency->series().at(1));
        qsizetype newest = answer.buckets.size() - 1;
        while (answer.buckets.at(newest).latency.count == 0)
            --newest;
        QCOMPARE(p95->points().last().y(), qreal(*answer.buckets.at(newest).latency.p95Ms));
        const QString summary = panel.summaryText(u"latencyChart"_qs);
        QVERIFY2(summary.contains(u" units"_qs) && !summary.contains(u" s,"_qs)
                && !summary.contains(u"minutes"_qs),
            qPrintable(summary));
    }

    void lifecycleDiagramDrawsAtAnySize_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<bool>("readable"); // large enough that no text may overlap
        QTest::addRow("size hint") << LifecyclePage().sizeHint() << true;
        QTest::addRow("minimum size hint") << LifecyclePage().minimumSizeHint() << true;
        QTest::addRow("wide and low") << QSize(1400, 260) << true;
        QTest::addRow("tall and narrow") << QSize(560, 900) << true;
        QTest::addRow("full screen") << QSize(1920, 1080) << true;
        QTest::addRow("tiny") << QSize(60, 30) << false;
        QTest::addRow("empty") << QSize(0, 0) << false;
    }
    void lifecycleDiagramDrawsAtAnySize()
    {
        QFETCH(QSize, size);
        QFETCH(bool, readable);
        LifecyclePage diagram;
        const HealthCounts counts = busySnapshot().counts;
        diagram.setCounts(counts);
        diagram.resize(size);
        QImage image(size.expandedTo(QSize(1, 1)), QImage::Format_ARGB32);
        image.fill(Qt::transparent);
        diagram.render(&image);
        QCOMPARE(diagram.counts().dead, counts.dead);
        QCOMPARE(diagram.counts().leaseExpired, counts.leaseExpired);
        QCOMPARE(diagram.counts().delivered, counts.delivered);
        if (!readable)
            return;
        QCOMPARE(image.pixelColor(2, 2), QColor(Qt::white)); // painted, not left transparent
        const QList<QRectF> texts = diagram.textRects();
        QCOMPARE(texts.size(), 6 * 2 + 1 + 8); // title and count per box, a lease note, 8 labels
        for (int i = 0; i < texts.size(); ++i) {
            QVERIFY2(QRectF(diagram.rect()).contains(texts.at(i)), qPrintable(QString::number(i)));
            for (int j = i + 1; j < texts.size(); ++j)
                QVERIFY2(!texts.at(i).intersects(texts.at(j)),
                    qPrintable(u"%1 overlaps %2"_qs.arg(i).arg(j)));
        }
        saveScreenshot(&diagram, u"lifecycle-%1x%2"_qs.arg(size.width()).arg(size.height()));
    }

    void retryTimelineShowsEachAttempt_data()
    {
        QTest::addColumn<Story>("story");
        QTest::addColumn<QList<qreal>>("claims");
        QTest::addColumn<QList<qreal>>("dues");
        QTest::addColumn<QString>("lastOutcome");
        QTest::addColumn<QString>("timeTitle");
        // Seed policy: 10 after the first failure, 20 after the second; lease 30.
        QTest::addRow("logical clock: retry, retry, delivered")
            << Story::RetriesThenDelivered << QList<qreal> {0, 15, 40} << QList<qreal> {15, 40}
            << u"delivered"_qs << u"time (units)"_qs;
        QTest::addRow("epoch ms: lease expired, retry, dead")
            << Story::LeaseExpiredRetryDead << QList<qreal> {0, 50, 70} << QList<qreal> {70}
            << u"dead"_qs << u"time (ms since first claim)"_qs;
        QTest::addRow("instant attempts: retry, retry, dead")
            << Story::InstantRetriesThenDead << QList<qreal> {0, 10, 30} << QList<qreal> {10, 30}
            << u"dead"_qs << u"time (units)"_qs;
    }
    void retryTimelineShowsEachAttempt()
    {
        QFETCH(Story, story);
        QFETCH(QList<qreal>, claims);
        QFETCH(QList<qreal>, dues);
        QFETCH(QString, lastOutcome);
        QFETCH(QString, timeTitle);
        FRESH_DATABASE(database, QStringLiteral("sqlite"));
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QString id = u"EVENT-7"_qs;
        OutboxStore store(connection->database());
        QVERIFY(writeAttempts(store, id, story));

        AttemptModel attempts;
        RetryTimeline timeline;
        timeline.setModel(&attempts);
        QVERIFY(timeline.chart()->series().isEmpty());
        QVERIFY(timeline.chart()->title().contains(u"Select an event"_qs));
        timeline.resize(640, 300);
        if (story == Story::RetriesThenDelivered)
            saveScreenshot(&timeline, u"retrytimeline-empty"_qs);
        QVERIFY(attempts.setEvent(connection->database(), id));
        QCOMPARE(attempts.rowCount(), 3);

        QChart *chart = timeline.chart();
        QCOMPARE(chart->title(), u"Retry timeline of EVENT-7"_qs);
        // Per attempt a claim marker and a two-point segment; per retry a two-point dashed
        // wait and a due marker.
        const int retries = int(dues.size());
        QCOMPARE(pointCount(chart, QAbstractSeries::SeriesTypeLine), 3 * 2 + retries * 2);
        QCOMPARE(pointCount(chart, QAbstractSeries::SeriesTypeScatter), 3 + retries);
        QCOMPARE(xValues(seriesNamed(chart, u"claimed"_qs)), claims);
        QCOMPARE(xValues(seriesNamed(chart, u"next due"_qs)), dues);
        auto *last = static_cast<QLineSeries *>(seriesNamed(chart, lastOutcome));
        QVERIFY(last);
        QCOMPARE(last->pen().color(), StatusColorProxy::colorFor(lastOutcome));
        QVERIFY(last->pointsVisible()); // an instant attempt still shows its outcome's colour
        auto *timeAxis = qobject_cast<QValueAxis *>(chart->axes(Qt::Horizontal).first());
        QCOMPARE(timeAxis->titleText(), timeTitle);
        QVERIFY(timeAxis->min() <= 0 && timeAxis->max() >= dues.last());
        auto *attemptAxis = qobject_cast<QCategoryAxis *>(chart->axes(Qt::Vertical).first());
        QCOMPARE(attemptAxis->categoriesLabels(), QStringList({u"#1"_qs, u"#2"_qs, u"#3"_qs}));
        saveScreenshot(&timeline, u"retrytimeline-%1"_qs.arg(int(story)));

        QVERIFY(attempts.setEvent(connection->database(), QString()));
        QVERIFY(chart->series().isEmpty());
        QVERIFY(chart->title().contains(u"Select an event"_qs));
    }

    // An event ID is the database's text: a right-to-left override in it is shown escaped in
    // every dialog that names the event, so "R-\u202egpj.exe" never reads "R-exe.jpg".
    void dialogsShowInvisibleCharactersEscaped()
    {
        const QString id = u"R-\u202Egpj.exe"_qs;
        const QString shown = u"R-\\u202egpj.exe"_qs;
        ResolveDialog resolve({id}, 1);
        const auto *preview = resolve.findChild<QPlainTextEdit *>(u"resolvePreview"_qs);
        QVERIFY(preview);
        QCOMPARE(preview->toPlainText(), shown);
        NoteDialog note(NoteDialog::Mode::Add, NoteTarget {id, {}});
        const auto *about = note.findChild<QLabel *>(u"noteTarget"_qs);
        QVERIFY(about);
        QVERIFY2(about->text().contains(shown), qPrintable(about->text()));
        QVERIFY(!about->text().contains(QChar(0x202E)));
        PayloadEditDialog edit(id, u"{}"_qs, u"{}"_qs);
        bool named = false;
        for (const QLabel *label : edit.findChildren<QLabel *>()) {
            QVERIFY(!label->text().contains(QChar(0x202E)));
            named = named || label->text().contains(shown);
        }
        QVERIFY(named);
    }

    void statusColorProxyColoursDeadRows()
    {
        FRESH_DATABASE(database, QStringLiteral("sqlite"));
        const auto connection = database->initialise();
        QVERIFY(connection);
        OutboxStore store(connection->database());
        QVERIFY(store.insertEvent(newEvent(u"E-1"_qs, 0)));
        QVERIFY(store.insertEvent(newEvent(u"E-2"_qs, 0)));
        QVERIFY(store
                    .fail(store.claim(u"E-2"_qs, u"w"_qs, 0).claim, 1, ErrorCategory::Permanent,
                        u"schema"_qs)
                    .ok);

        EventListModel events;
        events.setNow(10);
        openEvents(events, *database);
        QVERIFY(settled(events));
        StatusColorProxy proxy;
        QAbstractItemModelTester tester(
            &proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(&events);
        proxy.setStatusFunction([](const QModelIndex &index) {
            return index.data(EventListModel::StatusRole).toString();
        });
        QCOMPARE(proxy.rowCount(), 2);
        const int dead = events.rowOfEvent(u"E-2"_qs);
        const int due = events.rowOfEvent(u"E-1"_qs);
        for (int column = 0; column < EventListModel::ColumnCount; ++column) {
            const QModelIndex deadCell = proxy.index(dead, column);
            QCOMPARE(deadCell.data(Qt::BackgroundRole).value<QBrush>().color(),
                QColor(0xff, 0xeb, 0xe9));
            QCOMPARE(deadCell.data(Qt::ForegroundRole).value<QBrush>().color(),
                QColor(0x82, 0x07, 0x1e));
            QVERIFY(!proxy.index(due, column).data(Qt::BackgroundRole).isValid());
        }
        QCOMPARE(proxy.index(dead, EventListModel::EventIdColumn).data().toString(), u"E-2"_qs);

        AttemptModel attempts; // the outcome column is coloured by its own word
        QVERIFY(attempts.setEvent(connection->database(), u"E-2"_qs));
        StatusColorProxy outcomes;
        outcomes.setSourceModel(&attempts);
        outcomes.setOutcomeColumn(AttemptModel::OutcomeColumn);
        const QModelIndex outcome = outcomes.index(0, AttemptModel::OutcomeColumn);
        QCOMPARE(outcome.data().toString(), u"DEAD"_qs);
        QCOMPARE(outcome.data(Qt::ForegroundRole).value<QBrush>().color(),
            StatusColorProxy::colorFor(u"DEAD"_qs));
        QVERIFY(!outcomes.index(0, AttemptModel::WorkerColumn).data(Qt::ForegroundRole).isValid());
        QCOMPARE(StatusColorProxy::colorFor(u"LEASE_EXPIRED"_qs),
            StatusColorProxy::colorFor(u"RETRY"_qs));
    }

private:
    void verifyAgeChart(QWidget *panel, const AgeHistogramModel &ages)
    {
        QChart *chart = chartNamed(panel, u"ageChart"_qs);
        QVERIFY(chart);
        auto *series = qobject_cast<QAbstractBarSeries *>(chart->series().first());
        QCOMPARE(series->count(), 1);
        QCOMPARE(setValues(series->barSets().first()),
            columnValues(ages, AgeHistogramModel::CountColumn));
        auto *categories = qobject_cast<QBarCategoryAxis *>(chart->axes(Qt::Vertical).first());
        QCOMPARE(categories->categories().first(), u"≤ 1 s"_qs);
        QCOMPARE(categories->categories().last(), u"&gt; 1 d"_qs); // axis labels are rich text
        QCOMPARE(categories->count(), ages.rowCount());
        const auto values = columnValues(ages, AgeHistogramModel::CountColumn);
        auto *counts = qobject_cast<QValueAxis *>(chart->axes(Qt::Horizontal).first());
        QVERIFY(counts->max() >= *std::max_element(values.begin(), values.end()));
    }

    void verifyFailuresChart(QWidget *panel, const AttemptsHistogramModel &failures)
    {
        QChart *chart = chartNamed(panel, u"failuresChart"_qs);
        auto *series = qobject_cast<QStackedBarSeries *>(chart->series().first());
        QVERIFY(series);
        QCOMPARE(series->count(), 2);
        QBarSet *pending = series->barSets().at(0);
        QBarSet *dead = series->barSets().at(1);
        QCOMPARE(setValues(pending), columnValues(failures, AttemptsHistogramModel::PendingColumn));
        QCOMPARE(setValues(dead), columnValues(failures, AttemptsHistogramModel::DeadColumn));
        QCOMPARE(dead->color(), StatusColorProxy::colorFor(u"DEAD"_qs));
        QVERIFY(pending->color() != dead->color());
        auto *categories = qobject_cast<QBarCategoryAxis *>(chart->axes(Qt::Horizontal).first());
        QCOMPARE(categories->count(), failures.rowCount());
        qreal tallest = 0;
        for (int i = 0; i < pending->count(); ++i)
            tallest = std::max(tallest, pending->at(i) + dead->at(i));
        QVERIFY(verticalAxis(chart)->max() >= tallest);
    }

    void verifyThroughputChart(QWidget *panel, const HistoryModel &throughput)
    {
        QChart *chart = chartNamed(panel, u"throughputChart"_qs);
        QCOMPARE(chart->series().size(), 2);
        auto *delivered = qobject_cast<QLineSeries *>(chart->series().at(0));
        QCOMPARE(delivered->count(), throughput.rowCount());
        const int last = throughput.rowCount() - 1;
        QCOMPARE(delivered->points().last(),
            QPointF(0, throughput.index(last, HistoryModel::DeliveredColumn).data().toReal()));
        const auto values = columnValues(throughput, HistoryModel::DeliveredColumn);
        QVERIFY(verticalAxis(chart)->min() == 0);
        QVERIFY(verticalAxis(chart)->max() >= *std::max_element(values.begin(), values.end()));
    }

    void verifyCategoryChart(QWidget *panel, const ErrorCategoryModel &categories)
    {
        QChart *chart = chartNamed(panel, u"categoryChart"_qs);
        QCOMPARE(chart->title(), u"Error categories"_qs);
        auto *pie = qobject_cast<QPieSeries *>(chart->series().first());
        QVERIFY(pie);
        QCOMPARE(pie->count(), categories.rowCount());
        for (int row = 0; row < categories.rowCount(); ++row) {
            QCOMPARE(pie->slices().at(row)->value(),
                categories.index(row, ErrorCategoryModel::CountColumn).data().toReal());
            QVERIFY(pie->slices().at(row)->label().startsWith(
                categories.index(row, ErrorCategoryModel::CategoryColumn).data().toString()));
        }
    }
};

OUTBOX_TEST_MAIN(TestWidgets, QApplication)
#include "tst_widgets.moc"
