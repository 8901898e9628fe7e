// The replication slot's metrics (outbox_cdc_*, docs/cdc.md) the real way: `outboxctl serve`
// with a `;cdc-slot=` line on a real PostgreSQL whose slot a real logical-replication client
// reads (pg_recvlogical, tests/support/cdcconsumer.h), scraped by a real Prometheus that loads
// the shipped alert rules with their `for:` cut to a second. Consumer stopped: the slot turns
// inactive in Prometheus, its lag grows as rows are written and OutboxCdcSlotInactive fires;
// started again: active, the lag small, the alert resolved. A line naming a slot the server
// does not have gives outbox_cdc_slot_exists 0 and OutboxCdcSlotMissing. Every outbox_cdc_*
// name the shipped rules and the Grafana dashboard use is a family serve emits for a slot
// (tst_grafana_dashboard checks the others on a SQLite outbox, which cannot have a slot). A
// lost slot lacks the figures PostgreSQL cannot tell, rather than showing them as 0. The lines
// themselves: `;cdc-slot=` before or after `;profile=`, a bad name, a repeated option or a
// slot on SQLite refused in one line naming the outbox (and the file's line); the window's
// fleet view reads a line's slot too.
#include "cdcconsumer.h"
#include "fixturescript.h"
#include "fleetconfig.h"
#include "fleetmodel.h"
#include "healthmonitor.h"
#include "metricstext.h"
#include "prometheusrun.h"
#include "testdata.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlError>
#include <QSqlQuery>
#include <QUrlQuery>

namespace {

constexpr int WaitMs = 60000; // serve's first read, Prometheus's start, scrapes and rules
constexpr qint64 MiB = 1024 * 1024;

QString readSource(const QString &relative)
{
    QFile file(TestData::sourceDir() + u'/' + relative);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

// The shipped rules with their `for:` minutes cut to a second (nothing else differs).
bool writeRules(const QString &path)
{
    QString rules = readSource(u"resources/prometheus/outbox-alerts.yml"_qs);
    const QRegularExpression minutes(u"for: \\d+m"_qs);
    const qsizetype fors = rules.count(minutes);
    rules.replace(minutes, u"for: 1s"_qs);
    QFile file(path);
    return fors >= 5 && file.open(QIODevice::WriteOnly) && file.write(rules.toUtf8()) > 0;
}

// About `kib` KiB of WAL, as a service's writes would make.
bool writeWal(const QSqlDatabase &db, int kib)
{
    return exec(db,
        u"INSERT INTO wal_filler SELECT repeat('x', 1000) FROM generate_series(1, %1)"_qs.arg(kib));
}

// The value of `expr` in Prometheus now (the first series), empty when it has none.
QString value(const QString &prometheus, const QString &expr)
{
    QUrlQuery query;
    query.addQueryItem(u"query"_qs, expr);
    const QJsonObject answer = QJsonDocument::fromJson(
        httpGet(prometheus + u"/api/v1/query?"_qs + query.toString(QUrl::FullyEncoded)))
                                   .object();
    const QJsonArray result = answer[u"data"_qs][u"result"_qs].toArray();
    return result.isEmpty() ? QString() : result.at(0)[u"value"_qs].toArray().at(1).toString();
}

// The state ("pending", "firing") of `alertname` for `outbox` in Prometheus, empty when none.
QString alertState(const QString &prometheus, const QString &alertname, const QString &outbox)
{
    const QJsonObject answer
        = QJsonDocument::fromJson(httpGet(prometheus + u"/api/v1/alerts"_qs)).object();
    for (const QJsonValue &alert : answer[u"data"_qs][u"alerts"_qs].toArray()) {
        const QJsonObject labels = alert[u"labels"_qs].toObject();
        if (labels[u"alertname"_qs].toString() == alertname
            && labels[u"outbox"_qs].toString() == outbox)
            return alert[u"state"_qs].toString();
    }
    return {};
}

// The outbox_cdc_* names in `text` (an expression, a rule file, a dashboard).
QSet<QString> cdcNames(const QString &text)
{
    static const QRegularExpression name(u"\\boutbox_cdc_[a-z_]+\\b"_qs);
    QSet<QString> names;
    for (const QRegularExpressionMatch &match : name.globalMatch(text))
        names << match.captured();
    return names;
}

} // namespace

class TestCdcPrometheus : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        if (QStandardPaths::findExecutable(u"prometheus"_qs).isEmpty())
            QFAIL("prometheus is missing (scripts/bootstrap installs the prometheus package)");
        if (CdcConsumer::clientPath().isEmpty())
            QFAIL("pg_recvlogical is missing (it comes with PostgreSQL's server package)");
    }

    void lineNamesTheSlot_data();
    void lineNamesTheSlot();
    void fileLineNamesTheLine();
    void lostSlotHasNoFiguresItCannotTell();
    void fleetViewReadsTheLineSlot();
    void slotStopsAndHealsInPrometheus();
};

