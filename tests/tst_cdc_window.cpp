// The window and the diagnosis of an outbox relayed by change data capture, on a real
// PostgreSQL with a real logical-replication client as the relay (pg_recvlogical on a pgoutput
// slot, tests/support/cdcconsumer.h): with --cdc-slot the CDC tile row follows the consumer
// (active, then inactive in amber and, past the idle limit, red with a critical finding on the
// Diagnosis page naming the slot, then healed); without a slot the window has no such row; a fleet
// row with `;cdc-slot=` opens a window with it. The finding's words on known readings (the
// estimates said to be estimates, an unlimited slot, a missing one, lost WAL), the one grade the
// fleet rows and desktop alerts take, and the one-read diagnosis outboxctl diagnose runs
// (CdcFinding::diagnoseSlot).
#include "cdcconsumer.h"
#include "cdcfinding.h"
#include "cdctiles.h"
#include "copylinkaction.h"
#include "dashboardapp.h"
#include "diagnosismonitor.h"
#include "diagnosispage.h"
#include "diagnosisquery.h"
#include "fixturescript.h"
#include "fleetmodel.h"
#include "fleetwindow.h"
#include "healthgrade.h"
#include "healthmonitor.h"
#include "healthsnapshot.h"
#include "healthtiles.h"
#include "mainwindow.h"
#include "scratchfile.h"
#include "testdatabase.h"
#include "testmain.h"
#include "testwindow.h"

#include <QApplication>
#include <QDateTime>
#include <QLabel>
#include <QSignalSpy>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>

namespace {

constexpr qint64 MiB = 1024 * 1024;
constexpr qint64 GiB = 1024 * MiB;
constexpr int Timeout = 20000;

qint64 now()
{
    return QDateTime::currentMSecsSinceEpoch();
}

// A slot whose connector stopped 14 minutes ago with 2.1 GiB kept, writing 200 KiB of WAL a
// second, 2.1 GiB short of max_slot_wal_keep_size: about 3 h of runway.
CdcSlotReading stoppedConnector()
{
    CdcSlotReading r;
    r.slot = u"dbz"_qs;
    r.exists = true;
    r.active = false;
    r.currentWalLsn = 10 * GiB;
    r.lagBytes = qint64(2.1 * GiB);
    r.retainedBytes = qint64(2.1 * GiB);
    r.walStatus = u"extended"_qs;
    r.maxSlotWalKeepBytes = 5 * GiB;
    r.safeWalSizeBytes = qint64(2.1 * GiB);
    r.inactiveForMs = 14 * 60 * 1000;
    r.walRateBytesPerSec = 200.0 * 1024;
    r.estimate();
    return r;
}

QString labelText(const QWidget *card, const QString &name)
{
    const auto *label = card ? card->findChild<QLabel *>(name) : nullptr;
    return label ? label->text() : QString();
}

// Every label of the row shows its text whole at the window's size.
bool wholeText(const CdcTiles *tiles)
{
    for (const QLabel *label : tiles->findChildren<QLabel *>()) {
        if (label->isVisible() && label->width() < label->sizeHint().width()) {
            qWarning("cut: %s (%d < %d)", qPrintable(label->text()), label->width(),
                label->sizeHint().width());
            return false;
        }
    }
    return true;
}

} // namespace

class TestCdcWindow : public QObject
{
    Q_OBJECT

private slots:
    void findingSaysWhatIsWrong_data();
    void findingSaysWhatIsWrong();
    void gradeTakesTheWorseOfOutboxAndSlot();
    void windowFollowsTheConsumer();
    void windowWithoutSlotHasNoRow();
    void fleetRowOpensItsSlot();
    void longestSlotNameFitsALaptop();
    void oneReadDiagnosis();
};

