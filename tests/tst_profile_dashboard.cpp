// The dashboard window on another library's outbox (offscreen, PostgreSQL fixtures of
// tests/fixtures/): opened with a profile, the tiles show the fixture's counts and "n/a" for
// what the schema cannot tell, the table lists the fixture's rows with "n/a" in the columns the
// schema lacks, the attempt history, replay log and charts it cannot tell say so, and replay
// runs the profile's statement or is disabled with the profile's explanation. Also
// `outbox-dashboard --db URL --profile NAME` end to end, a profile that is a FIFO or a device
// refused without hanging, and the warning of a password in --db.
#include "attemptmodel.h"
#include "detailpane.h"
#include "eventlistmodel.h"
#include "filterbar.h"
#include "fixturescript.h"
#include "healthmonitor.h"
#include "healthtiles.h"
#include "hostilefile.h"
#include "mainwindow.h"
#include "notesaccess.h"
#include "operatoractions.h"
#include "overviewpage.h"
#include "profileregistry.h"
#include "reopenactions.h"
#include "replaydialog.h"
#include "replaylogmodel.h"
#include "resolveactions.h"
#include "testdata.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QLabel>
#include <QProcess>
#include <QRadioButton>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QUrl>

namespace {

constexpr qint64 T = 1800000000000; // the fixtures' now: 2027-01-15 08:00:00 UTC
constexpr qint64 NA = -1; // a count the schema cannot tell

// due, scheduled, in flight, lease expired, delivered, dead
using Counts = QList<qint64>;

OutboxProfile builtIn(const QString &name)
{
    QString error;
    const auto profile = ProfileRegistry::byName(name, &error);
    if (!profile)
        qFatal("%s", qPrintable(error));
    return *profile;
}

QStringList tileTexts(const HealthTiles *tiles)
{
    using Tile = HealthTiles::Tile;
    QStringList texts;
    for (const Tile tile : {Tile::Due, Tile::Scheduled, Tile::InFlight, Tile::LeaseExpired,
             Tile::Delivered, Tile::Dead})
        texts << tiles->valueText(tile);
    return texts;
}

// The six tiles' texts; a seventh count (RESOLVED, where the profile maps it) is the table's.
QStringList expectedTexts(const Counts &counts)
{
    QStringList texts;
    for (const qint64 count : counts.mid(0, 6))
        texts << (count == NA ? u"n/a"_qs : QString::number(count));
    return texts;
}

// A window on the fixture of `profile`, judged at the fixtures' now.
std::unique_ptr<MainWindow> openWindow(const TestDatabase &database, const QString &profile)
{
    auto connection = database.connect(false);
    if (!connection)
        return nullptr;
    // Each engine's fixture is the library's DDL for it (fixtures/<profile>[-mysql|-sqlite].sql).
    if (!runSqlScript(
            connection->database(), TestData::path(fixtureFor(profile, connection->database()))))
        return nullptr;
    WindowOptions options;
    options.profile = builtIn(profile);
    if (!options.profile->validate(connection->database()).isEmpty())
        return nullptr;
    auto window = std::make_unique<MainWindow>(std::move(connection), options);
    window->monitor()->setClock([] { return T; });
    window->show();
    window->monitor()->refreshNow();
    return window;
}

} // namespace

