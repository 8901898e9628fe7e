// The teaching panel does what it says, as a learner meets it: picking a scenario moves no
// control; Start starts (the scenario plays and its clock moves); Play or Step at the end
// replays from t=0, told from its first sentence; in a scenario the tiles give an age in the
// units the event table uses; the outage storm shows herd and jitter side by side with their
// peaks. Both engines where a run writes to the database.
#include "cdclesson.h"
#include "cdclessonview.h"
#include "cdcpathdiagram.h"
#include "cdcslotpanel.h"
#include "eventlistmodel.h"
#include "healthtiles.h"
#include "lifecyclediagram.h"
#include "mainwindow.h"
#include "outagestorm.h"
#include "pagenavigator.h"
#include "scenario.h"
#include "stormchart.h"
#include "stormlesson.h"
#include "teachingsession.h"
#include "teachpage.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QAbstractScrollArea>
#include <QApplication>
#include <QChartView>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QPushButton>
#include <QScreen>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>

namespace {

struct Panel
{
    explicit Panel(const TestDatabase &database)
        : session(DatabaseUrl::parse(database.url(), nullptr))
        , panel(&session)
    {
        panel.setRowCount(0, false); // an empty outbox: Start does not ask
        panel.resize(1300, 300); // a laptop's dock
        panel.show();
        picker = panel.findChild<QComboBox *>(u"scenarioPicker"_qs);
        start = panel.findChild<QPushButton *>(u"startButton"_qs);
        play = panel.findChild<QPushButton *>(u"playButton"_qs);
        step = panel.findChild<QPushButton *>(u"stepButton"_qs);
    }
    void pick(const QString &name) { picker->setCurrentIndex(picker->findData(name)); }
    // Where the learner finds the button: its rectangle in the panel, once the layouts settled.
    QRect placeOf(QWidget *widget)
    {
        for (int i = 0; i < 4; ++i) // a layout's request may post its parent's
            QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        return QRect(widget->mapTo(&panel, QPoint()), widget->size());
    }
    QString firstLine() const { return panel.narrationText().section(u'\n', 0, 0); }

    TeachingSession session;
    TeachPage panel;
    QComboBox *picker = nullptr;
    QPushButton *start = nullptr;
    QPushButton *play = nullptr;
    QPushButton *step = nullptr;
};

QString summaryLine(const QString &scenario)
{
    return scenario + u": "_qs + Scenario::byName(scenario)->summary;
}

// The age the event table shows for `eventId`, or a null string while it is not listed.
QString tableAge(QTableView *view, const QString &eventId)
{
    const QAbstractItemModel *model = view->model();
    for (int row = 0; row < model->rowCount(); ++row) {
        if (model->index(row, EventListModel::EventIdColumn).data().toString() == eventId)
            return model->index(row, EventListModel::AgeColumn).data().toString();
    }
    return {};
}

// The lag the CDC pane shows, in bytes ("1.3 MiB (1,331,200 bytes)"); -1 while none is shown.
qint64 shownLag(const CdcLessonView *pane)
{
    const QString text = pane->findChild<QLabel *>(u"cdcLag"_qs)->text();
    bool ok = false;
    const qint64 bytes = QLocale().toLongLong(text.section(u'(', -1).section(u' ', 0, 0), &ok);
    return ok ? bytes : -1;
}

// The page's "Change data capture" tab, clicked as a learner does.
CdcLessonView *openCdcPane(TeachPage &page)
{
    auto *paths = page.findChild<QTabWidget *>(u"teachPaths"_qs);
    QTest::mouseClick(paths->tabBar(), Qt::LeftButton, {}, paths->tabBar()->tabRect(1).center());
    return qobject_cast<CdcLessonView *>(paths->currentWidget());
}

} // namespace