void TestCdcPrometheus::lineNamesTheSlot_data()
{
    QTest::addColumn<QString>("line");
    QTest::addColumn<QString>("slot"); // "-": none
    QTest::addColumn<QString>("profile"); // "-": none
    QTest::addColumn<QString>("error"); // what the one line says; empty: parsed
    const QString pg = u"shop=postgresql://op:hunter2@db/shop"_qs;
    QTest::addRow("slot") << pg + u";cdc-slot=dbz"_qs << u"dbz"_qs << u"-"_qs << QString();
    QTest::addRow("profile, then slot")
        << pg + u";profile=native;cdc-slot=dbz_1"_qs << u"dbz_1"_qs << u"native"_qs << QString();
    QTest::addRow("slot, then profile")
        << pg + u";cdc-slot=dbz;profile=native"_qs << u"dbz"_qs << u"native"_qs << QString();
    QTest::addRow("no slot") << pg << u"-"_qs << u"-"_qs << QString();
    QTest::addRow("upper case") << pg + u";cdc-slot=Dbz"_qs << u"-"_qs << u"-"_qs
                                << u"outbox shop: 'Dbz' is not a replication slot name (1-63 of "
                                   "a-z, 0-9, _)"_qs;
    QTest::addRow("empty") << pg + u";cdc-slot="_qs << u"-"_qs << u"-"_qs
                           << u"outbox shop: '' is not a replication slot name"_qs;
    QTest::addRow("64 characters") << pg + u";cdc-slot="_qs + QString(64, u'a') << u"-"_qs
                                   << u"-"_qs << u"outbox shop: 'aaaa"_qs;
    QTest::addRow("twice") << pg + u";cdc-slot=a;cdc-slot=b"_qs << u"-"_qs << u"-"_qs
                           << u"outbox shop: ;cdc-slot= is given twice"_qs;
    QTest::addRow("SQLite") << u"lite=sqlite:/tmp/x.sqlite;cdc-slot=dbz"_qs << u"-"_qs << u"-"_qs
                            << u"outbox lite: ;cdc-slot=: replication slots are PostgreSQL's"_qs;
}

// `;cdc-slot=NAME` beside `;profile=`, in either order; a name PostgreSQL would refuse, a
// repeated option or an engine without slots is one line naming the outbox, never a password.
void TestCdcPrometheus::lineNamesTheSlot()
{
    QFETCH(QString, line);
    QFETCH(QString, slot);
    QFETCH(QString, profile);
    QFETCH(QString, error);
    QString why;
    const std::optional<FleetEntry> entry = FleetConfig::parseEntry(line, &why);
    QVERIFY(!why.contains(u"hunter2"_qs));
    if (!error.isEmpty()) {
        QVERIFY(!entry);
        QVERIFY2(why.contains(error), qPrintable(why));
        return;
    }
    QVERIFY2(entry, qPrintable(why));
    QCOMPARE(entry->cdcSlot.value_or(u"-"_qs), slot);
    QCOMPARE(entry->profile.value_or(u"-"_qs), profile);
    QCOMPARE(entry->url.databaseName(), u"shop"_qs);
}

// In a fleet file the error names the file and the line.
void TestCdcPrometheus::fileLineNamesTheLine()
{
    QList<FleetEntry> entries;
    QString error;
    QVERIFY(!FleetConfig::parseLines(
        {u"# CDC outboxes"_qs, u"orders=postgresql://db/orders;cdc-slot=dbz_orders"_qs,
            u"shop=postgresql://db/shop;cdc-slot=dbz-shop"_qs},
        u"fleet.conf"_qs, &entries, &error));
    QCOMPARE(error,
        u"fleet.conf:3: outbox shop: 'dbz-shop' is not a replication slot name (1-63 of a-z, 0-9, _)"_qs);
}

