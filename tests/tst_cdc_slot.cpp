// The replication slot of an outbox relayed by change data capture, read from a real
// PostgreSQL with a real logical-replication client as the relay (pg_recvlogical on a pgoutput
// slot, tests/support/cdcconsumer.h): running, the slot is active and its lag small; stopped,
// it turns inactive while the lag and the retained WAL grow with every row written; started
// again, it heals. A missing slot names the slots that exist; an engine without replication
// slots says so. The tracker's rate and idle time and the grade are checked on known readings.
#include "cdcconsumer.h"
#include "cdcslot.h"
#include "healthmonitor.h"
#include "healthquery.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QDateTime>
#include <QSqlError>

namespace {

constexpr qint64 MiB = 1024 * 1024;
// A running consumer confirms within a second or two; its lag is then a few records.
constexpr qint64 SmallLag = 64 * 1024;
constexpr int Timeout = 20000;

// Debezium's outbox event router's default table (tests/fixtures/debezium-postgresql.sql).
const QString OutboxTable = QStringLiteral(
    "CREATE TABLE outbox (id uuid PRIMARY KEY, aggregatetype varchar(255) NOT NULL,"
    " aggregateid varchar(255) NOT NULL, type varchar(255) NOT NULL, payload jsonb)");

bool exec(const QSqlDatabase &db, const QString &sql)
{
    QSqlQuery query(db);
    if (query.exec(sql))
        return true;
    qWarning("%s: %s", qPrintable(sql), qPrintable(query.lastError().text()));
    return false;
}

// Rows as a service writes them: each event about 1 KB of JSON.
bool insertEvents(const QSqlDatabase &db, int count)
{
    return exec(db,
        QStringLiteral("INSERT INTO outbox SELECT gen_random_uuid(), 'order', i::text,"
                       " 'OrderCreated', jsonb_build_object('n', i, 'pad', repeat('x', 1000))"
                       " FROM generate_series(1, %1) i")
            .arg(count));
}

qint64 now()
{
    return QDateTime::currentMSecsSinceEpoch();
}

CdcSlotReading reading(qint64 lsn, bool active = true)
{
    CdcSlotReading r;
    r.slot = u"dbz"_qs;
    r.exists = true;
    r.active = active;
    r.currentWalLsn = lsn;
    r.lagBytes = 0;
    return r;
}

} // namespace

class TestCdcSlot : public QObject
{
    Q_OBJECT

private slots:
    void slotFollowsTheConsumer();
    void snapshotCarriesTheSlot();
    void monitorTracksTheSlot();
    void missingSlotNamesTheSlots();
    void otherEnginesSaySlotsArePostgres_data();
    void otherEnginesSaySlotsArePostgres();
    void trackerMeasuresTheRateBetweenReads();
    void trackerTimesTheIdleSpell();
    void grade_data();
    void grade();
};

