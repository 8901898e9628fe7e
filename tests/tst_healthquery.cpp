// The health snapshot on SQLite and PostgreSQL: counts per derived state at their boundaries,
// the age and attempts histograms, error categories and throughput of an outbox with rows in
// known states; the JSON shape; the monitor that computes snapshots off the GUI thread; and
// the aggregate models the charts read.
#include "agehistogrammodel.h"
#include "attemptshistogrammodel.h"
#include "errorcategorymodel.h"
#include "healthgrade.h"
#include "healthmonitor.h"
#include "healthquery.h"
#include "outboxstore.h"
#include "testdatabase.h"
#include "testmain.h"
#include "throughputcache.h"
#include "throughputmodel.h"

#include <QAbstractItemModelTester>
#include <QSqlError>

namespace {

constexpr qint64 T = 100000000; // "now" of every snapshot below: ms since the epoch
constexpr qint64 FirstMinute = 96420000; // (T / 60000 - 59) * 60000: the throughput window's start

// A row written straight into delivery_outbox, for states and times the store would need
// many steps to reach.
struct Row
{
    QString id;
    QString status = u"PENDING"_qs;
    qint64 createdAt = T;
    qint64 nextAttemptAt = T;
    std::optional<qint64> leaseUntil; // set = claimed
    int failures = 0;
    QString category; // empty = NULL
};

bool insert(const QSqlDatabase &db, const Row &row)
{
    QSqlQuery query(db);
    query.prepare(
        u"INSERT INTO delivery_outbox (event_id, aggregate_type, aggregate_id, event_type,"
        " payload, status, failures, next_attempt_at, claim_token, lease_until, created_at,"
        " last_error_category) VALUES (:id, 'Order', :aggregate, 'StockReserved', '{}',"
        " :status, :failures, :due, :token, :lease, :created, :category)"_qs);
    query.bindValue(u":id"_qs, row.id);
    query.bindValue(u":aggregate"_qs, row.id);
    query.bindValue(u":status"_qs, row.status);
    query.bindValue(u":failures"_qs, row.failures);
    query.bindValue(u":due"_qs, row.nextAttemptAt);
    query.bindValue(u":token"_qs, row.leaseUntil ? QVariant(u"token-"_qs + row.id) : QVariant());
    query.bindValue(u":lease"_qs, row.leaseUntil ? QVariant(*row.leaseUntil) : QVariant());
    query.bindValue(u":created"_qs, row.createdAt);
    query.bindValue(u":category"_qs, row.category.isEmpty() ? QVariant() : QVariant(row.category));
    if (!query.exec())
        qWarning("insert %s: %s", qPrintable(row.id), qPrintable(query.lastError().text()));
    return query.numRowsAffected() == 1;
}

bool insertAttempt(const QSqlDatabase &db, const QString &eventId, int attemptNo, qint64 finishedAt,
    const QString &outcome)
{
    QSqlQuery query(db);
    query.prepare(
        u"INSERT INTO delivery_attempt (event_id, attempt_no, worker, claim_token, claimed_at,"
        " finished_at, outcome) VALUES (:id, :no, 'w', 'old-token', :claimed, :finished, :outcome)"_qs);
    query.bindValue(u":id"_qs, eventId);
    query.bindValue(u":no"_qs, attemptNo);
    query.bindValue(u":claimed"_qs, finishedAt - 10);
    query.bindValue(u":finished"_qs, finishedAt);
    query.bindValue(u":outcome"_qs, outcome);
    if (!query.exec())
        qWarning("insert attempt: %s", qPrintable(query.lastError().text()));
    return query.numRowsAffected() == 1;
}

NewEvent newEvent(const QString &id, qint64 createdAt)
{
    return {id, u"Order"_qs, id, u"StockReserved"_qs, u"{\"sku\":\"SKU-1\"}"_qs, createdAt};
}

// An outbox with every derived state, built partly through the store (claim, fail, ack write
// the attempts) and partly by INSERT. The expected values in the tests follow from here.
bool populate(const QSqlDatabase &db)
{
    OutboxStore store(db);
    store.setLeaseDuration(30000);
    RetryPolicy policy;
    QString error;
    if (!RetryPolicy::parse(u"fixed:5000"_qs, &policy, &error))
        return false;
    store.setRetryPolicy(policy);

    // Scheduled: failed once at T-3000, due again at T+2000. Age 5000.
    if (!store.insertEvent(newEvent(u"S-retry"_qs, T - 5000)))
        return false;
    const ClaimResult retry = store.claim(u"S-retry"_qs, u"w"_qs, T - 4000);
    if (!retry.ok || !store.fail(retry.claim, T - 3000, ErrorCategory::Transient, u"timeout"_qs).ok)
        return false;
    // Delivered at T-100000, exactly the start of a throughput minute.
    if (!store.insertEvent(newEvent(u"S-delivered"_qs, T - 200000)))
        return false;
    const ClaimResult delivered = store.claim(u"S-delivered"_qs, u"w"_qs, T - 120000);
    if (!delivered.ok || !store.ack(delivered.claim, T - 100000).ok)
        return false;
    // Parked DEAD by a permanent rejection at T-90000.
    if (!store.insertEvent(newEvent(u"S-permanent"_qs, T - 100000)))
        return false;
    const ClaimResult rejected = store.claim(u"S-permanent"_qs, u"w"_qs, T - 90000);
    if (!rejected.ok
        || !store.fail(rejected.claim, T - 90000, ErrorCategory::Permanent, u"bad"_qs).ok)
        return false;
    // In flight until T+30000; age exactly 1000.
    if (!store.insertEvent(newEvent(u"S-inflight"_qs, T - 1000))
        || !store.claim(u"S-inflight"_qs, u"w"_qs, T).ok)
        return false;
    // Lease until exactly T: expired. Two hours old.
    if (!store.insertEvent(newEvent(u"S-expired"_qs, T - 7200000))
        || !store.claim(u"S-expired"_qs, u"w"_qs, T - 30000).ok)
        return false;

    const QList<Row> rows = {
        {u"P-due"_qs, u"PENDING"_qs, T - 86400001, T - 1, {}, 2, u"TRANSIENT"_qs},
        {u"P-due-now"_qs, u"PENDING"_qs, T, T, {}, 0, {}},
        {u"D-throttled"_qs, u"DEAD"_qs, T - 1000000, T, {}, 5, u"THROTTLED"_qs},
        {u"D-transient"_qs, u"DEAD"_qs, T - 1000000, T, {}, 3, u"TRANSIENT"_qs},
        // A delivered row's old error category is not counted.
        {u"X-delivered"_qs, u"DELIVERED"_qs, T - 5000000, T, {}, 1, u"TRANSIENT"_qs},
    };
    for (const Row &row : rows) {
        if (!insert(db, row))
            return false;
    }
    return insertAttempt(
               db, u"X-delivered"_qs, 1, FirstMinute - 1, u"RETRY"_qs) // before the window
        && insertAttempt(db, u"X-delivered"_qs, 2, FirstMinute, u"DELIVERED"_qs) // first minute
        && insertAttempt(db, u"X-delivered"_qs, 3, T - 10, u"LEASE_EXPIRED"_qs) // neither
        && insertAttempt(db, u"X-delivered"_qs, 4, T, u"RETRY"_qs) // the current minute
        && insertAttempt(db, u"X-delivered"_qs, 5, T + 1, u"DEAD"_qs); // after now
}

QMap<QString, qint64> countsOf(const HealthSnapshot &snapshot)
{
    const HealthCounts &c = snapshot.counts;
    return {{u"due"_qs, c.due}, {u"scheduled"_qs, c.scheduled}, {u"in_flight"_qs, c.inFlight},
        {u"lease_expired"_qs, c.leaseExpired}, {u"delivered"_qs, c.delivered},
        {u"dead"_qs, c.dead}};
}

QList<qint64> ageCounts(const HealthSnapshot &snapshot)
{
    QList<qint64> counts;
    for (const AgeBucket &bucket : snapshot.ageHistogram)
        counts << bucket.count;
    return counts;
}

// "failures:pending/dead" per bucket.
QStringList attempts(const HealthSnapshot &snapshot)
{
    QStringList out;
    for (const FailuresBucket &bucket : snapshot.attemptsHistogram)
        out << QStringLiteral("%1:%2/%3").arg(bucket.failures).arg(bucket.pending).arg(bucket.dead);
    return out;
}

QStringList categories(const HealthSnapshot &snapshot)
{
    QStringList out;
    for (const CategoryCount &category : snapshot.errorCategories)
        out << QStringLiteral("%1=%2").arg(category.category).arg(category.count);
    return out;
}

// "index:delivered/failed" for each minute with any attempt.
QStringList busyMinutes(const HealthSnapshot &snapshot)
{
    QStringList out;
    for (qsizetype i = 0; i < snapshot.throughput.size(); ++i) {
        const ThroughputMinute &minute = snapshot.throughput.at(i);
        if (minute.delivered || minute.failed)
            out << QStringLiteral("%1:%2/%3").arg(i).arg(minute.delivered).arg(minute.failed);
    }
    return out;
}

DatabaseUrl urlOf(const TestDatabase &database)
{
    QString error;
    return DatabaseUrl::parse(database.url(), &error);
}

} // namespace

