// The replication slot of an outbox relayed by change data capture, read from a real
// PostgreSQL with a real logical-replication client as the relay (pg_recvlogical on a pgoutput
// slot, tests/support/cdcconsumer.h): running, the slot is active and its lag small; stopped,
// it turns inactive while the lag and the retained WAL grow with every row written; started
// again, it heals. A missing slot names the slots that exist; an engine without replication
// slots says so. `outboxctl check --cdc-slot` prints and judges the slot through the debezium
// profile. The tracker's rate and idle time and the grade are checked on known readings.
#include "bytetext.h"
#include "cdcconsumer.h"
#include "cdcslot.h"
#include "fixturescript.h"
#include "healthmonitor.h"
#include "healthquery.h"
#include "outboxctlrun.h"
#include "testdata.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlError>

namespace {

constexpr qint64 MiB = 1024 * 1024;
// A running consumer confirms within a second or two (its status interval).
constexpr int Timeout = 20000;

qint64 now()
{
    return QDateTime::currentMSecsSinceEpoch();
}

// Whether the consumer has confirmed everything written up to `mark` (a WAL position read
// before the rows it must have read). Not "the lag is small": the WAL is the whole server's,
// and other tests writing beside this one keep the distance to its end from ever being small.
bool caughtUp(const CdcSlotReading &slot, qint64 mark)
{
    return slot.active && slot.lagBytes && slot.currentWalLsn - *slot.lagBytes >= mark;
}

// One read of the slot, on a connection of the test's own.
CdcSlotReading readSlot(const DbConnection &connection, const QString &slot)
{
    QString error;
    const std::optional<CdcSlotReading> reading
        = CdcSlotQuery::read(connection.database(), slot, now(), &error);
    if (!reading)
        qWarning("read: %s", qPrintable(error));
    return reading.value_or(CdcSlotReading {});
}

QJsonObject cdcOf(const Run &run)
{
    return QJsonDocument::fromJson(run.out.join(u'\n').toUtf8())
        .object()
        .value(u"cdc"_qs)
        .toObject();
}

QString why(const Run &run)
{
    return QStringLiteral("exit %1: %2").arg(run.exitCode).arg((run.out + run.err).join(u'\n'));
}

QStringList checkArguments(const TestDatabase &database, const QStringList &more)
{
    return QStringList {u"check"_qs, u"--db"_qs, database.url(), u"--profile"_qs, u"debezium"_qs}
    + more;
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
    void checkPrintsAndJudgesTheSlot();
    void checkRefusesWhatCannotBeRead_data();
    void checkRefusesWhatCannotBeRead();
    void metricsReadsTheSlot();
    void diagnoseFindsTheSlot();
    void byteText_data();
    void byteText();
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
    QVERIFY(writer && exec(writer->database(), routerOutboxTableSql()));
    CdcConsumer consumer(database->url(), u"outbox"_qs);
    QVERIFY2(consumer.error().isEmpty(), qPrintable(consumer.error()));
    const auto reader = database->connect(false);
    QVERIFY(reader);
    CdcSlotTracker tracker;
    const auto read = [&] {
        CdcSlotReading r = readSlot(*reader, consumer.slot());
        tracker.update(&r, now());
        return r;
    };

    QVERIFY2(consumer.start(), qPrintable(consumer.error()));
    const qint64 before = read().currentWalLsn;
    QVERIFY(insertRouterEvents(writer->database(), 100));
    QTRY_VERIFY_WITH_TIMEOUT(caughtUp(read(), before), Timeout);
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
    QVERIFY(insertRouterEvents(writer->database(), 2000)); // about 2 MB of WAL
    const CdcSlotReading behind = read();
    QVERIFY2(*behind.lagBytes >= *stopped.lagBytes + MiB,
        qPrintable(QStringLiteral("lag %1 after %2").arg(*behind.lagBytes).arg(*stopped.lagBytes)));
    QVERIFY(*behind.retainedBytes >= *stopped.retainedBytes + MiB);
    QVERIFY(*behind.retainedBytes >= *behind.lagBytes);
    QVERIFY(!behind.active);

    QVERIFY2(consumer.start(), qPrintable(consumer.error()));
    QTRY_VERIFY_WITH_TIMEOUT(caughtUp(read(), behind.currentWalLsn), Timeout); // healed
    QVERIFY(!read().inactiveForMs.has_value());
}

// HealthQuery reads the slot in the snapshot's transaction when one is configured, and the
// figures of a changed slot are not the same figures.
void TestCdcSlot::snapshotCarriesTheSlot()
{
    FRESH_DATABASE(database, u"postgresql"_qs);
    const auto writer = database->initialise();
    QVERIFY(writer && exec(writer->database(), routerOutboxTableSql()));
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
    QVERIFY(insertRouterEvents(writer->database(), 500));
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
    QVERIFY(writer && exec(writer->database(), routerOutboxTableSql()));
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
    QVERIFY(writer && exec(writer->database(), routerOutboxTableSql()));
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

// `check --cdc-slot` on Debezium's outbox table: the slot in the report and in "cdc", healthy
// while the consumer keeps up, exit 1 once its lag passes --max-cdc-lag.
void TestCdcSlot::checkPrintsAndJudgesTheSlot()
{
    FRESH_DATABASE(database, u"postgresql"_qs);
    const auto writer = database->connect(false);
    QVERIFY(writer);
    QVERIFY(runSqlScript(writer->database(), TestData::path("fixtures/debezium.sql")));
    CdcConsumer consumer(database->url(), u"outbox"_qs);
    QVERIFY2(consumer.error().isEmpty(), qPrintable(consumer.error()));
    const QStringList slot = {u"--cdc-slot"_qs, consumer.slot()};
    QVERIFY2(consumer.start(), qPrintable(consumer.error()));
    const qint64 before = readSlot(*writer, consumer.slot()).currentWalLsn;
    QVERIFY(insertRouterEvents(writer->database(), 10));
    QTRY_VERIFY_WITH_TIMEOUT(caughtUp(readSlot(*writer, consumer.slot()), before), Timeout);
    const Run running = outboxctl(checkArguments(*database, slot + QStringList {u"--json"_qs}));
    QCOMPARE(running.exitCode, 0);
    QCOMPARE(cdcOf(running).value(u"active"_qs).toBool(), true);
    QVERIFY(cdcOf(running).value(u"active_pid"_qs).toInteger() > 0);
    QVERIFY(cdcOf(running).value(u"inactive_for_ms"_qs).isNull());
    const Run text = outboxctl(checkArguments(*database, slot));
    QCOMPARE(text.exitCode, 0);
    QVERIFY2(text.out.join(u'\n').contains(
                 QStringLiteral("cdc:      slot %1 active (pid ").arg(consumer.slot())),
        qPrintable(why(text)));
    QCOMPARE(text.out.constLast(), u"healthy"_qs);

    consumer.stop();
    QVERIFY(insertRouterEvents(writer->database(), 2000));
    const Run json = outboxctl(checkArguments(
        *database, slot + QStringList {u"--json"_qs, u"--max-cdc-lag"_qs, u"1MiB"_qs}));
    QCOMPARE(json.exitCode, 1);
    const QJsonObject cdc = cdcOf(json);
    QCOMPARE(cdc.value(u"slot"_qs).toString(), consumer.slot());
    QCOMPARE(cdc.value(u"exists"_qs).toBool(), true);
    QVERIFY(cdc.value(u"lag_bytes"_qs).toInteger() > MiB);
    QVERIFY(cdc.value(u"retained_bytes"_qs).toInteger() >= cdc.value(u"lag_bytes"_qs).toInteger());
    QCOMPARE(cdc.value(u"wal_status"_qs).toString(), u"reserved"_qs);
    QVERIFY(cdc.value(u"safe_wal_size_bytes"_qs).isNull()); // max_slot_wal_keep_size unlimited
    QVERIFY(cdc.value(u"runway_ms"_qs).isNull());
    QCOMPARE(
        cdc.value(u"estimated"_qs).toArray(), QJsonArray({u"lag_estimate_ms"_qs, u"runway_ms"_qs}));
    const QJsonArray violations = QJsonDocument::fromJson(json.out.join(u'\n').toUtf8())
                                      .object()
                                      .value(u"violations"_qs)
                                      .toArray();
    QCOMPARE(violations.size(), 1);
    QCOMPARE(
        violations.at(0).toObject().value(u"threshold"_qs).toString(), u"max_cdc_lag_bytes"_qs);
    QCOMPARE(violations.at(0).toObject().value(u"limit"_qs).toInteger(), MiB);
    QVERIFY(json.out.constFirst().endsWith(u"]}}"_qs)); // "cdc" is the last key

    const Run verdict = outboxctl(
        checkArguments(*database, slot + QStringList {u"--max-cdc-lag"_qs, u"1MiB"_qs}));
    QCOMPARE(verdict.exitCode, 1);
    QVERIFY2(
        verdict.out.constLast().startsWith(u"UNHEALTHY: CDC lag is "_qs), qPrintable(why(verdict)));
    QVERIFY2(verdict.out.constLast().endsWith(u", above 1 MiB (--max-cdc-lag)"_qs),
        qPrintable(why(verdict)));
    QVERIFY(verdict.out.join(u'\n').contains(u"INACTIVE"_qs));
}

void TestCdcSlot::checkRefusesWhatCannotBeRead_data()
{
    QTest::addColumn<QString>("engine");
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("error"); // %1: the slot the test made, or the URL without one
    QTest::addRow("a missing slot names the slots there are")
        << u"postgresql"_qs << QStringList {u"--cdc-slot"_qs, u"dbz"_qs}
        << u"outboxctl: check: replication slot \"dbz\" does not exist; the slots on this"
           " server: %1"_qs;
    QTest::addRow("a name that is no slot's")
        << u"postgresql"_qs << QStringList {u"--cdc-slot"_qs, u"Dbz;drop"_qs}
        << u"outboxctl: check: --cdc-slot: 'Dbz;drop' is not a replication slot name (1-63 of"
           " a-z, 0-9, _)"_qs;
    QTest::addRow("a limit on no slot")
        << u"postgresql"_qs << QStringList {u"--max-cdc-lag"_qs, u"1GiB"_qs}
        << u"outboxctl: check: --max-cdc-lag needs a replication slot: --cdc-slot NAME, or"
           " cdc_slot in the profile"_qs;
    QTest::addRow("a size that is none")
        << u"postgresql"_qs
        << QStringList {u"--cdc-slot"_qs, u"dbz"_qs, u"--max-cdc-lag"_qs, u"1.5GB"_qs}
        << u"outboxctl: check: --max-cdc-lag must be a size such as 1048576, 256MiB or 1GiB, not"
           " '1.5GB'"_qs;
    QTest::addRow("sqlite has no slots")
        << u"sqlite"_qs << QStringList {u"--cdc-slot"_qs, u"dbz"_qs}
        << u"outboxctl: check: reading %1: replication slots are PostgreSQL's; SQLite has none"
           " (a CDC connector keeps its binlog position outside the database: docs/cdc.md)"_qs;
}

// Exit 2 with one line, nothing printed on stdout.
void TestCdcSlot::checkRefusesWhatCannotBeRead()
{
    QFETCH(QString, engine);
    QFETCH(QStringList, arguments);
    QFETCH(QString, error);
    FRESH_DATABASE(database, engine);
    const auto connection = database->initialise();
    QVERIFY(connection);
    std::unique_ptr<CdcConsumer> consumer;
    if (engine == u"postgresql"_qs) {
        consumer = std::make_unique<CdcConsumer>(database->url(), u"delivery_outbox"_qs);
        QVERIFY2(consumer->error().isEmpty(), qPrintable(consumer->error()));
    }
    const Run run = outboxctl(QStringList {u"check"_qs, u"--db"_qs, database->url()} + arguments);
    QCOMPARE(run.exitCode, 2);
    QVERIFY2(run.out.isEmpty(), qPrintable(why(run)));
    const QString expected = !error.contains(u"%1"_qs)
        ? error
        : error.arg(consumer ? consumer->slot() : database->url());
    QCOMPARE(run.err.size(), 1);
    if (expected.contains(u"the slots on this server: "_qs)) // other slots may be there too
        QVERIFY2(run.err.constFirst().startsWith(expected.section(u": "_qs, 0, -2))
                && run.err.constFirst().contains(consumer->slot()),
            qPrintable(why(run)));
    else
        QCOMPARE(run.err.constFirst(), expected);
}

// `metrics --cdc-slot` reads the slot with the snapshot: a bad name is bad input, an engine
// without slots a failed read (outbox_up 0, exit 1).
void TestCdcSlot::metricsReadsTheSlot()
{
    FRESH_DATABASE(database, u"postgresql"_qs);
    QVERIFY(database->initialise());
    CdcConsumer consumer(database->url(), u"delivery_outbox"_qs);
    QVERIFY2(consumer.error().isEmpty(), qPrintable(consumer.error()));
    const QStringList metrics = {u"metrics"_qs, u"--db"_qs, database->url(), u"--cdc-slot"_qs};
    const Run read = outboxctl(metrics + QStringList {consumer.slot()});
    QVERIFY2(read.exitCode == 0
            && read.out.contains(
                u"outbox_up{outbox=\""_qs + database->url().section(u'/', -1) + u"\"} 1"_qs),
        qPrintable(why(read)));
    const Run bad = outboxctl(metrics + QStringList {u"Dbz"_qs});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY(bad.out.isEmpty());
    QCOMPARE(bad.err,
        QStringList {u"outboxctl: metrics: --cdc-slot: 'Dbz' is not a replication slot name (1-63"
                     " of a-z, 0-9, _)"_qs});

    FRESH_DATABASE(lite, u"sqlite"_qs);
    QVERIFY(lite->initialise());
    const Run none
        = outboxctl({u"metrics"_qs, u"--db"_qs, lite->url(), u"--cdc-slot"_qs, u"dbz"_qs});
    QCOMPARE(none.exitCode, 1);
    QVERIFY2(none.err.join(u'\n').contains(u"replication slots are PostgreSQL's"_qs),
        qPrintable(why(none)));
}

// `diagnose --cdc-slot`: a slot nobody reads is a finding (exit 1) that names it and says what to
// do; a missing one too; a bad name is bad input; an engine without slots says so.
void TestCdcSlot::diagnoseFindsTheSlot()
{
    FRESH_DATABASE(database, u"postgresql"_qs);
    QVERIFY(database->initialise());
    CdcConsumer consumer(database->url(), u"delivery_outbox"_qs);
    QVERIFY2(consumer.error().isEmpty(), qPrintable(consumer.error()));
    const QStringList diagnose = {u"diagnose"_qs, u"--db"_qs, database->url(), u"--cdc-slot"_qs};
    const Run idle = outboxctl(diagnose + QStringList {consumer.slot(), u"--json"_qs});
    QCOMPARE(idle.exitCode, 1);
    const QJsonArray findings = QJsonDocument::fromJson(idle.out.join(u'\n').toUtf8())
                                    .object()
                                    .value(u"findings"_qs)
                                    .toArray();
    QJsonObject slotFinding;
    for (const QJsonValue &finding : findings) {
        if (finding.toObject().value(u"code"_qs).toString() == u"cdc_slot"_qs)
            slotFinding = finding.toObject();
    }
    QVERIFY2(!slotFinding.isEmpty(), qPrintable(why(idle)));
    QVERIFY2(slotFinding.value(u"summary"_qs).toString().contains(consumer.slot()),
        qPrintable(why(idle)));
    const Run text = outboxctl(diagnose + QStringList {consumer.slot()});
    QCOMPARE(text.exitCode, 1);
    QVERIFY2(text.out.join(u'\n').contains(u"restart the connector"_qs), qPrintable(why(text)));

    const Run missing = outboxctl(diagnose + QStringList {u"no_such_slot"_qs});
    QCOMPARE(missing.exitCode, 1);
    QVERIFY2(missing.out.join(u'\n').contains(u"no_such_slot"_qs), qPrintable(why(missing)));
    const Run bad = outboxctl(diagnose + QStringList {u"Dbz"_qs});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY(bad.out.isEmpty());

    FRESH_DATABASE(lite, u"sqlite"_qs);
    QVERIFY(lite->initialise());
    const Run none
        = outboxctl({u"diagnose"_qs, u"--db"_qs, lite->url(), u"--cdc-slot"_qs, u"dbz"_qs});
    QCOMPARE(none.exitCode, 2);
    QVERIFY2(none.err.join(u'\n').contains(u"replication slots are PostgreSQL's"_qs),
        qPrintable(why(none)));
}

void TestCdcSlot::byteText_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<qint64>("bytes"); // -1: refused
    QTest::addRow("plain bytes") << u"1048576"_qs << qint64(1048576);
    QTest::addRow("MiB") << u"256MiB"_qs << qint64(256) * MiB;
    QTest::addRow("PostgreSQL's GB is GiB") << u"1 GB"_qs << qint64(1024) * MiB;
    QTest::addRow("k") << u"64k"_qs << qint64(65536);
    QTest::addRow("a fraction") << u"1.5GiB"_qs << qint64(-1);
    QTest::addRow("negative") << u"-1"_qs << qint64(-1);
    QTest::addRow("overflowing") << u"9999999999TiB"_qs << qint64(-1);
    QTest::addRow("a unit alone") << u"MiB"_qs << qint64(-1);
}

void TestCdcSlot::byteText()
{
    QFETCH(QString, text);
    QFETCH(qint64, bytes);
    QCOMPARE(ByteText::parse(text).value_or(-1), bytes);
    if (bytes >= 0)
        QCOMPARE(ByteText::parse(ByteText::format(bytes).remove(u' ')), bytes);
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
    QTest::addRow("256 MiB behind is amber") << r << Level::Amber << u"slot dbz 256 MiB behind"_qs;
    r.lagBytes = 1024 * MiB;
    QTest::addRow("1 GiB behind is red") << r << Level::Red << u"slot dbz 1 GiB behind"_qs;
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
