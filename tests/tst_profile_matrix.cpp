// Every read through every built-in profile on every engine it supports: for each row of one
// table (profile, engine, fixture, the fixture's counts) the fixture (tests/fixtures/, the
// library's published DDL with rows in every state) is loaded into a fresh database and
// `outboxctl check`, `explain`, `diagnose`, `errors`, `export`, `metrics` and `replay --dry-run`
// run through the profile (at once, as separate processes): exact counts where the command
// counts, no failure anywhere, and `check` without --profile detects the same schema. Then the
// window opens on it read-only and every page it has (overview, events, errors, diagnosis, audit,
// lifecycle) shows without a stale banner or a failed read. A built-in profile or engine missing
// from the table fails the test.
#include "csvtext.h"
#include "detailpane.h"
#include "diagnosispage.h"
#include "errorspage.h"
#include "eventlistmodel.h"
#include "fixturescript.h"
#include "healthmonitor.h"
#include "healthtiles.h"
#include "mainwindow.h"
#include "outboxctlrun.h"
#include "profileregistry.h"
#include "testdata.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>

namespace {

constexpr qint64 T = 1800000000000; // the fixtures' now: 2027-01-15 08:00:00 UTC
constexpr qint64 NA = -1; // a count the schema cannot tell: null in the JSON, n/a in the window

// due, scheduled, in_flight, lease_expired, delivered, dead, and resolved where the profile
// maps RESOLVED (a seventh count: check's "resolved", the metric, a row of the table)
using Counts = QList<qint64>;
const QStringList CountKeys = {
    u"due"_qs, u"scheduled"_qs, u"in_flight"_qs, u"lease_expired"_qs, u"delivered"_qs, u"dead"_qs};

struct Row
{
    QString profile;
    QStringList engines;
    Counts counts;
    QString event; // explained: a DEAD one where the schema has DEAD
    QString state; // explain's derived state for it
};

const QStringList All = {u"postgresql"_qs, u"mysql"_qs, u"sqlite"_qs};
const QStringList PgMy = {u"postgresql"_qs, u"mysql"_qs};
const QStringList Pg = {u"postgresql"_qs};

// The one table: the same rows in each engine's DDL give the same counts.
const QList<Row> &rows()
{
    static const QList<Row> table = {
        {u"native"_qs, All, {2, 1, 1, 1, 2, 2}, u"N-dead"_qs, u"DEAD"_qs},
        {u"pg-boss"_qs, Pg, {2, 2, 1, 1, 2, 3}, u"00000000-0000-4000-8000-000000000009"_qs,
            u"DEAD"_qs},
        {u"graphile-worker"_qs, Pg, {2, 2, 2, 1, NA, 2}, u"7"_qs, u"DEAD"_qs},
        {u"oban"_qs, All, {2, 2, 2, NA, 2, 1, 1}, u"9"_qs, u"DEAD"_qs},
        {u"solid-queue"_qs, All, {2, 2, 1, 1, 2, 2}, u"9"_qs, u"DEAD"_qs},
        {u"spring-modulith"_qs, PgMy, {3, 0, NA, NA, 2, NA},
            u"10000000-0000-4000-8000-000000000001"_qs, u"DELIVERED"_qs},
        {u"spring-modulith-2"_qs, PgMy, {2, 0, 2, NA, 3, 2},
            u"20000000-0000-4000-8000-000000000006"_qs, u"DEAD"_qs},
        {u"gruelbox"_qs, PgMy, {3, 2, NA, NA, 2, 1}, u"30000000-0000-4000-8000-000000000005"_qs,
            u"DEAD"_qs},
        {u"namastack"_qs, PgMy, {2, 1, NA, NA, 2, 2}, u"40000000-0000-4000-8000-000000000006"_qs,
            u"DEAD"_qs},
        {u"wolverine"_qs, PgMy, {4, 1, 2, NA, 2, 2}, u"50000000-0000-4000-8000-000000000009"_qs,
            u"DEAD"_qs},
        {u"masstransit"_qs, PgMy, {4, 1, NA, NA, NA, NA},
            u"60000000-0000-4000-8000-000000000004"_qs, u"SCHEDULED"_qs},
        // Debezium's outbox: every row still in the table is due (docs/profiles.md).
        {u"debezium"_qs, Pg, {3, 0, NA, NA, NA, NA}, u"70000000-0000-4000-8000-000000000001"_qs,
            u"DUE"_qs},
        // River: written from docs/profiles.md alone (issue 42); every river_job state.
        {u"river"_qs, Pg, {2, 2, 1, 1, 2, 2}, u"9"_qs, u"DEAD"_qs},
    };
    return table;
}

qint64 rowsIn(const Counts &counts)
{
    qint64 sum = 0;
    for (const qint64 count : counts)
        sum += std::max<qint64>(0, count);
    return sum;
}

QJsonObject jsonOf(const Run &run)
{
    return QJsonDocument::fromJson(run.out.join(u'\n').toUtf8()).object();
}

QString why(const Run &run)
{
    return QStringLiteral("exit %1: %2").arg(run.exitCode).arg((run.out + run.err).join(u'\n'));
}

// The value of `outbox_events{...state="STATE"} N`, or -1 when the line is missing.
qint64 metricOf(const Run &run, const QString &state)
{
    const QString label = QStringLiteral("state=\"%1\"").arg(state);
    for (const QString &line : run.out) {
        if (line.startsWith(u"outbox_events{"_qs) && line.contains(label))
            return line.section(u' ', -1).toLongLong();
    }
    return -1;
}

QStringList arguments(const QString &command, const QString &url, const QString &profile)
{
    return {command, u"--db"_qs, url, u"--profile"_qs, profile, u"--now"_qs, QString::number(T)};
}

} // namespace