class TestTeachingControls : public QObject
{
    Q_OBJECT

private slots:
    void pickingAScenarioMovesNoControl()
    {
        FRESH_DATABASE(database, u"sqlite"_qs);
        QVERIFY(database->initialise());
        Panel p(*database);
        QVERIFY(QTest::qWaitForWindowExposed(&p.panel));
        const QRect start = p.placeOf(p.start), play = p.placeOf(p.play), step = p.placeOf(p.step);
        for (int i = 0; i < p.picker->count(); ++i) {
            for (int j : {i, 0}) { // from the live relay (knobs shown) and back
                p.picker->setCurrentIndex(j);
                const QString name = p.picker->itemText(j);
                QVERIFY2(p.placeOf(p.start) == start, qPrintable(name));
                QCOMPARE(p.placeOf(p.play), play);
                QCOMPARE(p.placeOf(p.step), step);
            }
        }

        // Nor does starting: the storm's chart appears beside them, a seed's claim above the
        // narration.
        p.session.setSpeed(50);
        p.pick(u"lost-ack"_qs);
        p.start->click();
        QTRY_VERIFY_WITH_TIMEOUT(!p.panel.claimText().isEmpty(), 20000);
        QCOMPARE(p.placeOf(p.start), start);
        p.pick(QString::fromLatin1(TeachingSession::StormName));
        p.start->click();
        QVERIFY(p.panel.stormChart()->isVisible());
        QCOMPARE(p.placeOf(p.start), start);
        QCOMPARE(p.placeOf(p.step), step);
    }

