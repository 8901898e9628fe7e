// Delivery latency (created -> delivered) on SQLite and PostgreSQL: exact nearest-rank p50, p95
// and p99 of the last hour on fixtures with known latencies (and, on PostgreSQL, the same values
// as the ranking SQLite uses, run there), none with nothing delivered, the check --json key, the
// metric lines, a profile that cannot tell it leaving it absent, and the Charts tab's history read
// per bucket for each range.
#include "fixturescript.h"
#include "healthmonitor.h"
#include "healthquery.h"
#include "healthworker.h"
#include "historymonitor.h"
#include "historyquery.h"
#include "latencyquery.h"
#include "metricstext.h"
#include "numbertext.h"
#include "outboxctlrun.h"
#include "outboxrows.h"
#include "sqldialect.h"
#include "testdata.h"
#include "testdatabase.h"
#include "testmain.h"
#include "timeformat.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <random>

namespace {

constexpr qint64 T = 1796115783000; // "now" of every snapshot below
constexpr qint64 HourMs = 3600000;

OutboxRow delivered(const QString &id, qint64 deliveredAt, qint64 latencyMs)
{
    OutboxRow row;
    row.id = id;
    row.status = u"DELIVERED"_qs;
    row.createdAt = deliveredAt - latencyMs;
    row.nextAttemptAt = row.createdAt;
    row.deliveredAt = deliveredAt;
    return row;
}

// The latencies, each delivered at a different time within the last hour, in shuffled order;
// then rows that must not count: delivered just over an hour ago, after now, created before
// 1970, and a PENDING row.
bool populate(const QSqlDatabase &db, QList<qint64> latencies)
{
    std::mt19937 random(7);
    std::shuffle(latencies.begin(), latencies.end(), random);
    for (qsizetype i = 0; i < latencies.size(); ++i) {
        const qint64 at
            = T - HourMs + 1 + i * (HourMs - 1) / std::max<qsizetype>(1, latencies.size());
        if (!insertRow(db, delivered(u"OK-"_qs + QString::number(i), at, latencies.at(i))))
            return false;
    }
    OutboxRow pending;
    pending.id = u"P-1"_qs;
    pending.createdAt = T - 1000;
    pending.nextAttemptAt = T;
    OutboxRow before1970 = delivered(u"OLD-CLOCK"_qs, T - 1000, 0);
    before1970.createdAt = -5;
    return insertRow(db, delivered(u"HOUR-AGO"_qs, T - HourMs, 1))
        && insertRow(db, delivered(u"FUTURE"_qs, T + 1, 1)) && insertRow(db, before1970)
        && insertRow(db, pending);
}

QList<qint64> range(qint64 from, qint64 to, qint64 step = 1)
{
    QList<qint64> values;
    for (qint64 v = from; v <= to; v += step)
        values << v;
    return values;
}

QString latencyJson(const QString &line)
{
    const QJsonObject json = QJsonDocument::fromJson(line.toUtf8()).object();
    const QJsonValue value = json.value(u"delivery_latency_ms"_qs);
    return value.isObject()
        ? QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact))
        : value.isNull() ? u"null"_qs
                         : u"absent"_qs;
}

// The value of the sample `name{labels}` in a scrape; NaN when it is absent.
double sampleValue(const QString &text, const QString &sample)
{
    for (const QString &line : text.split(u'\n')) {
        if (line.startsWith(sample + u' '))
            return line.mid(sample.size() + 1).toDouble();
    }
    return qQNaN();
}

} // namespace