void TestCdcWindow::findingSaysWhatIsWrong_data()
{
    QTest::addColumn<CdcSlotReading>("reading");
    QTest::addColumn<QString>("severity"); // empty: no finding
    QTest::addColumn<QStringList>("summary"); // parts, in order
    QTest::addColumn<QString>("action");

    QTest::addRow("stopped connector, capped")
        << stoppedConnector() << u"critical"_qs
        << QStringList {u"slot dbz inactive for 14 min, 2.1 GiB retained, at the current WAL "
                        "rate the limit is reached in about 3 h"_qs,
               u"(estimate)"_qs}
        << u"restart the connector, or drop slot dbz if the connector is gone "
           "(docs/cdc.md, Runbook), knowing that events will be lost"_qs;
    CdcSlotReading unlimited = stoppedConnector();
    unlimited.maxSlotWalKeepBytes.reset();
    unlimited.safeWalSizeBytes.reset();
    unlimited.estimate();
    QTest::addRow("unlimited") << unlimited << u"critical"_qs
                               << QStringList {u"nothing caps it"_qs, u"the disk fills"_qs,
                                      u"not known to SQL"_qs}
                               << u"restart the connector"_qs;
    CdcSlotReading justStopped = stoppedConnector();
    justStopped.inactiveForMs.reset(); // one read of PostgreSQL before 17
    justStopped.lagBytes = justStopped.retainedBytes = 8 * MiB;
    justStopped.safeWalSizeBytes = 4 * GiB;
    justStopped.estimate();
    QTest::addRow("idle time unknown")
        << justStopped << u"warning"_qs
        << QStringList {u"slot dbz inactive (since when is not known yet)"_qs}
        << u"restart the connector"_qs;
    CdcSlotReading missing;
    missing.slot = u"dbz"_qs;
    missing.existingSlots = QStringList {u"other"_qs};
    QTest::addRow("missing") << missing << u"critical"_qs
                             << QStringList {u"replication slot \"dbz\" does not exist; the "
                                             "slots on this server: other"_qs}
                             << u"name the slot it uses (--cdc-slot)"_qs;
    CdcSlotReading lost = stoppedConnector();
    lost.walStatus = u"lost"_qs;
    lost.retainedBytes.reset();
    QTest::addRow("lost") << lost << u"critical"_qs
                          << QStringList {u"slot dbz has lost WAL (wal_status lost)"_qs}
                          << u"the slot has lost WAL: the connector must re-snapshot "
                             "(snapshot.mode)"_qs;
    CdcSlotReading lagging = stoppedConnector();
    lagging.active = true;
    lagging.inactiveForMs.reset();
    lagging.activePid = 4242;
    QTest::addRow("active, far behind")
        << lagging << u"critical"_qs
        << QStringList {u"slot dbz active, its consumer 2.1 GiB behind (≈ 3 h 3 min, estimate)"_qs}
        << u"check its throughput"_qs;
    CdcSlotReading healthy = lagging;
    healthy.lagBytes = 4096;
    healthy.retainedBytes = 64 * MiB;
    healthy.safeWalSizeBytes = 4 * GiB;
    healthy.estimate();
    QTest::addRow("healthy") << healthy << QString() << QStringList() << QString();
}

// The words an operator reads on the Diagnosis page and from outboxctl diagnose.
void TestCdcWindow::findingSaysWhatIsWrong()
{
    QFETCH(CdcSlotReading, reading);
    QFETCH(QString, severity);
    QFETCH(QStringList, summary);
    QFETCH(QString, action);
    const std::optional<Finding> finding = CdcFinding::of(reading);
    QCOMPARE(finding.has_value(), !severity.isEmpty());
    if (!finding)
        return;
    QCOMPARE(finding->code, DiagnosisCode::CdcSlot);
    QCOMPARE(Finding::severityName(finding->severity), severity);
    qsizetype from = 0;
    for (const QString &part : summary) {
        const qsizetype at = finding->summary.indexOf(part, from);
        QVERIFY2(at >= 0, qPrintable(finding->summary));
        from = at + part.size();
    }
    QVERIFY2(finding->action.contains(action), qPrintable(finding->action));
    QCOMPARE(finding->evidence.value(u"slot"_qs).toString(), u"dbz"_qs);

    // In a result: checked, worst first, replaced rather than added twice.
    DiagnosisResult result;
    QVERIFY(CdcFinding::apply(&result, reading));
    QVERIFY(!CdcFinding::apply(&result, reading));
    QCOMPARE(result.findings.size(), 1);
    QVERIFY(result.checked.contains(DiagnosisCode::CdcSlot));
    QVERIFY(result.hasProblem());
}

// A fleet row and a desktop alert turn red on a stopped connector, amber on a fresh stop.
void TestCdcWindow::gradeTakesTheWorseOfOutboxAndSlot()
{
    HealthSnapshot snapshot;
    snapshot.now = now();
    QCOMPARE(HealthGrade::of(snapshot).level, HealthGrade::Level::Normal);
    snapshot.cdc = stoppedConnector();
    const HealthGrade red = HealthGrade::of(snapshot);
    QCOMPARE(red.level, HealthGrade::Level::Red);
    QCOMPARE(red.figure, u"slot dbz inactive for 14 min"_qs);
    snapshot.cdc->inactiveForMs = 2000;
    snapshot.cdc->lagBytes = 1024;
    snapshot.cdc->safeWalSizeBytes.reset();
    snapshot.cdc->estimate();
    QCOMPARE(HealthGrade::of(snapshot).level, HealthGrade::Level::Amber);
    TileThresholds quick;
    quick.cdcInactiveMs = {0, 1000};
    QCOMPARE(HealthGrade::of(snapshot, quick).level, HealthGrade::Level::Red);
}