class TestProfileMatrix : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo::exists(qEnvironmentVariable("OUTBOXCTL")),
            "OUTBOXCTL must name the binary (set by CTest)");
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settings.path());
    }

    // The table names every built-in profile on exactly the engines it supports.
    void tableCoversEveryBuiltInAndEngine()
    {
        QStringList expected, listed;
        for (const OutboxProfile &profile : ProfileRegistry::builtIns()) {
            for (const OutboxProfile::Engine engine : AllEngines) {
                if (profile.supports(engine))
                    expected << profile.name() + u'/' + OutboxProfile::engineName(engine);
            }
        }
        for (const Row &row : rows()) {
            for (const QString &engine : row.engines)
                listed << row.profile + u'/' + engine;
        }
        expected.sort();
        listed.sort();
        QCOMPARE(listed, expected);
    }

    void everyReadThroughTheProfile_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<QString>("profile");
        QTest::addColumn<Counts>("counts");
        QTest::addColumn<QString>("event");
        QTest::addColumn<QString>("state");
        for (const Row &row : rows()) {
            for (const QString &engine : row.engines)
                QTest::addRow("%s, %s", qPrintable(row.profile), qPrintable(engine))
                    << engine << row.profile << row.counts << row.event << row.state;
        }
    }
    void everyReadThroughTheProfile()
    {
        QFETCH(QString, engine);
        QFETCH(QString, profile);
        QFETCH(Counts, counts);
        QFETCH(QString, event);
        QFETCH(QString, state);
        FRESH_DATABASE(database, engine);
        {
            auto writer
                = profile == u"native"_qs ? database->initialise() : database->connect(false);
            QVERIFY(writer);
            QVERIFY(runSqlScript(
                writer->database(), TestData::path(fixtureFor(profile, writer->database()))));
        }
        checkCommands(database->url(), profile, counts, event, state);
        if (QTest::currentTestFailed())
            return;
        checkWindow(*database, profile, counts);
    }