Q_DECLARE_METATYPE(HealthThresholds)

class TestHealthQuery : public QObject
{
    Q_OBJECT

private slots:
    void derivedStateAtItsBoundary_data()
    {
        TestDatabase::addEngineColumn();
        QTest::addColumn<qint64>("nextAttemptAt");
        QTest::addColumn<qint64>("leaseUntil"); // 0 = not claimed
        QTest::addColumn<QString>("state");
        for (const QString &engine : {u"sqlite"_qs, u"postgresql"_qs, u"mysql"_qs}) {
            const QByteArray name = engine.toLatin1();
            const char *e = name.constData();
            QTest::addRow("%s: next_attempt_at == now is due", e)
                << engine << T << qint64(0) << u"due"_qs;
            QTest::addRow("%s: next_attempt_at before now is due", e)
                << engine << T - 1 << qint64(0) << u"due"_qs;
            QTest::addRow("%s: next_attempt_at after now is scheduled", e)
                << engine << T + 1 << qint64(0) << u"scheduled"_qs;
            QTest::addRow("%s: lease_until == now is lease expired", e)
                << engine << T - 100 << T << u"lease_expired"_qs;
            QTest::addRow("%s: lease_until before now is lease expired", e)
                << engine << T - 100 << T - 1 << u"lease_expired"_qs;
            QTest::addRow("%s: lease_until after now is in flight", e)
                << engine << T - 100 << T + 1 << u"in_flight"_qs;
        }
    }
    void derivedStateAtItsBoundary()
    {
        QFETCH(QString, engine);
        QFETCH(qint64, nextAttemptAt);
        QFETCH(qint64, leaseUntil);
        QFETCH(QString, state);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        Row row;
        row.id = u"E-1"_qs;
        row.nextAttemptAt = nextAttemptAt;
        if (leaseUntil)
            row.leaseUntil = leaseUntil;
        QVERIFY(insert(connection->database(), row));

        QString error;
        const auto snapshot = HealthQuery::compute(connection->database(), T, &error);
        QVERIFY2(snapshot, qPrintable(error));
        QMap<QString, qint64> expected = countsOf(HealthSnapshot {});
        expected[state] = 1;
        QCOMPARE(countsOf(*snapshot), expected);
    }

