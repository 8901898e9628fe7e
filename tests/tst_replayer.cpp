// Operator replay of parked events on both engines: DEAD → PENDING under the same event ID,
// budget reset or one more attempt, the audit row, two operators racing for one event, bulk
// replay of every matching row, spread due times, a read-only connection, and the redacted
// CSV export and replay log shown to operators.
#include "csvexport.h"
#include "outboxstore.h"
#include "redaction.h"
#include "replayer.h"
#include "replaylogmodel.h"
#include "sqltransaction.h"
#include "testdatabase.h"
#include "csvtext.h"
#include "testmain.h"
#include "timeformat.h"

#include <QAbstractItemModelTester>
#include <QBuffer>
#include <QSqlError>
#include <algorithm>
#include <latch>
#include <limits>
#include <thread>

namespace {

constexpr qint64 Now = 1000;

QString eventId(int i)
{
    return QStringLiteral("E-%1").arg(i, 4, 10, QLatin1Char('0'));
}

NewEvent newEvent(
    const QString &id, const QString &payload = u"{\"sku\":\"SKU-1\",\"quantity\":2}"_qs)
{
    return {id, u"Order"_qs, id, u"StockReserved"_qs, payload, 0};
}

RetryPolicy policy(const QString &spec)
{
    RetryPolicy result;
    QString error;
    if (!RetryPolicy::parse(spec, &result, &error))
        qFatal("%s", qPrintable(error));
    return result;
}

// Parks one event through the store: a PERMANENT rejection, or a TRANSIENT failure on every
// attempt until the budget of three is spent. Returns the attempts it took (0 on error).
int parkDead(OutboxStore &store, const QString &id, bool permanent)
{
    store.setRetryPolicy(policy(u"fixed:10"_qs));
    store.setBudget({3, 0});
    if (!store.insertEvent(newEvent(id)))
        return 0;
    qint64 now = 0;
    for (int attempt = 1; attempt <= 3; ++attempt) {
        const ClaimResult claimed = store.claim(id, u"w"_qs, now);
        if (!claimed.ok)
            return 0;
        const FailResult failed = store.fail(claimed.claim, now,
            permanent ? ErrorCategory::Permanent : ErrorCategory::Transient, u"rejected"_qs);
        if (!failed.ok)
            return 0;
        if (failed.status == u"DEAD"_qs)
            return attempt;
        now = failed.nextAttemptAt;
    }
    return 0;
}

// Many DEAD rows at once, in one transaction (test data only).
bool insertDead(
    const QSqlDatabase &db, int from, int count, const QString &category, int failures = 3)
{
    SqlTransaction transaction(db);
    QSqlQuery insert(db);
    insert.prepare(
        u"INSERT INTO delivery_outbox (event_id, aggregate_type, aggregate_id, event_type, payload,"
        " status, failures, next_attempt_at, created_at, last_error_category, last_error)"
        " VALUES (:id, 'Order', :id2, 'StockReserved', '{}', 'DEAD', :failures, 0, 0, :category, 'x')"_qs);
    for (int i = from; i < from + count; ++i) {
        insert.bindValue(u":id"_qs, eventId(i));
        insert.bindValue(u":id2"_qs, eventId(i));
        insert.bindValue(u":failures"_qs, failures);
        insert.bindValue(u":category"_qs, category);
        if (!insert.exec()) {
            qWarning("insert: %s", qPrintable(insert.lastError().text()));
            return false;
        }
    }
    return transaction.commit();
}

ReplayRequest request(const QStringList &ids, bool reset = false)
{
    ReplayRequest r;
    r.eventIds = ids;
    r.operatorName = u"alice"_qs;
    r.reason = u"consumer schema fixed in 4.2"_qs;
    r.resetBudget = reset;
    r.now = Now;
    return r;
}

qint64 count(const QSqlDatabase &db, const QString &sql)
{
    return scalar(db, sql).toLongLong();
}

QList<qint64> dueTimes(const QSqlDatabase &db)
{
    QList<qint64> times;
    QSqlQuery query(db);
    query.exec(u"SELECT next_attempt_at FROM delivery_outbox ORDER BY event_id"_qs);
    while (query.next())
        times << query.value(0).toLongLong();
    return times;
}


} // namespace