// A lost slot (its WAL removed) as PostgreSQL reports it: no retained WAL and no safe_wal_size,
// so those series are absent rather than 0; wal_status says lost; an idle time nobody knows is
// absent too. An outbox without a slot has no outbox_cdc_* series at all.
void TestCdcPrometheus::lostSlotHasNoFiguresItCannotTell()
{
    CdcSlotReading lost;
    lost.slot = u"dbz"_qs;
    lost.exists = true;
    lost.lagBytes = 170781192;
    lost.walStatus = u"lost"_qs;
    lost.maxSlotWalKeepBytes = 96 * MiB;
    OutboxMetrics shop;
    shop.outbox = u"shop"_qs;
    shop.snapshot = HealthSnapshot {};
    shop.snapshot->cdc = lost;
    OutboxMetrics plain;
    plain.outbox = u"plain"_qs;
    plain.snapshot = HealthSnapshot {};
    const QString text
        = MetricsText::render({shop, plain}, u"test"_qs, MetricsText::Format::OpenMetrics);
    const QString labels = u"{outbox=\"shop\",slot=\"dbz\"}"_qs;
    QVERIFY2(text.contains(u"outbox_cdc_slot_active"_qs + labels + u" 0\n"_qs), qPrintable(text));
    QVERIFY(text.contains(u"outbox_cdc_lag_bytes"_qs + labels + u" 170781192\n"_qs));
    QVERIFY(text.contains(
        u"outbox_cdc_wal_status{outbox=\"shop\",slot=\"dbz\",status=\"lost\"} 1\n"_qs));
    QVERIFY(text.contains(
        u"outbox_cdc_wal_status{outbox=\"shop\",slot=\"dbz\",status=\"reserved\"} 0\n"_qs));
    for (const QString &absent : {u"outbox_cdc_retained_bytes"_qs,
             u"outbox_cdc_safe_wal_size_bytes"_qs, u"outbox_cdc_inactive_seconds"_qs,
             u"outbox_cdc_wal_rate_bytes_per_second"_qs, u"outbox=\"plain\",slot"_qs})
        QVERIFY2(!text.contains(absent), qPrintable(absent));
}

// The window's fleet view reads the same lines: a `;cdc-slot=` line's monitor reads the slot
// with each snapshot (what its row shows of it is the window's business).
void TestCdcPrometheus::fleetViewReadsTheLineSlot()
{
    FRESH_DATABASE(database, u"postgresql"_qs);
    QVERIFY(database->initialise());
    CdcConsumer consumer(database->url(), u"delivery_outbox"_qs);
    QVERIFY2(consumer.error().isEmpty(), qPrintable(consumer.error()));
    FleetModel model;
    model.setLines({u"shop=%1;cdc-slot=%2"_qs.arg(database->url(), consumer.slot()),
        u"plain="_qs + database->url()});
    model.start();
    QTRY_VERIFY_WITH_TIMEOUT(
        model.monitorAt(0)->hasSnapshot() && model.monitorAt(1)->hasSnapshot(), WaitMs);
    const std::optional<CdcSlotReading> cdc = model.monitorAt(0)->snapshot().cdc;
    QVERIFY(cdc && cdc->exists);
    QCOMPARE(cdc->slot, consumer.slot());
    QVERIFY(!cdc->active);
    QVERIFY(!model.monitorAt(1)->snapshot().cdc);
}