// The whole story against the server: consumer up, down while rows are written, up again.
void TestCdcSlot::slotFollowsTheConsumer()
{
    FRESH_DATABASE(database, u"postgresql"_qs);
    const auto writer = database->connect(false);
    QVERIFY(writer && exec(writer->database(), OutboxTable));
    CdcConsumer consumer(database->url(), u"outbox"_qs);
    QVERIFY2(consumer.error().isEmpty(), qPrintable(consumer.error()));
    const auto reader = database->connect(false);
    QVERIFY(reader);
    CdcSlotTracker tracker;
    QString error;
    const auto read = [&] {
        std::optional<CdcSlotReading> r
            = CdcSlotQuery::read(reader->database(), consumer.slot(), now(), &error);
        if (!r)
            qWarning("read: %s", qPrintable(error));
        else
            tracker.update(&*r, now());
        return r.value_or(CdcSlotReading {});
    };

    QVERIFY2(consumer.start(), qPrintable(consumer.error()));
    QVERIFY(insertEvents(writer->database(), 100));
    QTRY_VERIFY_WITH_TIMEOUT(read().active, Timeout);
    QTRY_VERIFY_WITH_TIMEOUT(read().lagBytes.value_or(MiB) < SmallLag, Timeout);
    const CdcSlotReading running = read();
    QVERIFY(running.exists);
    QCOMPARE(running.plugin, u"pgoutput"_qs);
    QVERIFY(running.activePid.has_value());
    QCOMPARE(running.walStatus, u"reserved"_qs);
    QVERIFY(!running.inactiveForMs.has_value());
    QCOMPARE(CdcSlotGrade::of(running).level, HealthGrade::Level::Normal);

    consumer.stop();
    QTRY_VERIFY_WITH_TIMEOUT(!read().active, Timeout);
    const CdcSlotReading stopped = read();
    QVERIFY(!stopped.activePid.has_value());
    QVERIFY(stopped.inactiveForMs.has_value()); // the tracker saw it active before
    QCOMPARE(CdcSlotGrade::of(stopped).level, HealthGrade::Level::Amber);
    QVERIFY(CdcSlotGrade::of(stopped).figure.contains(u"inactive"_qs));
    QVERIFY(insertEvents(writer->database(), 2000)); // about 2 MB of WAL
    const CdcSlotReading behind = read();
    QVERIFY2(*behind.lagBytes >= *stopped.lagBytes + MiB,
        qPrintable(QStringLiteral("lag %1 after %2").arg(*behind.lagBytes).arg(*stopped.lagBytes)));
    QVERIFY(*behind.retainedBytes >= *stopped.retainedBytes + MiB);
    QVERIFY(*behind.retainedBytes >= *behind.lagBytes);
    QVERIFY(!behind.active);

    QVERIFY2(consumer.start(), qPrintable(consumer.error()));
    QTRY_VERIFY_WITH_TIMEOUT(read().active, Timeout);
    QTRY_VERIFY_WITH_TIMEOUT(read().lagBytes.value_or(MiB) < SmallLag, Timeout);
    QVERIFY(!read().inactiveForMs.has_value());
}

// HealthQuery reads the slot in the snapshot's transaction when one is configured, and the
// figures of a changed slot are not the same figures.
void TestCdcSlot::snapshotCarriesTheSlot()
{
    FRESH_DATABASE(database, u"postgresql"_qs);
    const auto writer = database->initialise();
    QVERIFY(writer && exec(writer->database(), OutboxTable));
    CdcConsumer consumer(database->url(), u"outbox"_qs);
    QVERIFY2(consumer.error().isEmpty(), qPrintable(consumer.error()));
    HealthQuery::Options options;
    QString error;
    const auto plain = HealthQuery::compute(writer->database(), now(), &error, options);
    QVERIFY2(plain, qPrintable(error));
    QVERIFY(!plain->cdc.has_value());

    CdcSlotTracker tracker;
    options.cdcSlot = consumer.slot();
    options.cdcTracker = &tracker;
    const auto first = HealthQuery::compute(writer->database(), now(), &error, options);
    QVERIFY2(first && first->cdc, qPrintable(error));
    QVERIFY(first->cdc->exists);
    QVERIFY(!first->cdc->active);
    QVERIFY(insertEvents(writer->database(), 500));
    const auto second = HealthQuery::compute(writer->database(), now(), &error, options);
    QVERIFY2(second && second->cdc, qPrintable(error));
    QVERIFY(*second->cdc->lagBytes > *first->cdc->lagBytes);
    QVERIFY(!second->sameFigures(*first));
    QVERIFY(!plain->sameFigures(*first));
}

