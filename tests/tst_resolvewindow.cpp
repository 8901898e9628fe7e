// Resolving parked events from the window, as an operator would: the action closes the selected
// DEAD events without delivering them, once, recorded who and why; the Resolved tile, the state
// filter, the lifecycle diagram and the detail pane follow; read-only and a version 1 schema
// refuse and say why (what to run), changing nothing.
#include "detailpane.h"
#include "testdata.h"
#include "eventlistmodel.h"
#include "filterbar.h"
#include "fixturescript.h"
#include "healthtiles.h"
#include "mainwindow.h"
#include "parkedevents.h"
#include "resolveactions.h"
#include "resolvedialog.h"
#include "schema.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>

namespace {

qint64 count(const QSqlDatabase &db, const QString &sql)
{
    return scalar(db, sql).toLongLong();
}

qint64 statusCount(const QSqlDatabase &db, const QString &status)
{
    return count(db, u"SELECT COUNT(*) FROM delivery_outbox WHERE status = '%1'"_qs.arg(status));
}

ResolveRequest request(const QStringList &ids)
{
    ResolveRequest request;
    request.eventIds = ids;
    request.operatorName = u"alice"_qs;
    request.reason = u"order cancelled upstream"_qs;
    return request;
}

ResolveResult resolveAndWait(MainWindow &window, const ResolveRequest &request)
{
    QSignalSpy finished(window.resolveActions(), &ResolveActions::resolveFinished);
    window.resolveActions()->startResolve(request);
    if (!finished.wait(30000))
        return {{}, {}, u"no answer"_qs};
    return finished.at(0).at(0).value<ResolveResult>();
}

} // namespace

class TestResolveWindow : public QObject
{
    Q_OBJECT

private slots:
    void resolvesOnceAndTheWindowFollows_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void resolvesOnceAndTheWindowFollows()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        QVERIFY(setup && parkEvents(setup->database(), 3));
        MainWindow window(database->connect(), {});
        window.show();
        QTRY_COMPARE(window.eventModel()->rowCount(), 4);
        QAction *resolve = window.resolveActions()->resolveSelectedAction();
        QTRY_VERIFY(resolve->isEnabled()); // once the first snapshot told the schema's version
        QTRY_COMPARE(window.tiles()->valueText(HealthTiles::Tile::Resolved), u"0"_qs);
        QVERIFY(!window.findChild<QLabel *>(u"schemaNoteLabel"_qs)->isVisibleTo(&window));

        const ResolveResult first = resolveAndWait(window, request({u"P-0001"_qs, u"P-0000"_qs}));
        QVERIFY2(first.error.isEmpty(), qPrintable(first.error));
        QCOMPARE(first.resolved, QStringList {u"P-0001"_qs});
        QCOMPARE(first.skipped, QStringList {u"P-0000"_qs}); // DELIVERED: not touched
        QCOMPARE(statusCount(setup->database(), u"RESOLVED"_qs), 1);
        QCOMPARE(statusCount(setup->database(), u"DEAD"_qs), 2);
        QCOMPARE(count(setup->database(),
                     u"SELECT COUNT(*) FROM resolve_log WHERE event_id = 'P-0001' AND"
                     " operator = 'alice'"_qs),
            1);

        // The tiles follow: one resolved, out of the DEAD count.
        QTRY_COMPARE(window.tiles()->valueText(HealthTiles::Tile::Resolved), u"1"_qs);
        QCOMPARE(window.tiles()->valueText(HealthTiles::Tile::Dead), u"2"_qs);

        // A second operator resolving the same event is told it was skipped; nothing written.
        const ResolveResult second = resolveAndWait(window, request({u"P-0001"_qs}));
        QVERIFY(second.resolved.isEmpty());
        QCOMPARE(second.skipped, QStringList {u"P-0001"_qs});
        QCOMPARE(count(setup->database(), u"SELECT COUNT(*) FROM resolve_log"_qs), 1);

        // The detail says who closed it and why.
        QTRY_VERIFY(window.selectEvent(u"P-0001"_qs));
        QTRY_VERIFY2(window.detailPane()->summaryText().contains(u"Resolved by alice at "_qs),
            qPrintable(window.detailPane()->summaryText()));
        QVERIFY(window.detailPane()->summaryText().contains(u"order cancelled upstream"_qs));
        QVERIFY(window.detailPane()->summaryText().contains(u"RESOLVED"_qs));