class TestReplayer : public QObject
{
    Q_OBJECT

private slots:
    void replayReleasesUnderTheSameId_data()
    {
        TestDatabase::addEngineColumn();
        QTest::addColumn<bool>("permanent");
        QTest::addColumn<bool>("reset");
        QTest::addColumn<int>("failuresBefore");
        QTest::addColumn<int>("failuresAfterReplay");
        QTest::addColumn<QString>("statusAfterNextFailure");
        for (const QString &engine : {u"sqlite"_qs, u"postgresql"_qs}) {
            const char *e = engine == u"sqlite"_qs ? "sqlite" : "postgresql";
            QTest::addRow("%s: budget spent, reset", e)
                << engine << false << true << 3 << 0 << u"PENDING"_qs;
            QTest::addRow("%s: budget spent, one more attempt", e)
                << engine << false << false << 3 << 3 << u"DEAD"_qs;
            QTest::addRow("%s: permanent rejection, reset", e)
                << engine << true << true << 1 << 0 << u"PENDING"_qs;
            QTest::addRow("%s: permanent rejection, failures kept", e)
                << engine << true << false << 1 << 1 << u"PENDING"_qs;
        }
    }
    void replayReleasesUnderTheSameId()
    {
        QFETCH(QString, engine);
        QFETCH(bool, permanent);
        QFETCH(bool, reset);
        QFETCH(int, failuresBefore);
        QFETCH(int, failuresAfterReplay);
        QFETCH(QString, statusAfterNextFailure);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        OutboxStore store(db);
        const int attempts = parkDead(store, u"E-1"_qs, permanent);
        QCOMPARE(attempts, failuresBefore);
        QCOMPARE(scalar(db, u"SELECT status FROM delivery_outbox"_qs).toString(), u"DEAD"_qs);

        Replayer replayer(db);
        const ReplayResult result = replayer.replay(request({u"E-1"_qs}, reset));
        QCOMPARE(result.error, QString());
        QCOMPARE(result.replayed, QStringList {u"E-1"_qs});
        QCOMPARE(result.skipped, QStringList());

        // Same row, same identity: PENDING, due now, claim cleared, counter reset or kept.
        QCOMPARE(count(db, u"SELECT COUNT(*) FROM delivery_outbox"_qs), 1);
        QCOMPARE(scalar(db, u"SELECT event_id FROM delivery_outbox"_qs).toString(), u"E-1"_qs);
        QCOMPARE(scalar(db, u"SELECT status FROM delivery_outbox"_qs).toString(), u"PENDING"_qs);
        QCOMPARE(
            scalar(db, u"SELECT failures FROM delivery_outbox"_qs).toInt(), failuresAfterReplay);
        QCOMPARE(scalar(db, u"SELECT next_attempt_at FROM delivery_outbox"_qs).toLongLong(), Now);
        QVERIFY(scalar(db, u"SELECT claim_token FROM delivery_outbox"_qs).isNull());
        QVERIFY(scalar(db, u"SELECT lease_until FROM delivery_outbox"_qs).isNull());

        // The audit row, written with the change.
        QCOMPARE(count(db, u"SELECT COUNT(*) FROM replay_log"_qs), 1);
        QCOMPARE(scalar(db, u"SELECT event_id FROM replay_log"_qs).toString(), u"E-1"_qs);
        QCOMPARE(scalar(db, u"SELECT replayed_at FROM replay_log"_qs).toLongLong(), Now);
        QCOMPARE(scalar(db, u"SELECT operator FROM replay_log"_qs).toString(), u"alice"_qs);
        QCOMPARE(scalar(db, u"SELECT reason FROM replay_log"_qs).toString(),
            u"consumer schema fixed in 4.2"_qs);
        QCOMPARE(scalar(db, u"SELECT reset_failures FROM replay_log"_qs).toBool(), reset);
        QCOMPARE(scalar(db, u"SELECT failures_before FROM replay_log"_qs).toInt(), failuresBefore);

        // Due exactly at the replay time; the attempt history goes on where it stopped.
        QCOMPARE(store.claim(u"E-1"_qs, u"w"_qs, Now - 1).reason, Refusal::NotDue);
        const ClaimResult again = store.claim(u"E-1"_qs, u"w"_qs, Now);
        QVERIFY2(again.ok, qPrintable(again.reason));
        QCOMPARE(again.claim.attemptNo, attempts + 1);
        const FailResult failed
            = store.fail(again.claim, Now, ErrorCategory::Transient, u"timeout"_qs);
        QVERIFY(failed.ok);
        QCOMPARE(failed.failures, failuresAfterReplay + 1);
        QCOMPARE(failed.status, statusAfterNextFailure);
        QCOMPARE(scalar(db, u"SELECT status FROM delivery_outbox"_qs).toString(),
            statusAfterNextFailure);
        QCOMPARE(count(db, u"SELECT COUNT(*) FROM delivery_attempt WHERE event_id = 'E-1'"_qs),
            attempts + 1);
        QCOMPARE(count(db, u"SELECT COUNT(*) FROM delivery_attempt WHERE outcome IS NULL"_qs), 0);
        QCOMPARE(count(db, u"SELECT COUNT(*) FROM replay_log"_qs), 1);
    }

