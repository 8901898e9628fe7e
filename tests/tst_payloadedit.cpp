// Edit and replay with lineage (issue 30, point 4) on SQLite, PostgreSQL and MariaDB: the edit
// keeps the original payload in payload_revision and replays the event under the same ID with a
// replay_log row; a payload that is not JSON, a 10 MB one, a blank reason and an unchanged
// payload are refused with nothing changed; two operators editing one event at once: exactly one
// wins, the other is told, one revision; a redacted value is kept unless revealed (recorded); a
// read-only connection and a version 2 schema are refused (then `outboxctl migrate` adds the
// table); a lost answer to the edit's COMMIT is replay's outcome unknown (OperatorJob's path); and
// what an edit cannot do: an event the consumer already applied (its acknowledgement lost) answers
// DUPLICATE after the edit, and the consumer keeps the first payload.
#include "commitcutter.h"
#include "consumer.h"
#include "faketransport.h"
#include "fixturescript.h"
#include "hostilefile.h"
#include "outboxctlrun.h"
#include "outboxrows.h"
#include "outboxstore.h"
#include "payloaddiff.h"
#include "payloadeditor.h"
#include "scratchfile.h"
#include "stateevents.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QRegularExpression>
#include <QSqlError>
#include <QSqlRecord>
#include <QTemporaryDir>
#include <QUrl>
#include <latch>
#include <thread>

namespace {

constexpr qint64 Now = 50000;
const QString Original = u"{\"orderId\":4711,\"sku\":\"SKU-1\",\"quantity\":2}"_qs;

bool setPayload(const QSqlDatabase &db, const QString &id, const QString &payload)
{
    QSqlQuery query(db);
    query.prepare(u"UPDATE delivery_outbox SET payload = :p WHERE event_id = :id"_qs);
    query.bindValue(u":p"_qs, payload);
    query.bindValue(u":id"_qs, id);
    return query.exec();
}

// The known events (E-1, E-2, E-3 DEAD, E-4 PENDING, E-5 DELIVERED), E-1 with `payload`.
bool populate(const QSqlDatabase &db, const QString &payload = Original)
{
    return insertKnownEvents(db) && setPayload(db, u"E-1"_qs, payload);
}

QString payloadOf(const QSqlDatabase &db, const QString &id)
{
    QSqlQuery query(db);
    query.prepare(u"SELECT payload FROM delivery_outbox WHERE event_id = :id"_qs);
    query.bindValue(u":id"_qs, id);
    return query.exec() && query.next() ? query.value(0).toString() : QString();
}

qint64 count(const QSqlDatabase &db, const QString &sql)
{
    return scalar(db, sql).toLongLong();
}

// Everything an edit could change: each event's state and payload, and the two logs' sizes.
QStringList everything(const QSqlDatabase &db)
{
    QStringList out = statusLines(db);
    QSqlQuery query(db);
    query.exec(
        u"SELECT event_id, payload, next_attempt_at FROM delivery_outbox ORDER BY event_id"_qs);
    while (query.next())
        out << query.value(0).toString() + u' ' + query.value(1).toString() + u' '
                + query.value(2).toString();
    out << u"replay_log %1"_qs.arg(count(db, u"SELECT COUNT(*) FROM replay_log"_qs));
    if (!db.record(u"payload_revision"_qs).isEmpty())
        out << u"payload_revision %1"_qs.arg(
            count(db, u"SELECT COUNT(*) FROM payload_revision"_qs));
    return out;
}

PayloadEditRequest editOf(
    const QString &basePayload, const QString &newPayload, const QString &who = u"alice"_qs)
{
    PayloadEditRequest request;
    request.eventId = u"E-1"_qs;
    request.newPayload = newPayload;
    request.baseDigest = PayloadEditor::digest(basePayload);
    request.sensitiveKeys = Redaction::defaultSensitiveKeys();
    request.operatorName = who;
    request.reason = u"upstream sent quantity as text"_qs;
    request.now = Now;
    return request;
}

// Edits on a connection of its own (opened and closed on the calling thread).
PayloadEditResult editOn(const QString &urlText, const PayloadEditRequest &request)
{
    QString error;
    const auto connection = DbConnection::open(DatabaseUrl::parse(urlText, &error), {}, &error);
    if (!connection)
        return {PayloadEditResult::Outcome::Failed, error, 0, {}, {}};
    return PayloadEditor(connection->database()).edit(request);
}

// One revision row as text: "1 alice reason revealed PAYLOAD -> NEW at".
QStringList revisionLines(const QSqlDatabase &db)
{
    QStringList out;
    QSqlQuery query(db);
    query.exec(u"SELECT event_id, revision_no, operator, reason, revealed, payload, new_payload,"
               " created_at FROM payload_revision ORDER BY event_id, revision_no"_qs);
    while (query.next())
        out << u"%1 #%2 %3 '%4' revealed=%5 %6 -> %7 at %8"_qs.arg(query.value(0).toString(),
            query.value(1).toString(), query.value(2).toString(), query.value(3).toString(),
            query.value(4).toBool() ? u"yes"_qs : u"no"_qs, query.value(5).toString(),
            query.value(6).toString(), query.value(7).toString());
    return out;
}

} // namespace