// The window's monitor reads the slot with each snapshot, and its worker's tracker turns
// successive reads into a WAL rate of its own and an idle time that grows.
void TestCdcSlot::monitorTracksTheSlot()
{
    FRESH_DATABASE(database, u"postgresql"_qs);
    const auto writer = database->initialise();
    QVERIFY(writer && exec(writer->database(), OutboxTable));
    CdcConsumer consumer(database->url(), u"outbox"_qs);
    QVERIFY2(consumer.error().isEmpty(), qPrintable(consumer.error()));
    QString error;
    HealthMonitor monitor(DatabaseUrl::parse(database->url(), &error));
    monitor.setCdcSlot(consumer.slot());
    monitor.setInterval(200);
    monitor.resume();
    const auto tracked = [&] {
        const std::optional<CdcSlotReading> &cdc = monitor.snapshot().cdc;
        return cdc && !cdc->rateFromAverage && cdc->walRateBytesPerSec
            && cdc->inactiveForMs.value_or(0) > 0;
    };
    QTRY_VERIFY_WITH_TIMEOUT(tracked(), Timeout);
    QCOMPARE(monitor.snapshot().cdc->slot, consumer.slot());
    QVERIFY(!monitor.snapshot().cdc->active);
}

void TestCdcSlot::missingSlotNamesTheSlots()
{
    FRESH_DATABASE(database, u"postgresql"_qs);
    const auto writer = database->connect(false);
    QVERIFY(writer && exec(writer->database(), OutboxTable));
    CdcConsumer consumer(database->url(), u"outbox"_qs);
    QVERIFY2(consumer.error().isEmpty(), qPrintable(consumer.error()));
    QString error;
    const auto missing = CdcSlotQuery::read(writer->database(), u"no_such_slot"_qs, now(), &error);
    QVERIFY2(missing, qPrintable(error));
    QVERIFY(!missing->exists);
    QVERIFY(missing->existingSlots.contains(consumer.slot()));
    const QString text = missing->missingText();
    QVERIFY2(text.startsWith(u"replication slot \"no_such_slot\" does not exist; the slots"_qs),
        qPrintable(text));
    QVERIFY2(text.contains(consumer.slot()), qPrintable(text));
    QCOMPARE(CdcSlotGrade::of(*missing).level, HealthGrade::Level::Red);
}

void TestCdcSlot::otherEnginesSaySlotsArePostgres_data()
{
    TestDatabase::addEngineColumn();
    QTest::addRow("sqlite") << u"sqlite"_qs;
    QTest::addRow("mysql") << u"mysql"_qs;
}

// Neither a slot reading nor a snapshot that asks for one: the one line that says why.
void TestCdcSlot::otherEnginesSaySlotsArePostgres()
{
    QFETCH(QString, engine);
    if (engine == u"mysql"_qs && qEnvironmentVariableIsEmpty("OUTBOX_TEST_MYSQL_URL"))
        QSKIP("OUTBOX_TEST_MYSQL_URL is not set");
    FRESH_DATABASE(database, engine);
    const auto connection = database->initialise();
    QVERIFY(connection);
    QString error;
    QVERIFY(!CdcSlotQuery::read(connection->database(), u"dbz"_qs, now(), &error));
    QVERIFY2(error.startsWith(u"replication slots are PostgreSQL's"_qs), qPrintable(error));
    HealthQuery::Options options;
    options.cdcSlot = u"dbz"_qs;
    error.clear();
    QVERIFY(!HealthQuery::compute(connection->database(), now(), &error, options));
    QVERIFY2(error.startsWith(u"replication slots are PostgreSQL's"_qs), qPrintable(error));
}

void TestCdcSlot::trackerMeasuresTheRateBetweenReads()
{
    CdcSlotTracker tracker;
    CdcSlotReading first = reading(1000);
    first.walRateBytesPerSec = 50.0; // the server's average
    first.rateFromAverage = true;
    first.lagBytes = 500;
    tracker.update(&first, 10000);
    QVERIFY(first.rateFromAverage); // one read tells no rate of its own
    QCOMPARE(first.lagEstimateMs, 10000); // 500 bytes at 50 bytes/s

    CdcSlotReading second = reading(1000 + 2000 * 60);
    second.lagBytes = 4000;
    second.safeWalSizeBytes = 2000 * 3600;
    tracker.update(&second, 10000 + 60000);
    QVERIFY(!second.rateFromAverage);
    QCOMPARE(*second.walRateBytesPerSec, 2000.0);
    QCOMPARE(second.lagEstimateMs, 2000);
    QCOMPARE(second.runwayMs, 3600000);

    CdcSlotReading failover = reading(10); // the WAL went back: another server
    tracker.update(&failover, 10000 + 120000);
    QVERIFY(!failover.walRateBytesPerSec.has_value());
    QVERIFY(!failover.lagEstimateMs.has_value());
}