// The whole story in the window: consumer up, down while rows are written, past the idle limit,
// up again.
void TestCdcWindow::windowFollowsTheConsumer()
{
    FRESH_DATABASE(database, u"postgresql"_qs);
    const auto writer = database->initialise();
    QVERIFY(writer && exec(writer->database(), routerOutboxTableSql()));
    CdcConsumer consumer(database->url(), u"outbox"_qs);
    QVERIFY2(consumer.error().isEmpty(), qPrintable(consumer.error()));
    QVERIFY2(consumer.start(), qPrintable(consumer.error()));
    WindowOptions options = simulationOff();
    options.cdcSlot = consumer.slot();
    MainWindow window(database->connect(), options);
    window.resize(1366, 700); // a maximised window on a 1366×768 laptop
    window.show();
    window.monitor()->setInterval(300);
    CdcTiles *row = window.cdcTiles();
    QVERIFY(row && row->isVisible());
    using T = CdcTiles::Tile;
    QCOMPARE(row->titleText(T::Consumer), u"Consumer · slot "_qs + consumer.slot());
    QTRY_COMPARE_WITH_TIMEOUT(row->valueText(T::Consumer), u"active"_qs, Timeout);
    QCOMPARE(row->level(T::Consumer), CdcTiles::Level::Normal);
    QCOMPARE(row->valueText(T::Runway), u"unlimited"_qs); // the test server's default
    QCOMPARE(row->hintText(T::Runway), u"until the disk fills"_qs);
    QCOMPARE(row->valueText(T::WalStatus), u"reserved"_qs);
    QVERIFY(wholeText(row));
    // View › Copy link to this view opens the same row (the alert rules' links carry it too).
    QVERIFY2(CopyLinkAction::linkTo(window).contains(u"&cdc-slot="_qs + consumer.slot()),
        qPrintable(CopyLinkAction::linkTo(window)));

    consumer.stop();
    QVERIFY(insertRouterEvents(writer->database(), 2000)); // about 2 MB of WAL the slot now keeps
    QTRY_COMPARE_WITH_TIMEOUT(row->valueText(T::Consumer), u"inactive"_qs, Timeout);
    QCOMPARE(row->level(T::Consumer), CdcTiles::Level::Amber);
    QTRY_VERIFY_WITH_TIMEOUT(row->valueText(T::Lag).contains(u"MiB"_qs), Timeout);
    QVERIFY2(
        row->hintText(T::Consumer).startsWith(u"for "_qs), qPrintable(row->hintText(T::Consumer)));
    QVERIFY(wholeText(row));

    // Past the idle limit (a small one, not a wait of five minutes): red, and a critical
    // finding on the Diagnosis page that names the slot.
    TileThresholds quick = window.tiles()->thresholds();
    quick.cdcInactiveMs = {0, 500};
    window.tiles()->setThresholds(quick);
    window.diagnosis()->setTileThresholds(quick);
    QTRY_COMPARE_WITH_TIMEOUT(row->level(T::Consumer), CdcTiles::Level::Red, Timeout);
    QCOMPARE(HealthGrade::of(window.monitor()->snapshot(), quick).level, HealthGrade::Level::Red);
    DiagnosisPage *panel = window.diagnosisPanel();
    QTRY_VERIFY_WITH_TIMEOUT(panel->findingCodes().contains(DiagnosisCode::CdcSlot), Timeout);
    const QWidget *card = panel->findChild<QWidget *>(u"finding_cdc_slot"_qs);
    QTRY_VERIFY_WITH_TIMEOUT(
        labelText(card, u"findingTitle"_qs).startsWith(u"CRITICAL"_qs), Timeout);
    QVERIFY(labelText(card, u"findingTitle"_qs).contains(consumer.slot()));
    const QString summary = labelText(card, u"findingSummary"_qs);
    QVERIFY2(summary.contains(QStringLiteral("slot %1 inactive for ").arg(consumer.slot()))
            && summary.contains(u"retained"_qs),
        qPrintable(summary));

    QVERIFY2(consumer.start(), qPrintable(consumer.error()));
    QTRY_COMPARE_WITH_TIMEOUT(row->valueText(T::Consumer), u"active"_qs, Timeout);
    QTRY_COMPARE_WITH_TIMEOUT(row->level(T::Lag), CdcTiles::Level::Normal, Timeout);
    QTRY_VERIFY_WITH_TIMEOUT(!panel->findingCodes().contains(DiagnosisCode::CdcSlot), Timeout);
}