class TestPayloadEdit : public QObject
{
    Q_OBJECT

private slots:
    void editKeepsTheOriginalAndReplays_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void editKeepsTheOriginalAndReplays()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        QVERIFY(populate(db));

        const QString edited = u"{\n  \"orderId\": 4711,\n  \"sku\": \"SKU-1\",\n"
                               "  \"quantity\": 3\n}"_qs;
        const PayloadEditResult result = PayloadEditor(db).edit(editOf(Original, edited));
        QVERIFY2(result.ok(), qPrintable(result.error));
        QCOMPARE(result.revisionNo, 1);
        QCOMPARE(result.diff, QStringList {u"~ quantity: 2 \u2192 3"_qs});
        QCOMPARE(PayloadDiff::summary(result.diff), u"1 changed"_qs);

        // Same event ID, PENDING and due now with its failures kept (one more attempt), the
        // new payload stored as compact JSON; the other events untouched.
        QCOMPARE(statusLines(db),
            (QStringList {u"E-1 PENDING 3"_qs, u"E-2 DEAD 1"_qs, u"E-3 DEAD 3"_qs,
                u"E-4 PENDING 0"_qs, u"E-5 DELIVERED 0"_qs}));
        const QString stored = u"{\"orderId\":4711,\"quantity\":3,\"sku\":\"SKU-1\"}"_qs;
        QCOMPARE(payloadOf(db, u"E-1"_qs), stored);
        QCOMPARE(
            count(db, u"SELECT next_attempt_at FROM delivery_outbox WHERE event_id = 'E-1'"_qs),
            Now);
        QCOMPARE(count(db,
                     u"SELECT COUNT(*) FROM delivery_outbox WHERE event_id = 'E-1'"
                     " AND claim_token IS NULL AND lease_until IS NULL"_qs),
            1);
        // The original kept in the revision; the replay recorded as every replay is.
        QCOMPARE(revisionLines(db),
            QStringList {u"E-1 #1 alice 'upstream sent quantity as text' revealed=no "_qs + Original
                + u" -> "_qs + stored + u" at 50000"_qs});
        QCOMPARE(auditLines(db, u"replay_log"_qs, u"replayed_at"_qs),
            QStringList {u"E-1 50000 alice upstream sent quantity as text 3"_qs});