    void ageFallsInTheFirstBucketThatHoldsIt_data()
    {
        TestDatabase::addEngineColumn();
        QTest::addColumn<qint64>("age");
        QTest::addColumn<int>("bucket");
        for (const QString &engine : {u"sqlite"_qs, u"postgresql"_qs, u"mysql"_qs}) {
            const QByteArray name = engine.toLatin1();
            const char *e = name.constData();
            QTest::addRow("%s: age 0 is at most 1 s", e) << engine << qint64(0) << 0;
            QTest::addRow("%s: age exactly 1000 is at most 1 s", e) << engine << qint64(1000) << 0;
            QTest::addRow("%s: age 1001 is at most 10 s", e) << engine << qint64(1001) << 1;
            QTest::addRow("%s: age exactly 1 min", e) << engine << qint64(60000) << 2;
            QTest::addRow("%s: age just over 1 min", e) << engine << qint64(60001) << 3;
            QTest::addRow("%s: age exactly 1 d", e) << engine << qint64(86400000) << 5;
            QTest::addRow("%s: age over 1 d is beyond", e) << engine << qint64(86400001) << 6;
        }
    }
    void ageFallsInTheFirstBucketThatHoldsIt()
    {
        QFETCH(QString, engine);
        QFETCH(qint64, age);
        QFETCH(int, bucket);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        Row row;
        row.id = u"E-1"_qs;
        row.createdAt = T - age;
        QVERIFY(insert(connection->database(), row));

        QString error;
        const auto snapshot = HealthQuery::compute(connection->database(), T, &error);
        QVERIFY2(snapshot, qPrintable(error));
        QList<qint64> expected(7, 0);
        expected[bucket] = 1;
        QCOMPARE(ageCounts(*snapshot), expected);
        QCOMPARE(snapshot->oldestPendingAgeMs, std::optional<qint64>(age));
    }