class TestProfileDashboard : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        // Tile thresholds and redaction keys from a settings file of our own.
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settings.path());
    }

    void windowOnAProfile_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<QString>("profile");
        QTest::addColumn<Counts>("counts");
        QTest::addColumn<QList<int>>("naColumns"); // EventListModel columns shown as n/a
        QTest::addColumn<bool>("canReplay");
        using M = EventListModel;
        // The same rows in the libraries' MySQL/MariaDB DDL show the same; pg-boss and
        // graphile-worker are PostgreSQL's alone.
        for (const char *engine : {"postgresql", "mysql"}) {
            const QString e = QString::fromLatin1(engine);
            QTest::addRow("gruelbox, %s", engine)
                << e << u"gruelbox"_qs << Counts {3, 2, NA, NA, 2, 1}
                << QList<int> {M::AgeColumn, M::ErrorCategoryColumn, M::LastErrorColumn} << true;
            QTest::addRow("namastack, %s", engine)
                << e << u"namastack"_qs << Counts {2, 1, NA, NA, 2, 2}
                << QList<int> {M::ErrorCategoryColumn} << true;
            if (e == u"postgresql"_qs) {
                QTest::addRow("pg-boss, %s", engine)
                    << e << u"pg-boss"_qs << Counts {2, 2, 1, 1, 2, 3}
                    << QList<int> {M::ErrorCategoryColumn} << true;
                // graphile-worker deletes what it completes: no DELIVERED.
                QTest::addRow("graphile-worker, %s", engine)
                    << e << u"graphile-worker"_qs << Counts {2, 2, 2, 1, NA, 2}
                    << QList<int> {M::ErrorCategoryColumn} << true;
            }
            QTest::addRow("oban, %s", engine)
                << e << u"oban"_qs << Counts {2, 2, 2, NA, 2, 1, 1}
                << QList<int> {M::AggregateColumn, M::ErrorCategoryColumn} << true;
            QTest::addRow("spring-modulith, %s", engine)
                << e << u"spring-modulith"_qs << Counts {3, 0, NA, NA, 2, NA}
                << QList<int> {M::FailuresColumn, M::ErrorCategoryColumn, M::LastErrorColumn}
                << false;
        }
        // Oban also runs on SQLite (its Lite engine).
        QTest::addRow("oban, sqlite")
            << u"sqlite"_qs << u"oban"_qs << Counts {2, 2, 2, NA, 2, 1, 1}
            << QList<int> {M::AggregateColumn, M::ErrorCategoryColumn} << true;
        // Solid Queue, on each engine; its retry takes two writes: read-only for replay.
        for (const char *engine : {"postgresql", "mysql", "sqlite"})
            QTest::addRow("solid-queue, %s", engine)
                << QString::fromLatin1(engine) << u"solid-queue"_qs << Counts {2, 2, 1, 1, 2, 2}
                << QList<int> {M::ErrorCategoryColumn} << false;
    }
    void windowOnAProfile()
    {
        QFETCH(QString, engine);
        QFETCH(QString, profile);
        QFETCH(Counts, counts);
        QFETCH(QList<int>, naColumns);
        QFETCH(bool, canReplay);
        FRESH_DATABASE(database, engine);
        const auto window = openWindow(*database, profile);
        QVERIFY(window);
        QAbstractItemModelTester tester(
            window->eventModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);

        QTRY_COMPARE(tileTexts(window->tiles()), expectedTexts(counts));
        const bool hasCreation = profile != u"gruelbox"_qs;
        QCOMPARE(window->tiles()->valueText(HealthTiles::Tile::OldestPending) == u"n/a"_qs,
            !hasCreation);

        // The table lists the fixture's rows, with n/a where the schema has no column.
        qint64 rows = 0;
        for (const qint64 count : std::as_const(counts))
            rows += std::max<qint64>(0, count);
        QTRY_COMPARE(window->eventModel()->rowCount(), int(rows));
        QVERIFY2(window->eventModel()->lastError().isEmpty(),
            qPrintable(window->eventModel()->lastError()));
        for (int column = 0; column < EventListModel::ColumnCount; ++column) {
            QCOMPARE(window->eventModel()->index(0, column).data().toString() == u"n/a"_qs,
                naColumns.contains(column));
            QCOMPARE(window->eventModel()->isColumnAvailable(column), !naColumns.contains(column));
        }

        // Selecting a row reads its summary through the profile; no attempt history here.
        const QString first = window->eventModel()->eventIdAt(0);
        window->selectEvent(first);
        auto *summary = window->detailPane()->findChild<QLabel *>(u"eventSummary"_qs);
        QVERIFY(summary);
        QTRY_VERIFY2(summary->text().contains(first), qPrintable(summary->text()));
        QVERIFY(!summary->text().contains(u"no longer in the outbox"_qs));
        auto *history = window->detailPane()->findChild<QLabel *>(u"historyNotAvailable"_qs);
        QVERIFY(history && history->isVisibleTo(window->detailPane()));
        QVERIFY(history->text().contains(QStringLiteral("not available for %1").arg(profile)));
        // The Audit page says where actions through the profile are audited (none here).
        auto *audit = window->findChild<QLabel *>(u"profileAuditWhere"_qs);
        QVERIFY(audit);
        QVERIFY2(audit->text().contains(u"none is configured: start the window with --notes-db"_qs),
            qPrintable(audit->text()));
        QTRY_VERIFY(window->findChild<QLabel *>(u"throughputChartNotAvailable"_qs));
        // The latency chart only where the table has no creation time (Gruelbox) or no
        // delivery time (graphile-worker).
        QCOMPARE(window->findChild<QLabel *>(u"latencyChartNotAvailable"_qs) != nullptr,
            profile == u"gruelbox"_qs || profile == u"graphile-worker"_qs);

        auto *profileLabel = window->findChild<QLabel *>(u"profileLabel"_qs);
        QVERIFY(profileLabel);
        QCOMPARE(profileLabel->text(), QStringLiteral("Profile: %1").arg(profile));

        // The CSV export reads the same rows through the profile.
        QTemporaryDir dir;
        const QString csv = dir.filePath(u"events.csv"_qs);
        QSignalSpy exported_(window->operatorActions(), &OperatorActions::exportFinished);
        QVERIFY(window->operatorActions()->startExportEvents(csv));
        QVERIFY(exported_.wait(20000));
        QVERIFY2(exported_.at(0).at(0).toBool(), qPrintable(exported_.at(0).at(3).toString()));
        QFile exported(csv);
        QVERIFY(exported.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(exported.readAll());
        QVERIFY(text.startsWith(u"event_id,event_type,"_qs));
        QVERIFY(text.contains(first));

        // Resolve and reopen: offered only through a profile that maps them (Oban's cancel),
        // not at all otherwise.
        const bool mapsResolve = profile == u"oban"_qs;
        QCOMPARE(window->resolveActions()->selectedAction()->isVisible(), mapsResolve);
        QCOMPARE(window->reopenActions()->selectedAction()->isVisible(), mapsResolve);

        // Replay: the profile's statement, or disabled with its explanation.
        OperatorActions *actions = window->operatorActions();
        QCOMPARE(actions->canReplay(), canReplay); // Replay selected… also needs a DEAD row
        QCOMPARE(actions->replayMatchingAction()->isEnabled(), canReplay);
        QCOMPARE(actions->exportAuditAction()->isEnabled(), false);
        auto *note = window->findChild<QLabel *>(u"replayNoteLabel"_qs);
        QCOMPARE(note != nullptr, !canReplay);
        if (!canReplay) {
            const QString advice = profile == u"solid-queue"_qs
                ? u"SolidQueue::Job.find(ID).retry"_qs
                : u"IncompleteEventPublications"_qs;
            QVERIFY2(actions->replaySelectedAction()->toolTip().contains(advice),
                qPrintable(actions->replaySelectedAction()->toolTip()));
            QCOMPARE(note->toolTip(), actions->replaySelectedAction()->toolTip());
            // The failures filter only where the schema counts failures.
            auto *failures = window->findChild<FilterBar *>()->findChild<QSpinBox *>();
            QVERIFY(failures);
            QCOMPARE(failures->isEnabled(), !naColumns.contains(EventListModel::FailuresColumn));
        }
    }

    // Through a profile that maps the attempts (Oban's errors array) the detail pane lists each
    // attempt with its error (the last one DEAD), the timeline has them, and only the replay log is
    // said to be missing; the failures chart's budget is the jobs' own max_attempts (3 and 20
    // here), and a profile without a limit says it is unknown, never a number guessed from the
    // failures.
    void detailListsAttemptsThroughAProfile_data()
    {
        QTest::addColumn<QString>("engine");
        for (const char *engine : {"postgresql", "mysql", "sqlite"})
            QTest::addRow("%s", engine) << QString::fromLatin1(engine);
    }
    void detailListsAttemptsThroughAProfile()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto window = openWindow(*database, u"oban"_qs);
        QVERIFY(window);
        QTRY_VERIFY(window->eventModel()->rowOfEvent(u"9"_qs) >= 0);
        QVERIFY(window->selectEvent(u"9"_qs));
        auto *view = window->detailPane()->findChild<QTableView *>(u"attemptView"_qs);
        QVERIFY(view && view->isVisibleTo(window->detailPane()));
        QAbstractItemModel *attempts = view->model();
        QTRY_COMPARE(attempts->rowCount(), 3);
        for (int row = 0; row < 3; ++row) {
            QCOMPARE(attempts->index(row, AttemptModel::AttemptColumn).data().toInt(), row + 1);
            QVERIFY(attempts->index(row, AttemptModel::ErrorColumn)
                        .data()
                        .toString()
                        .startsWith(u"** (RuntimeError) card declined"_qs));
            // The newest attempt of the discarded job is the one that parked it.
            QCOMPARE(attempts->index(row, AttemptModel::OutcomeColumn).data().toString(),
                row == 2 ? u"DEAD"_qs : u"RETRY"_qs);
        }
        auto *history = window->detailPane()->findChild<QLabel *>(u"historyNotAvailable"_qs);
        QVERIFY(history);
        QCOMPARE(history->text(),
            u"Replay log: not available for oban: the schema keeps no replay log."_qs);
        QTRY_COMPARE(window->charts()->attemptLimit().budget(), u"budget 3 to 20 per event"_qs);

        const auto namastack
            = engine == u"sqlite"_qs ? nullptr : openWindow(*database, u"namastack"_qs);
        if (namastack) {
            QTRY_VERIFY(namastack->eventModel()->rowCount() > 0);
            QCOMPARE(namastack->charts()->attemptLimit().budget(), u"limit unknown"_qs);
        }
    }

    void replayFromTheWindowRunsTheStatement_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addRow("postgresql") << u"postgresql"_qs;
        QTest::addRow("mysql") << u"mysql"_qs;
    }
    void replayFromTheWindowRunsTheStatement()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        // The team's audit store (issue 42): a native SQLite database of the tool's own.
        FRESH_DATABASE(store, u"sqlite"_qs);
        QVERIFY(store->initialise());
        QString error;
        const DatabaseUrl storeUrl = DatabaseUrl::parse(store->url(), &error);
        NotesAccess::setNotesDatabase(storeUrl);
        const auto forget = qScopeGuard([] { NotesAccess::setNotesDatabase({}); });
        const auto window = openWindow(*database, u"gruelbox"_qs);
        QVERIFY(window);
        QTRY_COMPARE(tileTexts(window->tiles()), expectedTexts({3, 2, NA, NA, 2, 1}));
        auto *where = window->findChild<QLabel *>(u"profileAuditWhere"_qs);
        QVERIFY(where);
        QVERIFY2(
            where->text().contains(u"audited in profile_audit in "_qs + storeUrl.toDisplayString()),
            qPrintable(where->text()));

        // The detail pane advises the profile's replay, never a budget reset.
        const QString failed = u"30000000-0000-4000-8000-000000000005"_qs;
        QTRY_VERIFY(window->selectEvent(failed)); // once the table's rows are read
        auto *explanation = window->detailPane()->findChild<QLabel *>(u"eventExplanation"_qs);
        QVERIFY(explanation);
        QTRY_VERIFY2_WITH_TIMEOUT(
            explanation->text().contains(
                u"Replay\u2026 releases it with the profile's replay statement"_qs),
            qPrintable(explanation->text()), 20000);
        QVERIFY(!explanation->text().contains(u"Reset"_qs));

        // Without an audit store the replay is refused before anything changes.
        QSignalSpy finished(window->operatorActions(), &OperatorActions::replayFinished);
        ReplayRequest request;
        request.eventIds = {failed};
        request.operatorName = u"ops"_qs;
        request.reason = u"endpoint fixed"_qs;
        NotesAccess::setNotesDatabase({});
        window->operatorActions()->startReplay(request);
        QVERIFY(finished.wait(30000));
        const auto refused = finished.constFirst().constFirst().value<ReplayResult>();
        QVERIFY2(refused.error.contains(u"none is configured: give --notes-db URL"_qs),
            qPrintable(refused.error));
        QVERIFY(refused.replayed.isEmpty());
        window->monitor()->refreshNow();
        QTRY_COMPARE(tileTexts(window->tiles()), expectedTexts({3, 2, NA, NA, 2, 1}));

        finished.clear();
        NotesAccess::setNotesDatabase(storeUrl);
        window->operatorActions()->startReplay(request);
        QVERIFY(finished.wait(30000));
        const auto result = finished.constFirst().constFirst().value<ReplayResult>();
        QCOMPARE(result.error, QString());
        QCOMPARE(result.replayed, QStringList {failed});
        // The replay refreshes the snapshot: nothing DEAD any more, one more due.
        QTRY_COMPARE(tileTexts(window->tiles()), expectedTexts({4, 2, NA, NA, 2, 0}));
        // The Audit page lists the store's record: who, why, which event.
        QTRY_COMPARE(window->replayLog()->rowCount(), 1);
        const auto cell = [&window](int column) {
            return window->replayLog()->index(0, column).data().toString();
        };
        QCOMPARE(cell(ReplayLogModel::EventColumn), failed);
        // Settled: a read while the replay ran may have shown "Replay (intended)".
        QTRY_COMPARE(cell(ReplayLogModel::ActionColumn), u"Replay"_qs);
        QCOMPARE(cell(ReplayLogModel::OperatorColumn), u"ops"_qs);
        QCOMPARE(cell(ReplayLogModel::ReasonColumn), u"endpoint fixed"_qs);

        // Bulk replay of what the filter matches goes through the source too: nothing left.
        finished.clear();
        EventFilter dead;
        dead.state = EventFilter::State::Dead;
        window->operatorActions()->startReplay(request, dead);
        QVERIFY(finished.wait(30000));
        const auto again = finished.constFirst().constFirst().value<ReplayResult>();
        QCOMPARE(again.error, QString());
        QVERIFY(again.replayed.isEmpty());
    }

    // Issue 42 item 5: through a profile that maps them (Oban: discarded -> cancelled and back),
    // Resolve and Reopen run the profile's statements, each audited in the store (the Audit
    // page lists them); without an audit store they are refused, saying how to give one, and
    // nothing changes. The tiles count RESOLVED apart from DEAD throughout.
    void resolveAndReopenFromTheWindow_data()
    {
        QTest::addColumn<QString>("engine");
        for (const char *engine : {"postgresql", "mysql", "sqlite"})
            QTest::addRow("%s", engine) << QString::fromLatin1(engine);
    }
    void resolveAndReopenFromTheWindow()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        FRESH_DATABASE(store, u"sqlite"_qs);
        QVERIFY(store->initialise());
        QString error;
        const DatabaseUrl storeUrl = DatabaseUrl::parse(store->url(), &error);
        NotesAccess::setNotesDatabase({});
        const auto forget = qScopeGuard([] { NotesAccess::setNotesDatabase({}); });
        const auto window = openWindow(*database, u"oban"_qs);
        QVERIFY(window);
        const auto resolved
            = [&window] { return window->tiles()->valueText(HealthTiles::Tile::Resolved); };
        QTRY_COMPARE(tileTexts(window->tiles()), expectedTexts({2, 2, 2, NA, 2, 1}));
        QTRY_COMPARE(resolved(), u"1"_qs);
        ResolveActions *resolve = window->resolveActions();
        QVERIFY(resolve->selectedAction()->isVisible());
        QVERIFY2(resolve->selectedAction()->toolTip().contains(u"none is configured"_qs),
            qPrintable(resolve->selectedAction()->toolTip()));

        QSignalSpy resolveDone(resolve, &ResolveActions::resolveFinished);
        OperatorRequest request;
        request.eventIds = {u"9"_qs};
        request.operatorName = u"ops"_qs;
        request.reason = u"never to be charged"_qs;
        resolve->start(request);
        QVERIFY(resolveDone.wait(30000));
        const auto refused = resolveDone.constFirst().constFirst().value<ResolveResult>();
        QVERIFY2(refused.error.contains(u"none is configured: give --notes-db URL"_qs),
            qPrintable(refused.error));
        QVERIFY(refused.done.isEmpty());
        window->monitor()->refreshNow();
        QTRY_COMPARE(tileTexts(window->tiles()), expectedTexts({2, 2, 2, NA, 2, 1}));

        resolveDone.clear();
        NotesAccess::setNotesDatabase(storeUrl);
        resolve->start(request);
        QVERIFY(resolveDone.wait(30000));
        const auto done = resolveDone.constFirst().constFirst().value<ResolveResult>();
        QCOMPARE(done.error, QString());
        QCOMPARE(done.done, QStringList {u"9"_qs});
        window->monitor()->refreshNow();
        QTRY_COMPARE(tileTexts(window->tiles()), expectedTexts({2, 2, 2, NA, 2, 0}));
        QTRY_COMPARE(resolved(), u"2"_qs);

        ReopenActions *reopen = window->reopenActions();
        QSignalSpy reopenDone(reopen, &ReopenActions::reopenFinished);
        request.eventIds = {u"10"_qs};
        reopen->start(request);
        QVERIFY(reopenDone.wait(30000));
        const auto reopened = reopenDone.constFirst().constFirst().value<ReopenResult>();
        QCOMPARE(reopened.error, QString());
        QCOMPARE(reopened.done, QStringList {u"10"_qs});
        window->monitor()->refreshNow();
        QTRY_COMPARE(tileTexts(window->tiles()), expectedTexts({2, 2, 2, NA, 2, 1}));
        QTRY_COMPARE(resolved(), u"1"_qs);

        // The Audit page lists both records, newest first.
        // Settled: a read while an action ran may have shown it "(intended)".
        const auto actions = [&window] {
            QStringList lines;
            const ReplayLogModel *log = window->replayLog();
            for (int row = 0; row < log->rowCount(); ++row)
                lines << log->index(row, ReplayLogModel::ActionColumn).data().toString() + u' '
                        + log->index(row, ReplayLogModel::EventColumn).data().toString();
            lines.sort();
            return lines;
        };
        QTRY_COMPARE(actions(), QStringList({u"Reopen 10"_qs, u"Resolve 9"_qs}));
    }

    // Another schema's replay dialog offers no budget choice and no spread window.
    void replayDialogForAStatement()
    {
        for (const bool statement : {false, true}) {
            ReplayDialog dialog({u"a"_qs}, 1);
            if (statement)
                dialog.setStatementReplay(u"gruelbox"_qs);
            dialog.show();
            const QList<QRadioButton *> budget = dialog.findChildren<QRadioButton *>();
            QCOMPARE(budget.size(), 2);
            for (const QRadioButton *radio : budget)
                QCOMPARE(radio->isVisible(), !statement);
            QCOMPARE(dialog.findChild<QSpinBox *>()->isVisible(), !statement);
            QCOMPARE(dialog.resetBudget(), false);
            QCOMPARE(dialog.spreadMs(), 0);
        }
        // The heading says where each replay is audited, or that it will be refused.
        const auto heading = [](const ReplayDialog &dialog) {
            QString text;
            for (const QLabel *label : dialog.findChildren<QLabel *>())
                text += label->text();
            return text;
        };
        ReplayDialog audited({u"a"_qs}, 1);
        audited.setStatementReplay(u"gruelbox"_qs, u"profile_audit in sqlite:/srv/a.db"_qs);
        QVERIFY(
            heading(audited).contains(u"Each is audited in profile_audit in sqlite:/srv/a.db."_qs));
        ReplayDialog unaudited({u"a"_qs}, 1);
        unaudited.setStatementReplay(u"gruelbox"_qs);
        QVERIFY(heading(unaudited).contains(u"No audit store is configured, so the replay will be "
                                            "refused: start the window with --notes-db URL"_qs));
    }

    // The binary as an operator starts it: a bad profile is one line and exit 2; a good one
    // opens the window (it takes a picture and quits).
    void dashboardBinaryTakesProfile()
    {
        const QString binary = qEnvironmentVariable("OUTBOX_DASHBOARD");
        QVERIFY2(QFileInfo::exists(binary), "OUTBOX_DASHBOARD must name the binary (set by CTest)");
        FRESH_DATABASE(database, u"postgresql"_qs);
        {
            const auto connection = database->connect(false);
            QVERIFY(connection);
            QVERIFY(runSqlScript(connection->database(), TestData::path("fixtures/namastack.sql")));
        }
        QTemporaryDir dir;
        const QString picture = dir.filePath(u"window.png"_qs);
        const auto run = [&](const QStringList &arguments, QString *err) {
            QProcess process;
            QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
            environment.insert(u"QT_QPA_PLATFORM"_qs, u"offscreen"_qs);
            environment.insert(u"XDG_CONFIG_HOME"_qs, dir.path());
            process.setProcessEnvironment(environment);
            process.start(binary,
                QStringList {u"--db"_qs, database->url(), u"--screenshot"_qs, picture,
                    u"--screenshot-after-ms"_qs, u"0"_qs}
                    + arguments);
            if (!process.waitForFinished(60000))
                return -1;
            // The last line: Qt may warn first (e.g. about XDG_RUNTIME_DIR).
            *err = QString::fromUtf8(process.readAllStandardError()).trimmed().section(u'\n', -1);
            return process.exitCode();
        };
        QString err;
        QCOMPARE(run({u"--profile"_qs, u"pg-boss"_qs}, &err), 2);
        QVERIFY2(err.startsWith(u"outbox-dashboard: pg-boss: field from ("_qs), qPrintable(err));
        QVERIFY(!QFileInfo::exists(picture));
        QCOMPARE(run({u"--profile"_qs, u"namastack"_qs}, &err), 0);
        QVERIFY(QFileInfo::exists(picture));
        QFile::remove(picture);
        QCOMPARE(run({}, &err), 0); // detected
        QVERIFY(QFileInfo::exists(picture));
    }

    // A profile path that is a FIFO without a writer or a device: the binary names it in one
    // line and ends (exit 2) instead of blocking on the open or reading forever (issue 26).
    void dashboardBinaryRefusesHostileProfileFiles_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("cause");
        QTest::addRow("FIFO") << u"fifo"_qs << u"is a FIFO, not a file"_qs;
        QTest::addRow("/dev/zero")
            << u"/dev/zero"_qs << u"not a profile: /dev/zero is a character device, not a file"_qs;
    }
    void dashboardBinaryRefusesHostileProfileFiles()
    {
        QFETCH(QString, kind);
        QFETCH(QString, cause);
        FRESH_DATABASE(database, u"sqlite"_qs);
        QVERIFY(database->initialise());
        QTemporaryDir dir;
        const QString profile = HostileFile::make(dir, kind);
        QVERIFY(!profile.isEmpty());
        const QString picture = dir.filePath(u"window.png"_qs);
        QString err;
        const int exitCode = runDashboard(
            {u"--db"_qs, database->url(), u"--profile"_qs, profile, u"--screenshot"_qs, picture},
            dir.path(), &err);
        QVERIFY2(exitCode != -1, "outbox-dashboard hung");
        QCOMPARE(exitCode, 2);
        const QString last = err.trimmed().section(u'\n', -1);
        QVERIFY2(
            last.startsWith(u"outbox-dashboard: "_qs) && last.contains(cause), qPrintable(err));
        QVERIFY(!QFileInfo::exists(picture));
    }

    // A password in --db is visible in ps while the window is open: the binary says so on
    // stderr (without the password) and opens the window all the same.
    void dashboardBinaryWarnsOfAPasswordInDb()
    {
        FRESH_DATABASE(database, u"postgresql"_qs);
        QVERIFY(database->initialise());
        QUrl withPassword(database->url());
        withPassword.setPassword(u"hunter2"_qs); // the test server trusts loopback: not asked for
        QTemporaryDir dir;
        const QString picture = dir.filePath(u"window.png"_qs);
        QString err;
        QCOMPARE(runDashboard({u"--db"_qs, withPassword.toString(), u"--screenshot"_qs, picture,
                                  u"--screenshot-after-ms"_qs, u"0"_qs},
                     dir.path(), &err),
            0);
        QVERIFY(QFileInfo::exists(picture));
        const QStringList warnings = err.split(u'\n').filter(u"outbox-dashboard: warning:"_qs);
        QCOMPARE(warnings.size(), 1);
        QVERIFY2(warnings.constFirst().startsWith(
                     u"outbox-dashboard: warning: a password in --db is visible to every user"_qs),
            qPrintable(err));
        QVERIFY(!err.contains(u"hunter2"_qs));

        // Without a password: no warning.
        QFile::remove(picture);
        QCOMPARE(runDashboard({u"--db"_qs, database->url(), u"--screenshot"_qs, picture,
                                  u"--screenshot-after-ms"_qs, u"0"_qs},
                     dir.path(), &err),
            0);
        QVERIFY2(!err.contains(u"warning: a password"_qs), qPrintable(err));
    }

private:
    // outbox-dashboard offscreen with its settings in `configDir`; its exit code (-1 when it
    // did not end within 60 s, then killed) and all it wrote on stderr.
    static int runDashboard(const QStringList &arguments, const QString &configDir, QString *err)
    {
        QProcess process;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(u"QT_QPA_PLATFORM"_qs, u"offscreen"_qs);
        environment.insert(u"XDG_CONFIG_HOME"_qs, configDir);
        process.setProcessEnvironment(environment);
        process.start(qEnvironmentVariable("OUTBOX_DASHBOARD"), arguments);
        if (!process.waitForFinished(60000)) {
            process.kill();
            process.waitForFinished();
            return -1;
        }
        *err = QString::fromUtf8(process.readAllStandardError());
        return process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    }

    QTemporaryDir m_settings;
};

OUTBOX_TEST_MAIN(TestProfileDashboard, QApplication)
#include "tst_profile_dashboard.moc"