        // Parked again and edited again: revision 2 holds the first edit's payload, revision 1
        // still the original.
        QVERIFY(exec(db, u"UPDATE delivery_outbox SET status = 'DEAD' WHERE event_id = 'E-1'"_qs));
        PayloadEditRequest second = editOf(stored,
            u"{\"orderId\":4711,\"sku\":\"SKU-1\","
            "\"quantity\":4}"_qs,
            u"bob"_qs);
        const PayloadEditResult again = PayloadEditor(db).edit(second);
        QVERIFY2(again.ok(), qPrintable(again.error));
        QCOMPARE(again.revisionNo, 2);
        const auto revisions = PayloadEditor(db).revisions(u"E-1"_qs, nullptr);
        QVERIFY(revisions);
        QCOMPARE(revisions->size(), 2);
        QCOMPARE(revisions->at(0).payload, Original);
        QCOMPARE(revisions->at(1).payload, stored);
        QCOMPARE(revisions->at(1).operatorName, u"bob"_qs);
        QCOMPARE(count(db, u"SELECT COUNT(*) FROM replay_log WHERE event_id = 'E-1'"_qs), 2);
    }

    void badInputChangesNothing_data()
    {
        TestDatabase::addEngineColumn();
        QTest::addColumn<QString>("payload");
        QTest::addColumn<QString>("reason");
        QTest::addColumn<QString>("error");
        const QString tenMb = u"{\"pad\":\""_qs + QString(10 * 1024 * 1024, u'x') + u"\"}"_qs;
        for (const char *engine : {"sqlite", "postgresql", "mysql"}) {
            const QString e = QString::fromLatin1(engine);
            QTest::addRow("%s: not JSON", engine)
                << e << u"{\n  \"quantity\": 3,\n  oops\n}"_qs << u"x"_qs
                << u"the new payload is not JSON: unterminated object at line 3, column 4; nothing edited"_qs;
            QTest::addRow("%s: a 10 MB edit", engine)
                << e << tenMb << u"x"_qs
                << u"the new payload is 10485770 bytes, larger than the 1 MiB an edit may be; "
                   "nothing edited"_qs;
            QTest::addRow("%s: blank reason", engine)
                << e << u"{\"quantity\":3}"_qs << u"  "_qs
                << u"a reason is required: payload_revision records why"_qs;
            QTest::addRow("%s: no change", engine)
                << e << u"{ \"sku\": \"SKU-1\", \"quantity\": 2, \"orderId\": 4711 }"_qs << u"x"_qs
                << u"the edited payload is the one E-1 already has: nothing to edit (replay it "
                   "as it is instead)"_qs;
        }
    }
    void badInputChangesNothing()
    {
        QFETCH(QString, engine);
        QFETCH(QString, payload);
        QFETCH(QString, reason);
        QFETCH(QString, error);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        QVERIFY(populate(db));
        const QStringList before = everything(db);

        PayloadEditRequest request = editOf(Original, payload);
        request.reason = reason;
        const PayloadEditResult result = PayloadEditor(db).edit(request);
        QCOMPARE(result.outcome, PayloadEditResult::Outcome::Refused);
        QCOMPARE(result.error, error);
        QCOMPARE(everything(db), before);
    }

    void racingEditorsOneWins_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void racingEditorsOneWins()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        QVERIFY(populate(db));

        // Both opened the editor on the same payload; they save at the same moment.
        const PayloadEditRequest alice = editOf(Original, u"{\"quantity\":3}"_qs, u"alice"_qs);
        const PayloadEditRequest bob = editOf(Original, u"{\"quantity\":7}"_qs, u"bob"_qs);
        PayloadEditResult first, second;
        std::latch start(2);
        std::thread a([&] {
            start.arrive_and_wait();
            first = editOn(database->url(), alice);
        });
        std::thread b([&] {
            start.arrive_and_wait();
            second = editOn(database->url(), bob);
        });
        a.join();
        b.join();
        QVERIFY2(first.ok() != second.ok(),
            qPrintable(u"alice: %1; bob: %2"_qs.arg(first.error, second.error)));
        const PayloadEditResult &winner = first.ok() ? first : second;
        const PayloadEditResult &loser = first.ok() ? second : first;
        QCOMPARE(loser.outcome, PayloadEditResult::Outcome::Conflict);
        QCOMPARE(loser.error,
            u"E-1 is no longer DEAD (it is PENDING: replayed or edited by someone else since you "
            "opened it): nothing edited"_qs);
        // One revision (holding the original), the winner's payload, one replay.
        QCOMPARE(payloadOf(db, u"E-1"_qs), winner.payload);
        QCOMPARE(count(db, u"SELECT COUNT(*) FROM payload_revision"_qs), 1);
        QCOMPARE(scalar(db, u"SELECT payload FROM payload_revision"_qs).toString(), Original);
        QCOMPARE(count(db, u"SELECT COUNT(*) FROM replay_log"_qs), 1);
        QCOMPARE(scalar(db, u"SELECT operator FROM payload_revision"_qs).toString(),
            first.ok() ? u"alice"_qs : u"bob"_qs);

        // Parked again with the winner's payload: the loser's editor, still on the original,
        // is told the payload changed under it, and nothing is written.
        QVERIFY(exec(db, u"UPDATE delivery_outbox SET status = 'DEAD' WHERE event_id = 'E-1'"_qs));
        const QStringList before = everything(db);
        const PayloadEditResult late = PayloadEditor(db).edit(first.ok() ? bob : alice);
        QCOMPARE(late.outcome, PayloadEditResult::Outcome::Conflict);
        QCOMPARE(late.error,
            u"the payload of E-1 was changed by someone else since you opened it: nothing "
            "edited; open it again to see their change"_qs);
        QCOMPARE(everything(db), before);
    }

    void redactedValuesKeptUnlessRevealed_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void redactedValuesKeptUnlessRevealed()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        const QString secret = u"{\"card\":{\"number\":\"4111111111111111\"},\"orderId\":4711,"
                               "\"password\":\"s3cret\"}"_qs;
        QVERIFY(populate(db, secret));
        const QStringList keys = Redaction::defaultSensitiveKeys();

        // The editor is given the payload masked.
        const QString shown = PayloadEditor::editableText(secret, keys, false);
        QVERIFY2(!shown.contains(u"s3cret"_qs) && !shown.contains(u"4111"_qs), qPrintable(shown));
        QVERIFY2(shown.contains(u"\"password\": \"***\""_qs), qPrintable(shown));

        // Changing a redacted value without revealing it: refused, nothing written.
        const QStringList before = everything(db);
        QString changed = shown;
        changed.replace(u"\"password\": \"***\""_qs, u"\"password\": \"guess\""_qs);
        const PayloadEditResult hidden = PayloadEditor(db).edit(editOf(secret, changed));
        QCOMPARE(hidden.outcome, PayloadEditResult::Outcome::Refused);
        QCOMPARE(hidden.error,
            u"the edit changes or removes the redacted value of password: reveal the redacted "
            "values first (the reveal is recorded) to change them; nothing edited"_qs);
        QCOMPARE(everything(db), before);

        // Another key edited, the masks left as they were: the stored values are kept, and
        // the diff shows no secret.
        QString other = shown;
        other.replace(u"4711"_qs, u"4712"_qs);
        const PayloadEditResult kept = PayloadEditor(db).edit(editOf(secret, other));
        QVERIFY2(kept.ok(), qPrintable(kept.error));
        QCOMPARE(payloadOf(db, u"E-1"_qs),
            u"{\"card\":{\"number\":\"4111111111111111\"},\"orderId\":4712,"
            "\"password\":\"s3cret\"}"_qs);
        QCOMPARE(kept.diff, QStringList {u"~ orderId: 4711 \u2192 4712"_qs});
        QCOMPARE(scalar(db, u"SELECT revealed FROM payload_revision"_qs).toBool(), false);

        // Revealed: the operator saw the values and changes one; the reveal is recorded.
        QVERIFY(exec(db, u"UPDATE delivery_outbox SET status = 'DEAD' WHERE event_id = 'E-1'"_qs));
        const QString current = payloadOf(db, u"E-1"_qs);
        QString revealedText = PayloadEditor::editableText(current, keys, true);
        QVERIFY(revealedText.contains(u"s3cret"_qs));
        revealedText.replace(u"s3cret"_qs, u"rotated"_qs);
        PayloadEditRequest reveal = editOf(current, revealedText);
        reveal.revealed = true;
        const PayloadEditResult shownResult = PayloadEditor(db).edit(reveal);
        QVERIFY2(shownResult.ok(), qPrintable(shownResult.error));
        QCOMPARE(shownResult.diff, QStringList {u"~ password: \"s3cret\" \u2192 \"rotated\""_qs});
        QCOMPARE(count(db, u"SELECT COUNT(*) FROM payload_revision WHERE revealed = TRUE"_qs), 1);
        QVERIFY(payloadOf(db, u"E-1"_qs).contains(u"\"password\":\"rotated\""_qs));
    }

    void readOnlyConnectionRefused_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void readOnlyConnectionRefused()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        QVERIFY(populate(db));
        const QStringList before = everything(db);

        QString error;
        OpenOptions options;
        options.readOnly = true;
        const auto readOnly
            = DbConnection::open(DatabaseUrl::parse(database->url(), &error), options, &error);
        QVERIFY2(readOnly, qPrintable(error));
        const PayloadEditResult refused
            = PayloadEditor(readOnly->database(), {}, true).edit(editOf(Original, u"[1]"_qs));
        QCOMPARE(refused.outcome, PayloadEditResult::Outcome::Refused);
        QCOMPARE(refused.error, u"the connection is read-only: nothing edited"_qs);
        QCOMPARE(everything(db), before);
    }

    void commandLineEditAndDryRun_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void commandLineEditAndDryRun()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        QVERIFY(populate(db, u"{\"quantity\":\"2\",\"token\":\"t-1\"}"_qs));
        QTemporaryDir dir;
        const QString file = ScratchFile::write(
            dir, u"fixed.json"_qs, "{\n  \"quantity\": 2,\n  \"token\": \"***\"\n}\n");
        QVERIFY(!file.isEmpty());
        const QStringList edit = {u"replay"_qs, u"--db"_qs, database->url(), u"--event"_qs,
            u"E-1"_qs, u"--now"_qs, u"70000"_qs};
        const QStringList who = {u"--operator"_qs, u"alice"_qs, u"--reason"_qs, u"UP-412"_qs};
        const QStringList before = everything(db);

        const Run dry = outboxctl(edit + QStringList {u"--edit"_qs, file, u"--dry-run"_qs});
        QCOMPARE(dry.exitCode, 0);
        QCOMPARE(dry.out,
            (QStringList {u"dry run, nothing changed: would edit E-1 (revision 1: 1 changed) and "
                          "replay it"_qs,
                u"  ~ quantity: \"2\" \u2192 2"_qs}));
        QCOMPARE(everything(db), before);

        // A FIFO, a device and an oversized file: refused before a byte is read, nothing changed.
        for (const QString &kind : {u"fifo"_qs, u"/dev/zero"_qs, u"big"_qs}) {
            const QString hostile = HostileFile::make(dir, kind);
            QVERIFY(!hostile.isEmpty());
            const Run refused = outboxctl(edit + who + QStringList {u"--edit"_qs, hostile});
            QCOMPARE(refused.exitCode, 2);
            QCOMPARE(refused.err.size(), 1);
            QVERIFY2(refused.err.constFirst().contains(u"payload file"_qs),
                qPrintable(refused.err.constFirst()));
        }
        QCOMPARE(everything(db), before);

        const Run done = outboxctl(edit + who + QStringList {u"--edit"_qs, file, u"--json"_qs});
        QCOMPARE(done.exitCode, 0);
        QCOMPARE(done.out,
            QStringList {u"{\"diff\":[\"~ quantity: \\\"2\\\" \u2192 2\"],\"replayed\":[\"E-1\"],"
                         "\"revision\":1,\"skipped\":[]}"_qs});
        QCOMPARE(payloadOf(db, u"E-1"_qs), u"{\"quantity\":2,\"token\":\"t-1\"}"_qs);
        QCOMPARE(revisionLines(db),
            QStringList {u"E-1 #1 alice 'UP-412' revealed=no {\"quantity\":\"2\",\"token\":\"t-1\"}"
                         " -> {\"quantity\":2,\"token\":\"t-1\"} at 70000"_qs});
        // Again: no longer DEAD, a skip as replay's (exit 0), nothing written.
        const Run again = outboxctl(edit + who + QStringList {u"--edit"_qs, file});
        QCOMPARE(again.exitCode, 0);
        QCOMPARE(again.out,
            QStringList {
                u"replayed 0 events; skipped 1: E-1 (not DEAD: it is PENDING): nothing edited"_qs});
        QCOMPARE(count(db, u"SELECT COUNT(*) FROM payload_revision"_qs), 1);
        // Two events, or none: an edit is one event's.
        const Run two
            = outboxctl(edit + who + QStringList {u"--event"_qs, u"E-2"_qs, u"--edit"_qs, file});
        QCOMPARE(two.exitCode, 2);
        QCOMPARE(two.err,
            QStringList {u"outboxctl: replay: --edit takes exactly one --event ID: an edit is "
                         "one event's payload"_qs});
    }

    // The edit takes OperatorJob's path, so a lost answer to its COMMIT (CommitCutter, after the
    // job's replay_log row) is replay's "outcome unknown": exit 2, the event named once, and the
    // edit made once (one revision, one replay_log row); a rerun finds it no longer DEAD.
    void lostCommitAnswerIsOutcomeUnknown_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::newRow("postgresql") << u"postgresql"_qs;
        QTest::newRow("mysql") << u"mysql"_qs;
    }
    void lostCommitAnswerIsOutcomeUnknown()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        QVERIFY(populate(db));
        QTemporaryDir dir;
        const QString file = ScratchFile::write(
            dir, u"fixed.json"_qs, "{\"orderId\":4711,\"sku\":\"SKU-1\",\"quantity\":5}");
        QVERIFY(!file.isEmpty());
        qputenv("PGSSLMODE", "disable"); // the proxy reads the statements' text
        QUrl proxied(database->url());
        CommitCutter cutter(proxied.port(), "INSERT INTO replay_log");
        QVERIFY(cutter.port() > 0);
        proxied.setPort(cutter.port());
        const auto edit = [&file](const QString &url) {
            return outboxctl({u"replay"_qs, u"--db"_qs, url, u"--event"_qs, u"E-1"_qs, u"--edit"_qs,
                file, u"--operator"_qs, u"alice"_qs, u"--reason"_qs, u"UP-412"_qs, u"--now"_qs,
                u"70000"_qs});
        };
        const Run run = edit(proxied.toString());
        QVERIFY(cutter.hasCut());
        QCOMPARE(run.exitCode, 2);
        const QStringList own = run.err.filter(QRegularExpression(u"^outboxctl: "_qs));
        QVERIFY2(own.size() == 1, qPrintable(run.err.join(u'\n')));
        const QString line = own.constFirst();
        QVERIFY2(line.contains(u"outcome unknown: E-1 \u2014 check it: outboxctl explain E-1"_qs)
                && line.contains(u"(editing E-1: its COMMIT got no answer: "_qs),
            qPrintable(line));
        QVERIFY2(payloadOf(db, u"E-1"_qs).contains(u"\"quantity\":5"_qs),
            qPrintable(payloadOf(db, u"E-1"_qs)));
        QCOMPARE(count(db, u"SELECT COUNT(*) FROM payload_revision"_qs), 1);
        QCOMPARE(count(db, u"SELECT COUNT(*) FROM replay_log"_qs), 1);

        const Run rerun = edit(database->url());
        QCOMPARE(rerun.exitCode, 0);
        QCOMPARE(rerun.out,
            QStringList {
                u"replayed 0 events; skipped 1: E-1 (not DEAD: it is PENDING): nothing edited"_qs});
        QCOMPARE(count(db, u"SELECT COUNT(*) FROM payload_revision"_qs), 1);
    }

    void versionTwoSchemaRefusedUntilMigrated_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void versionTwoSchemaRefusedUntilMigrated()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        QVERIFY(populate(db));
        // A database made by a version 2 program: no payload_revision.
        QVERIFY(exec(db, u"DROP TABLE payload_revision"_qs));
        QVERIFY(
            exec(db, u"UPDATE outbox_meta SET value = '2' WHERE \"key\" = 'schema_version'"_qs));
        const QStringList before = everything(db);

        const QString refusal = u"the schema is version 2, older than this program's version 3"_qs;
        const PayloadEditResult refused = PayloadEditor(db).edit(editOf(Original, u"[1]"_qs));
        QCOMPARE(refused.outcome, PayloadEditResult::Outcome::Refused);
        QVERIFY2(refused.error.startsWith(refusal)
                && refused.error.contains(u"`outboxctl migrate --db URL`"_qs)
                && refused.error.endsWith(u"; nothing edited"_qs),
            qPrintable(refused.error));
        QTemporaryDir dir;
        const QString file = ScratchFile::write(dir, u"new.json"_qs, "{\"quantity\":3}");
        QVERIFY(!file.isEmpty());
        const QStringList edit = {u"replay"_qs, u"--db"_qs, database->url(), u"--event"_qs,
            u"E-1"_qs, u"--edit"_qs, file, u"--operator"_qs, u"alice"_qs, u"--reason"_qs, u"x"_qs};
        const Run cli = outboxctl(edit);
        QCOMPARE(cli.exitCode, 2);
        QCOMPARE(cli.err, QStringList {u"outboxctl: replay: "_qs + refused.error});
        QCOMPARE(everything(db), before);

        // migrate adds the table (nothing else does); then the edit goes through.
        const Run migrate = outboxctl({u"migrate"_qs, u"--db"_qs, database->url()});
        QVERIFY2(migrate.exitCode == 0, qPrintable(migrate.err.join(u'\n')));
        QVERIFY(!db.record(u"payload_revision"_qs).isEmpty());
        const Run edited = outboxctl(edit);
        QVERIFY2(edited.exitCode == 0, qPrintable(edited.err.join(u'\n')));
        QCOMPARE(count(db, u"SELECT COUNT(*) FROM payload_revision"_qs), 1);
        QCOMPARE(payloadOf(db, u"E-1"_qs), u"{\"quantity\":3}"_qs);
    }

    // What an edit cannot do: the consumer applied the event, its acknowledgement was lost, the
    // budget ran out on transport failures and the event went DEAD. Edited and replayed, it
    // reaches the consumer with the new payload under the same event ID, and the consumer
    // answers DUPLICATE: it keeps the first payload's effect, the new one is ignored.
    void appliedEventAnswersDuplicateAfterAnEdit_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void appliedEventAnswersDuplicateAfterAnEdit()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        QVERIFY(exec(db, u"INSERT INTO consumer_stock (sku, quantity) VALUES ('SKU-1', 100)"_qs));

        OutboxStore store(db);
        RetryPolicy policy;
        QString error;
        QVERIFY2(RetryPolicy::parse(u"fixed:10"_qs, &policy, &error), qPrintable(error));
        store.setRetryPolicy(policy);
        store.setBudget({3, 0});
        QVERIFY(store.insertEvent({u"E-1"_qs, u"Order"_qs, u"O-1"_qs, u"StockReserved"_qs,
            u"{\"sku\":\"SKU-1\",\"quantity\":2}"_qs, 0}));
        FakeTransport transport(db);
        transport.setScript({FakeTransport::Fault::LostAck, FakeTransport::Fault::Transient,
            FakeTransport::Fault::Transient});
        qint64 now = 0;
        QString status;
        for (int attempt = 1; attempt <= 3; ++attempt) {
            const ClaimResult claimed = store.claim(u"E-1"_qs, u"relay-1"_qs, now);
            QVERIFY2(claimed.ok, qPrintable(claimed.reason));
            const Delivery delivery = transport.deliver(claimed.claim, now);
            QVERIFY(!delivery.succeeded());
            const FailResult failed
                = store.fail(claimed.claim, now, delivery.category(), delivery.error);
            QVERIFY(failed.ok);
            status = failed.status;
            now = status == u"DEAD"_qs ? now + 5 : failed.nextAttemptAt; // the edit comes later
        }
        QCOMPARE(status, u"DEAD"_qs);
        // The first attempt was applied: the stock went down by 2, once.
        QCOMPARE(count(db, u"SELECT quantity FROM consumer_stock WHERE sku = 'SKU-1'"_qs), 98);

        const QString original = payloadOf(db, u"E-1"_qs);
        PayloadEditRequest request = editOf(original, u"{\"sku\":\"SKU-1\",\"quantity\":5}"_qs);
        request.now = now;
        const PayloadEditResult edited = PayloadEditor(db).edit(request);
        QVERIFY2(edited.ok(), qPrintable(edited.error));

        const ClaimResult claimed = store.claim(u"E-1"_qs, u"relay-1"_qs, now);
        QVERIFY2(claimed.ok, qPrintable(claimed.reason));
        QCOMPARE(claimed.claim.payload, u"{\"quantity\":5,\"sku\":\"SKU-1\"}"_qs);
        const Delivery delivery = transport.deliver(claimed.claim, now);
        QCOMPARE(delivery.outcome, Delivery::Outcome::Duplicate);
        QVERIFY(store.ack(claimed.claim, now, delivery.consumerResult()).ok);
        // The consumer kept the first payload's effect: 98, not 95; one ledger row.
        QCOMPARE(count(db, u"SELECT quantity FROM consumer_stock WHERE sku = 'SKU-1'"_qs), 98);
        QCOMPARE(count(db, u"SELECT COUNT(*) FROM consumer_ledger"_qs), 1);
        QCOMPARE(scalar(db, u"SELECT status FROM delivery_outbox"_qs).toString(), u"DELIVERED"_qs);
        QCOMPARE(scalar(db,
                     u"SELECT consumer_result FROM delivery_attempt"
                     " ORDER BY attempt_no DESC"_qs)
                     .toString(),
            u"DUPLICATE"_qs);
        // The lineage says which payload each attempt carried.
        const auto lineage = PayloadEditor(db).lineage(u"E-1"_qs, {}, nullptr);
        QVERIFY(lineage);
        QCOMPARE(lineage->size(), 2);
        QVERIFY2(
            lineage->at(0).startsWith(u"Revision 1 by alice at "_qs), qPrintable(lineage->at(0)));
        QCOMPARE(lineage->at(1),
            u"Attempts 1\u20133 carried the original payload; attempt 4 carried revision 1"_qs);
    }
};

OUTBOX_TEST_MAIN(TestPayloadEdit, QCoreApplication)
#include "tst_payloadedit.moc"