    void startPlaysTheScenario_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void startPlaysTheScenario()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        QVERIFY(database->initialise());
        Panel p(*database);
        p.session.setSpeed(20);
        p.pick(u"retry-schedule"_qs);
        p.start->click();
        QCOMPARE(p.session.mode(), TeachingSession::Mode::Scenario);
        QVERIFY(p.session.isPlaying());
        QCOMPARE(p.play->text(), u"Pause"_qs);
        QTRY_VERIFY(p.session.now() > 0); // its steps run without another click
        QTRY_VERIFY(p.panel.narrationText().contains(u"EVENT-1"_qs));
    }

    void stepAtTheEndReplaysFromZero_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void stepAtTheEndReplaysFromZero()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        QVERIFY(database->initialise());
        Panel p(*database);
        p.session.setSpeed(50);
        p.pick(u"lost-ack"_qs);
        p.start->click();
        QTRY_COMPARE(p.firstLine(), summaryLine(u"lost-ack"_qs));
        QTRY_VERIFY_WITH_TIMEOUT(!p.panel.claimText().isEmpty(), 20000);
        QTRY_VERIFY(p.panel.narrationText().contains(u"End of the scenario"_qs));
        QVERIFY(p.session.hasEnded());
        QVERIFY(p.session.now() > 0);
        QVERIFY(!p.session.isPlaying());
        const int endLines = int(p.panel.narrationText().count(u'\n')) + 1;

        p.step->click();
        QCOMPARE(p.session.now(), qint64(0)); // back at the start at once
        QVERIFY(p.panel.claimText().isEmpty());
        QTRY_COMPARE(p.firstLine(), summaryLine(u"lost-ack"_qs)); // told from its first sentence
        QVERIFY(!p.panel.narrationText().contains(u"End of the scenario"_qs));
        QVERIFY(!p.panel.narrationText().contains(u"Claim:"_qs));
        QVERIFY(int(p.panel.narrationText().count(u'\n')) + 1 < endLines);

        // The next Step is the scenario's first step again; Play runs it to the end once more.
        p.step->click();
        QTRY_VERIFY(p.panel.narrationText().contains(u"EVENT-42"_qs));
        p.play->click();
        QTRY_VERIFY_WITH_TIMEOUT(!p.panel.claimText().isEmpty(), 20000);
        QTRY_COMPARE(p.panel.narrationText().count(u"End of the scenario"_qs), 1);
        QCOMPARE(p.firstLine(), summaryLine(u"lost-ack"_qs));
    }

    void stepAtTheStormsEndReplaysIt()
    {
        FRESH_DATABASE(database, u"sqlite"_qs);
        QVERIFY(database->initialise());
        Panel p(*database);
        p.session.setSpeed(50);
        p.pick(QString::fromLatin1(TeachingSession::StormName));
        p.start->click();
        QTRY_VERIFY_WITH_TIMEOUT(p.session.hasEnded(), 30000);
        const QString first = p.firstLine();
        QVERIFY2(first.startsWith(u"outage-storm: "_qs), qPrintable(first));
        QVERIFY(p.panel.narrationText().contains(u"End of the storm"_qs));

        p.step->click();
        QCOMPARE(p.session.now(), qint64(0));
        QCOMPARE(p.panel.stormChart()->pointsOf(0).size(), 0); // no retry yet at t=0
        QTRY_COMPARE(p.firstLine(), first);
        QVERIFY(!p.panel.narrationText().contains(u"End of the storm"_qs));
    }

    // The learner reads the age of EVENT-1 on the tile and in the table: one unit, the
    // scenario's, never "ms" (at t=9 it has waited 9 units since it was created at t=0).
    void tilesUseTheScenariosUnit_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void tilesUseTheScenariosUnit()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        QVERIFY(database->initialise());
        MainWindow window(database->connect(), {});
        window.show();
        TeachPage *panel = window.teachPage();
        QVERIFY(panel);
        panel->setRowCount(0, false);
        auto *picker = panel->findChild<QComboBox *>(u"scenarioPicker"_qs);
        picker->setCurrentIndex(picker->findData(u"retry-schedule"_qs));
        panel->findChild<QPushButton *>(u"startButton"_qs)->click();
        window.session()->pause(); // stepped by hand from here
        auto *step = panel->findChild<QPushButton *>(u"stepButton"_qs);
        QCOMPARE(window.session()->now(), qint64(0));
        step->click(); // t=0: the first attempt's claim,
        step->click(); // its call,
        step->click(); // and its failure
        step->click(); // t=9: a claim one unit early, refused
        QTRY_COMPARE(window.session()->now(), qint64(9));

        const auto tile
            = [&] { return window.tiles()->valueText(HealthTiles::Tile::OldestPending); };
        QTRY_COMPARE(tile(), u"9 units"_qs);
        QTRY_COMPARE(tableAge(window.eventView(), u"EVENT-1"_qs), u"9 units"_qs);
        QVERIFY2(!window.tiles()->toolTipText(HealthTiles::Tile::OldestPending).contains(u" ms"_qs),
            qPrintable(window.tiles()->toolTipText(HealthTiles::Tile::OldestPending)));
    }

    // A Step is one transition, as the learner reads it on the tiles and the diagram: the claim
    // puts the event IN FLIGHT (1), the call keeps it there, the outcome moves it on.
    void aStepIsOneTransition_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void aStepIsOneTransition()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        QVERIFY(database->initialise());
        MainWindow window(database->connect(), {});
        window.show();
        window.showPage(TeachPage::Key);
        TeachPage *page = window.teachPage();
        page->setRowCount(0, false);
        auto *picker = page->findChild<QComboBox *>(u"scenarioPicker"_qs);
        picker->setCurrentIndex(picker->findData(u"scheduled-retry"_qs));
        QCOMPARE(picker->currentText(), Scenario::byName(u"scheduled-retry"_qs)->title);
        QCOMPARE(page->descriptionText(), Scenario::byName(u"scheduled-retry"_qs)->summary);
        page->findChild<QPushButton *>(u"startButton"_qs)->click();
        window.session()->pause(); // stepped by hand from here
        auto *step = page->findChild<QPushButton *>(u"stepButton"_qs);
        LifecycleDiagram *diagram = page->diagram();
        const auto tile = [&](HealthTiles::Tile t) { return window.tiles()->valueText(t); };
        using T = LifecycleDiagram::Transition;
        QTRY_COMPARE(tile(HealthTiles::Tile::Due), u"1"_qs);

        step->click(); // the claim
        QTRY_COMPARE(tile(HealthTiles::Tile::InFlight), u"1"_qs);
        QCOMPARE(tile(HealthTiles::Tile::Due), u"0"_qs);
        QTRY_COMPARE(diagram->transition(), T::Claim);
        QCOMPARE(diagram->transitionText(), u"claim (token + lease)"_qs);
        QTRY_COMPARE(diagram->counts().inFlight, 1);
        QVERIFY(page->narrationText().contains(u"claims EVENT-42"_qs));
        QVERIFY(!page->narrationText().contains(u"transport call"_qs));

        step->click(); // the call: still IN FLIGHT
        QTRY_COMPARE(diagram->transition(), T::Call);
        QVERIFY(page->narrationText().contains(u"transport call"_qs));
        QCOMPARE(tile(HealthTiles::Tile::InFlight), u"1"_qs);

        step->click(); // the outcome: the failure schedules a retry
        QTRY_COMPARE(diagram->transition(), T::Retry);
        QTRY_COMPARE(tile(HealthTiles::Tile::Scheduled), u"1"_qs);
        QCOMPARE(tile(HealthTiles::Tile::InFlight), u"0"_qs);
        QTRY_COMPARE(diagram->counts().scheduled, 1);

        for (int i = 0; i < 3; ++i)
            step->click(); // at its due time: claim, call, ack
        QTRY_COMPARE(diagram->transition(), T::Ack);
        QTRY_COMPARE(tile(HealthTiles::Tile::Delivered), u"1"_qs);
    }

    // The storm ran to its end on the worker; the tiles and the diagram count its events as the
    // narration tells them, not as the database ends.
    void theStormsCountsFollowItsClock()
    {
        FRESH_DATABASE(database, u"sqlite"_qs);
        QVERIFY(database->initialise());
        MainWindow window(database->connect(), {});
        window.show();
        window.showPage(TeachPage::Key);
        TeachPage *page = window.teachPage();
        page->setRowCount(0, false);
        QVERIFY(page->startByName(QString::fromLatin1(TeachingSession::StormName),
            OutageStorm::policies().at(0)));
        window.session()->pause();
        QTRY_VERIFY_WITH_TIMEOUT(window.session()->storm().has_value(), 30000);
        const auto tile = [&](HealthTiles::Tile t) { return window.tiles()->valueText(t); };
        for (int i = 0; i < 5; ++i) // to t=500: the outage still on
            window.session()->step();
        QCOMPARE(window.session()->now(), qint64(500));
        QTRY_VERIFY(page->narrationText().contains(u"t=100  Attempt 2: 200 events retry"_qs));
        QTRY_COMPARE(tile(HealthTiles::Tile::Delivered), u"0"_qs);
        // The storm's counts as told (all pending), not the empty counts before the first read.
        QTRY_COMPARE(page->diagram()->counts().pending(), qint64(OutageStorm::Events));
        QCOMPARE(page->diagram()->counts().delivered, 0);
        // The newest round told failed: a retry scheduled, as the narration says.
        QCOMPARE(page->diagram()->transition(), LifecycleDiagram::Transition::Retry);
        window.session()->setSpeed(50); // the learner's fastest pace: the same end, sooner
        window.session()->play();
        QTRY_VERIFY_WITH_TIMEOUT(window.session()->hasEnded(), 60000);
        const StormLesson &lesson = *window.session()->storm();
        QTRY_COMPARE(page->diagram()->counts().delivered, qint64(lesson.delivered()));
    }

    // On a laptop's screen the Teach page shows both storm curves whole, side by side, with the
    // diagram and the narration: nothing to scroll.
    void theStormFitsALaptop_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addRow("1366x768") << QSize(1366, 768);
        QTest::addRow("1920x1080") << QSize(1920, 1080);
    }
    void theStormFitsALaptop()
    {
        QFETCH(QSize, size);
        FRESH_DATABASE(database, u"sqlite"_qs);
        QVERIFY(database->initialise());
        MainWindow window(database->connect(), {});
        window.resize(size - QSize(16, 48)); // the screen less the frame, as resizeToScreen
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCOMPARE(window.size(), size - QSize(16, 48)); // nothing holds it wider or taller
        window.showPage(TeachPage::Key);
        TeachPage *page = window.teachPage();
        page->setRowCount(0, false);
        window.session()->setSpeed(50);
        QVERIFY(page->startByName(QString::fromLatin1(TeachingSession::StormName)));
        QTRY_VERIFY_WITH_TIMEOUT(window.session()->hasEnded(), 60000);
        QWidget *shown = window.pages()->page(TeachPage::Key);
        QCOMPARE(shown, static_cast<QWidget *>(page)); // not in a scroll area
        const QRect pageRect(page->mapToGlobal(QPoint()), page->size());
        const QList<QWidget *> parts = {page->stormChart()->view(0), page->stormChart()->view(1),
            page->diagram(), page->findChild<QWidget *>(u"narration"_qs)};
        for (QWidget *part : parts) {
            QVERIFY(part->isVisible());
            const QRect rect(part->mapToGlobal(QPoint()), part->size());
            QVERIFY2(pageRect.contains(rect), qPrintable(part->objectName()));
            // Nothing over it, nothing cut (a scroll area's view: its viewport).
            const auto *area = qobject_cast<QAbstractScrollArea *>(part);
            const QWidget *drawn = area ? area->viewport() : part;
            QVERIFY2(drawn->visibleRegion().boundingRect() == drawn->rect(),
                qPrintable(part->objectName()));
            QVERIFY2(rect.height() >= 100, qPrintable(part->objectName())); // six lines or more
        }
        const QRect a(parts.at(0)->mapToGlobal(QPoint()), parts.at(0)->size());
        const QRect b(parts.at(1)->mapToGlobal(QPoint()), parts.at(1)->size());
        QVERIFY(a.right() < b.left()); // side by side
        QCOMPARE(a.top(), b.top());
        QVERIFY(a.width() >= 280 && b.width() >= 280);
    }

    // Beside the polling relay, the change-data-capture path: stall the connector and the
    // shown lag grows with the service's inserts, the slot turns inactive; resume it and the lag
    // heals to 0.
    void aStalledConnectorsLagGrowsAndHeals()
    {
        FRESH_DATABASE(database, u"sqlite"_qs);
        QVERIFY(database->initialise());
        Panel p(*database);
        QVERIFY(QTest::qWaitForWindowExposed(&p.panel));
        CdcLessonView *cdc = openCdcPane(p.panel);
        QVERIFY(cdc);
        QCOMPARE(cdc, p.panel.cdcLesson());
        QVERIFY(cdc->isVisible());
        QVERIFY(!p.picker->isVisible()); // the polling pane is behind it
        QTRY_VERIFY(cdc->lesson()->isPlaying()); // shown, the lesson plays
        cdc->findChild<QDoubleSpinBox *>(u"cdcSpeed"_qs)->setValue(20);
        auto *connector = cdc->findChild<QPushButton *>(u"cdcConnectorButton"_qs);
        auto *active = cdc->findChild<QLabel *>(u"cdcActive"_qs);
        QTRY_VERIFY(cdc->lesson()->now() >= 2 * CdcLesson::StepMs);
        QCOMPARE(shownLag(cdc), 0);
        QCOMPARE(active->text(), u"yes"_qs);
        QCOMPARE(connector->text(), u"Stall connector"_qs);

        QSignalSpy told(cdc->lesson(), &CdcLesson::narrated);
        connector->click();
        QCOMPARE(connector->text(), u"Resume connector"_qs);
        QVERIFY(active->text().startsWith(u"no"_qs));
        QVERIFY(cdc->diagram()->stateText(CdcPathDiagram::Connector).contains(u"STALLED"_qs));
        QTRY_VERIFY(shownLag(cdc) > 0);
        const qint64 first = shownLag(cdc);
        QTRY_VERIFY(shownLag(cdc) > first); // it grows with every second of inserts
        QVERIFY(cdc->narrationText().contains(u"slot turns inactive"_qs));

        connector->click();
        QCOMPARE(connector->text(), u"Stall connector"_qs);
        QTRY_COMPARE(shownLag(cdc), 0);
        QCOMPARE(active->text(), u"yes"_qs);
        QVERIFY(cdc->narrationText().contains(u"caught up"_qs));
        QVERIFY(told.count() >= 2);
    }

    // Stepped past max_slot_wal_keep_size with the connector stalled, the slot is lost: the
    // pane says so, the narration names the events that never reach the broker, and Recreate
    // slot starts the connector again at the current position.
    void aLostSlotSaysWhatItCosts()
    {
        FRESH_DATABASE(database, u"sqlite"_qs);
        QVERIFY(database->initialise());
        Panel p(*database);
        CdcLessonView *cdc = openCdcPane(p.panel);
        auto *connector = cdc->findChild<QPushButton *>(u"cdcConnectorButton"_qs);
        auto *step = cdc->findChild<QPushButton *>(u"cdcStepButton"_qs);
        auto *status = cdc->findChild<QLabel *>(u"cdcWalStatus"_qs);
        cdc->findChild<QPushButton *>(u"cdcPlayButton"_qs)->click(); // Pause: Step by Step
        QVERIFY(!cdc->lesson()->isPlaying());
        connector->click();
        QStringList seen;
        for (int second = 0; second < 120 && connector->text() != u"Recreate slot"_qs; ++second) {
            step->click();
            if (seen.isEmpty() || seen.last() != status->text())
                seen << status->text();
        }
        QCOMPARE(seen, QStringList({u"reserved"_qs, u"extended"_qs, u"unreserved"_qs, u"lost"_qs}));
        QCOMPARE(cdc->slotPanel()->activeText(), u"no: the slot is lost"_qs);
        const QString behind = QLocale().toString(cdc->lesson()->relay().eventsBehind());
        QVERIFY(cdc->narrationText().contains(behind + u" events written since"_qs));
        QVERIFY(cdc->narrationText().contains(u"never reach the broker"_qs));

        connector->click();
        QCOMPARE(connector->text(), u"Stall connector"_qs);
        QCOMPARE(status->text(), u"reserved"_qs);
        QCOMPARE(shownLag(cdc), 0);
        QVERIFY(cdc->findChild<QLabel *>(u"cdcBehind"_qs)->text().contains(behind + u" lost"_qs));
    }

    // The CDC pane at a laptop's size: the path, what an operator reads, the explanation of the
    // picked step and the narration all whole, nothing over another.
    void theCdcLessonFitsALaptop_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addRow("1366x768") << QSize(1366, 768);
        QTest::addRow("1920x1080") << QSize(1920, 1080);
    }
    void theCdcLessonFitsALaptop()
    {
        QFETCH(QSize, size);
        FRESH_DATABASE(database, u"sqlite"_qs);
        QVERIFY(database->initialise());
        MainWindow window(database->connect(), {});
        window.resize(size - QSize(16, 48));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.showPage(TeachPage::Key);
        TeachPage *page = window.teachPage();
        QVERIFY(page->startByName(QString::fromLatin1(CdcLesson::Name)));
        CdcLessonView *cdc = page->cdcLesson();
        QVERIFY(cdc->isVisible());
        QVERIFY(!cdc->lesson()->relay().connectorRunning());
        const QRect pageRect(page->mapToGlobal(QPoint()), page->size());
        const QList<QWidget *> parts
            = {cdc->diagram(), cdc->slotPanel(), cdc->findChild<QWidget *>(u"cdcExplanation"_qs),
                cdc->findChild<QWidget *>(u"cdcNarration"_qs)};
        for (QWidget *part : parts) {
            QVERIFY2(part->isVisible(), qPrintable(part->objectName()));
            const QRect rect(part->mapToGlobal(QPoint()), part->size());
            QVERIFY2(pageRect.contains(rect), qPrintable(part->objectName()));
            QVERIFY2(part->visibleRegion().boundingRect() == part->rect(),
                qPrintable(part->objectName()));
            QVERIFY2(
                rect.height() >= part->minimumSizeHint().height(), qPrintable(part->objectName()));
        }
        QVERIFY(cdc->diagram()->height() >= cdc->diagram()->minimumSizeHint().height());
        QVERIFY(cdc->findChild<QWidget *>(u"cdcNarration"_qs)->height() >= 80); // four lines
    }

    void theStormShowsHerdAndJitterSideBySide()
    {
        FRESH_DATABASE(database, u"sqlite"_qs);
        QVERIFY(database->initialise());
        Panel p(*database);
        p.session.setSpeed(50);
        const QString exponential = OutageStorm::policies().at(0);
        const QString random = OutageStorm::policies().at(1);
        p.pick(QString::fromLatin1(TeachingSession::StormName));
        auto *policy = p.panel.findChild<QComboBox *>(u"stormPolicy"_qs);
        policy->setCurrentIndex(policy->findText(exponential));
        p.start->click();
        StormChart *chart = p.panel.stormChart();
        QTRY_VERIFY_WITH_TIMEOUT(p.session.hasEnded(), 30000);
        const StormLesson &lesson = *p.session.storm();
        const int herd = lesson.peakRetriesSameInstant();
        int jitter = 0;
        for (int retries : StormLesson::retriesPerInstant(lesson.comparisonAttempts))
            jitter = std::max(jitter, retries);
        QCOMPARE(herd, OutageStorm::Events); // every event in one instant
        QCOMPARE(jitter, lesson.comparisonPeak); // the comparison's own run, read back
        QVERIFY2(jitter < herd / 4, qPrintable(QString::number(jitter)));
        QCOMPARE(chart->seriesNames(),
            QStringList({u"A: exponential, peak %1 in one instant"_qs.arg(herd),
                u"B: exponential-random, peak %1 in one instant"_qs.arg(jitter)}));
        for (const auto &[label, name] : {std::pair {u"stormPeakA"_qs, chart->seriesNames().at(0)},
                 std::pair {u"stormPeakB"_qs, chart->seriesNames().at(1)}}) {
            auto *shown = chart->findChild<QLabel *>(label); // above the plot, in its colour
            QVERIFY(shown && shown->isVisible());
            QCOMPARE(shown->text(), u"■ "_qs + name);
        }
        QCOMPARE(chart->peakShown(), herd);
        QCOMPARE(chart->comparisonPeakShown(), jitter);
        // Both drawn: five spikes of the herd, the jitter's spread over many more instants.
        QCOMPARE(chart->pointsOf(0).size(), 5 * 3);
        QVERIFY(chart->pointsOf(1).size() > 20 * 3);
    }
};

OUTBOX_TEST_MAIN(TestTeachingControls, QApplication)
#include "tst_teachingcontrols.moc"