void TestCdcPrometheus::slotStopsAndHealsInPrometheus()
{
    FRESH_DATABASE(database, u"postgresql"_qs);
    const auto writer = database->initialise();
    QVERIFY(writer && exec(writer->database(), u"CREATE TABLE wal_filler (pad text)"_qs));
    CdcConsumer consumer(database->url(), u"delivery_outbox"_qs);
    QVERIFY2(consumer.error().isEmpty(), qPrintable(consumer.error()));
    QVERIFY2(consumer.start(), qPrintable(consumer.error()));

    Child serve;
    const int servePort = startServe(&serve,
        {u"--interval"_qs, u"1"_qs, u"--outbox"_qs,
            u"shop=%1;cdc-slot=%2"_qs.arg(database->url(), consumer.slot()), u"--outbox"_qs,
            u"gone=%1;cdc-slot=no_such_slot"_qs.arg(database->url())});
    QVERIFY(servePort > 0);
    QTemporaryDir dir;
    const QString rules = dir.filePath(u"outbox-alerts.yml"_qs);
    QVERIFY(writeRules(rules));
    Child prometheus;
    const QString url
        = startPrometheus(&prometheus, dir, {servePort}, u"rule_files: ['%1']\n"_qs.arg(rules));
    QVERIFY2(!url.isEmpty(), prometheus.process.readAll().constData());
    const QString shop = u"{outbox=\"shop\"}"_qs;
    const auto shopValue = [&](const QString &family, const QString &more = {}) {
        return value(
            url, family + (more.isEmpty() ? shop : shop.chopped(1) + u","_qs + more + u"}"_qs));
    };

    // Running: the slot exists, is active, reserved, its consumer close behind.
    QTRY_COMPARE_WITH_TIMEOUT(shopValue(u"outbox_cdc_slot_active"_qs), u"1"_qs, WaitMs);
    QCOMPARE(shopValue(u"outbox_cdc_slot_exists"_qs), u"1"_qs);
    QCOMPARE(shopValue(u"outbox_cdc_wal_status"_qs, u"status=\"reserved\""_qs), u"1"_qs);
    QCOMPARE(shopValue(u"outbox_cdc_wal_status"_qs, u"status=\"lost\""_qs), u"0"_qs);
    QCOMPARE(shopValue(u"outbox_cdc_inactive_seconds"_qs), u"0"_qs);
    QTRY_VERIFY_WITH_TIMEOUT(shopValue(u"outbox_cdc_lag_bytes"_qs).toLongLong() < MiB, WaitMs);
    QVERIFY(alertState(url, u"OutboxCdcSlotInactive"_qs, u"shop"_qs).isEmpty());

    // Stopped while more than 8 MiB of WAL are written: inactive, lag past them, the alert
    // fires.
    consumer.stop();
    QVERIFY(writeWal(writer->database(), 12 * 1024));
    QTRY_COMPARE_WITH_TIMEOUT(shopValue(u"outbox_cdc_slot_active"_qs), u"0"_qs, WaitMs);
    QTRY_VERIFY_WITH_TIMEOUT(shopValue(u"outbox_cdc_lag_bytes"_qs).toLongLong() > 8 * MiB, WaitMs);
    QVERIFY(shopValue(u"outbox_cdc_retained_bytes"_qs).toLongLong() > 8 * MiB);
    QTRY_COMPARE_WITH_TIMEOUT(
        alertState(url, u"OutboxCdcSlotInactive"_qs, u"shop"_qs), u"firing"_qs, WaitMs);
    QTRY_VERIFY_WITH_TIMEOUT(shopValue(u"outbox_cdc_inactive_seconds"_qs).toDouble() > 0, WaitMs);

    // Started again: active, caught up, the alert gone.
    QVERIFY2(consumer.start(), qPrintable(consumer.error()));
    QTRY_COMPARE_WITH_TIMEOUT(shopValue(u"outbox_cdc_slot_active"_qs), u"1"_qs, WaitMs);
    QTRY_VERIFY_WITH_TIMEOUT(shopValue(u"outbox_cdc_lag_bytes"_qs).toLongLong() < MiB, WaitMs);
    QTRY_VERIFY_WITH_TIMEOUT(
        alertState(url, u"OutboxCdcSlotInactive"_qs, u"shop"_qs).isEmpty(), WaitMs);

    // The slot the server does not have: said so, alerted, and no figure of a slot.
    QCOMPARE(
        value(url, u"outbox_cdc_slot_exists{outbox=\"gone\",slot=\"no_such_slot\"}"_qs), u"0"_qs);
    QVERIFY(value(url, u"outbox_cdc_slot_active{outbox=\"gone\"}"_qs).isEmpty());
    QTRY_COMPARE_WITH_TIMEOUT(
        alertState(url, u"OutboxCdcSlotMissing"_qs, u"gone"_qs), u"firing"_qs, WaitMs);
    QVERIFY(alertState(url, u"OutboxCdcSlotMissing"_qs, u"shop"_qs).isEmpty());
    // serve said so once, naming the slots the server has.
    const QString log = QString::fromUtf8(serve.process.readAllStandardError());
    QCOMPARE(log.count(u"outbox gone: replication slot \"no_such_slot\" does not exist"_qs), 1);
    QVERIFY2(log.contains(u"the slots on this server: "_qs) && log.contains(consumer.slot()),
        qPrintable(log));

    // What the rules and the dashboard ask for is what serve emits for a slot.
    const QString metrics
        = QString::fromUtf8(httpGet(u"http://127.0.0.1:%1/metrics"_qs.arg(servePort)));
    QSet<QString> emitted;
    for (const QString &line : metrics.split(u'\n')) {
        if (line.startsWith(u"# TYPE outbox_cdc_"_qs))
            emitted << line.section(u' ', 2, 2);
    }
    QVERIFY2(emitted.contains(u"outbox_cdc_wal_rate_bytes_per_second"_qs), qPrintable(metrics));
    // safe_wal_size only where max_slot_wal_keep_size sets a limit (-1, the default: none).
    QSqlQuery limit(writer->database());
    QVERIFY(limit.exec(u"SELECT setting FROM pg_settings WHERE name = 'max_slot_wal_keep_size'"_qs)
        && limit.next());
    const bool unlimited = limit.value(0).toString() == u"-1"_qs;
    QCOMPARE(emitted.contains(u"outbox_cdc_safe_wal_size_bytes"_qs), !unlimited);
    emitted << u"outbox_cdc_safe_wal_size_bytes"_qs;
    const QSet<QString> used = cdcNames(readSource(u"resources/prometheus/outbox-alerts.yml"_qs))
        + cdcNames(readSource(u"resources/grafana/outbox-health.json"_qs));
    QVERIFY(used.contains(u"outbox_cdc_slot_exists"_qs));
    for (const QString &name : used)
        QVERIFY2(emitted.contains(name), qPrintable(name + u" is never emitted"_qs));
}

OUTBOX_TEST_MAIN(TestCdcPrometheus, QCoreApplication)
#include "tst_cdc_prometheus.moc"
