// The diagnosis engine on SQLite and PostgreSQL at a fixed `now`: each situation of the
// contract built from rows and asserted by its exact codes; a healthy outbox and an empty one
// produce none, and DEAD events as many as the DEAD tile's limits are a finding (dead_events);
// every code is listed as checked on the native schema. Also the error signatures, the error
// groups, one event explained (scheduled, in flight past its lease, DEAD) and the replay
// preview, which changes nothing.
#include "diagnosisquery.h"
#include "errorgroups.h"
#include "errorsignature.h"
#include "eventexplainer.h"
#include "healthgrade.h"
#include "outboxrows.h"
#include "replaypreview.h"
#include "testdatabase.h"
#include "testmain.h"

#include <functional>

namespace {

constexpr qint64 T = 1796115783000; // 2026-12-01 09:03:03 UTC: "now" of every test
constexpr qint64 Second = 1000;
constexpr qint64 Minute = 60 * Second;

using Builder = std::function<bool(const QSqlDatabase &)>;

OutboxRow due(const QString &id, qint64 dueAt)
{
    OutboxRow row;
    row.id = id;
    row.createdAt = dueAt;
    row.nextAttemptAt = dueAt;
    return row;
}

OutboxRow deadRow(const QString &id, const QString &type, const QString &error,
    const QString &category = u"TRANSIENT"_qs)
{
    OutboxRow row;
    row.id = id;
    row.status = u"DEAD"_qs;
    row.createdAt = T - 30 * Minute;
    row.nextAttemptAt = T - 20 * Minute;
    row.failures = 3;
    row.category = category;
    row.error = error;
    row.type = type;
    return row;
}

OutboxRow delivered(const QString &id, qint64 at)
{
    OutboxRow row;
    row.id = id;
    row.status = u"DELIVERED"_qs;
    row.createdAt = at - Second;
    row.nextAttemptAt = at - Second;
    row.deliveredAt = at;
    return row;
}

bool recentAttempt(const QSqlDatabase &db, const QString &id, qint64 finished,
    const QString &outcome = u"DELIVERED"_qs)
{
    return insertAttempt(db, {id, 1, u"relay-1"_qs, finished - 100, finished, outcome, {}});
}

const QStringList types = {u"OrderPlaced"_qs, u"StockReserved"_qs, u"PaymentCaptured"_qs,
    u"ShipmentDispatched"_qs, u"OrderCancelled"_qs};
// Distinct words: messages that stay distinct signatures (numbers would be normalised away).
const QStringList words
    = {u"alpha"_qs, u"bravo"_qs, u"charlie"_qs, u"delta"_qs, u"echo"_qs, u"foxtrot"_qs, u"golf"_qs,
        u"hotel"_qs, u"india"_qs, u"juliet"_qs, u"kilo"_qs, u"lima"_qs, u"mike"_qs, u"november"_qs,
        u"oscar"_qs, u"papa"_qs, u"quebec"_qs, u"romeo"_qs, u"sierra"_qs, u"tango"_qs};

// DEAD events spread over every type, each with its own error.
bool variedDead(const QSqlDatabase &db, int count, const QString &prefix = u"V"_qs)
{
    for (int i = 0; i < count; ++i) {
        if (!insertRow(db,
                deadRow(prefix + QString::number(i), types.at(i % types.size()),
                    u"consumer refused: "_qs + words.at(i % words.size()))))
            return false;
    }
    return true;
}

// Several states at once, none of them a problem: due a few seconds, in flight, scheduled
// retries, recent deliveries.
bool healthy(const QSqlDatabase &db)
{
    OutboxRow inFlight = due(u"H-flight"_qs, T - 2 * Second);
    inFlight.leaseUntil = T + 28 * Second;
    OutboxRow retry = due(u"H-retry"_qs, T + 10 * Second);
    retry.failures = 1;
    retry.category = u"TRANSIENT"_qs;
    retry.error = u"broker unavailable"_qs;
    return insertRow(db, due(u"H-due"_qs, T - 3 * Second)) && insertRow(db, inFlight)
        && insertRow(db, retry) && insertRow(db, delivered(u"H-done"_qs, T - 5 * Second))
        && recentAttempt(db, u"H-done"_qs, T - 5 * Second);
}

// Much going on, fine but for its DEAD events: 100 due within the last 30 s, 30 retries in 30
// distinct seconds, 9 DEAD of one type with one error (below both minimums), 9 parked in the
// last 10 min; 18 DEAD in all, as many as the DEAD tile shows red.
bool busyButFine(const QSqlDatabase &db)
{
    for (int i = 0; i < 100; ++i) {
        if (!insertRow(db, due(u"B-due-"_qs + QString::number(i), T - (i % 30) * Second)))
            return false;
    }
    for (int i = 0; i < 30; ++i) {
        OutboxRow retry = due(u"B-retry-"_qs + QString::number(i), T + (i + 1) * Second);
        retry.failures = 1;
        if (!insertRow(db, retry))
            return false;
    }
    for (int i = 0; i < 200; ++i) {
        const QString id = u"B-done-"_qs + QString::number(i);
        if (!insertRow(db, delivered(id, T - i * Second)) || !recentAttempt(db, id, T - i * Second))
            return false;
    }
    for (int i = 0; i < 9; ++i) {
        const QString id = u"B-dead-"_qs + QString::number(i);
        if (!insertRow(db, deadRow(id, u"PaymentCaptured"_qs, u"HTTP 500 from payments"_qs))
            || !recentAttempt(db, id, T - i * Minute, u"DEAD"_qs))
            return false;
    }
    return variedDead(db, 9);
}

bool relayStalled(const QSqlDatabase &db)
{
    return insertRow(db, due(u"S-due"_qs, T - 2 * Minute))
        && insertRow(db, delivered(u"S-done"_qs, T - 6 * Minute))
        && recentAttempt(db, u"S-done"_qs, T - 6 * Minute);
}

// Due for 2 min, but an attempt finished a minute ago: the relay is working.
bool dueButRelayWorks(const QSqlDatabase &db)
{
    return insertRow(db, due(u"W-due"_qs, T - 2 * Minute))
        && insertRow(db, delivered(u"W-done"_qs, T - Minute))
        && recentAttempt(db, u"W-done"_qs, T - Minute);
}

bool leaseExpired(const QSqlDatabase &db)
{
    OutboxRow claimed = due(u"L-claimed"_qs, T - 10 * Minute);
    claimed.leaseUntil = T - 2 * Minute;
    // Expired only 30 s ago: within the grace, not reported.
    OutboxRow recent = due(u"L-recent"_qs, T - Minute);
    recent.leaseUntil = T - 30 * Second;
    return insertRow(db, claimed) && insertRow(db, recent);
}

// 12 of 20 DEAD events share one error (numbers and hosts differ), spread over the types.
bool dominantError(const QSqlDatabase &db)
{
    for (int i = 0; i < 12; ++i) {
        if (!insertRow(db,
                deadRow(u"D-"_qs + QString::number(i), types.at(i % types.size()),
                    QStringLiteral("HTTP 503 from inventory-%1 at 10.0.0.%2").arg(i).arg(i + 1))))
            return false;
    }
    return variedDead(db, 8);
}

bool nineShareAnError(const QSqlDatabase &db)
{
    for (int i = 0; i < 9; ++i) {
        if (!insertRow(db,
                deadRow(u"N-"_qs + QString::number(i), types.at(i % types.size()),
                    QStringLiteral("HTTP 503 after %1 ms").arg(i * 100))))
            return false;
    }
    return true;
}

// 10 of 12 DEAD events are PaymentCaptured, each with its own error.
bool poisonType(const QSqlDatabase &db)
{
    for (int i = 0; i < 12; ++i) {
        if (!insertRow(db,
                deadRow(u"P-"_qs + QString::number(i),
                    i < 10 ? u"PaymentCaptured"_qs : u"OrderPlaced"_qs,
                    u"refused: "_qs + words.at(i))))
            return false;
    }
    return true;
}

// 25 retries due within the same second, 5 others spread.
bool retryHerd(const QSqlDatabase &db)
{
    for (int i = 0; i < 30; ++i) {
        OutboxRow retry = due(u"R-"_qs + QString::number(i),
            i < 25 ? T + 5 * Second + i * 20 : T + (10 + i) * Second);
        retry.failures = 1;
        retry.createdAt = T - Minute;
        if (!insertRow(db, retry))
            return false;
    }
    return true;
}

// 12 parked in the last 10 min against 6 in the hour before.
bool deadRising(const QSqlDatabase &db)
{
    if (!variedDead(db, 18, u"X"_qs))
        return false;
    for (int i = 0; i < 18; ++i) {
        const qint64 finished = i < 12 ? T - (i + 1) * 30 * Second : T - (15 + i) * Minute;
        if (!recentAttempt(db, u"X"_qs + QString::number(i), finished, u"DEAD"_qs))
            return false;
    }
    return true;
}

bool futureSchedule(const QSqlDatabase &db)
{
    OutboxRow row = due(u"F-far"_qs, T + 40LL * 24 * 3600 * Second);
    row.createdAt = T - Minute;
    return insertRow(db, row);
}

bool createdInFuture(const QSqlDatabase &db)
{
    OutboxRow row = delivered(u"C-future"_qs, T + 3 * Minute);
    return insertRow(db, row);
}

// Aggregate A: its oldest unfinished event is DEAD, a later one waits. Aggregate B: the
// oldest is past its lease (by 10 s only), a later one is due.
bool blockedAggregate(const QSqlDatabase &db)
{
    OutboxRow dead = deadRow(u"A-1"_qs, u"OrderPlaced"_qs, u"refused"_qs);
    dead.aggregate = u"A"_qs;
    OutboxRow waiting = due(u"A-2"_qs, T + 30 * Second);
    waiting.aggregate = u"A"_qs;
    waiting.createdAt = T - 10 * Second;
    OutboxRow stuck = due(u"B-1"_qs, T - 40 * Second);
    stuck.aggregate = u"B"_qs;
    stuck.leaseUntil = T - 10 * Second;
    OutboxRow behind = due(u"B-2"_qs, T - 5 * Second);
    behind.aggregate = u"B"_qs;
    // Aggregate C: DEAD, but nothing waits behind it.
    OutboxRow alone = deadRow(u"C-1"_qs, u"OrderPlaced"_qs, u"refused"_qs);
    alone.aggregate = u"C"_qs;
    return insertRow(db, dead) && insertRow(db, waiting) && insertRow(db, stuck)
        && insertRow(db, behind) && insertRow(db, alone);
}

const QMap<QString, Builder> &builders()
{
    static const QMap<QString, Builder> builders = {
        {u"empty"_qs, [](const QSqlDatabase &) { return true; }},
        {u"healthy"_qs, healthy},
        {u"busy, only DEAD events"_qs, busyButFine},
        {u"relay stalled"_qs, relayStalled},
        {u"due, but the relay works"_qs, dueButRelayWorks},
        {u"lease expired"_qs, leaseExpired},
        {u"dominant error"_qs, dominantError},
        {u"nine share an error"_qs, nineShareAnError},
        {u"poison type"_qs, poisonType},
        {u"retry herd"_qs, retryHerd},
        {u"dead rising"_qs, deadRising},
        {u"future schedule"_qs, futureSchedule},
        {u"created in future"_qs, createdInFuture},
        {u"blocked aggregate"_qs, blockedAggregate},
    };
    return builders;
}

QStringList codes(const DiagnosisResult &result)
{
    QStringList out;
    for (const Finding &finding : result.findings)
        out << finding.code;
    return out;
}

} // namespace

