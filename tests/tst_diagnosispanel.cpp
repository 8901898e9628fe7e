// The diagnosis in the window, on both engines, as an operator sees it: a stalled relay and one
// error that dominates the DEAD events are listed worst first in the Diagnosis tab and said in
// the status bar, whose line opens the tab; a finding's "Show events" filters the table to the
// events it is about; an empty outbox shows "No findings: healthy"; an amber or red DEAD tile
// is a finding in its colour, gone when Thresholds… makes the tile normal. The diagnosis runs
// on the health thread, with its own connection there, and heals after a failed statement. The
// detail pane explains the selected event (DEAD, scheduled) and follows it when it changes.
// Also the LIKE pattern an error signature filters the table with.
#include "activefilterbar.h"
#include "detailpane.h"
#include "diagnosismonitor.h"
#include "diagnosispage.h"
#include "diagnosisstatusline.h"
#include "errorsignature.h"
#include "eventlistmodel.h"
#include "findingcard.h"
#include "healthmonitor.h"
#include "healthtiles.h"
#include "healthworker.h"
#include "mainwindow.h"
#include "outboxrows.h"
#include "pagenavigator.h"
#include "testdatabase.h"
#include "testmain.h"
#include "testwindow.h"
#include "themecolours.h"
#include "thresholdsdialog.h"

#include <QApplication>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QSignalSpy>
#include <QSqlError>
#include <QSqlQuery>
#include <QStackedWidget>
#include <QTemporaryDir>
#include <QTimer>

Q_DECLARE_METATYPE(HealthTiles::Level)

namespace {

constexpr qint64 Second = 1000;
constexpr qint64 Minute = 60 * Second;

OutboxRow deadRow(const QString &id, const QString &type, const QString &error, qint64 now)
{
    OutboxRow row;
    row.id = id;
    row.status = u"DEAD"_qs;
    row.createdAt = now - 30 * Minute;
    row.nextAttemptAt = now - 20 * Minute;
    row.failures = 3;
    row.category = u"TRANSIENT"_qs;
    row.error = error;
    row.type = type;
    return row;
}

const QStringList types = {u"OrderPlaced"_qs, u"StockReserved"_qs, u"PaymentCaptured"_qs};

// 12 DEAD events failing with one error (its numbers varying), 4 with errors of their own, and
// one event due for 10 minutes that no relay picked up: relay_stalled and dominant_error.
bool stalledWithDominantError(const QSqlDatabase &db, qint64 now)
{
    for (int i = 0; i < 12; ++i) {
        const QString error
            = QStringLiteral("HTTP 503 from inventory-%1 at 10.0.0.%2").arg(i % 3).arg(i);
        if (!insertRow(db,
                deadRow(QStringLiteral("D-%1").arg(i, 2, 10, QLatin1Char('0')),
                    types.at(i % types.size()), error, now)))
            return false;
    }
    const QStringList others = {u"schema rejected"_qs, u"consumer refused: alpha"_qs,
        u"consumer refused: bravo"_qs, u"HTTP 400 bad request"_qs};
    for (int i = 0; i < others.size(); ++i) {
        if (!insertRow(db,
                deadRow(
                    QStringLiteral("X-%1").arg(i), types.at(i % types.size()), others.at(i), now)))
            return false;
    }
    OutboxRow due;
    due.id = u"S-due"_qs;
    due.createdAt = now - 10 * Minute;
    due.nextAttemptAt = now - 10 * Minute;
    return insertRow(db, due);
}

QStringList shownIds(const EventListModel *model)
{
    QStringList ids;
    for (int row = 0; row < model->rowCount(); ++row)
        ids << model->eventIdAt(row);
    ids.sort();
    return ids;
}

QString currentPageOf(const MainWindow &window)
{
    return window.pages()->stack()->currentWidget()->objectName();
}

} // namespace

class TestDiagnosisPanel : public QObject
{
    Q_OBJECT