        // The Resolved tile is a filter: only the resolved event is listed.
        QTest::mouseClick(window.tiles()->tileWidget(HealthTiles::Tile::Resolved), Qt::LeftButton);
        QTRY_COMPARE(window.eventModel()->rowCount(), 1);
        QCOMPARE(window.eventModel()->eventIdAt(0), u"P-0001"_qs);
        const auto *state = window.findChild<QComboBox *>(u"stateFilter"_qs);
        QCOMPARE(state->currentText(), u"Resolved"_qs);
    }

    void dialogNeedsReasonAndOperator()
    {
        ResolveDialog dialog({u"A"_qs, u"B"_qs}, 2);
        QVERIFY(!dialog.isComplete()); // no reason yet
        dialog.findChild<QLineEdit *>(u"resolveReason"_qs)->setText(u"duplicate order"_qs);
        QVERIFY(dialog.isComplete());
        QVERIFY(!dialog.operatorName().isEmpty()); // the OS user by default
        dialog.findChild<QLineEdit *>(u"resolveOperator"_qs)->setText(u"  "_qs);
        QVERIFY(!dialog.isComplete());
    }

    void readOnlyRefusesAndChangesNothing_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void readOnlyRefusesAndChangesNothing()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        QVERIFY(setup && parkEvents(setup->database(), 2));
        QString error;
        OpenOptions options;
        options.readOnly = true;
        WindowOptions windowOptions;
        windowOptions.readOnly = true;
        MainWindow window(
            DbConnection::open(DatabaseUrl::parse(database->url(), &error), options, &error),
            windowOptions);
        QTRY_COMPARE(window.tiles()->valueText(HealthTiles::Tile::Resolved), u"0"_qs);
        QAction *resolve = window.resolveActions()->resolveSelectedAction();
        QVERIFY(!resolve->isEnabled());
        QVERIFY2(resolve->toolTip().contains(u"Read-only"_qs), qPrintable(resolve->toolTip()));
        const ResolveResult result = resolveAndWait(window, request({u"P-0001"_qs}));
        QVERIFY(result.resolved.isEmpty());
        QVERIFY2(result.error.contains(u"read-only"_qs), qPrintable(result.error));
        QCOMPARE(statusCount(setup->database(), u"DEAD"_qs), 2);
        QCOMPARE(count(setup->database(), u"SELECT COUNT(*) FROM resolve_log"_qs), 0);
    }

    // A database made before RESOLVED existed: no Resolved figure, Resolve refused with what to
    // run, and the status bar says so; nothing is migrated behind the operator's back.
    void versionOneSchemaSaysWhatToRun_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void versionOneSchemaSaysWhatToRun()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        {
            const auto connection = database->connect(false);
            QVERIFY(connection);
            QVERIFY(runSqlScript(connection->database(),
                TestData::path(u"fixtures/schema-v1-%1.sql"_qs.arg(engine))));
            QVERIFY(runSqlScript(connection->database(), TestData::path("fixtures/native.sql")));
        }
        MainWindow window(database->connect(), {});
        window.show();
        const auto *note = window.findChild<QLabel *>(u"schemaNoteLabel"_qs);
        QTRY_VERIFY(note->isVisibleTo(&window));
        QVERIFY2(note->toolTip().contains(u"outboxctl migrate"_qs), qPrintable(note->toolTip()));
        QCOMPARE(window.tiles()->valueText(HealthTiles::Tile::Resolved), u"n/a"_qs);
        QVERIFY(window.tiles()->toolTipText(HealthTiles::Tile::Resolved).contains(u"migrate"_qs));
        QAction *resolve = window.resolveActions()->resolveSelectedAction();
        QVERIFY(!resolve->isEnabled());
        QVERIFY2(
            resolve->toolTip().contains(u"outboxctl migrate"_qs), qPrintable(resolve->toolTip()));

        const auto check = database->connect(false);
        const qint64 dead = statusCount(check->database(), u"DEAD"_qs);
        const ResolveResult result = resolveAndWait(window, request({u"N-dead"_qs}));
        QVERIFY(result.resolved.isEmpty());
        QVERIFY2(result.error.contains(u"outboxctl migrate"_qs), qPrintable(result.error));
        QCOMPARE(statusCount(check->database(), u"DEAD"_qs), dead);
        QCOMPARE(Schema::version(check->database(), nullptr), 1);
    }
};

OUTBOX_TEST_MAIN(TestResolveWindow, QApplication)
#include "tst_resolvewindow.moc"