private:
    void checkCommands(const QString &url, const QString &profile, const Counts &counts,
        const QString &event, const QString &state)
    {
        const QList<Run> runs = outboxctlAll({
            arguments(u"check"_qs, url, profile) << u"--json"_qs << u"--no-default-thresholds"_qs,
            arguments(u"explain"_qs, url, profile) << u"--event"_qs << event << u"--json"_qs,
            arguments(u"diagnose"_qs, url, profile) << u"--json"_qs,
            arguments(u"errors"_qs, url, profile) << u"--json"_qs,
            arguments(u"export"_qs, url, profile),
            arguments(u"metrics"_qs, url, profile),
            arguments(u"replay"_qs, url, profile)
                << u"--all-dead"_qs << u"--dry-run"_qs << u"--json"_qs,
            // Without --profile the schema is detected: the same answer.
            QStringList {u"check"_qs, u"--db"_qs, url, u"--now"_qs, QString::number(T),
                u"--json"_qs, u"--no-default-thresholds"_qs},
        });
        const Run &check = runs.at(0), &explain = runs.at(1), &diagnose = runs.at(2);
        const Run &errors = runs.at(3), &exported = runs.at(4), &metrics = runs.at(5);
        const Run &replay = runs.at(6), &detected = runs.at(7);

        QVERIFY2(check.exitCode == 0, qPrintable(why(check)));
        const QJsonObject countsJson = jsonOf(check).value(u"counts"_qs).toObject();
        for (qsizetype i = 0; i < CountKeys.size(); ++i) {
            const QJsonValue value = countsJson.value(CountKeys.at(i));
            QCOMPARE(value, counts.at(i) == NA ? QJsonValue() : QJsonValue(counts.at(i)));
            if (counts.at(i) != NA)
                QCOMPARE(metricOf(metrics, CountKeys.at(i)), counts.at(i));
        }
        if (counts.size() > CountKeys.size()) {
            QCOMPARE(countsJson.value(u"resolved"_qs), QJsonValue(counts.last()));
            QCOMPARE(metricOf(metrics, u"resolved"_qs), counts.last());
        }
        QVERIFY2(metrics.exitCode == 0, qPrintable(why(metrics)));
        QCOMPARE(detected.out, check.out);

        QVERIFY2(explain.exitCode == 0, qPrintable(why(explain)));
        QCOMPARE(jsonOf(explain).value(u"event_id"_qs).toString(), event);
        QCOMPARE(jsonOf(explain).value(u"state"_qs).toString(), state);

        // diagnose exits 1 when a finding is an error; 2 only when it cannot diagnose.
        QVERIFY2(diagnose.exitCode == 0 || diagnose.exitCode == 1, qPrintable(why(diagnose)));
        QVERIFY2(jsonOf(diagnose).contains(u"findings"_qs), qPrintable(why(diagnose)));

        const OutboxProfile builtIn = *ProfileRegistry::byName(profile, nullptr);
        if (builtIn.isAvailable(OutboxProfile::Column::LastError)) {
            QVERIFY2(errors.exitCode == 0, qPrintable(why(errors)));
            QVERIFY(jsonOf(errors).value(u"groups"_qs).isArray());
        } else {
            QCOMPARE(errors.exitCode, 2);
            QVERIFY2(
                errors.err.join(u'\n').contains(u"has no last_error"_qs), qPrintable(why(errors)));
        }

        QVERIFY2(exported.exitCode == 0, qPrintable(why(exported)));
        QCOMPARE(
            parseCsv(exported.out.join(u'\n') + u'\n').size(), rowsIn(counts) + 1); // + the header

        checkReplayPlan(replay, builtIn, counts.at(5));
    }

    // A dry run plans the profile's replay of every DEAD event; a read-only profile says what to
    // run instead.
    void checkReplayPlan(const Run &replay, const OutboxProfile &profile, qint64 dead)
    {
        if (profile.replayKind() == OutboxProfile::ReplayKind::Unavailable) {
            QCOMPARE(replay.exitCode, 2);
            QVERIFY2(replay.err.join(u'\n').contains(profile.replayUnavailableReason().left(40)),
                qPrintable(why(replay)));
            return;
        }
        QVERIFY2(replay.exitCode == 0, qPrintable(why(replay)));
        const QJsonObject plan = jsonOf(replay);
        QCOMPARE(plan.value(u"dry_run"_qs).toBool(), true);
        QCOMPARE(plan.value(u"matching"_qs).toInteger(), dead);
    }

    void checkWindow(const TestDatabase &database, const QString &profile, const Counts &counts)
    {
        auto connection = database.connect(false);
        QVERIFY(connection);
        WindowOptions options;
        options.readOnly = true;
        options.profile = *ProfileRegistry::byName(profile, nullptr);
        MainWindow window(std::move(connection), options);
        window.monitor()->setClock([] { return T; });
        window.show();
        window.monitor()->refreshNow();
        QStringList expected;
        for (const qint64 count : counts.mid(0, CountKeys.size()))
            expected << (count == NA ? u"n/a"_qs : QString::number(count));
        QTRY_COMPARE(tileTexts(window), expected);
        for (const char *page : {"overview", "events", "errors", "diagnosis", "audit", "lifecycle"})
            checkPage(window, QString::fromLatin1(page), rowsIn(counts));
    }

    void checkPage(MainWindow &window, const QString &page, qint64 rows)
    {
        window.showPage(page);
        QCOMPARE(window.currentPage(), MainWindow::pageForName(page));
        if (page == u"events"_qs) {
            QTRY_COMPARE(window.eventModel()->rowCount(), int(rows));
            QVERIFY2(window.eventModel()->lastError().isEmpty(),
                qPrintable(window.eventModel()->lastError()));
            const QString first = window.eventModel()->eventIdAt(0);
            window.selectEvent(first);
            auto *summary = window.detailPane()->findChild<QLabel *>(u"eventSummary"_qs);
            QVERIFY(summary);
            QTRY_VERIFY2(summary->text().contains(first), qPrintable(summary->text()));
            QVERIFY2(window.detailPane()->statusText().isEmpty(),
                qPrintable(window.detailPane()->statusText()));
        }
        if (page == u"errors"_qs) {
            auto *errors = window.findChild<ErrorsPage *>();
            QVERIFY(errors);
            QTRY_VERIFY(!errors->isLoading() && !errors->statusText().contains(u"Loading"_qs));
            QVERIFY2(!errors->statusText().startsWith(u"Could not"_qs),
                qPrintable(errors->statusText()));
        }
        if (page == u"diagnosis"_qs) {
            QTRY_VERIFY(!window.diagnosisPanel()->stateText().startsWith(u"Waiting"_qs));
            QVERIFY2(window.diagnosisPanel()->failureText().isEmpty(),
                qPrintable(window.diagnosisPanel()->failureText()));
        }
        auto *stale = window.findChild<QWidget *>(u"staleBanner"_qs);
        QVERIFY(stale);
        QVERIFY2(!stale->isVisible(), qPrintable(page));
    }

    static QStringList tileTexts(const MainWindow &window)
    {
        using Tile = HealthTiles::Tile;
        QStringList texts;
        for (const Tile tile : {Tile::Due, Tile::Scheduled, Tile::InFlight, Tile::LeaseExpired,
                 Tile::Delivered, Tile::Dead})
            texts << window.tiles()->valueText(tile);
        return texts;
    }

    QTemporaryDir m_settings;
};

OUTBOX_TEST_MAIN(TestProfileMatrix, QApplication)
#include "tst_profile_matrix.moc"