    void notDeadOrUnknownIsSkipped_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void notDeadOrUnknownIsSkipped()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        OutboxStore store(db);
        QVERIFY(parkDead(store, u"E-dead"_qs, true));
        QVERIFY(store.insertEvent(newEvent(u"E-pending"_qs)));
        const ClaimResult claimed = store.claim(u"E-pending"_qs, u"w"_qs, 0); // in flight
        QVERIFY(claimed.ok);

        Replayer replayer(db);
        const ReplayResult result = replayer.replay(
            request({u"E-pending"_qs, u"E-dead"_qs, u"E-nowhere"_qs, u"E-dead"_qs}));
        QCOMPARE(result.error, QString());
        QCOMPARE(result.replayed, QStringList {u"E-dead"_qs});
        QCOMPARE(result.skipped, QStringList({u"E-pending"_qs, u"E-nowhere"_qs}));
        // The in-flight claim is untouched and nothing was logged for the skipped ones.
        QCOMPARE(
            scalar(db, u"SELECT claim_token FROM delivery_outbox WHERE event_id = 'E-pending'"_qs)
                .toString(),
            claimed.claim.token);
        QCOMPARE(count(db, u"SELECT COUNT(*) FROM replay_log"_qs), 1);
    }

    void concurrentOperatorsReplayOnce_data()
    {
        TestDatabase::addEngineColumn();
        QTest::addColumn<int>("events");
        for (const QString &engine : {u"sqlite"_qs, u"postgresql"_qs}) {
            QTest::addRow("%s: one event", qPrintable(engine)) << engine << 1;
            QTest::addRow("%s: forty events in opposite orders", qPrintable(engine))
                << engine << 40;
        }
    }
    void concurrentOperatorsReplayOnce()
    {
        QFETCH(QString, engine);
        QFETCH(int, events);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        QVERIFY(insertDead(db, 0, events, u"PERMANENT"_qs, 1));
        QStringList ids;
        for (int i = 0; i < events; ++i)
            ids << eventId(i);

        std::latch start(2);
        QList<ReplayResult> results(2);
        std::vector<std::thread> operators;
        for (int o = 0; o < 2; ++o) {
            operators.emplace_back([&, o] {
                QString error;
                auto own
                    = DbConnection::open(DatabaseUrl::parse(database->url(), &error), {}, &error);
                start.arrive_and_wait(); // both ready, then both go at once
                if (!own) {
                    results[o].error = error;
                    return;
                }
                ReplayRequest r = request(ids);
                r.operatorName = o == 0 ? u"alice"_qs : u"bob"_qs;
                if (o == 1)
                    std::reverse(r.eventIds.begin(), r.eventIds.end());
                results[o] = Replayer(own->database()).replay(r);
            });
        }
        for (auto &thread : operators)
            thread.join();

        for (const ReplayResult &result : std::as_const(results)) {
            QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
            QCOMPARE(result.replayed.size() + result.skipped.size(), events);
        }
        QCOMPARE(results[0].replayed.size() + results[1].replayed.size(), events);
        for (const QString &id : std::as_const(ids)) {
            // Exactly one operator replayed it; the other was told it was skipped.
            QVERIFY(results[0].replayed.contains(id) != results[1].replayed.contains(id));
            QVERIFY(results[0].skipped.contains(id) == results[1].replayed.contains(id));
        }
        QCOMPARE(count(db, u"SELECT COUNT(*) FROM replay_log"_qs), events);
        QCOMPARE(count(db, u"SELECT COUNT(DISTINCT event_id) FROM replay_log"_qs), events);
        QCOMPARE(count(db, u"SELECT COUNT(*) FROM replay_log WHERE operator = 'alice'"_qs),
            results[0].replayed.size());
        QCOMPARE(
            count(db, u"SELECT COUNT(*) FROM delivery_outbox WHERE status = 'PENDING'"_qs), events);
    }

    void bulkReplayCoversEveryMatchingRow_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void bulkReplayCoversEveryMatchingRow()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        QVERIFY(insertDead(db, 0, 450, u"TRANSIENT"_qs));
        QVERIFY(insertDead(db, 450, 1, u"PERMANENT"_qs, 1)); // another category: left alone
        OutboxStore store(db);
        QVERIFY(store.insertEvent(newEvent(u"E-pending"_qs))); // not DEAD: never matched

        EventFilter filter;
        filter.state = EventFilter::State::Pending; // forced to DEAD by the replayer
        filter.errorCategory = u"TRANSIENT"_qs;
        Replayer replayer(db);
        QString error;
        QCOMPARE(replayer.countMatchingDead(filter, Now, &error), 450);
        const QStringList ids = replayer.matchingDeadEvents(filter, Now, &error);
        QCOMPARE(error, QString());
        QCOMPARE(ids.size(), 450); // all of them, not a page of 200
        QCOMPARE(ids.constFirst(), eventId(0));
        QCOMPARE(ids.constLast(), eventId(449));
        QVERIFY(std::is_sorted(ids.begin(), ids.end()));

        const ReplayResult result = replayer.replay(request(ids, true));
        QCOMPARE(result.error, QString());
        QCOMPARE(result.replayed, ids);
        QCOMPARE(result.skipped, QStringList());
        QCOMPARE(count(db, u"SELECT COUNT(*) FROM delivery_outbox WHERE status = 'DEAD'"_qs), 1);
        QCOMPARE(
            scalar(db, u"SELECT event_id FROM delivery_outbox WHERE status = 'DEAD'"_qs).toString(),
            eventId(450));
        QCOMPARE(count(db, u"SELECT COUNT(*) FROM replay_log"_qs), 450);
        QCOMPARE(replayer.countMatchingDead(filter, Now, &error), 0);
        QCOMPARE(replayer.matchingDeadEvents(filter, Now, &error), QStringList());
    }

    void dueTimesSpreadEvenly_data()
    {
        QTest::addColumn<int>("events");
        QTest::addColumn<qint64>("spreadMs");
        QTest::addRow("1000 over 10 min") << 1000 << qint64(600000);
        QTest::addRow("7 over 1000 ms") << 7 << qint64(1000);
        QTest::addRow("3 over 2 ms: some share a millisecond") << 3 << qint64(2);
        QTest::addRow("one event") << 1 << qint64(600000);
    }
    void dueTimesSpreadEvenly()
    {
        QFETCH(int, events);
        QFETCH(qint64, spreadMs);
        QList<qint64> times;
        for (int i = 0; i < events; ++i)
            times << Replayer::dueTime(Now, spreadMs, i, events);
        QCOMPARE(times.constFirst(), Now);
        QVERIFY(times.constLast() < Now + spreadMs);
        QList<qint64> gaps;
        for (int i = 1; i < events; ++i)
            gaps << times.at(i) - times.at(i - 1);
        if (!gaps.isEmpty())
            QVERIFY(*std::max_element(gaps.begin(), gaps.end())
                    - *std::min_element(gaps.begin(), gaps.end())
                <= 1);
        QCOMPARE(Replayer::dueTime(Now, 0, 5, events), Now);
    }

    void replaySpreadsDueTimes_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void replaySpreadsDueTimes()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        QVERIFY(insertDead(db, 0, 1000, u"TRANSIENT"_qs));
        Replayer replayer(db);
        ReplayRequest r = request(replayer.matchingDeadEvents({}, Now));
        r.spreadMs = 600000;
        const ReplayResult result = replayer.replay(r);
        QCOMPARE(result.error, QString());
        QCOMPARE(result.replayed.size(), 1000);

        const QList<qint64> times = dueTimes(db);
        QCOMPARE(times.size(), 1000);
        QList<qint64> sorted = times;
        std::sort(sorted.begin(), sorted.end());
        QCOMPARE(sorted.constFirst(), Now);
        QVERIFY(sorted.constLast() < Now + 600000);
        qint64 minGap = std::numeric_limits<qint64>::max(), maxGap = 0;
        for (int i = 1; i < sorted.size(); ++i) {
            minGap = std::min(minGap, sorted.at(i) - sorted.at(i - 1));
            maxGap = std::max(maxGap, sorted.at(i) - sorted.at(i - 1));
        }
        QVERIFY2(
            maxGap - minGap <= 1, qPrintable(u"gaps from %1 to %2"_qs.arg(minGap).arg(maxGap)));
        QCOMPARE(minGap, 600);
    }

    void readOnlyConnectionChangesNothing_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void readOnlyConnectionChangesNothing()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto writer = database->initialise();
        QVERIFY(writer);
        QVERIFY(insertDead(writer->database(), 0, 2, u"TRANSIENT"_qs));

        QString error;
        OpenOptions options;
        options.readOnly = true;
        const auto reader
            = DbConnection::open(DatabaseUrl::parse(database->url(), &error), options, &error);
        QVERIFY2(reader, qPrintable(error));
        const ReplayResult result
            = Replayer(reader->database()).replay(request({eventId(0), eventId(1)}));
        QVERIFY(!result.error.isEmpty());
        QVERIFY2(result.error.contains(eventId(0)), qPrintable(result.error));
        QVERIFY2(result.error.contains(u"read"_qs, Qt::CaseInsensitive), qPrintable(result.error));
        QCOMPARE(result.replayed, QStringList());

        const QSqlDatabase db = writer->database();
        QCOMPARE(count(db, u"SELECT COUNT(*) FROM delivery_outbox WHERE status = 'DEAD'"_qs), 2);
        QCOMPARE(count(db, u"SELECT COUNT(*) FROM replay_log"_qs), 0);
    }

    void blankOperatorOrReasonIsRefused_data()
    {
        QTest::addColumn<QString>("operatorName");
        QTest::addColumn<QString>("reason");
        QTest::addColumn<QString>("cause");
        QTest::addRow("empty operator") << QString() << u"fixed"_qs << u"operator"_qs;
        QTest::addRow("blank operator") << u" \t"_qs << u"fixed"_qs << u"operator"_qs;
        QTest::addRow("empty reason") << u"alice"_qs << QString() << u"reason"_qs;
        QTest::addRow("blank reason") << u"alice"_qs << u"   "_qs << u"reason"_qs;
    }
    void blankOperatorOrReasonIsRefused()
    {
        QFETCH(QString, operatorName);
        QFETCH(QString, reason);
        QFETCH(QString, cause);
        FRESH_DATABASE(database, u"sqlite"_qs);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        QVERIFY(insertDead(db, 0, 1, u"TRANSIENT"_qs));
        ReplayRequest r = request({eventId(0)});
        r.operatorName = operatorName;
        r.reason = reason;
        const ReplayResult result = Replayer(db).replay(r);
        QVERIFY2(result.error.contains(cause), qPrintable(result.error));
        QCOMPARE(result.replayed, QStringList());
        QCOMPARE(result.skipped, QStringList());
        QCOMPARE(scalar(db, u"SELECT status FROM delivery_outbox"_qs).toString(), u"DEAD"_qs);
        QCOMPARE(count(db, u"SELECT COUNT(*) FROM replay_log"_qs), 0);
    }

    void redactionMasksSensitiveKeys_data()
    {
        QTest::addColumn<QString>("payload");
        QTest::addColumn<QStringList>("keys");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<QStringList>("secrets");
        const QStringList defaults = Redaction::defaultSensitiveKeys();
        // Qt's JSON objects keep keys sorted, so the compact output lists them in that order.
        QTest::addRow("object in array in object, keys in different case")
            << u"{\"order\":{\"items\":[{\"cardNumber\":\"4111111111111111\",\"sku\":\"SKU-1\"}],"
               "\"User_Email\":\"alice@example.com\"},\"Authorization\":\"Bearer abc.def\",\"amount\":5}"_qs
            << defaults
            << u"{\"Authorization\":\"***\",\"amount\":5,\"order\":{\"User_Email\":\"***\",\"items\":[{\"cardNumber\":\"***\",\"sku\":\"SKU-1\"}]}}"_qs
            << QStringList {u"4111111111111111"_qs, u"alice@example.com"_qs, u"Bearer"_qs};
        QTest::addRow("a sensitive object or array is masked whole")
            << u"{\"secret\":{\"pin\":1234},\"accessTokens\":[\"t1\",\"t2\"],\"IBAN\":null,\"name\":\"x\"}"_qs
            << defaults
            << u"{\"IBAN\":\"***\",\"accessTokens\":\"***\",\"name\":\"x\",\"secret\":\"***\"}"_qs
            << QStringList {u"1234"_qs, u"t1"_qs};
        QTest::addRow("top-level array")
            << u"[{\"password\":\"hunter2\"},{\"ok\":true,\"n\":[1,2]}]"_qs << defaults
            << u"[{\"password\":\"***\"},{\"n\":[1,2],\"ok\":true}]"_qs
            << QStringList {u"hunter2"_qs};
        QTest::addRow("nothing sensitive")
            << u"{\"sku\":\"SKU-1\",\"quantity\":2}"_qs << defaults
            << u"{\"quantity\":2,\"sku\":\"SKU-1\"}"_qs << QStringList {};
        QTest::addRow("own key list")
            << u"{\"sku\":\"SKU-1\",\"email\":\"a@b.c\"}"_qs << QStringList {u"SKU"_qs}
            << u"{\"email\":\"a@b.c\",\"sku\":\"***\"}"_qs << QStringList {u"SKU-1"_qs};
        QTest::addRow("not JSON") << u"password=hunter2&card=4111"_qs << defaults
                                  << u"[hidden: not JSON]"_qs
                                  << QStringList {u"hunter2"_qs, u"4111"_qs};
        QTest::addRow("truncated JSON") << u"{\"password\":\"hunter2\""_qs << defaults
                                        << u"[hidden: not JSON]"_qs << QStringList {u"hunter2"_qs};
        QTest::addRow("empty") << QString() << defaults << u"[hidden: not JSON]"_qs
                               << QStringList {};
    }
    void redactionMasksSensitiveKeys()
    {
        QFETCH(QString, payload);
        QFETCH(QStringList, keys);
        QFETCH(QString, expected);
        QFETCH(QStringList, secrets);
        const QString redacted = Redaction::redactJson(payload, keys);
        QCOMPARE(redacted, expected);
        for (const QString &secret : std::as_const(secrets))
            QVERIFY2(!redacted.contains(secret), qPrintable(secret));
    }

    void csvExportEscapesAndRedacts_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void csvExportEscapesAndRedacts()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        OutboxStore store(db);
        QVERIFY(store.insertEvent(newEvent(u"E-quoted"_qs,
            u"{\"customer\":{\"email\":\"alice@example.com\"},\"note\":\"a,b \\\"c\\\"\"}"_qs)));
        const ClaimResult claimed = store.claim(u"E-quoted"_qs, u"w"_qs, 0);
        QVERIFY(claimed.ok);
        const QString message = u"timeout, \"upstream\"\r\nretry later"_qs;
        QVERIFY(store.fail(claimed.claim, 5, ErrorCategory::Permanent, message).ok);
        QVERIFY(store.insertEvent(newEvent(u"E-raw"_qs, u"card=4111111111111111"_qs)));
        QVERIFY(insertDead(db, 0, 450, u"TRANSIENT"_qs));

        QBuffer buffer;
        QVERIFY(buffer.open(QIODevice::WriteOnly));
        QString error;
        qint64 rows = -1;
        QVERIFY2(CsvExport::exportEvents(
                     db, {}, Now, Redaction::defaultSensitiveKeys(), &buffer, &error, &rows),
            qPrintable(error));
        QCOMPARE(rows, 452);
        const QString text = QString::fromUtf8(buffer.data());
        QVERIFY(!text.contains(u"alice@example.com"_qs));
        QVERIFY(!text.contains(u"4111111111111111"_qs));
        QVERIFY(text.startsWith(
            u"event_id,event_type,aggregate_type,aggregate_id,status,failures,created_at,"
            "next_attempt_at,last_error_category,last_error,payload_redacted\r\n"_qs));
        // The quoted field exactly as RFC 4180 writes it: quotes doubled, the line break kept
        // inside.
        QVERIFY(text.contains(u",\"timeout, \"\"upstream\"\"\r\nretry "
                              u"later\",\"{\"\"customer\"\":{\"\"email\"\":\"\"***\"\"},"
                              "\"\"note\"\":\"\"a,b \\\"\"c\\\"\"\"\"}\"\r\n"_qs));

        const QList<QStringList> records = parseCsv(text);
        QCOMPARE(records.size(), 1 + 452);
        for (const QStringList &record : records)
            QCOMPARE(record.size(), 11);
        QCOMPARE(records.at(1).at(0), eventId(0)); // ordered by event ID
        const QStringList quoted = records.constLast().at(0) == u"E-raw"_qs
            ? records.at(records.size() - 2)
            : records.constLast();
        QCOMPARE(quoted.at(0), u"E-quoted"_qs);
        QCOMPARE(quoted.at(4), u"DEAD"_qs);
        QCOMPARE(quoted.at(5), u"1"_qs);
        QCOMPARE(quoted.at(8), u"PERMANENT"_qs);
        QCOMPARE(quoted.at(9), message);
        QCOMPARE(
            quoted.at(10), u"{\"customer\":{\"email\":\"***\"},\"note\":\"a,b \\\"c\\\"\"}"_qs);
        QCOMPARE(records.constLast().at(10), u"[hidden: not JSON]"_qs);

        // A filter exports exactly the rows it matches.
        QBuffer dead;
        QVERIFY(dead.open(QIODevice::WriteOnly));
        EventFilter filter;
        filter.state = EventFilter::State::Dead;
        filter.errorCategory = u"TRANSIENT"_qs;
        QVERIFY(CsvExport::exportEvents(
            db, filter, Now, Redaction::defaultSensitiveKeys(), &dead, &error, &rows));
        QCOMPARE(rows, 450);
        QCOMPARE(parseCsv(QString::fromUtf8(dead.data())).size(), 451);
    }

    void replayLogExportAndModel_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void replayLogExportAndModel()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        QVERIFY(insertDead(db, 0, 2, u"TRANSIENT"_qs));
        Replayer replayer(db);
        ReplayRequest first = request({eventId(0)}, true);
        first.reason = u"fixed, \"really\""_qs;
        QCOMPARE(replayer.replay(first).replayed.size(), 1);
        ReplayRequest second = request({eventId(1)});
        second.now = Now + 500;
        second.operatorName = u"bob"_qs;
        QCOMPARE(replayer.replay(second).replayed.size(), 1);

        QBuffer buffer;
        QVERIFY(buffer.open(QIODevice::WriteOnly));
        QString error;
        QVERIFY2(CsvExport::exportReplayLog(db, &buffer, &error), qPrintable(error));
        const QList<QStringList> records = parseCsv(QString::fromUtf8(buffer.data()));
        QCOMPARE(records.size(), 3);
        QCOMPARE(records.at(0),
            QStringList({u"replay_id"_qs, u"event_id"_qs, u"replayed_at"_qs, u"operator"_qs,
                u"reason"_qs, u"reset_failures"_qs, u"failures_before"_qs}));
        QCOMPARE(records.at(1).mid(1),
            QStringList({eventId(0), u"1000"_qs, u"alice"_qs, u"fixed, \"really\""_qs, u"true"_qs,
                u"3"_qs}));
        QCOMPARE(records.at(2).mid(1),
            QStringList({eventId(1), u"1500"_qs, u"bob"_qs, u"consumer schema fixed in 4.2"_qs,
                u"false"_qs, u"3"_qs}));
        QBuffer one;
        QVERIFY(one.open(QIODevice::WriteOnly));
        QVERIFY(CsvExport::exportReplayLog(db, &one, &error, eventId(1)));
        QCOMPARE(parseCsv(QString::fromUtf8(one.data())).size(), 2);

        ReplayLogModel model;
        QAbstractItemModelTester tester(
            &model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(model.load(db));
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.columnCount(), int(ReplayLogModel::ColumnCount));
        QStringList headers;
        for (int column = 0; column < ReplayLogModel::ColumnCount; ++column)
            headers << model.headerData(column, Qt::Horizontal).toString();
        QCOMPARE(headers,
            QStringList({u"When"_qs, u"Event"_qs, u"Action"_qs, u"Operator"_qs, u"Reason"_qs,
                u"Budget"_qs, u"Failures before"_qs}));
        // Newest first.
        QCOMPARE(model.index(0, ReplayLogModel::EventColumn).data().toString(), eventId(1));
        QCOMPARE(model.index(0, ReplayLogModel::WhenColumn).data().toString(),
            TimeFormat::time(Now + 500));
        QCOMPARE(model.index(0, ReplayLogModel::WhenColumn)
                     .data(ReplayLogModel::RawValueRole)
                     .toLongLong(),
            Now + 500);
        QCOMPARE(
            model.index(0, ReplayLogModel::BudgetColumn).data().toString(), u"one more attempt"_qs);
        QCOMPARE(model.index(1, ReplayLogModel::BudgetColumn).data().toString(), u"reset"_qs);
        QCOMPARE(model.index(1, ReplayLogModel::OperatorColumn).data().toString(), u"alice"_qs);
        QCOMPARE(model.index(1, ReplayLogModel::ReasonColumn).data().toString(),
            u"fixed, \"really\""_qs);
        QCOMPARE(model.index(1, ReplayLogModel::FailuresBeforeColumn).data().toInt(), 3);

        QVERIFY(model.load(db, eventId(0)));
        QCOMPARE(model.eventId(), eventId(0));
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.index(0, ReplayLogModel::EventColumn).data().toString(), eventId(0));
        QVERIFY(model.load(db, u"E-none"_qs));
        QCOMPARE(model.rowCount(), 0);
    }
};

OUTBOX_TEST_MAIN(TestReplayer, QCoreApplication)
#include "tst_replayer.moc"
