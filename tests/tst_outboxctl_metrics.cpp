// `outboxctl metrics` as an operator runs it, on SQLite and PostgreSQL: the Prometheus text
// exposition of a known outbox (every family with HELP and TYPE, the exact counts by state and
// error category, the delivery latency's quantiles, `promtool check metrics` clean), OpenMetrics,
// the textfile written atomically, bad input refused with nothing written, an unreachable server
// written as outbox_up 0 without its password, a state a profile's schema cannot tell left out
// rather than 0, and 1,000 made-up error categories counted as one `other` series.
#include "databaseurl.h"
#include "fixturescript.h"
#include "outboxctlrun.h"
#include "outboxrows.h"
#include "scratchfile.h"
#include "testdata.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>

namespace {

constexpr qint64 T = 1796115783000; // 2026-12-01 09:03:03 UTC
const QString Now = QString::number(T);

OutboxRow dead(const QString &id, const QString &category)
{
    OutboxRow row;
    row.id = id;
    row.status = u"DEAD"_qs;
    row.createdAt = T - 3600000;
    row.nextAttemptAt = T - 3000000;
    row.failures = 3;
    row.category = category;
    row.error = category == u"PERMANENT"_qs ? u"HTTP 400"_qs : u"timeout"_qs;
    return row;
}

// 12 DEAD (PERMANENT), 2 DEAD (TRANSIENT), one scheduled, one due for 2 minutes, 3 delivered.
bool populate(const QSqlDatabase &db)
{
    for (int i = 0; i < 14; ++i) {
        if (!insertRow(db,
                dead(u"D-"_qs + QString::number(i), i < 12 ? u"PERMANENT"_qs : u"TRANSIENT"_qs)))
            return false;
    }
    OutboxRow scheduled;
    scheduled.id = u"S-1"_qs;
    scheduled.createdAt = T - 5000;
    scheduled.nextAttemptAt = T + 60000;
    OutboxRow due;
    due.id = u"P-1"_qs;
    due.createdAt = T - 120000;
    due.nextAttemptAt = T - 120000;
    if (!insertRow(db, scheduled) || !insertRow(db, due))
        return false;
    for (int i = 0; i < 3; ++i) {
        OutboxRow delivered;
        delivered.id = u"OK-"_qs + QString::number(i);
        delivered.status = u"DELIVERED"_qs;
        delivered.createdAt = T - 10000;
        delivered.nextAttemptAt = T - 10000;
        delivered.deliveredAt = T - 9000;
        if (!insertRow(db, delivered))
            return false;
    }
    return true;
}

// "name{labels}" -> value, for every sample line.
QHash<QString, QString> samplesOf(const QStringList &lines)
{
    QHash<QString, QString> samples;
    for (const QString &line : lines) {
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        const qsizetype space = line.lastIndexOf(QLatin1Char(' '));
        samples.insert(line.left(space), line.mid(space + 1));
    }
    return samples;
}

// Every sample's family was announced with HELP and TYPE before it.
QString undeclared(const QStringList &lines)
{
    QSet<QString> help, type;
    for (const QString &line : lines) {
        if (line.startsWith(u"# HELP "_qs))
            help << line.section(QLatin1Char(' '), 2, 2);
        else if (line.startsWith(u"# TYPE "_qs))
            type << line.section(QLatin1Char(' '), 2, 2);
        else if (!line.isEmpty() && !line.startsWith(QLatin1Char('#'))) {
            QString family = line.left(line.indexOf(QLatin1Char('{')));
            for (const QString &suffix : {u"_bucket"_qs, u"_count"_qs, u"_gcount"_qs}) {
                if (!type.contains(family) && family.endsWith(suffix))
                    family.chop(suffix.size());
            }
            if (!help.contains(family) || !type.contains(family))
                return line;
        }
    }
    return {};
}

// `promtool check metrics` on the text: empty when clean, its complaint otherwise; null when
// promtool is missing.
std::optional<QString> promtoolComplaint(const QString &text)
{
    const QString promtool = QStandardPaths::findExecutable(u"promtool"_qs);
    if (promtool.isEmpty())
        return std::nullopt;
    QProcess process;
    process.start(promtool, {u"check"_qs, u"metrics"_qs});
    process.write(text.toUtf8());
    process.closeWriteChannel();
    if (!process.waitForFinished(60000))
        return u"promtool did not finish"_qs;
    const QString output
        = QString::fromUtf8(process.readAllStandardOutput() + process.readAllStandardError());
    return process.exitCode() == 0 ? QString() : output;
}

QString readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

// The text without the one line that differs between two runs (how long the snapshot took).
QString withoutDuration(const QString &text)
{
    QStringList lines = text.split(QLatin1Char('\n'));
    lines.removeIf([](const QString &line) {
        return line.startsWith(u"outbox_snapshot_duration_seconds{"_qs);
    });
    return lines.join(QLatin1Char('\n'));
}

} // namespace