class TestDeliveryLatency : public QObject
{
    Q_OBJECT

private slots:
    void exactPercentiles_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<QList<qint64>>("latencies");
        QTest::addColumn<qint64>("p50");
        QTest::addColumn<qint64>("p95");
        QTest::addColumn<qint64>("p99");
        for (const QString &engine : {u"sqlite"_qs, u"postgresql"_qs, u"mysql"_qs}) {
            const QByteArray e = engine.toUtf8();
            QTest::addRow("%s: 10 ms .. 1000 ms", e.constData())
                << engine << range(10, 1000, 10) << qint64(500) << qint64(950) << qint64(990);
            QTest::addRow("%s: seven values", e.constData())
                << engine << QList<qint64> {70, 10, 30, 50, 20, 60, 40} << qint64(40) << qint64(70)
                << qint64(70);
            QTest::addRow("%s: one delivery", e.constData())
                << engine << QList<qint64> {1234} << qint64(1234) << qint64(1234) << qint64(1234);
            QTest::addRow("%s: a long tail", e.constData())
                << engine << range(1, 1000) + QList<qint64> {86400000, 3600000} << qint64(501)
                << qint64(952) << qint64(992);
            QTest::addRow("%s: ties", e.constData())
                << engine << QList<qint64> {5, 5, 5, 5, 9} << qint64(5) << qint64(9) << qint64(9);
        }
    }
    void exactPercentiles()
    {
        QFETCH(QString, engine);
        QFETCH(QList<qint64>, latencies);
        QFETCH(qint64, p50);
        QFETCH(qint64, p95);
        QFETCH(qint64, p99);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection && populate(connection->database(), latencies));
        QString error;
        const auto snapshot = HealthQuery::compute(connection->database(), T, &error);
        QVERIFY2(snapshot, qPrintable(error));
        QCOMPARE(snapshot->latency.count, latencies.size());
        QCOMPARE(snapshot->latency.p50Ms, p50);
        QCOMPARE(snapshot->latency.p95Ms, p95);
        QCOMPARE(snapshot->latency.p99Ms, p99);
        QVERIFY(snapshot->isAvailable(u"delivery_latency_ms"_qs));
        if (engine == u"postgresql"_qs) {
            // PostgreSQL's percentile_disc and the ranking SQLite uses give the same values.
            QSqlQuery query(connection->database());
            QVERIFY(query.prepare(
                LatencyQuery::sql(u"delivery_outbox"_qs, SqlDialect::of(Engine::Sqlite))));
            query.bindValue(u":after"_qs, T - HourMs);
            query.bindValue(u":until"_qs, T);
            QVERIFY(query.exec());
            const DeliveryLatency ranked = LatencyQuery::fromRows(query);
            QCOMPARE(ranked.count, latencies.size());
            QCOMPARE(ranked.p50Ms, p50);
            QCOMPARE(ranked.p95Ms, p95);
            QCOMPARE(ranked.p99Ms, p99);
        }

        // check --json, and the same snapshot as metrics.
        const Run run = outboxctl({u"check"_qs, u"--db"_qs, database->url(), u"--now"_qs,
            QString::number(T), u"--json"_qs, u"--no-default-thresholds"_qs});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(latencyJson(run.out.constFirst()),
            QStringLiteral("{\"count\":%1,\"p50\":%2,\"p95\":%3,\"p99\":%4}")
                .arg(latencies.size())
                .arg(p50)
                .arg(p95)
                .arg(p99));
        // The text report says them in a line of its own.
        const Run report = outboxctl({u"check"_qs, u"--db"_qs, database->url(), u"--now"_qs,
            QString::number(T), u"--no-default-thresholds"_qs});
        QCOMPARE(report.exitCode, 0);
        QVERIFY2(report.out.contains(
                     QStringLiteral("latency:  p50 %1, p95 %2, p99 %3 over %4 %5 in the "
                                    "last hour")
                         .arg(TimeFormat::ageInTwoUnits(p50), TimeFormat::ageInTwoUnits(p95),
                             TimeFormat::ageInTwoUnits(p99))
                         .arg(NumberText::count(latencies.size()),
                             latencies.size() == 1 ? u"delivery"_qs : u"deliveries"_qs)),
            qPrintable(report.out.join(u'\n')));
        const QString text = MetricsText::render({{u"shop"_qs, {}, *snapshot, 0.01, std::nullopt}},
            u"1"_qs, MetricsText::Format::Prometheus);
        QCOMPARE(sampleValue(
                     text, u"outbox_delivery_latency_seconds{outbox=\"shop\",quantile=\"0.5\"}"_qs),
            p50 / 1000.0);
        QCOMPARE(sampleValue(text,
                     u"outbox_delivery_latency_seconds{outbox=\"shop\",quantile=\"0.95\"}"_qs),
            p95 / 1000.0);
        QCOMPARE(sampleValue(text,
                     u"outbox_delivery_latency_seconds{outbox=\"shop\",quantile=\"0.99\"}"_qs),
            p99 / 1000.0);
        QCOMPARE(sampleValue(text, u"outbox_delivered_last_hour{outbox=\"shop\"}"_qs),
            double(latencies.size()));
    }

    void noDeliveryInTheHour_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void noDeliveryInTheHour()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection && populate(connection->database(), {}));
        QString error;
        const auto snapshot = HealthQuery::compute(connection->database(), T, &error);
        QVERIFY2(snapshot, qPrintable(error));
        QCOMPARE(snapshot->latency.count, 0);
        QVERIFY(!snapshot->latency.p50Ms && !snapshot->latency.p95Ms && !snapshot->latency.p99Ms);
        QVERIFY(snapshot->toJson().contains(
            u",\"delivery_latency_ms\":{\"p50\":null,\"p95\":null,\"p99\":null,\"count\":0},"_qs));
        const QString text = MetricsText::render({{u"shop"_qs, {}, *snapshot, 0.01, std::nullopt}},
            u"1"_qs, MetricsText::Format::Prometheus);
        QVERIFY(!text.contains(u"outbox_delivery_latency_seconds"_qs));
        QVERIFY(text.contains(u"outbox_delivered_last_hour{outbox=\"shop\"} 0\n"_qs));
        const Run report = outboxctl({u"check"_qs, u"--db"_qs, database->url(), u"--now"_qs,
            QString::number(T), u"--no-default-thresholds"_qs});
        QVERIFY2(report.out.contains(u"latency:  nothing delivered in the last hour"_qs),
            qPrintable(report.out.join(u'\n')));
    }

    // A database made before the latency's index: the latency is not read (a scan of every
    // DELIVERED row), it is listed as not available; `outboxctl init` adds the index.
    void withoutItsIndexTheLatencyIsNotRead_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void withoutItsIndexTheLatencyIsNotRead()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection && populate(connection->database(), {10, 20, 30}));
        // MySQL names the index's table.
        QVERIFY(QSqlQuery(connection->database())
                    .exec(u"DROP INDEX delivery_outbox_delivered"_qs
                        + (engine == u"mysql"_qs ? u" ON delivery_outbox"_qs : QString())));
        QString error;
        auto snapshot = HealthQuery::compute(connection->database(), T, &error);
        QVERIFY2(snapshot, qPrintable(error));
        QCOMPARE(snapshot->notAvailable, QStringList {u"delivery_latency_ms"_qs});
        QVERIFY(snapshot->toJson().contains(u"\"delivery_latency_ms\":null"_qs));
        auto history = HistoryQuery::read(
            connection->database(), HistoryRange::Hour, T, nullptr, nullptr, &error);
        QVERIFY2(history, qPrintable(error));
        QVERIFY(!history->latencyAvailable);
        QVERIFY(history->throughputAvailable);
        const Run report = outboxctl({u"check"_qs, u"--db"_qs, database->url(), u"--now"_qs,
            QString::number(T), u"--no-default-thresholds"_qs});
        QVERIFY2(report.out.contains(u"latency:  n/a (no index delivery_outbox_delivered: "
                                     "outboxctl init adds it)"_qs),
            qPrintable(report.out.join(u'\n')));

        QCOMPARE(outboxctl({u"init"_qs, u"--db"_qs, database->url()}).exitCode, 0);
        snapshot = HealthQuery::compute(connection->database(), T, &error);
        QVERIFY2(snapshot, qPrintable(error));
        QVERIFY(snapshot->notAvailable.isEmpty());
        QCOMPARE(snapshot->latency.count, 3);
        QCOMPARE(snapshot->latency.p50Ms, 20);
    }

    // Gruelbox's outbox keeps no creation time: the latency is absent everywhere, never 0.
    void profileThatCannotTellLeavesItAbsent()
    {
        FRESH_DATABASE(database, u"postgresql"_qs);
        {
            const auto connection = database->connect(false);
            QVERIFY(connection);
            QVERIFY(
                runSqlScript(connection->database(), TestData::path(u"fixtures/gruelbox.sql"_qs)));
        }
        const Run run = outboxctl({u"check"_qs, u"--db"_qs, database->url(), u"--profile"_qs,
            u"gruelbox"_qs, u"--json"_qs, u"--no-default-thresholds"_qs});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(latencyJson(run.out.constFirst()), u"null"_qs);
        QVERIFY(run.out.constFirst().contains(u"\"delivery_latency_ms\"]"_qs)); // not_available
        const Run report = outboxctl({u"check"_qs, u"--db"_qs, database->url(), u"--profile"_qs,
            u"gruelbox"_qs, u"--no-default-thresholds"_qs});
        QVERIFY2(
            report.out.contains(u"latency:  n/a (the schema has no created_at or delivered_at)"_qs),
            qPrintable(report.out.join(u'\n')));
        const Run metrics = outboxctl({u"metrics"_qs, u"--db"_qs, database->url(), u"--profile"_qs,
            u"gruelbox"_qs, u"--outbox"_qs, u"shop"_qs});
        QCOMPARE(metrics.exitCode, 0);
        const QString text = metrics.out.join(u'\n');
        QVERIFY2(text.contains(u"outbox_events{outbox=\"shop\",state=\"delivered\"}"_qs),
            qPrintable(text));
        QVERIFY(!text.contains(u"outbox_delivery_latency_seconds"_qs));
        QVERIFY(!text.contains(u"outbox_delivered_last_hour"_qs));
    }

    void historyBucketsOfEachRange_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<HistoryRange>("range");
        QTest::addColumn<int>("buckets");
        for (const QString &engine : {u"sqlite"_qs, u"postgresql"_qs, u"mysql"_qs}) {
            const QByteArray e = engine.toUtf8();
            QTest::addRow("%s: 1 h", e.constData()) << engine << HistoryRange::Hour << 60;
            QTest::addRow("%s: 24 h", e.constData()) << engine << HistoryRange::Day << 96;
            QTest::addRow("%s: 7 d", e.constData()) << engine << HistoryRange::Week << 168;
        }
    }
    void historyBucketsOfEachRange()
    {
        QFETCH(QString, engine);
        QFETCH(HistoryRange, range);
        QFETCH(int, buckets);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        const QSqlDatabase db = connection->database();
        const qint64 size = DeliveryHistory::bucketMs(range);
        const qint64 first = DeliveryHistory::firstBucketStart(range, T);
        // Three deliveries (100, 200, 900 ms) in the second bucket, one (50 ms) in the current
        // one, one just before the range.
        const qint64 second = first + size;
        QVERIFY(insertRow(db, delivered(u"A"_qs, second, 100)));
        QVERIFY(insertRow(db, delivered(u"B"_qs, second + size / 2, 900)));
        QVERIFY(insertRow(db, delivered(u"C"_qs, second + size - 1, 200)));
        QVERIFY(insertRow(db, delivered(u"D"_qs, T, 50)));
        QVERIFY(insertRow(db, delivered(u"E"_qs, first - 1, 7)));
        AttemptRow attempt;
        attempt.eventId = u"A"_qs;
        attempt.claimedAt = second - 10;
        attempt.finishedAt = second;
        attempt.outcome = u"DELIVERED"_qs;
        QVERIFY(insertAttempt(db, attempt));
        attempt.eventId = u"B"_qs;
        attempt.outcome = u"RETRY"_qs;
        QVERIFY(insertAttempt(db, attempt));

        HistoryCache cache;
        QString error;
        auto history = HistoryQuery::read(db, range, T, nullptr, &cache, &error);
        QVERIFY2(history, qPrintable(error));
        QCOMPARE(history->buckets.size(), buckets);
        QCOMPARE(history->buckets.constFirst().start, first);
        QVERIFY(history->buckets.constLast().start <= T);
        QVERIFY(T < history->buckets.constLast().start + size);
        QCOMPARE(history->buckets.constFirst().latency.count, 0);
        QVERIFY(!history->buckets.constFirst().latency.p50Ms);
        const HistoryBucket &b = history->buckets.at(1);
        QCOMPARE(b.delivered, 1);
        QCOMPARE(b.failed, 1);
        QCOMPARE(b.latency.count, 3);
        QCOMPARE(b.latency.p50Ms, 200);
        QCOMPARE(b.latency.p95Ms, 900);
        QCOMPARE(b.latency.p99Ms, 900);
        QCOMPARE(history->buckets.constLast().latency.p99Ms, 50);
        qint64 total = 0;
        for (const HistoryBucket &bucket : std::as_const(history->buckets))
            total += bucket.latency.count;
        QCOMPARE(total, 4);

        // A later reading keeps the settled buckets and reads the current one again.
        QVERIFY(insertRow(db, delivered(u"F"_qs, T, 70)));
        history = HistoryQuery::read(db, range, T, nullptr, &cache, &error);
        QVERIFY2(history, qPrintable(error));
        QCOMPARE(history->buckets.at(1).latency.count, 3);
        QCOMPARE(history->buckets.constLast().latency.count, 2);
        QCOMPARE(history->buckets.constLast().latency.p50Ms, 50);
        QCOMPARE(history->buckets.constLast().latency.p99Ms, 70);
    }

    // A reading with a time budget shows the newest buckets first and the next ones go on from
    // there, until the range is complete, with every delivery counted once.
    void historyReadingsWithABudgetMakeProgress_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void historyReadingsWithABudgetMakeProgress()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        const QSqlDatabase db = connection->database();
        const qint64 first = DeliveryHistory::firstBucketStart(HistoryRange::Week, T);
        QVERIFY(insertRow(db, delivered(u"OLDEST"_qs, first + 10, 300)));
        QVERIFY(insertRow(db, delivered(u"NEWEST"_qs, T, 100)));
        HistoryCache cache;
        QString error;
        auto history = HistoryQuery::read(db, HistoryRange::Week, T, nullptr, &cache, &error, 1);
        QVERIFY2(history, qPrintable(error));
        QVERIFY(!history->complete);
        QVERIFY(!history->buckets.isEmpty());
        QCOMPARE(history->buckets.constLast().start,
            DeliveryHistory::lastBucketStart(HistoryRange::Week, T));
        int readings = 1;
        while (!history->complete && readings < 200) {
            const qsizetype before = history->buckets.size();
            history = HistoryQuery::read(db, HistoryRange::Week, T, nullptr, &cache, &error, 1);
            QVERIFY2(history, qPrintable(error));
            QVERIFY(history->buckets.size() > before);
            ++readings;
        }
        QVERIFY(history->complete);
        QCOMPARE(history->buckets.size(), 168);
        QCOMPARE(history->buckets.constFirst().start, first);
        QCOMPARE(history->buckets.constFirst().latency.p50Ms, 300);
        QCOMPARE(history->buckets.constLast().latency.p50Ms, 100);
    }

    // The window's history follows each snapshot on the snapshot's thread; switching the range
    // twice in a row shows only the last one chosen: the answer for the other is dropped.
    void historyMonitorDropsAnswersForAnotherRange()
    {
        FRESH_DATABASE(database, u"sqlite"_qs);
        {
            const auto connection = database->initialise();
            QVERIFY(connection);
            const qint64 now = QDateTime::currentMSecsSinceEpoch();
            QVERIFY(insertRow(connection->database(), delivered(u"A"_qs, now - 2 * HourMs, 400)));
        }
        QString error;
        const DatabaseUrl url = DatabaseUrl::parse(database->url(), &error);
        HealthMonitor health(url, HealthWorker::defaultOpenOptions());
        HistoryMonitor history(&health, url, HealthWorker::defaultOpenOptions());
        QSignalSpy changed(&history, &HistoryMonitor::historyChanged);
        health.refreshNow();
        QTRY_COMPARE(changed.size(), 1);
        QCOMPARE(history.history().range, HistoryRange::Hour);
        QCOMPARE(history.history().buckets.size(), 60);

        history.setRange(HistoryRange::Week);
        history.setRange(HistoryRange::Day);
        QVERIFY(history.isRunning());
        QTRY_VERIFY(!history.isRunning());
        QTRY_COMPARE(history.history().range, HistoryRange::Day);
        for (const QList<QVariant> &emitted : std::as_const(changed).mid(1))
            QCOMPARE(emitted.constFirst().value<DeliveryHistory>().range, HistoryRange::Day);
        QCOMPARE(history.history().buckets.size(), 96);
        qint64 delivered = 0;
        for (const HistoryBucket &bucket : history.history().buckets)
            delivered += bucket.latency.count;
        QCOMPARE(delivered, 1);
    }

    // Not wanted (the window's Overview page hidden): snapshots ask for nothing; wanted again,
    // the history is read once, at the latest snapshot's time, and in the range chosen meanwhile.
    void historyMonitorReadsOnlyWhileWanted()
    {
        FRESH_DATABASE(database, u"sqlite"_qs);
        QVERIFY(database->initialise());
        QString error;
        const DatabaseUrl url = DatabaseUrl::parse(database->url(), &error);
        HealthMonitor health(url, HealthWorker::defaultOpenOptions());
        HistoryMonitor history(&health, url, HealthWorker::defaultOpenOptions());
        history.setWanted(false);
        QSignalSpy snapshots(&health, &HealthMonitor::snapshotChanged);
        QSignalSpy changed(&history, &HistoryMonitor::historyChanged);
        for (int i = 1; i <= 2; ++i) {
            health.refreshNow();
            QTRY_COMPARE(snapshots.size(), i);
            QVERIFY(!history.isRunning()); // a wanted history starts on the snapshot's signal
        }
        history.setRange(HistoryRange::Day);
        QVERIFY(!history.isRunning());
        QVERIFY(!history.hasHistory());

        history.setWanted(true);
        QVERIFY(history.isRunning());
        QTRY_COMPARE(changed.size(), 1);
        QCOMPARE(history.history().range, HistoryRange::Day);
        QCOMPARE(history.history().now, health.snapshot().now);
        history.setWanted(true); // nothing missed: nothing read again
        QVERIFY(!history.isRunning());
    }
};

OUTBOX_TEST_MAIN(TestDeliveryLatency, QCoreApplication)
#include "tst_deliverylatency.moc"