    void snapshotOfAMixedOutbox_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void snapshotOfAMixedOutbox()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        QVERIFY(populate(connection->database()));

        QString error;
        const auto snapshot = HealthQuery::compute(connection->database(), T, &error);
        QVERIFY2(snapshot, qPrintable(error));
        QCOMPARE(snapshot->now, T);
        const QMap<QString, qint64> counts = {{u"due"_qs, 2}, {u"scheduled"_qs, 1},
            {u"in_flight"_qs, 1}, {u"lease_expired"_qs, 1}, {u"delivered"_qs, 2}, {u"dead"_qs, 3}};
        QCOMPARE(countsOf(*snapshot), counts);
        QVERIFY(snapshot->estimated.isEmpty());
        QCOMPARE(snapshot->oldestPendingAgeMs, std::optional<qint64>(86400001));
        // Ages 0 and 1000; 5000; two hours; over a day.
        QCOMPARE(ageCounts(*snapshot), QList<qint64>({2, 1, 0, 0, 0, 1, 1}));
        QCOMPARE(snapshot->ageHistogram.constLast().upperBoundMs, std::nullopt);
        // Nobody has failed four times: the gap is still a bucket.
        QCOMPARE(attempts(*snapshot),
            QStringList(
                {u"0:3/0"_qs, u"1:1/1"_qs, u"2:1/0"_qs, u"3:0/1"_qs, u"4:0/0"_qs, u"5:0/1"_qs}));
        QCOMPARE(categories(*snapshot),
            QStringList({u"TRANSIENT=3"_qs, u"PERMANENT=1"_qs, u"THROTTLED=1"_qs}));
    }

    // The fleet's summary reads the figures a fleet row and its grade show, the same as the
    // whole snapshot's (implausible times included), in two statements instead of the
    // snapshot's six or more.
    void summaryHasTheGradesFigures_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void summaryHasTheGradesFigures()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        QVERIFY(populate(connection->database()));
        Row before1970;
        before1970.id = u"P-1969"_qs;
        before1970.createdAt = -5;
        Row ahead;
        ahead.id = u"P-ahead"_qs;
        ahead.createdAt = T + HealthSnapshot::FutureToleranceMs + 1;
        QVERIFY(insert(connection->database(), before1970));
        QVERIFY(insert(connection->database(), ahead));

        QString error;
        QStringList fullTrace, summaryTrace;
        HealthQuery::Options options;
        options.trace = &fullTrace;
        const auto full = HealthQuery::compute(connection->database(), T, &error, options);
        QVERIFY2(full, qPrintable(error));
        options.trace = &summaryTrace;
        options.summaryOnly = true;
        const auto summary = HealthQuery::compute(connection->database(), T, &error, options);
        QVERIFY2(summary, qPrintable(error));

        QVERIFY(summary->isSummary && !full->isSummary);
        QCOMPARE(summary->counts.due, full->counts.due);
        QCOMPARE(summary->counts.due, 4);
        QCOMPARE(summary->counts.scheduled, full->counts.scheduled);
        QCOMPARE(summary->counts.inFlight, full->counts.inFlight);
        QCOMPARE(summary->counts.leaseExpired, full->counts.leaseExpired);
        QCOMPARE(summary->counts.dead, full->counts.dead);
        QCOMPARE(summary->counts.dead, 3);
        QCOMPARE(summary->oldestPendingAgeMs, full->oldestPendingAgeMs);
        QCOMPARE(summary->oldestPendingAgeMs, std::optional<qint64>(86400001));
        QCOMPARE(summary->implausible.createdBefore1970, 1);
        QCOMPARE(summary->implausible.createdInFuture, 1);
        QCOMPARE(summary->implausible.sentence(), full->implausible.sentence());
        const HealthGrade fullGrade = HealthGrade::of(*full),
                          summaryGrade = HealthGrade::of(*summary);
        QCOMPARE(summaryGrade.level, fullGrade.level);
        QCOMPARE(summaryGrade.figure, fullGrade.figure);
        // What it does not read stays empty.
        QCOMPARE(summary->counts.delivered, 0);
        QVERIFY(summary->throughput.isEmpty());
        QCOMPARE(summary->latency.count, 0);
        // The two statements (after the planner settings on PostgreSQL), against the whole
        // snapshot's.
        const int settings = engine == u"postgresql"_qs ? 1 : 0;
        QCOMPARE(summaryTrace.size(), settings + 2);
        QVERIFY2(fullTrace.size() >= settings + 6, qPrintable(fullTrace.join(u"\n"_qs)));
    }

    void throughputPerMinute_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void throughputPerMinute()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        QVERIFY(populate(connection->database()));

        QString error;
        const auto snapshot = HealthQuery::compute(connection->database(), T, &error);
        QVERIFY2(snapshot, qPrintable(error));
        QCOMPARE(snapshot->throughput.size(), 60);
        QCOMPARE(snapshot->throughput.constFirst().minuteStart, FirstMinute);
        QCOMPARE(snapshot->throughput.constLast().minuteStart, T - T % 60000);
        // Minute 0: X delivered at its start. Minute 58: S-delivered (at its start) and the
        // permanent rejection. Minute 59: S-retry's failure and X's retry at now. Attempts
        // before the window, after now, lease expiries and those in flight are left out.
        QCOMPARE(busyMinutes(*snapshot), QStringList({u"0:1/0"_qs, u"58:1/1"_qs, u"59:0/2"_qs}));
        QCOMPARE(snapshot->deliveredLastHour(), 2);
        QCOMPARE(snapshot->failedLastHour(), 3);
    }

    // A worker's snapshots read only the minutes its ThroughputCache does not hold: the same
    // figures as reading the whole hour; a late write into a settled minute shows at the next
    // full read (at most FullReadEveryMs later), one into the current minute at once.
    void throughputCache_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void throughputCache()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        QVERIFY(populate(db));

        ThroughputCache cache;
        QStringList trace;
        HealthQuery::Options options;
        options.throughputCache = &cache;
        options.trace = &trace;
        const auto readFrom = [&trace] {
            const QString sql = trace.filter(u"FROM delivery_attempt"_qs).constLast();
            const qsizetype at = sql.indexOf(u"finished_at >= "_qs) + 15;
            return sql.mid(at, sql.indexOf(QLatin1Char(' '), at) - at).toLongLong();
        };
        QString error;
        const auto first = HealthQuery::compute(db, T, &error, options);
        QVERIFY2(first, qPrintable(error));
        QCOMPARE(readFrom(), FirstMinute); // nothing cached yet: the whole hour
        QCOMPARE(busyMinutes(*first), QStringList({u"0:1/0"_qs, u"58:1/1"_qs, u"59:0/2"_qs}));

        // 10 s later: the minutes that ended 2 min before come from the cache.
        const qint64 later = T + 10000;
        const qint64 settledEnd = later - later % 60000 - ThroughputCache::SettleMs;
        QVERIFY(insertAttempt(db, u"X-delivered"_qs, 6, settledEnd - 30000, u"DELIVERED"_qs));
        QVERIFY(insertAttempt(db, u"X-delivered"_qs, 7, later - 1, u"DELIVERED"_qs));
        const auto second = HealthQuery::compute(db, later, &error, options);
        QVERIFY2(second, qPrintable(error));
        QCOMPARE(readFrom(), settledEnd);
        const auto uncached = HealthQuery::compute(db, later, &error);
        QVERIFY2(uncached, qPrintable(error));
        QCOMPARE(second->deliveredLastHour(), uncached->deliveredLastHour() - 1); // the late one
        QCOMPARE(second->throughput.constLast().delivered, 1); // the current minute's at once

        // A full read again once FullReadEveryMs has passed since the last one.
        const qint64 full = T + ThroughputCache::FullReadEveryMs;
        const auto third = HealthQuery::compute(db, full, &error, options);
        QVERIFY2(third, qPrintable(error));
        QCOMPARE(readFrom(), (full / 60000 - 59) * 60000);
        const auto reference = HealthQuery::compute(db, full, &error);
        QVERIFY2(reference, qPrintable(error));
        QCOMPARE(busyMinutes(*third), busyMinutes(*reference));
    }

    void emptyOutbox_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void emptyOutbox()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        QString error;
        const auto snapshot = HealthQuery::compute(connection->database(), 0, &error);
        QVERIFY2(snapshot, qPrintable(error));
        QCOMPARE(countsOf(*snapshot), countsOf(HealthSnapshot {}));
        QCOMPARE(snapshot->oldestPendingAgeMs, std::nullopt);
        QCOMPARE(ageCounts(*snapshot), QList<qint64>(7, 0));
        QVERIFY(snapshot->attemptsHistogram.isEmpty());
        QCOMPARE(categories(*snapshot), QStringList({u"TRANSIENT=0"_qs, u"PERMANENT=0"_qs}));
        QCOMPARE(snapshot->throughput.size(), 60);
        QCOMPARE(snapshot->throughput.constLast().minuteStart, 0);
    }

    void missingTableIsAnError()
    {
        FRESH_DATABASE(database, u"sqlite"_qs);
        const auto connection = database->initialise();
        QVERIFY(connection);
        QVERIFY(QSqlQuery(connection->database()).exec(u"DROP TABLE delivery_attempt"_qs));
        QString error;
        QVERIFY(!HealthQuery::compute(connection->database(), T, &error));
        QVERIFY2(error.contains(u"delivery_attempt"_qs), qPrintable(error));
    }

    void jsonKeepsTheContractOrder()
    {
        HealthSnapshot snapshot;
        snapshot.now = 5000;
        snapshot.counts = {1, 2, 3, 4, 5, 6};
        snapshot.estimated = {u"delivered"_qs};
        snapshot.oldestPendingAgeMs = 4500;
        snapshot.ageHistogram = {{1000, 7}, {std::nullopt, 8}};
        snapshot.attemptsHistogram = {{0, 2, 0}, {1, 0, 0}, {2, 1, 3}};
        snapshot.errorCategories
            = {{u"TRANSIENT"_qs, 1}, {u"PERMANENT"_qs, 0}, {u"odd \"one\""_qs, 2}};
        snapshot.throughput = {{0, 1, 2}};
        snapshot.latency = {3, 10, 20, 30};
        HealthThresholds thresholds;
        thresholds.maxDead = 5;
        thresholds.maxLeaseExpired = 4; // at the limit: healthy
        QCOMPARE(snapshot.toJson(thresholds),
            u"{\"now\":5000,\"counts\":{\"due\":1,\"scheduled\":2,\"in_flight\":3,\"lease_"
            u"expired\":4,"
            "\"delivered\":5,\"dead\":6},\"estimated\":[\"delivered\"],\"not_available\":[],"
            "\"oldest_pending_age_ms\":"
            "4500,"
            "\"age_histogram\":[{\"le_ms\":1000,\"count\":7},{\"le_ms\":null,\"count\":8}],"
            "\"attempts_histogram\":[{\"failures\":0,\"count\":2},{\"failures\":1,\"count\":0},"
            "{\"failures\":2,\"count\":4}],\"error_categories\":{\"TRANSIENT\":1,\"PERMANENT\":0,"
            "\"odd \\\"one\\\"\":2},\"throughput_per_minute\":[{\"minute_start\":0,\"delivered\":1,"
            "\"failed\":2}],\"delivery_latency_ms\":{\"p50\":10,\"p95\":20,\"p99\":30,"
            "\"count\":3},\"healthy\":false,\"violations\":[{\"threshold\":\"max_dead\","
            "\"limit\":5,"
            "\"value\":6}]}"_qs);
    }

    void thresholds_data()
    {
        QTest::addColumn<HealthThresholds>("thresholds");
        QTest::addColumn<QStringList>("violated");
        HealthThresholds none;
        QTest::addRow("no limits") << none << QStringList {};
        HealthThresholds atLimits;
        atLimits.maxOldestPendingMs = 90000;
        atLimits.maxDead = 2;
        atLimits.maxLeaseExpired = 1;
        QTest::addRow("values at their limits are healthy") << atLimits << QStringList {};
        HealthThresholds below = atLimits;
        below.maxOldestPendingMs = 89999;
        below.maxDead = 1;
        below.maxLeaseExpired = 0;
        QTest::addRow("one above each limit, in contract order")
            << below
            << QStringList {u"max_oldest_pending_ms:89999<90000"_qs, u"max_dead:1<2"_qs,
                   u"max_lease_expired:0<1"_qs};
    }
    void thresholds()
    {
        QFETCH(HealthThresholds, thresholds);
        QFETCH(QStringList, violated);
        HealthSnapshot snapshot;
        snapshot.oldestPendingAgeMs = 90000;
        snapshot.counts.dead = 2;
        snapshot.counts.leaseExpired = 1;
        QStringList found;
        for (const HealthViolation &v : thresholds.evaluate(snapshot))
            found << QStringLiteral("%1:%2<%3").arg(v.threshold).arg(v.limit).arg(v.value);
        QCOMPARE(found, violated);
    }

    void nothingPendingNeverViolatesTheAgeLimit()
    {
        HealthThresholds thresholds;
        thresholds.maxOldestPendingMs = 0;
        QVERIFY(thresholds.evaluate(HealthSnapshot {}).isEmpty());
    }

    void monitorDeliversSnapshotsAtTheClockTime_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void monitorDeliversSnapshotsAtTheClockTime()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        {
            const auto connection = database->initialise();
            QVERIFY(connection);
            QVERIFY(populate(connection->database()));
        }
        HealthMonitor monitor(urlOf(*database));
        monitor.setClock([] { return T; });
        QSignalSpy snapshots(&monitor, &HealthMonitor::snapshotChanged);
        QSignalSpy errors(&monitor, &HealthMonitor::errorOccurred);
        QVERIFY(monitor.isPaused());
        monitor.refreshNow();
        QTRY_COMPARE(snapshots.count(), 1);
        QVERIFY(errors.isEmpty());
        const auto snapshot = snapshots.constFirst().constFirst().value<HealthSnapshot>();
        QCOMPARE(snapshot.now, T);
        QCOMPARE(snapshot.counts.dead, 3);
        QCOMPARE(monitor.snapshot().counts.due, 2);
    }

    void monitorDropsAStaleResult()
    {
        FRESH_DATABASE(database, u"sqlite"_qs);
        QVERIFY(database->initialise());
        HealthMonitor monitor(urlOf(*database));
        qint64 clock = 1000;
        monitor.setClock([&clock] { return clock; });
        QSignalSpy snapshots(&monitor, &HealthMonitor::snapshotChanged);
        monitor.refreshNow(); // request 1, at 1000
        clock = 2000;
        monitor.refreshNow(); // request 2, at 2000
        QTRY_COMPARE(snapshots.count(), 2);
        QCOMPARE(monitor.snapshot().now, 2000);

        // Request 1's answer arriving late (say, from a slow query) must not replace request 2's.
        HealthSnapshot late;
        late.now = 1000;
        monitor.acceptSnapshot(1, late);
        monitor.acceptFailure(1, u"late failure"_qs);
        monitor.acceptSnapshot(99, late); // never asked for
        QCOMPARE(snapshots.count(), 2);
        QCOMPARE(monitor.snapshot().now, 2000);

        clock = 3000;
        monitor.refreshNow();
        QTRY_COMPARE(snapshots.count(), 3);
        QCOMPARE(monitor.snapshot().now, 3000);
    }

    void monitorRefreshesPeriodicallyUntilPaused()
    {
        FRESH_DATABASE(database, u"sqlite"_qs);
        QVERIFY(database->initialise());
        HealthMonitor monitor(urlOf(*database));
        QCOMPARE(monitor.interval(), 2000);
        monitor.setSlowed(true);
        QCOMPARE(monitor.effectiveInterval(), 10000);
        monitor.setSlowed(false);
        monitor.setInterval(10);
        QSignalSpy snapshots(&monitor, &HealthMonitor::snapshotChanged);
        monitor.resume();
        QVERIFY(!monitor.isPaused());
        QTRY_VERIFY_WITH_TIMEOUT(snapshots.count() >= 3, 20000); // adaptive: slower under ASan
        monitor.pause();
        QVERIFY(monitor.isPaused());
        QVERIFY(monitor.lastRequestId() >= 3);
    }

    void monitorReportsAnUnreadableDatabase()
    {
        QTemporaryDir dir;
        QString error;
        const DatabaseUrl url
            = DatabaseUrl::parse(u"sqlite:"_qs + dir.filePath(u"missing.sqlite"_qs), &error);
        HealthMonitor monitor(url);
        QSignalSpy errors(&monitor, &HealthMonitor::errorOccurred);
        monitor.refreshNow();
        QTRY_COMPARE(errors.count(), 1);
        QVERIFY2(errors.constFirst().constFirst().toString().contains(u"not found"_qs),
            qPrintable(errors.constFirst().constFirst().toString()));
        QVERIFY(!QFileInfo::exists(dir.filePath(u"missing.sqlite"_qs)));
    }

    void aggregateModels_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void aggregateModels()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        QVERIFY(populate(connection->database()));
        QString error;
        const auto snapshot = HealthQuery::compute(connection->database(), T, &error);
        QVERIFY2(snapshot, qPrintable(error));

        AgeHistogramModel ages;
        AttemptsHistogramModel attempts;
        ThroughputModel throughput;
        ErrorCategoryModel categories;
        const QAbstractItemModelTester::FailureReportingMode mode
            = QAbstractItemModelTester::FailureReportingMode::QtTest;
        QAbstractItemModelTester agesTester(&ages, mode);
        QAbstractItemModelTester attemptsTester(&attempts, mode);
        QAbstractItemModelTester throughputTester(&throughput, mode);
        QAbstractItemModelTester categoriesTester(&categories, mode);
        QCOMPARE(ages.rowCount(), 0);
        for (int round = 0; round < 2; ++round) { // a second snapshot replaces the first
            ages.setSnapshot(*snapshot);
            attempts.setSnapshot(*snapshot);
            throughput.setSnapshot(*snapshot);
            categories.setSnapshot(*snapshot);
        }

        QCOMPARE(ages.rowCount(), 7);
        QCOMPARE(ages.columnCount(), int(AgeHistogramModel::ColumnCount));
        QCOMPARE(ages.index(0, AgeHistogramModel::LabelColumn).data().toString(), u"<= 1 s"_qs);
        QCOMPARE(ages.index(0, AgeHistogramModel::CountColumn).data().toLongLong(), 2);
        QCOMPARE(ages.index(2, AgeHistogramModel::LabelColumn).data().toString(), u"<= 1 min"_qs);
        QCOMPARE(ages.index(6, AgeHistogramModel::LabelColumn).data().toString(), u"> 1 d"_qs);
        QCOMPARE(ages.index(6, AgeHistogramModel::CountColumn).data().toLongLong(), 1);
        QCOMPARE(ages.index(1, 0).data(AgeHistogramModel::UpperBoundRole).toLongLong(), 10000);
        QVERIFY(ages.index(6, 0).data(AgeHistogramModel::UpperBoundRole).isNull());

        QCOMPARE(attempts.rowCount(), 6);
        QCOMPARE(attempts.index(5, AttemptsHistogramModel::FailuresColumn).data().toInt(), 5);
        QCOMPARE(attempts.index(5, AttemptsHistogramModel::DeadColumn).data().toLongLong(), 1);
        QCOMPARE(attempts.index(0, AttemptsHistogramModel::PendingColumn).data().toLongLong(), 3);
        QCOMPARE(attempts.index(4, AttemptsHistogramModel::PendingColumn).data().toLongLong(), 0);

        QCOMPARE(throughput.rowCount(), 60);
        QCOMPARE(throughput.index(59, ThroughputModel::MinuteColumn).data().toInt(), 0);
        QCOMPARE(throughput.index(0, ThroughputModel::MinuteColumn).data().toInt(), -59);
        QCOMPARE(throughput.index(0, 0).data(ThroughputModel::MinuteStartRole).toLongLong(),
            FirstMinute);
        QCOMPARE(throughput.index(58, ThroughputModel::DeliveredColumn).data().toLongLong(), 1);
        QCOMPARE(throughput.index(59, ThroughputModel::FailedColumn).data().toLongLong(), 2);

        QCOMPARE(categories.rowCount(), 3);
        QCOMPARE(categories.index(2, ErrorCategoryModel::CategoryColumn).data().toString(),
            u"THROTTLED"_qs);
        QCOMPARE(categories.index(0, ErrorCategoryModel::CountColumn).data().toLongLong(), 3);
        QCOMPARE(categories.headerData(ErrorCategoryModel::CountColumn, Qt::Horizontal).toString(),
            u"Events"_qs);
    }
};

OUTBOX_TEST_MAIN(TestHealthQuery, QCoreApplication)
#include "tst_healthquery.moc"