class TestOutboxctlMetrics : public QObject
{
    Q_OBJECT

private slots:
    void metricsOfAKnownOutbox_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void metricsOfAKnownOutbox()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection && populate(connection->database()));
        const Run run = outboxctl({u"metrics"_qs, u"--db"_qs, database->url(), u"--now"_qs, Now,
            u"--outbox"_qs, u"shop \"eu\""_qs});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.err.isEmpty(), qPrintable(run.err.join(u"\n"_qs)));
        QCOMPARE(undeclared(run.out), QString());
        const QHash<QString, QString> s = samplesOf(run.out);
        const QString shop = u"outbox=\"shop \\\"eu\\\"\""_qs; // the quotes escaped
        const auto events = [&](const QString &state) {
            return s.value(u"outbox_events{"_qs + shop + u",state=\""_qs + state + u"\"}"_qs);
        };
        QCOMPARE(events(u"dead"_qs), u"14"_qs);
        QCOMPARE(events(u"due"_qs), u"1"_qs);
        QCOMPARE(events(u"scheduled"_qs), u"1"_qs);
        QCOMPARE(events(u"in_flight"_qs), u"0"_qs);
        QCOMPARE(events(u"lease_expired"_qs), u"0"_qs);
        QCOMPARE(events(u"delivered"_qs), u"3"_qs);
        QCOMPARE(events(u"resolved"_qs), u"0"_qs);
        QCOMPARE(s.value(u"outbox_events_estimated{"_qs + shop + u",state=\"dead\"}"_qs), u"0"_qs);
        QCOMPARE(s.value(u"outbox_up{"_qs + shop + u"}"_qs), u"1"_qs);
        QCOMPARE(s.value(u"outbox_oldest_pending_age_seconds{"_qs + shop + u"}"_qs), u"120"_qs);
        QCOMPARE(
            s.value(u"outbox_pending_age_seconds_bucket{"_qs + shop + u",le=\"10\"}"_qs), u"1"_qs);
        QCOMPARE(
            s.value(u"outbox_pending_age_seconds_bucket{"_qs + shop + u",le=\"600\"}"_qs), u"2"_qs);
        QCOMPARE(s.value(u"outbox_pending_age_seconds_bucket{"_qs + shop + u",le=\"+Inf\"}"_qs),
            u"2"_qs);
        QCOMPARE(s.value(u"outbox_pending_age_seconds_count{"_qs + shop + u"}"_qs), u"2"_qs);
        QCOMPARE(
            s.value(u"outbox_error_events{"_qs + shop + u",category=\"PERMANENT\"}"_qs), u"12"_qs);
        QCOMPARE(
            s.value(u"outbox_error_events{"_qs + shop + u",category=\"TRANSIENT\"}"_qs), u"2"_qs);
        // The three deliveries of the last hour each took 1 s from creation.
        for (const QString &quantile : {u"0.5"_qs, u"0.95"_qs, u"0.99"_qs})
            QCOMPARE(s.value(u"outbox_delivery_latency_seconds{"_qs + shop + u",quantile=\""_qs
                         + quantile + u"\"}"_qs),
                u"1"_qs);
        QCOMPARE(s.value(u"outbox_delivered_last_hour{"_qs + shop + u"}"_qs), u"3"_qs);
        QVERIFY(run.out.contains(u"# TYPE outbox_delivery_latency_seconds summary"_qs));
        QVERIFY(run.out.contains(u"# TYPE outbox_delivered_last_hour gauge"_qs));
        QVERIFY(s.contains(
            u"outbox_build_info{version=\""_qs + u"" OUTBOX_HEALTH_VERSION ""_qs + u"\"}"_qs));
        // The outbox, without its database unless asked for (--expose-db-url, below).
        QCOMPARE(s.value(u"outbox_info{"_qs + shop + u"}"_qs), u"1"_qs);
        QVERIFY(!run.out.join(u"\n"_qs).contains(u"db=\""_qs));
        // No event ID, aggregate or message ever becomes a label.
        QVERIFY(!run.out.join(u"\n"_qs).contains(u"HTTP 400"_qs));
        QVERIFY(!run.out.join(u"\n"_qs).contains(u"D-1"_qs));

        const std::optional<QString> complaint
            = promtoolComplaint(run.out.join(u"\n"_qs) + u"\n"_qs);
        if (!complaint) {
            if (qEnvironmentVariable("CI") == u"true"_qs)
                QFAIL("promtool is missing (scripts/bootstrap installs the prometheus package)");
            QSKIP("promtool is missing: run scripts/bootstrap");
        }
        QVERIFY2(complaint->isEmpty(), qPrintable(*complaint));
    }

    // Another writer of last_error_category storing 1,000 distinct values (quotes, a line feed,
    // an escape) cannot multiply Prometheus's series: the known categories, then `other`.
    void hostileCategoriesAreOther_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void hostileCategoriesAreOther()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection && populate(connection->database()));
        QVERIFY(insertHostileCategories(connection->database(), 1000, T));
        const Run run = outboxctl({u"metrics"_qs, u"--db"_qs, database->url(), u"--now"_qs, Now,
            u"--outbox"_qs, u"shop"_qs});
        QCOMPARE(run.exitCode, 0);
        QStringList series;
        for (const QString &line : run.out) {
            if (line.startsWith(u"outbox_error_events{"_qs))
                series << line;
        }
        QCOMPARE(series,
            QStringList({u"outbox_error_events{outbox=\"shop\",category=\"TRANSIENT\"} 2"_qs,
                u"outbox_error_events{outbox=\"shop\",category=\"PERMANENT\"} 12"_qs,
                u"outbox_error_events{outbox=\"shop\",category=\"other\"} 1000"_qs}));
        QVERIFY(!run.out.join(u"\n"_qs).contains(u"EVIL"_qs));
        QCOMPARE(samplesOf(run.out).value(u"outbox_events{outbox=\"shop\",state=\"dead\"}"_qs),
            u"1014"_qs);
    }

    void openMetrics()
    {
        FRESH_DATABASE(database, u"sqlite"_qs);
        const auto connection = database->initialise();
        QVERIFY(connection && populate(connection->database()));
        const Run run = outboxctl({u"metrics"_qs, u"--db"_qs, database->url(), u"--now"_qs, Now,
            u"--outbox"_qs, u"shop"_qs, u"--openmetrics"_qs});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out.constLast(), u"# EOF"_qs);
        QVERIFY(run.out.contains(u"# TYPE outbox_pending_age_seconds gaugehistogram"_qs));
        QVERIFY(run.out.contains(u"outbox_pending_age_seconds_gcount{outbox=\"shop\"} 2"_qs));
        QVERIFY(run.out.contains(u"outbox_events{outbox=\"shop\",state=\"dead\"} 14"_qs));
        QCOMPARE(undeclared(run.out), QString());
    }

    // The textfile collector never reads half a file: the text goes to a temporary file in the
    // same directory, renamed over the old one; nothing else is left there.
    void textfileWrittenAtomically()
    {
        FRESH_DATABASE(database, u"sqlite"_qs);
        const auto connection = database->initialise();
        QVERIFY(connection && populate(connection->database()));
        QTemporaryDir dir;
        const QString path = ScratchFile::write(dir, u"outbox.prom"_qs, "old\n");
        QVERIFY(!path.isEmpty());
        const QStringList metrics = {u"metrics"_qs, u"--db"_qs, database->url(), u"--now"_qs, Now,
            u"--outbox"_qs, u"shop"_qs};
        const Run written = outboxctl(metrics + QStringList {u"--textfile"_qs, path});
        QCOMPARE(written.exitCode, 0);
        QVERIFY(written.out.isEmpty());
        const Run printed = outboxctl(metrics);
        QCOMPARE(withoutDuration(readFile(path)),
            withoutDuration(printed.out.join(u"\n"_qs) + u"\n"_qs));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden),
            QStringList {u"outbox.prom"_qs});
    }

    void badInputWritesNothing_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        const QString db = u"sqlite:/nonexistent/never.sqlite"_qs;
        QTest::addRow("no --db") << QStringList {u"metrics"_qs} << u"--db"_qs;
        QTest::addRow("malformed URL")
            << QStringList {u"metrics"_qs, u"--db"_qs, u"oracle://x/y"_qs} << u"oracle"_qs;
        QTest::addRow("bad --now")
            << QStringList {u"metrics"_qs, u"--db"_qs, db, u"--now"_qs, u"soon"_qs} << u"--now"_qs;
        QTest::addRow("empty --outbox") << QStringList {u"metrics"_qs, u"--db"_qs, db,
            u"--outbox"_qs, u" "_qs} << u"--outbox"_qs;
        QTest::addRow("no such profile")
            << QStringList {u"metrics"_qs, u"--db"_qs, db, u"--profile"_qs, u"nonesuch"_qs}
            << u"nonesuch"_qs;
        QTest::addRow("unknown option")
            << QStringList {u"metrics"_qs, u"--db"_qs, db, u"--port"_qs, u"9"_qs} << u"port"_qs;
    }
    void badInputWritesNothing()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString path = ScratchFile::write(dir, u"outbox.prom"_qs, "old\n");
        QVERIFY(!path.isEmpty());
        const Run run = outboxctl(arguments + QStringList {u"--textfile"_qs, path});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.out.isEmpty());
        QCOMPARE(run.err.size(), 1);
        QVERIFY2(run.err.constFirst().contains(message), qPrintable(run.err.constFirst()));
        QCOMPARE(readFile(path), u"old\n"_qs);
        // A textfile in a directory that does not exist: refused before anything is read.
        const Run missing = outboxctl({u"metrics"_qs, u"--db"_qs, u"sqlite:/tmp/x.sqlite"_qs,
            u"--textfile"_qs, dir.filePath(u"no/such/dir/outbox.prom"_qs)});
        QCOMPARE(missing.exitCode, 2);
        QVERIFY(missing.err.constFirst().contains(u"no such directory"_qs));
    }

    // A server that does not answer is a fact to alert on: outbox_up 0 is written, the reason
    // (without the password) goes to stderr, exit 1.
    void unreachableServerIsUpZero()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"outbox.prom"_qs);
        const Run run = outboxctl(
            {u"metrics"_qs, u"--db"_qs, u"postgresql://op:hunter2@127.0.0.1:1/orders"_qs,
                u"--textfile"_qs, path, u"--expose-db-url"_qs});
        QCOMPARE(run.exitCode, 1);
        const QString text = readFile(path);
        QVERIFY2(text.contains(u"\noutbox_up{outbox=\"orders\"} 0\n"_qs), qPrintable(text));
        QVERIFY(!text.contains(u"outbox_events"_qs));
        // Where it is, for the alert's link to the dashboard (asked for): never the password.
        QVERIFY2(
            text.contains(
                u"\noutbox_info{outbox=\"orders\",db=\"postgresql://op@127.0.0.1:1/orders\"} 1\n"_qs),
            qPrintable(text));
        QCOMPARE(run.err.size(), 1);
        QVERIFY2(
            run.err.constFirst().contains(u"outbox_up 0"_qs), qPrintable(run.err.constFirst()));
        QVERIFY(!run.err.join(QString()).contains(u"hunter2"_qs));
        QVERIFY(!text.contains(u"hunter2"_qs));
    }

    // Spring Modulith's publication table has no DEAD state: no dead sample, never a 0.
    void profileLeavesOutWhatItCannotTell()
    {
        FRESH_DATABASE(database, u"postgresql"_qs);
        const auto connection = database->connect(false);
        QVERIFY(connection);
        QVERIFY(runSqlScript(
            connection->database(), TestData::path(u"fixtures/spring-modulith.sql"_qs)));
        const Run run = outboxctl({u"metrics"_qs, u"--db"_qs, database->url(), u"--profile"_qs,
            u"spring-modulith"_qs, u"--outbox"_qs, u"shop"_qs});
        QCOMPARE(run.exitCode, 0);
        const QString text = run.out.join(u"\n"_qs);
        QVERIFY2(text.contains(u"outbox_events{outbox=\"shop\",state=\"delivered\"}"_qs),
            qPrintable(text));
        QVERIFY2(!text.contains(u"state=\"dead\""_qs), qPrintable(text));
        QCOMPARE(undeclared(run.out), QString());
    }
};

OUTBOX_TEST_MAIN(TestOutboxctlMetrics, QCoreApplication)
#include "tst_outboxctl_metrics.moc"