void TestCdcSlot::trackerTimesTheIdleSpell()
{
    CdcSlotTracker tracker;
    CdcSlotReading idle = reading(100, false);
    tracker.update(&idle, 1000);
    QVERIFY(!idle.inactiveForMs.has_value()); // idle before the first read: unknown
    idle = reading(100, false);
    tracker.update(&idle, 61000);
    QCOMPARE(idle.inactiveForMs, 60000); // at least since the first read

    CdcSlotReading active = reading(200);
    tracker.update(&active, 70000);
    QVERIFY(!active.inactiveForMs.has_value());
    CdcSlotReading stopped = reading(300, false);
    tracker.update(&stopped, 80000);
    QCOMPARE(stopped.inactiveForMs, 0);
    stopped = reading(300, false);
    tracker.update(&stopped, 80000 + 400000);
    QCOMPARE(stopped.inactiveForMs, 400000);
    QCOMPARE(CdcSlotGrade::of(stopped).level, HealthGrade::Level::Red);

    CdcSlotReading server = reading(300, false); // PostgreSQL 17's inactive_since wins
    server.inactiveForMs = 900000;
    tracker.update(&server, 80000 + 500000);
    QCOMPARE(server.inactiveForMs, 900000);
}

void TestCdcSlot::grade_data()
{
    QTest::addColumn<CdcSlotReading>("slot");
    QTest::addColumn<HealthGrade::Level>("level");
    QTest::addColumn<QString>("figure");
    using Level = HealthGrade::Level;
    CdcSlotReading r = reading(0);
    QTest::addRow("active and caught up is normal") << r << Level::Normal << QString();
    r.lagBytes = 256 * MiB;
    QTest::addRow("256 MiB behind is amber")
        << r << Level::Amber << u"slot dbz 256.0 MiB behind"_qs;
    r.lagBytes = 1024 * MiB;
    QTest::addRow("1 GiB behind is red") << r << Level::Red << u"slot dbz 1.0 GiB behind"_qs;
    r = reading(0, false);
    QTest::addRow("inactive for an unknown time is amber")
        << r << Level::Amber << u"slot dbz inactive"_qs;
    r.inactiveForMs = 300000;
    QTest::addRow("inactive for 5 min is red")
        << r << Level::Red << u"slot dbz inactive for 5 min"_qs;
    r = reading(0);
    r.walStatus = u"unreserved"_qs;
    QTest::addRow("unreserved WAL is red") << r << Level::Red << u"slot dbz WAL unreserved"_qs;
    r = reading(0);
    r.runwayMs = 1800000;
    QTest::addRow("half an hour of runway is red")
        << r << Level::Red
        << u"slot dbz reaches max_slot_wal_keep_size in about 30 min (estimate)"_qs;
    r = reading(0);
    r.exists = false;
    QTest::addRow("a missing slot is red") << r << Level::Red << u"slot dbz does not exist"_qs;
}

void TestCdcSlot::grade()
{
    QFETCH(CdcSlotReading, slot);
    QFETCH(HealthGrade::Level, level);
    QFETCH(QString, figure);
    const CdcSlotGrade grade = CdcSlotGrade::of(slot);
    QCOMPARE(grade.level, level);
    QCOMPARE(grade.figure, figure);
}

OUTBOX_TEST_MAIN(TestCdcSlot, QCoreApplication)
#include "tst_cdc_slot.moc"