    QTemporaryDir m_settings; // Thresholds… saves the tiles' limits

private slots:
    void initTestCase()
    {
        QVERIFY(m_settings.isValid());
        QCoreApplication::setOrganizationName(u"OutboxHealthTest"_qs);
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settings.path());
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_settings.path());
    }
    void init() { QSettings().clear(); }

    void signaturePattern_data()
    {
        QTest::addColumn<QString>("message");
        QTest::addColumn<QString>("pattern");
        QTest::addRow("numbers and addresses")
            << u"HTTP 503 from inventory-7 at 10.0.0.8"_qs << u"http%from%inventory-%at%.%"_qs;
        QTest::addRow("quoted value and uuid")
            << u"order 'A-1' unknown: 123e4567-e89b-12d3-a456-426614174000"_qs
            << u"order%'%'%unknown:%"_qs;
        QTest::addRow("LIKE's own characters are literal")
            << u"100% of quota_used"_qs << u"%\\%%of%quota\\_used"_qs;
    }
    void signaturePattern()
    {
        QFETCH(QString, message);
        QFETCH(QString, pattern);
        QCOMPARE(EventFilter::signaturePattern(ErrorSignature::of(message)), pattern);
    }

    // The tiles and the Diagnosis page tell one story: an amber DEAD tile shows a warning
    // finding, a red one a critical finding, in the tile's own colour; raised limits
    // (Thresholds…) that make the tile normal leave no finding: "No findings: healthy".
    void deadTileAndDiagnosisAgree_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<int>("dead");
        QTest::addColumn<HealthTiles::Level>("level");
        for (const QString &engine : {u"sqlite"_qs, u"postgresql"_qs, u"mysql"_qs}) {
            const QByteArray name = engine.toLatin1();
            const char *e = name.constData();
            QTest::addRow("%s: 1 DEAD, amber", e) << engine << 1 << HealthTiles::Level::Amber;
            QTest::addRow("%s: 10 DEAD, red", e) << engine << 10 << HealthTiles::Level::Red;
        }
    }
    void deadTileAndDiagnosisAgree()
    {
        QFETCH(QString, engine);
        QFETCH(int, dead);
        QFETCH(HealthTiles::Level, level);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        QVERIFY(setup);
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        for (int i = 0; i < dead; ++i)
            QVERIFY(insertRow(setup->database(),
                deadRow(QStringLiteral("D-%1").arg(i), types.at(i % types.size()),
                    u"refused "_qs + QString(i + 1, u'x'), now)));
        MainWindow window(database->connect(), simulationOff());
        window.show();
        DiagnosisPage *panel = window.diagnosisPanel();
        QTRY_COMPARE_WITH_TIMEOUT(window.tiles()->level(HealthTiles::Tile::Dead), level, 15000);
        QTRY_COMPARE_WITH_TIMEOUT(panel->findingCodes(), QStringList {u"dead_events"_qs}, 15000);
        QCOMPARE(panel->stateText(), u"1 finding, worst first"_qs);
        const auto *card = panel->findChild<QWidget *>(u"finding_dead_events"_qs);
        QVERIFY(card);
        const bool red = level == HealthTiles::Level::Red;
        QCOMPARE(card->styleSheet(),
            ThemeColours::bannerStyleSheet(u"finding_dead_events"_qs,
                red ? ThemeColours::TileLevel::Red : ThemeColours::TileLevel::Amber));
        const auto *title = card->findChild<QLabel *>(u"findingTitle"_qs);
        QVERIFY(title);
        QVERIFY2(title->text().startsWith(red ? u"CRITICAL"_qs : u"WARNING"_qs),
            qPrintable(title->text()));
        QCOMPARE(window.diagnosisStatus()->fullText(), u"1 finding: DEAD events need an operator"_qs);

        // Thresholds…: DEAD amber from 50, red from 100: the tile turns normal, the finding goes.
        QAction *thresholds = nullptr;
        for (QAction *action : window.findChildren<QAction *>()) {
            if (action->text() == u"Thresholds…"_qs)
                thresholds = action;
        }
        QVERIFY(thresholds);
        bool edited = false;
        QTimer::singleShot(0, this, [&edited] {
            auto *dialog = qobject_cast<ThresholdsDialog *>(QApplication::activeModalWidget());
            if (!dialog)
                return;
            const QList<QSpinBox *> boxes = dialog->findChildren<QSpinBox *>();
            if (boxes.size() != 8) // amber and red of due, lease expired, DEAD, oldest pending
                return dialog->reject();
            boxes.at(5)->setValue(100); // red first: amber may not pass it
            boxes.at(4)->setValue(50);
            edited = dialog->thresholds().dead.amber == 50 && dialog->thresholds().dead.red == 100;
            dialog->accept();
        });
        thresholds->trigger();
        QVERIFY(edited);
        QTRY_COMPARE_WITH_TIMEOUT(
            window.tiles()->level(HealthTiles::Tile::Dead), HealthTiles::Level::Normal, 15000);
        QTRY_COMPARE_WITH_TIMEOUT(panel->findingCodes(), QStringList(), 15000);
        QCOMPARE(panel->stateText(), u"No findings: healthy"_qs);
    }

    // A window left open for hours shows the same cards while the findings stay: a count or a
    // summary that changes (every few snapshots in the live demo) is shown in the card that was
    // there, a finding that moves up keeps its card, and only a new finding gets a card and a
    // gone one loses its own. Cards made anew on every change made the demo's memory grow.
    void cardsAreReusedAcrossResults()
    {
        auto finding = [](const QString &code, Finding::Severity severity, qint64 count) {
            Finding result;
            result.code = code;
            result.severity = severity;
            result.count = count;
            result.summary = QStringLiteral("%1 affected").arg(count);
            result.action = u"Look at them."_qs;
            result.evidence = {{u"dead"_qs, count}};
            if (code == DiagnosisCode::DominantError)
                result.subject = u"HTTP 503 from inventory-# at #.#.#.#"_qs;
            return result;
        };
        DiagnosisPage panel;
        panel.show();
        DiagnosisResult result;
        result.findings = {finding(DiagnosisCode::DeadEvents, Finding::Severity::Warning, 10),
            finding(DiagnosisCode::DominantError, Finding::Severity::Warning, 8)};
        panel.setResult(result);
        const QList<FindingCard *> first = panel.cards();
        QCOMPARE(first.size(), 2);

        for (int round = 1; round <= 300; ++round) {
            result.findings[0].count = 10 + round;
            result.findings[0].summary = QStringLiteral("%1 affected").arg(10 + round);
            result.findings[0].evidence = {{u"dead"_qs, 10 + round}};
            panel.setResult(result);
        }
        QCOMPARE(panel.cards(), first); // the same widgets, not 300 pairs of new ones
        QCOMPARE(panel.findChildren<FindingCard *>().size(), 2);
        const auto *title = first.at(0)->findChild<QLabel *>(u"findingTitle"_qs);
        QCOMPARE(title->text(), u"WARNING · DEAD events need an operator · 310 events"_qs);
        const auto *summary = first.at(0)->findChild<QLabel *>(u"findingSummary"_qs);
        QCOMPARE(summary->text(), u"310 affected"_qs);
        QVERIFY2(summary->toolTip().contains(u"dead: 310"_qs), qPrintable(summary->toolTip()));

        // The dominant error turns critical and comes first: its card moves up, in red.
        const QString amber = first.at(1)->styleSheet();
        result.findings = {finding(DiagnosisCode::DominantError, Finding::Severity::Critical, 9),
            result.findings.at(0)};
        panel.setResult(result);
        QCOMPARE(panel.cards(), QList<FindingCard *>({first.at(1), first.at(0)}));
        QCOMPARE(panel.findingCodes(),
            QStringList({DiagnosisCode::DominantError, DiagnosisCode::DeadEvents}));
        QCOMPARE_NE(first.at(1)->styleSheet(), amber);
        QTRY_VERIFY(first.at(1)->y() < first.at(0)->y()); // on top, where the eye starts

        // "Show events" of a kept card still asks for its finding's events.
        QSignalSpy asked(&panel, &DiagnosisPage::filterRequested);
        auto *show = panel.findChild<QPushButton *>(u"showEvents_dominant_error"_qs);
        QVERIFY(show && show->isVisible());
        show->click();
        QCOMPARE(asked.size(), 1);
        QCOMPARE(asked.at(0).at(0).value<FindingFilter>().filter,
            FindingFilter::of(result.findings.at(0))->filter);

        // A gone finding loses its card; a new one gets one.
        result.findings = {result.findings.at(0),
            finding(DiagnosisCode::RelayStalled, Finding::Severity::Critical, 1)};
        panel.setResult(result);
        QCOMPARE(panel.findingCodes(),
            QStringList({DiagnosisCode::DominantError, DiagnosisCode::RelayStalled}));
        QCOMPARE(panel.cards().at(0), first.at(1));
        QTRY_COMPARE(panel.findChildren<FindingCard *>().size(), 2);
        QVERIFY(!panel.findChild<QWidget *>(u"finding_dead_events"_qs));
        result.findings.clear();
        panel.setResult(result);
        QCOMPARE(panel.stateText(), u"No findings: healthy"_qs);
        QCOMPARE(panel.findChildren<FindingCard *>().size(), 0);
    }

    void panelListsFindingsAndFilters_data()
    {
        TestDatabase::addEngineColumn(), TestDatabase::addEngineRows();
    }
    void panelListsFindingsAndFilters()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        QVERIFY(setup);
        QVERIFY(stalledWithDominantError(setup->database(), QDateTime::currentMSecsSinceEpoch()));
        MainWindow window(database->connect(), simulationOff());
        window.resize(1366, 768);
        window.show();
        DiagnosisPage *panel = window.diagnosisPanel();
        QVERIFY(panel);

        // Worst first: the stalled relay and the 16 DEAD events (critical, as the DEAD tile is
        // red), then the dominant error (warning).
        const QStringList expected
            = {u"relay_stalled"_qs, u"dead_events"_qs, u"dominant_error"_qs};
        QTRY_COMPARE_WITH_TIMEOUT(panel->findingCodes(), expected, 15000);
        QCOMPARE(panel->stateText(), u"3 findings, worst first"_qs);
        QCOMPARE(window.diagnosisStatus()->fullText(),
            u"3 findings: relay stalled, DEAD events need an operator, one error dominates DEAD"_qs);
        QVERIFY2(panel->checkedText().startsWith(u"Checked 11 rules"_qs),
            qPrintable(panel->checkedText()));
        const auto *card = panel->findChild<QWidget *>(u"finding_dominant_error"_qs);
        QVERIFY(card);
        QVERIFY(card->styleSheet().contains(u"background"_qs)); // the warning's colours
        QVERIFY(panel->findChild<QWidget *>(u"finding_relay_stalled"_qs)->styleSheet()
            != card->styleSheet()); // critical looks different
        // The advice in the window's words: its own controls, not outboxctl's command.
        const QString action = card->findChild<QLabel *>(u"findingAction"_qs)->text();
        QVERIFY2(
            action.endsWith(u"(Replay group\u2026 on the Errors page)."_qs), qPrintable(action));
        QVERIFY2(!action.contains(u"outboxctl"_qs), qPrintable(action));

        // The status line opens the Diagnosis tab.
        QCOMPARE_NE(currentPageOf(window), u"diagnosisPage"_qs);
        QTest::mouseClick(window.diagnosisStatus(), Qt::LeftButton);
        QCOMPARE(currentPageOf(window), u"diagnosisPage"_qs);
        QVERIFY(panel->isVisible());

        // "Show events" of the dominant error: exactly its 12 DEAD events, the others not.
        QTRY_VERIFY(window.eventModel()->rowCount() > 0);
        auto *show = panel->findChild<QPushButton *>(u"showEvents_dominant_error"_qs);
        QVERIFY(show);
        QTest::mouseClick(show, Qt::LeftButton);
        QStringList dominant;
        for (int i = 0; i < 12; ++i)
            dominant << QStringLiteral("D-%1").arg(i, 2, 10, QLatin1Char('0'));
        QTRY_COMPARE(shownIds(window.eventModel()), dominant);
        const QString filtered = window.findChild<ActiveFilterBar *>()->text();
        QVERIFY2(filtered.contains(u"State: DEAD"_qs) && filtered.contains(u"Error: HTTP <n>"_qs),
            qPrintable(filtered));

        // "Show events" of the stalled relay: the due event.
        QTest::mouseClick(
            panel->findChild<QPushButton *>(u"showEvents_relay_stalled"_qs), Qt::LeftButton);
        QTRY_COMPARE(shownIds(window.eventModel()), QStringList {u"S-due"_qs});
    }

    // At scale a diagnosis costs several snapshots: after snapshots it waits 300 times its
    // last cost (at most 0.2 s of database time a minute), at every snapshot when cheap.
    void diagnosisKeepsToItsBudget()
    {
        QCOMPARE(DiagnosisMonitor::spacingMs(0), 0);
        QCOMPARE(DiagnosisMonitor::spacingMs(5), 1500); // below a 2 s refresh: every snapshot
        QCOMPARE(DiagnosisMonitor::spacingMs(407), 122100); // 10M events: every 2 min
        for (const qint64 cost : {1, 50, 407, 2000})
            QVERIFY(cost * 60000 / DiagnosisMonitor::spacingMs(cost) <= 200);
    }

    void emptyOutboxIsHealthy_data()
    {
        TestDatabase::addEngineColumn(), TestDatabase::addEngineRows();
    }
    void emptyOutboxIsHealthy()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        QVERIFY(database->initialise());
        MainWindow window(database->connect(), simulationOff());
        QTRY_VERIFY_WITH_TIMEOUT(window.diagnosis()->hasResult(), 15000);
        QCOMPARE(window.diagnosisPanel()->findingCodes(), QStringList());
        QCOMPARE(window.diagnosisPanel()->stateText(), u"No findings: healthy"_qs);
        QCOMPARE(window.diagnosisStatus()->fullText(), u"No findings"_qs);
        QCOMPARE(window.diagnosis()->result().checked.size(), 11);
        // The diagnosis opened its connection on the health thread, not on a thread of its own
        // nor on the GUI thread.
        QCOMPARE(DbConnection::openCountOn(window.monitor()->workerThread()), 2);
    }

    void failedDiagnosisHeals_data()
    {
        TestDatabase::addEngineColumn(), TestDatabase::addEngineRows();
    }
    void failedDiagnosisHeals()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        QVERIFY(setup);
        QVERIFY(stalledWithDominantError(setup->database(), QDateTime::currentMSecsSinceEpoch()));
        HealthMonitor health(setup->url()); // paused: only the diagnosis's requests run
        OpenOptions options = HealthWorker::defaultOpenOptions();
        options.validateSchema = false;
        DiagnosisMonitor diagnosis(&health, setup->url(), options);
        QSignalSpy results(&diagnosis, &DiagnosisMonitor::resultChanged);
        QSignalSpy failures(&diagnosis, &DiagnosisMonitor::failed);

        diagnosis.request(QDateTime::currentMSecsSinceEpoch());
        QVERIFY(results.wait(10000));
        QCOMPARE(diagnosis.result().findings.size(), 3);
        // Its cost is its own budget: it spaces the diagnoses, not the snapshots.
        QCOMPARE(diagnosis.lastCostMs(), diagnosis.result().queryMs);
        QCOMPARE(health.lastCostMs(), 0);

        // The attempt history is gone (as a statement fails when the server went away): the
        // diagnosis fails, says why and keeps the last result.
        QSqlQuery alter(setup->database());
        QVERIFY2(alter.exec(u"ALTER TABLE delivery_attempt RENAME TO delivery_attempt_away"_qs),
            qPrintable(alter.lastError().text()));
        diagnosis.request(QDateTime::currentMSecsSinceEpoch());
        QVERIFY(failures.wait(10000));
        QVERIFY(!diagnosis.lastError().isEmpty());
        QCOMPARE(diagnosis.result().findings.size(), 3);

        // Back: the next request diagnoses again, on a fresh connection.
        QVERIFY(alter.exec(u"ALTER TABLE delivery_attempt_away RENAME TO delivery_attempt"_qs));
        diagnosis.request(QDateTime::currentMSecsSinceEpoch());
        QVERIFY(results.wait(10000));
        QCOMPARE(diagnosis.lastError(), QString());
        QCOMPARE(results.size(), 2);
    }

    void detailExplainsTheEvent_data()
    {
        TestDatabase::addEngineColumn(), TestDatabase::addEngineRows();
    }
    void detailExplainsTheEvent()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        QVERIFY(setup);
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        QVERIFY(insertRow(setup->database(),
            deadRow(u"E-dead"_qs, u"OrderPlaced"_qs, u"HTTP 400 bad request"_qs, now)));
        QVERIFY(insertRow(setup->database(),
            deadRow(u"E-dead-2"_qs, u"OrderPlaced"_qs, u"HTTP 400 bad request"_qs, now)));
        OutboxRow retry;
        retry.id = u"E-retry"_qs;
        retry.createdAt = now - Minute;
        retry.nextAttemptAt = now + 10 * Minute;
        retry.failures = 1;
        retry.category = u"TRANSIENT"_qs;
        retry.error = u"broker unavailable"_qs;
        QVERIFY(insertRow(setup->database(), retry));

        MainWindow window(database->connect(), simulationOff());
        window.show();
        DetailPane *pane = window.detailPane();
        QTRY_VERIFY(window.eventModel()->rowOfEvent(u"E-retry"_qs) >= 0);
        QVERIFY(window.selectEvent(u"E-dead"_qs));
        QTRY_VERIFY2(pane->explanationText().startsWith(u"DEAD: attempts 3 / limit unknown;"_qs),
            qPrintable(pane->explanationText()));
        QVERIFY2(pane->explanationText().contains(u"1 other DEAD event shares this error"_qs),
            qPrintable(pane->explanationText()));

        QVERIFY(window.selectEvent(u"E-retry"_qs));
        QTRY_VERIFY2(pane->explanationText().startsWith(
                         u"Scheduled: transient failure 1 (broker unavailable); due again at"_qs),
            qPrintable(pane->explanationText()));
        QVERIFY(pane->explanationText().contains(u"in 10 min"_qs)
            || pane->explanationText().contains(u"in 9 min"_qs));

        // The event changes (the relay parked it): the explanation follows with the detail.
        QSqlQuery park(setup->database());
        QVERIFY(park.exec(u"UPDATE delivery_outbox SET status = 'DEAD', failures = 3,"
                          " last_error = 'broker unavailable' WHERE event_id = 'E-retry'"_qs));
        pane->refresh();
        QTRY_VERIFY2(pane->explanationText().startsWith(u"DEAD: attempts 3 / limit unknown;"_qs),
            qPrintable(pane->explanationText()));
        QVERIFY(pane->summaryText().contains(u"DEAD"_qs));
    }
};

OUTBOX_TEST_MAIN(TestDiagnosisPanel, QApplication)
#include "tst_diagnosispanel.moc"