// Without a slot the window looks as it always did: no row, nothing read.
void TestCdcWindow::windowWithoutSlotHasNoRow()
{
    FRESH_DATABASE(database, u"sqlite"_qs);
    QVERIFY(database->initialise());
    MainWindow window(database->connect(), simulationOff());
    window.show();
    QVERIFY(!window.cdcTiles());
    QVERIFY(window.findChildren<QWidget *>(u"cdcTile"_qs).isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(window.monitor()->hasSnapshot(), Timeout);
    QVERIFY(!window.monitor()->snapshot().cdc.has_value());
}

// A fleet file's `;cdc-slot=` line: the window that row opens shows that slot's row.
void TestCdcWindow::fleetRowOpensItsSlot()
{
    FRESH_DATABASE(database, u"postgresql"_qs);
    const auto writer = database->initialise();
    QVERIFY(writer && exec(writer->database(), routerOutboxTableSql()));
    CdcConsumer consumer(database->url(), u"outbox"_qs);
    QVERIFY2(consumer.error().isEmpty(), qPrintable(consumer.error()));
    QVERIFY2(consumer.start(), qPrintable(consumer.error()));
    QTemporaryDir dir;
    const QString path = ScratchFile::writeText(
        dir, u"fleet.conf"_qs, u"orders=%1;cdc-slot=%2\n"_qs.arg(database->url(), consumer.slot()));
    DashboardApp app;
    QSignalSpy opened(&app, &DashboardApp::fleetOpened);
    app.openFleet(path);
    QVERIFY(opened.wait(Timeout));
    FleetWindow *fleet = app.fleetWindow();
    QVERIFY(fleet);
    QTRY_COMPARE_WITH_TIMEOUT(fleet->model()->rowCount(), 1, Timeout);
    std::unique_ptr<MainWindow> window(app.openFleetOutbox(fleet, 0));
    QVERIFY(window);
    CdcTiles *row = window->cdcTiles();
    QVERIFY(row && row->isVisible());
    QCOMPARE(row->titleText(CdcTiles::Tile::Consumer), u"Consumer · slot "_qs + consumer.slot());
    QTRY_COMPARE_WITH_TIMEOUT(row->valueText(CdcTiles::Tile::Consumer), u"active"_qs, Timeout);
}

// PostgreSQL's longest slot name (63 characters) does not widen the row past a 1366 screen.
void TestCdcWindow::longestSlotNameFitsALaptop()
{
    CdcTiles row(QString(63, u'x'));
    const CdcTiles shortName(u"dbz"_qs);
    // The title gives way: the row needs no more room than with a short name.
    QVERIFY2(row.minimumSizeHint().width() <= std::max(shortName.minimumSizeHint().width(), 1000),
        qPrintable(QStringLiteral("%1 against %2")
                       .arg(row.minimumSizeHint().width())
                       .arg(shortName.minimumSizeHint().width())));
    QCOMPARE(row.titleText(CdcTiles::Tile::Consumer), u"Consumer · slot "_qs + QString(63, u'x'));
}

// outboxctl diagnose's way: the engine's findings, then the slot read once.
void TestCdcWindow::oneReadDiagnosis()
{
    FRESH_DATABASE(database, u"postgresql"_qs);
    const auto writer = database->initialise();
    QVERIFY(writer && exec(writer->database(), routerOutboxTableSql()));
    CdcConsumer consumer(database->url(), u"outbox"_qs);
    QVERIFY2(consumer.error().isEmpty(), qPrintable(consumer.error()));
    QString error;
    std::optional<DiagnosisResult> result = DiagnosisQuery::run(writer->database(), now(), &error);
    QVERIFY2(result, qPrintable(error));
    QVERIFY(!result->hasProblem());
    QVERIFY2(
        CdcFinding::diagnoseSlot(writer->database(), consumer.slot(), now(), {}, &*result, &error),
        qPrintable(error));
    QVERIFY(result->checked.contains(DiagnosisCode::CdcSlot));
    QCOMPARE(result->findings.size(), 1); // never started: inactive
    QVERIFY(result->findings.first().summary.startsWith(
        QStringLiteral("slot %1 inactive").arg(consumer.slot())));
    QVERIFY(result->hasProblem()); // outboxctl diagnose exits 1

    QVERIFY(CdcFinding::diagnoseSlot(
        writer->database(), u"no_such_slot"_qs, now(), {}, &*result, &error));
    QCOMPARE(result->findings.first().severity, Finding::Severity::Critical);
    QVERIFY(result->findings.first().summary.contains(consumer.slot())); // names what exists

    FRESH_DATABASE(sqlite, u"sqlite"_qs);
    const auto other = sqlite->initialise();
    QVERIFY(!CdcFinding::diagnoseSlot(other->database(), u"dbz"_qs, now(), {}, &*result, &error));
    QVERIFY2(error.contains(u"PostgreSQL's"_qs), qPrintable(error));
}

OUTBOX_TEST_MAIN(TestCdcWindow, QApplication)
#include "tst_cdc_window.moc"