class TestDiagnosis : public QObject
{
    Q_OBJECT

private slots:
    void situationsGiveExactlyTheirCodes_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<QString>("situation");
        QTest::addColumn<QStringList>("expected");
        const QList<std::pair<QString, QStringList>> cases = {
            // DEAD events at the DEAD tile's limits are a finding of their own, dead_events:
            // critical from 10 (red), a warning below (amber).
            {u"empty"_qs, {}},
            {u"healthy"_qs, {}},
            {u"busy, only DEAD events"_qs, {u"dead_events"_qs}},
            {u"relay stalled"_qs, {u"relay_stalled"_qs}},
            {u"due, but the relay works"_qs, {}},
            {u"lease expired"_qs, {u"lease_expired_unclaimed"_qs}},
            {u"dominant error"_qs, {u"dead_events"_qs, u"dominant_error"_qs}},
            {u"nine share an error"_qs, {u"dead_events"_qs}},
            {u"poison type"_qs, {u"dead_events"_qs, u"poison_type"_qs}},
            {u"retry herd"_qs, {u"retry_herd"_qs}},
            {u"dead rising"_qs, {u"dead_events"_qs, u"dead_rising"_qs}},
            {u"future schedule"_qs, {u"future_schedule"_qs}},
            {u"created in future"_qs, {u"created_in_future"_qs}},
            {u"blocked aggregate"_qs, {u"blocked_aggregate"_qs, u"dead_events"_qs}},
        };
        for (const QString &engine : {u"sqlite"_qs, u"postgresql"_qs, u"mysql"_qs}) {
            for (const auto &[situation, expected] : cases)
                QTest::addRow("%s: %s", qPrintable(engine), qPrintable(situation))
                    << engine << situation << expected;
        }
    }
    void situationsGiveExactlyTheirCodes()
    {
        QFETCH(QString, engine);
        QFETCH(QString, situation);
        QFETCH(QStringList, expected);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        QVERIFY(builders().value(situation)(connection->database()));

        QString error;
        const auto result = DiagnosisQuery::run(connection->database(), T, &error);
        QVERIFY2(result, qPrintable(error));
        QCOMPARE(codes(*result), expected);
        QCOMPARE(result->now, T);
        QCOMPARE(result->checked, DiagnosisCode::all());
        QVERIFY(result->notChecked.isEmpty());
        QCOMPARE(result->hasProblem(), !expected.isEmpty());
        for (const Finding &finding : result->findings) {
            QVERIFY(finding.count > 0);
            QVERIFY(!finding.summary.isEmpty() && !finding.action.isEmpty());
            QVERIFY(!finding.evidence.isEmpty());
        }
    }

    // A simulator's logical clock counts units, not milliseconds: the findings say so, as the
    // tiles and the table do ("9 units", never "9 ms" or "1 min").
    void aLogicalClockSpeaksInUnits_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void aLogicalClockSpeaksInUnits()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        QVERIFY(insertRow(connection->database(), due(u"S-due"_qs, 10)));
        constexpr qint64 Now = 100000; // t=100000: a logical time
        QString error;
        const auto result = DiagnosisQuery::run(connection->database(), Now, &error);
        QVERIFY2(result, qPrintable(error));
        QCOMPARE(codes(*result), QStringList({u"relay_stalled"_qs}));
        const QString summary = result->findings.at(0).summary;
        QVERIFY2(summary.contains(u"due for more than 60000 units"_qs), qPrintable(summary));
        QVERIFY2(!summary.contains(u" ms"_qs) && !summary.contains(u" min"_qs)
                && !summary.contains(u" s "_qs),
            qPrintable(summary));
    }

    void findingsCarryTheirNumbers_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void findingsCarryTheirNumbers()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        QVERIFY(relayStalled(connection->database()) && dominantError(connection->database())
            && blockedAggregate(connection->database()));
        QString error;
        const auto result = DiagnosisQuery::run(connection->database(), T, &error);
        QVERIFY2(result, qPrintable(error));
        // Worst first: the critical findings lead (22 DEAD: the DEAD tile is red).
        QCOMPARE(codes(*result),
            QStringList({u"relay_stalled"_qs, u"dead_events"_qs, u"dominant_error"_qs,
                u"blocked_aggregate"_qs}));
        const Finding &stalled = result->findings.at(0);
        QCOMPARE(stalled.severity, Finding::Severity::Critical);
        QCOMPARE(stalled.count, 1);
        QCOMPARE(stalled.evidence.value(u"oldest_due_ms"_qs).toLongLong(), 2 * Minute);
        const Finding &dead = result->findings.at(1);
        QCOMPARE(dead.severity, Finding::Severity::Critical);
        QCOMPARE(dead.count, 22);
        const Finding &dominant = result->findings.at(2);
        QCOMPARE(dominant.count, 12);
        QCOMPARE(dominant.evidence.value(u"dead"_qs).toLongLong(), 22); // + A-1, C-1
        QCOMPARE(dominant.subject, u"HTTP <n> from inventory-<n> at <n>.<n>"_qs);
        const Finding &blocked = result->findings.at(3);
        QCOMPARE(blocked.count, 2);
        QCOMPARE(blocked.evidence.value(u"waiting_events"_qs).toLongLong(), 2);
        QCOMPARE(blocked.evidence.value(u"blocked_by_dead"_qs).toLongLong(), 1);
        QCOMPARE(blocked.evidence.value(u"blocked_by_expired_lease"_qs).toLongLong(), 1);
    }

    // The DEAD tile and the diagnosis tell one story: as many DEAD events as the tile's amber
    // limit are a warning, as many as its red limit a critical finding, fewer none; with the
    // limits the window's Thresholds… set as well as with the defaults.
    void deadEventsFollowTheDeadTile_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<int>("dead");
        QTest::addColumn<int>("amber");
        QTest::addColumn<int>("red");
        for (const QString &engine : {u"sqlite"_qs, u"postgresql"_qs, u"mysql"_qs}) {
            const QByteArray name = engine.toLatin1();
            const char *e = name.constData();
            const TileLimits tile = TileThresholds().dead;
            for (const int dead : {0, 1, 9, 10, 12})
                QTest::addRow("%s: %d DEAD, default limits", e, dead)
                    << engine << dead << int(tile.amber) << int(tile.red);
            for (const int dead : {9, 10, 20})
                QTest::addRow("%s: %d DEAD, amber from 10, red from 20", e, dead)
                    << engine << dead << 10 << 20;
        }
    }
    void deadEventsFollowTheDeadTile()
    {
        QFETCH(QString, engine);
        QFETCH(int, dead);
        QFETCH(int, amber);
        QFETCH(int, red);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        QVERIFY(variedDead(connection->database(), dead));
        DiagnosisThresholds limits;
        limits.deadTile = {amber, red};
        QString error;
        const auto result = DiagnosisQuery::run(connection->database(), T, &error, nullptr, limits);
        QVERIFY2(result, qPrintable(error));
        QVERIFY(result->checked.contains(DiagnosisCode::DeadEvents));
        // What the DEAD tile shows for this count, by the same limits.
        const HealthGrade::Level tile = HealthGrade::levelOf(dead, limits.deadTile);
        if (tile == HealthGrade::Level::Normal) {
            QCOMPARE(codes(*result), QStringList());
            QVERIFY(!result->hasProblem());
            return;
        }
        QCOMPARE(codes(*result), QStringList {DiagnosisCode::DeadEvents});
        QVERIFY(result->hasProblem()); // outboxctl diagnose exits 1
        const Finding &finding = result->findings.constFirst();
        const bool isRed = tile == HealthGrade::Level::Red;
        QCOMPARE(
            finding.severity, isRed ? Finding::Severity::Critical : Finding::Severity::Warning);
        QCOMPARE(finding.count, dead);
        QCOMPARE(finding.summary,
            u"%1 %2 DEAD (the DEAD tile is %3 from %4): each waits for an operator to replay or "
            "resolve it."_qs.arg(dead)
                .arg(dead == 1 ? u"event is"_qs : u"events are"_qs, isRed ? u"red"_qs : u"amber"_qs,
                    QString::number(isRed ? red : amber)));
        QCOMPARE(finding.evidence.value(u"dead"_qs).toLongLong(), dead);
        QCOMPARE(finding.evidence.value(u"amber_from"_qs).toLongLong(), amber);
        QCOMPARE(finding.evidence.value(u"red_from"_qs).toLongLong(), red);
        QCOMPARE(result->headline(), u"1 finding: DEAD events need an operator"_qs);
    }

    // The window keeps blocked_aggregate's reading (BlockedMemo) and reuses it while it is
    // young for its cost: a costly reading (1 s, as on a big outbox) is shown again for up to
    // 5 minutes, saying how old it is; a cheap one is read again every time; without a memo
    // (outboxctl diagnose) every run reads.
    void blockedReadingReusedWhileYoung_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void blockedReadingReusedWhileYoung()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        QVERIFY(blockedAggregate(db));
        const auto blockedCount = [&db](qint64 now, DiagnosisQuery::BlockedMemo *memo,
                                      Finding *finding = nullptr) -> qint64 {
            QString error;
            const auto result = DiagnosisQuery::run(db, now, &error, nullptr, {}, nullptr, memo);
            if (!result)
                return -1;
            for (const Finding &f : result->findings) {
                if (f.code == DiagnosisCode::BlockedAggregate) {
                    if (finding)
                        *finding = f;
                    return f.count;
                }
            }
            return 0;
        };
        DiagnosisQuery::BlockedMemo memo;
        QCOMPARE(blockedCount(T, &memo), 2);
        QCOMPARE(memo.readAt, T);
        memo.costMs = 1000; // as a 10M outbox's reading: reusable for min(1000 s, 5 min)
        // Aggregate A's blocking DEAD event is delivered: one blocked aggregate is left.
        QSqlQuery update(db);
        QVERIFY(update.exec(u"UPDATE delivery_outbox SET status = 'DELIVERED', delivered_at = "_qs
            + QString::number(T) + u" WHERE event_id = 'A-1'"_qs));
        Finding reused;
        QCOMPARE(blockedCount(T + Minute, &memo, &reused), 2);
        QCOMPARE(reused.evidence.value(u"read_ms_ago"_qs).toLongLong(), Minute);
        QVERIFY2(reused.summary.endsWith(u" ago)."_qs), qPrintable(reused.summary));
        QCOMPARE(blockedCount(T + Minute, nullptr), 1); // outboxctl diagnose: always read
        QCOMPARE(blockedCount(T + DiagnosisQuery::BlockedMemo::MaxAgeMs, &memo, &reused), 1);
        QVERIFY(!reused.evidence.contains(u"read_ms_ago"_qs));
        QCOMPARE(memo.readAt, T + DiagnosisQuery::BlockedMemo::MaxAgeMs);
        // A cheap reading (a small outbox) is never reused.
        memo.costMs = 0;
        QVERIFY(update.exec(u"UPDATE delivery_outbox SET status = 'DELIVERED', delivered_at = "_qs
            + QString::number(T) + u" WHERE event_id = 'B-1'"_qs));
        QCOMPARE(blockedCount(T + DiagnosisQuery::BlockedMemo::MaxAgeMs + Second, &memo), 0);
    }

    // Beyond deadSampleRows DEAD events, the shares come from the newest ones and say so.
    void dominantErrorFromTheNewestDead_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void dominantErrorFromTheNewestDead()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        for (int i = 0; i < 30; ++i) {
            // The newest 15 (i < 15): 10 share one error; the older 15 all differ.
            OutboxRow row = deadRow(u"Z-"_qs + QString::number(i), types.at(i % types.size()),
                i < 10 ? QStringLiteral("HTTP 503 after %1 ms").arg(i)
                       : u"refused: "_qs + words.at(i % 20) + QString(i / 20, QLatin1Char('!')));
            row.createdAt = T - (i + 1) * Minute;
            QVERIFY(insertRow(connection->database(), row));
        }
        DiagnosisThresholds limits;
        limits.deadSampleRows = 15;
        QString error;
        const auto result = DiagnosisQuery::run(connection->database(), T, &error, nullptr, limits);
        QVERIFY2(result, qPrintable(error));
        QCOMPARE(codes(*result), QStringList({u"dead_events"_qs, u"dominant_error"_qs}));
        const Finding &finding = result->findings.at(1);
        QCOMPARE(finding.count, 20);
        QCOMPARE(finding.evidence.value(u"sampled"_qs).toLongLong(), 15);
        QCOMPARE(finding.evidence.value(u"matching_in_sample"_qs).toLongLong(), 10);
        QCOMPARE(finding.summary,
            u"about 20 of 30 DEAD events (67% of the newest 15) share one error: HTTP <n> after <n> ms"_qs);
        // Read whole, the same rows are not dominated by one error (10 of 30).
        QCOMPARE(codes(*DiagnosisQuery::run(connection->database(), T, &error)),
            QStringList {u"dead_events"_qs});
    }

    void signatures_data()
    {
        QTest::addColumn<QString>("message");
        QTest::addColumn<QString>("signature");
        QTest::addRow("status code") << u"HTTP 400 Bad Request"_qs << u"HTTP <n> Bad Request"_qs;
        QTest::addRow("number glued to a unit")
            << u"timeout after 3000ms"_qs << u"timeout after <n>ms"_qs;
        QTest::addRow("uuid") << u"order 550e8400-e29b-41d4-a716-446655440000 rejected"_qs
                              << u"order <uuid> rejected"_qs;
        QTest::addRow("quoted values") << u"value 'abc-12' invalid for \"sku\""_qs
                                       << u"value '<str>' invalid for \"<str>\""_qs;
        QTest::addRow("hex") << u"hash deadbeef12 mismatch at 0x7ffe"_qs
                             << u"hash <hex> mismatch at <hex>"_qs;
        QTest::addRow("address and port")
            << u"connect to 10.0.0.7:5432 refused"_qs << u"connect to <n>.<n>:<n> refused"_qs;
        QTest::addRow("names with digits")
            << u"relay-2 lost its IPv4 route (v2)"_qs << u"relay-<n> lost its IPv4 route (v2)"_qs;
        QTest::addRow("timestamp") << u"at 2026-11-30T09:02:55.123Z the broker failed"_qs
                                   << u"at <time> the broker failed"_qs;
        QTest::addRow("white space") << u"  broker \n  unavailable "_qs << u"broker unavailable"_qs;
        QTest::addRow("decimal") << u"load 0.93 above 0.9"_qs << u"load <n> above <n>"_qs;
    }
    void signatures()
    {
        QFETCH(QString, message);
        QFETCH(QString, signature);
        QCOMPARE(ErrorSignature::of(message), signature);
        QCOMPARE(ErrorSignature::of(signature), signature); // a signature is its own
    }

    void longMessagesAreCut()
    {
        const QString signature = ErrorSignature::of(QString(1000, QLatin1Char('x')));
        QCOMPARE(signature.size(), ErrorSignature::MaxLength);
        QCOMPARE(ErrorSignature::of(signature), signature);
    }

    void errorGroups_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void errorGroups()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        QVERIFY(dominantError(db));
        // A PENDING event that failed with the same error once, at T - 1 min.
        OutboxRow retry = due(u"D-retry"_qs, T + Minute);
        retry.failures = 1;
        retry.category = u"TRANSIENT"_qs;
        retry.error = u"HTTP 502 from inventory-99 at 10.0.0.200"_qs;
        QVERIFY(insertRow(db, retry));
        QVERIFY(recentAttempt(db, u"D-retry"_qs, T - Minute, u"RETRY"_qs));
        QVERIFY(recentAttempt(db, u"D-0"_qs, T - 20 * Minute, u"DEAD"_qs));

        QString error;
        const auto groups = ErrorGroups::read(db, nullptr, &error);
        QVERIFY2(groups, qPrintable(error));
        QCOMPARE(groups->size(), 9); // the shared one and 8 distinct
        const ErrorGroup &top = groups->constFirst();
        QCOMPARE(top.signature, u"HTTP <n> from inventory-<n> at <n>.<n>"_qs);
        QCOMPARE(top.count, 13);
        QCOMPARE(top.dead, 12);
        QCOMPARE(top.category, u"TRANSIENT"_qs);
        QCOMPARE(top.eventTypes.size(), 5);
        QCOMPARE(top.firstSeen, std::optional<qint64>(T - 20 * Minute));
        QCOMPARE(top.lastSeen, std::optional<qint64>(T - Minute));

        const auto ids = ErrorGroups::deadEventIds(db, nullptr, top.signature, &error);
        QVERIFY2(ids, qPrintable(error));
        QCOMPARE(ids->size(), 12);
        QVERIFY(!ids->contains(u"D-retry"_qs));
        // A raw message finds its group too.
        QCOMPARE(ErrorGroups::deadEventIds(
                     db, nullptr, u"HTTP 504 from inventory-1 at 10.1.1.1"_qs, &error)
                     ->size(),
            12);
    }

    void explanations_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<QString>("event");
        QTest::addColumn<QString>("state");
        QTest::addColumn<QString>("explanation");
        for (const QString &engine : {u"sqlite"_qs, u"postgresql"_qs, u"mysql"_qs}) {
            QTest::addRow("%s: scheduled", qPrintable(engine))
                << engine << u"E-scheduled"_qs << u"SCHEDULED"_qs
                << u"Scheduled: transient failure 2 of budget 4 at 09:02:55 (broker unavailable);"
                   " due again at 09:03:15, in 12 s, under capped:10,20,40"_qs;
            QTest::addRow("%s: in flight past its lease", qPrintable(engine))
                << engine << u"E-lease"_qs << u"LEASE_EXPIRED"_qs
                << u"In flight past its lease: relay-2 claimed it at 08:58:33, the lease ended at"
                   " 08:59:03; any worker may reclaim it \u2014 none has for 4 min (see: relay"
                   " stalled)"_qs;
            QTest::addRow("%s: dead", qPrintable(engine))
                << engine << u"E-dead-0"_qs << u"DEAD"_qs
                << u"DEAD: parked after failure 1; the last error was PERMANENT (HTTP 400 Bad"
                   " Request for order 0); 11 other DEAD events share this error \u2014"
                   " Replay\u2026 makes it due now with one more attempt, or with a fresh budget"
                   " with \u201cReset the attempt budget\u201d"_qs;
            QTest::addRow("%s: in flight", qPrintable(engine))
                << engine << u"E-flight"_qs << u"IN_FLIGHT"_qs
                << u"In flight: relay-1 claimed it at 09:03:00; the lease ends at 09:03:30, in"
                   " 27 s"_qs;
        }
    }
    void explanations()
    {
        QFETCH(QString, engine);
        QFETCH(QString, event);
        QFETCH(QString, state);
        QFETCH(QString, explanation);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();

        OutboxRow scheduled = due(u"E-scheduled"_qs, T + 12 * Second);
        scheduled.failures = 2;
        scheduled.category = u"TRANSIENT"_qs;
        scheduled.error = u"broker unavailable"_qs;
        QVERIFY(insertRow(db, scheduled));
        QVERIFY(insertAttempt(db,
            {u"E-scheduled"_qs, 1, u"relay-1"_qs, T - 30 * Second, T - 29 * Second, u"RETRY"_qs,
                {}}));
        QVERIFY(insertAttempt(db,
            {u"E-scheduled"_qs, 2, u"relay-1"_qs, T - 9 * Second, T - 8 * Second, u"RETRY"_qs,
                {}}));
        OutboxRow lease = due(u"E-lease"_qs, T - 5 * Minute);
        lease.leaseUntil = T - 4 * Minute;
        QVERIFY(insertRow(db, lease));
        QVERIFY(insertAttempt(db, {u"E-lease"_qs, 1, u"relay-2"_qs, T - 270 * Second, {}, {}, {}}));
        OutboxRow flight = due(u"E-flight"_qs, T - 3 * Second);
        flight.leaseUntil = T + 27 * Second;
        QVERIFY(insertRow(db, flight));
        QVERIFY(insertAttempt(db, {u"E-flight"_qs, 1, u"relay-1"_qs, T - 3 * Second, {}, {}, {}}));
        for (int i = 0; i < 12; ++i) {
            OutboxRow dead = deadRow(u"E-dead-"_qs + QString::number(i), u"OrderPlaced"_qs,
                u"HTTP 400 Bad Request for order "_qs + QString::number(i), u"PERMANENT"_qs);
            dead.failures = 1;
            QVERIFY(insertRow(db, dead));
        }

        ExplainOptions options;
        RetryPolicy policy;
        QString error;
        QVERIFY(RetryPolicy::parse(u"capped:10,20,40"_qs, &policy, &error));
        options.policy = policy;
        options.budget = 4;
        const auto result = EventExplainer::explain(db, event, T, &error, nullptr, options);
        QVERIFY2(result, qPrintable(error));
        QCOMPARE(result->state, state);
        // In the window's words (the detail pane); outboxctl's: tst_outboxctl_diagnose.
        QCOMPARE(result->text(Advice::Surface::Window), explanation);
        QCOMPARE(result->toJson().value(u"event_id"_qs).toString(), event);
        QVERIFY(result->facts.contains(u"failures"_qs));

        QVERIFY(!EventExplainer::explain(db, u"NO-SUCH"_qs, T, &error));
        QCOMPARE(error, u"no event with ID 'NO-SUCH'"_qs);
    }

    void previewChangesNothing_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void previewChangesNothing()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        for (int i = 0; i < 3; ++i) {
            QVERIFY(insertRow(db,
                deadRow(u"Q-"_qs + QString::number(i), u"OrderPlaced"_qs,
                    u"HTTP 400 for order "_qs + QString::number(i), u"PERMANENT"_qs)));
        }
        QVERIFY(insertRow(db, deadRow(u"Q-3"_qs, u"StockReserved"_qs, u"timeout"_qs)));
        QVERIFY(insertRow(db, due(u"Q-pending"_qs, T)));
        const QStringList before = everyRow(db);

        ReplayRequest request;
        request.eventIds = {u"Q-0"_qs, u"Q-1"_qs, u"Q-2"_qs, u"Q-3"_qs, u"Q-pending"_qs,
            u"Q-missing"_qs, u"Q-0"_qs};
        request.now = T;
        request.spreadMs = 60000;
        QString error;
        const auto preview = ReplayPreview::compute(db, nullptr, request, &error);
        QVERIFY2(preview, qPrintable(error));
        QCOMPARE(everyRow(db), before);
        QCOMPARE(preview->events, 4);
        QCOMPARE(preview->byType.value(u"OrderPlaced"_qs), 3);
        QCOMPARE(preview->byType.value(u"StockReserved"_qs), 1);
        QCOMPARE(preview->byErrorGroup.value(u"HTTP <n> for order <n>"_qs), 3);
        QCOMPARE(preview->skipped.size(), 2);
        QCOMPARE(preview->skipped.at(0).reason, u"not DEAD: it is PENDING"_qs);
        QCOMPARE(preview->skipped.at(1).reason, u"not found"_qs);
        // The four DEAD ones (all the replay takes) spread over a minute: 15 s apart.
        QCOMPARE(preview->firstDue, std::optional<qint64>(T));
        QCOMPARE(preview->lastDue, std::optional<qint64>(T + 45000));
        QVERIFY2(preview->warning.startsWith(u"likely to fail again: fix the consumer first"_qs),
            qPrintable(preview->warning));
    }
};

OUTBOX_TEST_MAIN(TestDiagnosis, QCoreApplication)
#include "tst_diagnosis.moc"
