// `outboxctl diagnose`, `errors`, `explain` and `replay --error-group` / `--dry-run` as an
// operator runs them, on SQLite and PostgreSQL: exit codes (0 healthy, 1 a warning or critical
// finding, 2 bad input or an unknown event), the JSON shapes of the contract, times in words
// (ISO 8601, never epoch ms), `errors --now`, a group replayed and nothing else,
// a dry run that leaves every table as it was, and through each built-in profile the codes
// that its schema cannot check.
#include "fixturescript.h"
#include "outboxctlrun.h"
#include "outboxrows.h"
#include "testdata.h"
#include "testdatabase.h"
#include "testmain.h"
#include "timeformat.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace {

constexpr qint64 T = 1796115783000; // 2026-12-01 09:03:03 UTC
const QString Now = QString::number(T);

QJsonObject jsonOf(const Run &run)
{
    return run.out.size() == 1 ? QJsonDocument::fromJson(run.out.constFirst().toUtf8()).object()
                               : QJsonObject();
}

QStringList keysOf(const QJsonObject &object)
{
    return object.keys();
}

QStringList allCodes()
{
    return {u"relay_stalled"_qs, u"lease_expired_unclaimed"_qs, u"dominant_error"_qs,
        u"poison_type"_qs, u"retry_herd"_qs, u"dead_rising"_qs, u"future_schedule"_qs,
        u"created_in_future"_qs, u"created_at_on_update"_qs, u"blocked_aggregate"_qs,
        u"dead_events"_qs};
}

QStringList strings(const QJsonValue &value)
{
    QStringList out;
    for (const QJsonValue &item : value.toArray())
        out << item.toString();
    return out;
}

OutboxRow dead(
    const QString &id, const QString &type, const QString &error, const QString &category)
{
    OutboxRow row;
    row.id = id;
    row.status = u"DEAD"_qs;
    row.createdAt = T - 3600000;
    row.nextAttemptAt = T - 3000000;
    row.failures = 1;
    row.category = category;
    row.error = error;
    row.type = type;
    return row;
}

// 12 DEAD events refused for good with one error (order numbers differ), 2 others, 1 PENDING.
bool populate(const QSqlDatabase &db)
{
    for (int i = 0; i < 12; ++i) {
        if (!insertRow(db,
                dead(u"G-"_qs + QString::number(i), i % 2 ? u"OrderPlaced"_qs : u"StockReserved"_qs,
                    u"HTTP 400 Bad Request for order "_qs + QString::number(1000 + i),
                    u"PERMANENT"_qs)))
            return false;
    }
    OutboxRow pending;
    pending.id = u"P-1"_qs;
    pending.createdAt = T - 1000;
    pending.nextAttemptAt = T + 60000;
    return insertRow(db, dead(u"O-1"_qs, u"OrderPlaced"_qs, u"timeout"_qs, u"TRANSIENT"_qs))
        && insertRow(
            db, dead(u"O-2"_qs, u"PaymentCaptured"_qs, u"reset by peer"_qs, u"TRANSIENT"_qs))
        && insertRow(db, pending);
}

// Human output tells times as ISO 8601 or "t=..", ages in units: never an epoch in ms (13
// digits). The database's name is left out, which may hold digits of its own.
bool hasEpochMs(const Run &run, const QString &url)
{
    static const QRegularExpression epoch(u"(?<!\\d)\\d{13}(?!\\d)"_qs);
    return run.out.join(u"\n"_qs).remove(url).contains(epoch);
}

// A word as a POSIX shell reads it: '...' quoted parts joined, \' outside quotes a quote.
QString unquoted(const QString &word)
{
    QString text;
    bool quoted = false;
    for (qsizetype i = 0; i < word.size(); ++i) {
        const QChar c = word.at(i);
        if (c == u'\'')
            quoted = !quoted;
        else if (!quoted && c == u'\\' && i + 1 < word.size())
            text += word.at(++i);
        else
            text += c;
    }
    return text;
}

QStringList deadIds(const QSqlDatabase &db)
{
    QStringList ids;
    QSqlQuery query(db);
    query.exec(u"SELECT event_id FROM delivery_outbox WHERE status = 'DEAD' ORDER BY event_id"_qs);
    while (query.next())
        ids << query.value(0).toString();
    return ids;
}

} // namespace

class TestOutboxctlDiagnose : public QObject
{
    Q_OBJECT

private slots:
    void diagnoseExitCodesAndJson_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void diagnoseExitCodesAndJson()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QStringList diagnose
            = {u"diagnose"_qs, u"--db"_qs, database->url(), u"--now"_qs, Now};

        Run run = outboxctl(diagnose + QStringList {u"--json"_qs});
        QCOMPARE(run.exitCode, 0);
        const QString codes = u"\""_qs + allCodes().join(u"\",\""_qs) + u"\""_qs;
        QCOMPARE(run.out.constFirst(),
            u"{\"checked\":["_qs + codes + u"],\"findings\":[],\"not_checked\":[],\"now\":"_qs + Now
                + u"}"_qs);
        run = outboxctl(diagnose);
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.contains(u"no findings: healthy"_qs));

        // Due for two minutes, nothing ever attempted: the relay is stalled.
        OutboxRow due;
        due.id = u"S-1"_qs;
        due.createdAt = due.nextAttemptAt = T - 120000;
        QVERIFY(insertRow(connection->database(), due));
        run = outboxctl(diagnose + QStringList {u"--json"_qs});
        QCOMPARE(run.exitCode, 1);
        const QJsonObject json = jsonOf(run);
        QCOMPARE(keysOf(json),
            QStringList({u"checked"_qs, u"findings"_qs, u"not_checked"_qs, u"now"_qs}));
        const QJsonArray findings = json.value(u"findings"_qs).toArray();
        QCOMPARE(findings.size(), 1);
        const QJsonObject finding = findings.at(0).toObject();
        QCOMPARE(keysOf(finding),
            QStringList({u"action"_qs, u"code"_qs, u"count"_qs, u"evidence"_qs, u"severity"_qs,
                u"summary"_qs}));
        QCOMPARE(finding.value(u"code"_qs).toString(), u"relay_stalled"_qs);
        QCOMPARE(finding.value(u"severity"_qs).toString(), u"critical"_qs);
        QCOMPARE(finding.value(u"count"_qs).toInt(), 1);
        QCOMPARE(finding.value(u"evidence"_qs).toObject().value(u"oldest_due_ms"_qs).toInteger(),
            120000);

        run = outboxctl(diagnose);
        QCOMPARE(run.exitCode, 1);
        QVERIFY(run.out.constFirst().startsWith(u"diagnosis of "_qs));
        QVERIFY2(run.out.constFirst().endsWith(u" at "_qs + TimeFormat::isoLocal(T)),
            qPrintable(run.out.constFirst()));
        QVERIFY(run.out.indexOf(u"CRITICAL relay_stalled (1)"_qs) > 0);
        QVERIFY2(!hasEpochMs(run, database->url()), qPrintable(run.out.join(u"\n"_qs)));

        run = outboxctl({u"diagnose"_qs, u"--db"_qs, database->url(), u"--now"_qs, u"soon"_qs});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.constFirst().startsWith(u"outboxctl: diagnose: --now must be"_qs));
        QCOMPARE(outboxctl({u"diagnose"_qs}).exitCode, 2);
    }

    // `diagnose` and `check` tell the DEAD tile's story: a DEAD event is a warning (the tile is
    // amber: check, which judges red tiles, is still healthy), ten a critical finding and a
    // failed check; the finding names the tile's limit.
    void deadEventsAgreeWithCheck_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void deadEventsAgreeWithCheck()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QStringList diagnose
            = {u"diagnose"_qs, u"--db"_qs, database->url(), u"--now"_qs, Now};
        const QStringList check = {u"check"_qs, u"--db"_qs, database->url(), u"--now"_qs, Now};
        const auto addDead = [&](int first, int count) {
            for (int i = first; i < first + count; ++i) {
                if (!insertRow(connection->database(),
                        dead(u"D-"_qs + QString::number(i), u"OrderPlaced"_qs,
                            u"refused "_qs + QString(i + 1, u'x'), u"PERMANENT"_qs)))
                    return false;
            }
            return true;
        };
        QVERIFY(addDead(0, 1));
        Run run = outboxctl(diagnose);
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.out.contains(u"WARNING dead_events (1)"_qs), qPrintable(run.out.join(u'\n')));
        QVERIFY(run.out.contains(u"  1 event is DEAD (the DEAD tile is amber from 1): each waits "
                                 "for an operator to replay or resolve it."_qs));
        QCOMPARE(outboxctl(check).exitCode, 0);

        QVERIFY(addDead(1, 9));
        run = outboxctl(diagnose + QStringList {u"--json"_qs});
        QCOMPARE(run.exitCode, 1);
        const QJsonObject finding = jsonOf(run).value(u"findings"_qs).toArray().at(0).toObject();
        QCOMPARE(finding.value(u"code"_qs).toString(), u"dead_events"_qs);
        QCOMPARE(finding.value(u"severity"_qs).toString(), u"critical"_qs);
        QCOMPARE(finding.value(u"count"_qs).toInt(), 10);
        QCOMPARE(finding.value(u"evidence"_qs).toObject().value(u"red_from"_qs).toInt(), 10);
        run = outboxctl(check);
        QCOMPARE(run.exitCode, 1);
        QCOMPARE(run.out.constLast(), u"UNHEALTHY: DEAD is 10, red from 10"_qs);
        // The finding says the tile's limit in the same words.
        run = outboxctl(diagnose);
        QVERIFY2(
            run.out.contains(u"  10 events are DEAD (the DEAD tile is red from 10): each waits "
                             "for an operator to replay or resolve it."_qs),
            qPrintable(run.out.join(u'\n')));
    }

    void errorsListsGroupsAndReplayTakesOne_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void errorsListsGroupsAndReplayTakesOne()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        QVERIFY(populate(connection->database()));

        Run run = outboxctl({u"errors"_qs, u"--db"_qs, database->url(), u"--json"_qs});
        QCOMPARE(run.exitCode, 0);
        const QJsonArray groups = jsonOf(run).value(u"groups"_qs).toArray();
        QCOMPARE(groups.size(), 3);
        const QJsonObject top = groups.at(0).toObject();
        const QString signature = u"HTTP <n> Bad Request for order <n>"_qs;
        QCOMPARE(top.value(u"signature"_qs).toString(), signature);
        QCOMPARE(top.value(u"count"_qs).toInt(), 12);
        QCOMPARE(top.value(u"category"_qs).toString(), u"PERMANENT"_qs);
        QCOMPARE(top.value(u"event_types"_qs).toObject().keys(),
            QStringList({u"OrderPlaced"_qs, u"StockReserved"_qs}));
        QVERIFY(top.contains(u"first_seen"_qs) && top.contains(u"last_seen"_qs));
        run = outboxctl({u"errors"_qs, u"--db"_qs, database->url()});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(top.value(u"error_group"_qs).toString(), signature);
        QCOMPARE(top.value(u"retrying"_qs).toInt(), 0);
        QCOMPARE(
            run.out.constFirst(), signature + u": 12 events (12 DEAD, 0 retrying), PERMANENT"_qs);
        QCOMPARE(run.out.at(1), u"  --error-group 'HTTP <n> Bad Request for order <n>'"_qs);

        // --now, as every read command takes it: a failure on --now's day reads as a clock
        // time, on another day with its date.
        AttemptRow attempt;
        attempt.eventId = u"O-1"_qs;
        attempt.claimedAt = T - 3000500;
        attempt.finishedAt = T - 3000000; // 2026-12-01 08:13:03 UTC
        attempt.outcome = u"DEAD"_qs;
        attempt.error = u"timeout"_qs;
        QVERIFY(insertAttempt(connection->database(), attempt));
        const QStringList errors = {u"errors"_qs, u"--db"_qs, database->url(), u"--now"_qs};
        run = outboxctl(errors + QStringList {Now});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains(
                     u"  first seen 08:13:03 (50 min ago), last seen 08:13:03 (50 min ago)"_qs),
            qPrintable(run.out.join(u"\n"_qs)));
        run = outboxctl(errors + QStringList {QString::number(T + 2 * 86400000LL)});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(
            run.out.contains(u"  first seen 2026-12-01 08:13:03 (2 d ago), last seen 2026-12-01 "
                             "08:13:03 (2 d ago)"_qs),
            qPrintable(run.out.join(u"\n"_qs)));
        run = outboxctl(errors + QStringList {u"soon"_qs});
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(run.err,
            QStringList {u"outboxctl: errors: --now must be a whole number from 0 to "
                         "9007199254740992, not 'soon'"_qs});

        // An unknown group: exit 2, nothing replayed.
        const QStringList replay = {u"replay"_qs, u"--db"_qs, database->url(), u"--operator"_qs,
            u"alice"_qs, u"--reason"_qs, u"consumer fixed"_qs, u"--now"_qs, Now, u"--json"_qs};
        run = outboxctl(replay + QStringList {u"--error-group"_qs, u"no such error"_qs});
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(deadIds(connection->database()).size(), 14);

        run = outboxctl(replay + QStringList {u"--error-group"_qs, signature});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(jsonOf(run).value(u"replayed"_qs).toArray().size(), 12);
        QCOMPARE(deadIds(connection->database()), QStringList({u"O-1"_qs, u"O-2"_qs}));
        QCOMPARE(scalar(connection->database(), u"SELECT COUNT(*) FROM replay_log"_qs).toInt(), 12);
    }

    // What `errors` prints as a group's key is what --error-group takes: each printed key, fed
    // back to `replay --dry-run`, selects that group's DEAD events and no others. A note and
    // its marker show under the group, as on the Errors page.
    void errorsKeyIsWhatErrorGroupTakes_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void errorsKeyIsWhatErrorGroupTakes()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        QVERIFY(populate(connection->database()));
        // A quote in an error: the key must come back through the shell quoting.
        QVERIFY(insertRow(connection->database(),
            dead(u"Q-1"_qs, u"OrderPlaced"_qs, u"can't parse payload"_qs, u"PERMANENT"_qs)));
        const Run run = outboxctl({u"errors"_qs, u"--db"_qs, database->url(), u"--now"_qs, Now});
        QCOMPARE(run.exitCode, 0);
        const QJsonArray groups
            = jsonOf(outboxctl({u"errors"_qs, u"--db"_qs, database->url(), u"--json"_qs}))
                  .value(u"groups"_qs)
                  .toArray();
        QStringList keys;
        for (const QString &line : run.out) {
            if (line.startsWith(u"  --error-group "_qs))
                keys << unquoted(line.mid(16));
        }
        QCOMPARE(keys.size(), groups.size());
        QCOMPARE(keys.size(), 4);
        for (int i = 0; i < keys.size(); ++i) {
            const QJsonObject group = groups.at(i).toObject();
            QCOMPARE(keys.at(i), group.value(u"error_group"_qs).toString());
            const Run dry = outboxctl({u"replay"_qs, u"--db"_qs, database->url(),
                u"--error-group"_qs, keys.at(i), u"--dry-run"_qs, u"--now"_qs, Now, u"--json"_qs});
            QVERIFY2(dry.exitCode == 0, qPrintable(keys.at(i) + dry.err.join(u'\n')));
            const QJsonObject plan = jsonOf(dry);
            QCOMPARE(plan.value(u"events"_qs).toInt(), group.value(u"dead"_qs).toInt());
            QCOMPARE(plan.value(u"by_error_group"_qs).toObject().keys(), QStringList {keys.at(i)});
        }

        // An on-hold note on the biggest group: errors shows it, marker and author.
        const QString signature = u"HTTP <n> Bad Request for order <n>"_qs;
        const Run note = outboxctl({u"note"_qs, u"add"_qs, u"--db"_qs, database->url(),
            u"--error-group"_qs, signature, u"--operator"_qs, u"alice"_qs, u"--text"_qs,
            u"do not replay until the fix deploys"_qs, u"--marker"_qs, u"on-hold"_qs});
        QVERIFY2(note.exitCode == 0, qPrintable(note.err.join(u'\n')));
        const Run noted = outboxctl({u"errors"_qs, u"--db"_qs, database->url(), u"--now"_qs, Now});
        QVERIFY2(
            noted.out.contains(u"  note: ON-HOLD by alice: do not replay until the fix deploys"_qs),
            qPrintable(noted.out.join(u'\n')));
        const QJsonObject top
            = jsonOf(outboxctl({u"errors"_qs, u"--db"_qs, database->url(), u"--json"_qs}))
                  .value(u"groups"_qs)
                  .toArray()
                  .at(0)
                  .toObject();
        QCOMPARE(top.value(u"marker"_qs).toString(), u"on-hold"_qs);
        QCOMPARE(top.value(u"note_by"_qs).toString(), u"alice"_qs);
    }

    void dryRunShowsAndChangesNothing_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void dryRunShowsAndChangesNothing()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        QVERIFY(populate(connection->database()));
        const QStringList before = everyRow(connection->database());

        const QStringList dryRun = {u"replay"_qs, u"--db"_qs, database->url(), u"--all-dead"_qs,
            u"--dry-run"_qs, u"--spread-ms"_qs, u"70000"_qs, u"--now"_qs, Now};
        Run run = outboxctl(dryRun + QStringList {u"--json"_qs});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(everyRow(connection->database()), before);
        const QJsonObject json = jsonOf(run);
        QCOMPARE(json.value(u"dry_run"_qs).toBool(), true);
        QCOMPARE(json.value(u"events"_qs).toInt(), 14);
        QCOMPARE(json.value(u"by_type"_qs).toObject().value(u"OrderPlaced"_qs).toInt(), 7);
        QCOMPARE(json.value(u"by_error_group"_qs)
                     .toObject()
                     .value(u"HTTP <n> Bad Request for order <n>"_qs)
                     .toInt(),
            12);
        QCOMPARE(json.value(u"first_due"_qs).toInteger(), T);
        QCOMPARE(json.value(u"last_due"_qs).toInteger(), T + 65000); // 13 * 70000 / 14
        QVERIFY(json.value(u"warning"_qs)
                    .toString()
                    .startsWith(u"likely to fail again: fix the consumer first"_qs));

        // The same in words: times as ISO 8601, the spread in units, never epoch ms.
        run = outboxctl(dryRun);
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains(u"  due: from "_qs + TimeFormat::isoLocal(T) + u" to "_qs
                     + TimeFormat::isoLocal(T + 65000) + u" (spread over 1 min 10 s)"_qs),
            qPrintable(run.out.join(u"\n"_qs)));
        QVERIFY2(!hasEpochMs(run, database->url()), qPrintable(run.out.join(u"\n"_qs)));
        // --spread takes units (--spread-ms, its old spelling, whole ms): the same window.
        run = outboxctl({u"replay"_qs, u"--db"_qs, database->url(), u"--all-dead"_qs,
            u"--dry-run"_qs, u"--spread"_qs, u"70s"_qs, u"--now"_qs, Now, u"--json"_qs});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(jsonOf(run).value(u"spread_ms"_qs).toInteger(), 70000);
        QCOMPARE(jsonOf(run).value(u"last_due"_qs).toInteger(), T + 65000);

        // Listed by ID: the PENDING one is skipped, and says why.
        run = outboxctl({u"replay"_qs, u"--db"_qs, database->url(), u"--event"_qs, u"O-1"_qs,
            u"--event"_qs, u"P-1"_qs, u"--dry-run"_qs, u"--now"_qs, Now});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out.constFirst(),
            u"dry run, nothing changed: would replay 1 event with one more attempt each"_qs);
        QVERIFY(
            run.out.contains(u"  due: all at "_qs + TimeFormat::isoLocal(T) + u" (no spread)"_qs));
        QVERIFY(run.out.contains(u"  would skip 1: P-1 (not DEAD: it is PENDING)"_qs));
        // An unknown one: exit 2, named, as the replay itself would refuse it.
        run = outboxctl({u"replay"_qs, u"--db"_qs, database->url(), u"--event"_qs, u"O-1"_qs,
            u"--event"_qs, u"NOPE"_qs, u"--dry-run"_qs, u"--now"_qs, Now});
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(run.err,
            QStringList {u"outboxctl: replay: no event with ID 'NOPE'; nothing changed"_qs});
        QCOMPARE(everyRow(connection->database()), before);
    }

    void explainPrintsTheContract_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void explainPrintsTheContract()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        QVERIFY(populate(connection->database()));
        const QStringList explain = {u"explain"_qs, u"--db"_qs, database->url(), u"--now"_qs, Now};

        Run run = outboxctl(explain + QStringList {u"--event"_qs, u"G-0"_qs, u"--json"_qs});
        QCOMPARE(run.exitCode, 0);
        const QJsonObject json = jsonOf(run);
        QCOMPARE(keysOf(json),
            QStringList(
                {u"advice"_qs, u"event_id"_qs, u"explanation"_qs, u"facts"_qs, u"state"_qs}));
        QCOMPARE(json.value(u"state"_qs).toString(), u"DEAD"_qs);
        QCOMPARE(json.value(u"advice"_qs).toObject(),
            (QJsonObject {{u"action"_qs, u"replay_event"_qs}, {u"subject"_qs, u"G-0"_qs}}));
        // The advice as a command to run, never a button of the window.
        run = outboxctl(explain + QStringList {u"--event"_qs, u"G-0"_qs});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.constFirst().endsWith(
                     u"\u2014 outboxctl replay --event G-0 makes it due now with one more "
                     "attempt, outboxctl replay --event G-0 --reset-budget with a fresh budget "
                     "(each with --operator and --reason)"_qs),
            qPrintable(run.out.constFirst()));
        QCOMPARE(json.value(u"facts"_qs).toObject().value(u"other_dead_same_error"_qs).toInt(), 11);

        run = outboxctl(explain + QStringList {u"--event"_qs, u"P-1"_qs});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(
            run.out.constFirst(), u"Scheduled: not attempted yet; due at 09:04:03, in 1 min"_qs);

        run = outboxctl(explain + QStringList {u"--event"_qs, u"NOPE"_qs});
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(run.err, QStringList {u"outboxctl: explain: no event with ID 'NOPE'"_qs});
        QCOMPARE(run.out, QStringList());
        run = outboxctl(explain + QStringList {u"--event"_qs, u"NOPE"_qs, u"--json"_qs});
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(run.err, QStringList {u"outboxctl: explain: no event with ID 'NOPE'"_qs});
        QCOMPARE(jsonOf(run).value(u"unknown_events"_qs).toArray(),
            QJsonArray(
                {QJsonObject {{u"event_id"_qs, u"NOPE"_qs}, {u"reason"_qs, u"not found"_qs}}}));
        run = outboxctl(
            explain + QStringList {u"--event"_qs, u"P-1"_qs, u"--policy"_qs, u"bogus"_qs});
        QCOMPARE(run.exitCode, 2);
    }

    // The CLI never tells a user to press a button: on an outbox with a finding of most kinds
    // and an event in every state, no text output of check, diagnose, errors or explain says
    // "press", "click" or "button".
    void cliNeverSaysPressClickOrButton_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void cliNeverSaysPressClickOrButton()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        QVERIFY(populate(connection->database()));
        const QSqlDatabase db = connection->database();
        QStringList ids = {u"G-0"_qs, u"O-1"_qs, u"P-1"_qs};
        const auto add = [&](OutboxRow row) {
            ids << row.id;
            return insertRow(db, row);
        };
        OutboxRow stalled; // due for two minutes: relay_stalled
        stalled.id = u"S-1"_qs;
        stalled.createdAt = stalled.nextAttemptAt = T - 120000;
        OutboxRow leased = stalled; // lease ended two minutes ago: lease_expired_unclaimed
        leased.id = u"L-1"_qs;
        leased.leaseUntil = T - 120000;
        OutboxRow future = stalled; // due in a year: future_schedule
        future.id = u"F-1"_qs;
        future.nextAttemptAt = T + 365LL * 86400000;
        OutboxRow created = stalled; // created ten minutes ahead: created_in_future
        created.id = u"C-1"_qs;
        created.createdAt = T + 600000;
        OutboxRow blocked = stalled; // after a DEAD event of its aggregate: blocked_aggregate
        blocked.id = u"B-2"_qs;
        blocked.aggregate = u"G-0"_qs;
        OutboxRow delivered = stalled;
        delivered.id = u"D-1"_qs;
        delivered.status = u"DELIVERED"_qs;
        delivered.deliveredAt = T - 60000;
        QVERIFY(add(stalled) && add(leased) && add(future) && add(created) && add(blocked)
            && add(delivered));
        for (int i = 0; i < 20; ++i) { // 20 due in the same second: retry_herd
            OutboxRow herd;
            herd.id = u"H-"_qs + QString::number(i);
            herd.createdAt = T - 60000;
            herd.nextAttemptAt = T + 30000;
            herd.failures = 1;
            QVERIFY(insertRow(db, herd));
        }
        const QStringList at = {u"--db"_qs, database->url(), u"--now"_qs, Now};
        QList<Run> runs = {outboxctl(QStringList {u"check"_qs} + at),
            outboxctl(QStringList {u"diagnose"_qs} + at),
            outboxctl(QStringList {u"errors"_qs} + at)};
        for (const QString &id : std::as_const(ids))
            runs << outboxctl(QStringList {u"explain"_qs, u"--event"_qs, id} + at);
        const QString diagnosis = runs.at(1).out.join(u'\n');
        for (const QString &code : {u"relay_stalled"_qs, u"lease_expired_unclaimed"_qs,
                 u"dominant_error"_qs, u"retry_herd"_qs, u"future_schedule"_qs,
                 u"created_in_future"_qs, u"blocked_aggregate"_qs, u"dead_events"_qs})
            QVERIFY2(diagnosis.contains(u" "_qs + code + u" ("_qs), qPrintable(code + diagnosis));
        static const QRegularExpression words(
            u"\\b(press|click|button)"_qs, QRegularExpression::CaseInsensitiveOption);
        for (const Run &run : std::as_const(runs)) {
            QVERIFY2(run.exitCode != 2, qPrintable(run.err.join(u'\n')));
            const QString text = run.out.join(u'\n');
            QVERIFY2(!text.contains(words), qPrintable(text));
        }
        QVERIFY2(diagnosis.contains(u"outboxctl replay --error-group "_qs), qPrintable(diagnosis));
    }

    void profilesListWhatTheyCannotCheck_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<QString>("profile");
        QTest::addColumn<QStringList>("notChecked");
        // The fixtures of the other libraries are PostgreSQL's.
        QTest::addRow("sqlite: native") << u"sqlite"_qs << u"native"_qs << QStringList();
        const QString leases = u"lease_expired_unclaimed"_qs, history = u"dead_rising"_qs,
                      errors = u"dominant_error"_qs;
        const QList<std::pair<QString, QStringList>> cases = {
            {u"native"_qs, {}},
            {u"pg-boss"_qs, {history}},
            {u"graphile-worker"_qs, {history}},
            // No aggregate; DEAD rising is read from Oban's errors array (its newest attempt).
            {u"oban"_qs, {leases, u"blocked_aggregate"_qs}},
            {u"solid-queue"_qs, {history}},
            {u"gruelbox"_qs,
                {leases, errors, history, u"created_in_future"_qs, u"created_at_on_update"_qs,
                    u"blocked_aggregate"_qs}},
            {u"namastack"_qs, {leases, history}},
            // No last_error, and no DEAD state at all (a publication is completed or not).
            {u"spring-modulith"_qs,
                {leases, errors, u"poison_type"_qs, history, u"dead_events"_qs}},
            {u"spring-modulith-2"_qs, {leases, errors, history}},
        };
        for (const auto &[profile, notChecked] : cases)
            QTest::addRow("postgresql: %s", qPrintable(profile))
                << u"postgresql"_qs << profile << notChecked;
    }
    void profilesListWhatTheyCannotCheck()
    {
        QFETCH(QString, engine);
        QFETCH(QString, profile);
        QFETCH(QStringList, notChecked);
        FRESH_DATABASE(database, engine);
        auto connection
            = profile == u"native"_qs ? database->initialise() : database->connect(false);
        QVERIFY(connection);
        const QString path = TestData::path(QStringLiteral("fixtures/%1.sql").arg(profile));
        QVERIFY(runSqlScript(connection->database(), path));
        const Run run = outboxctl({u"diagnose"_qs, u"--db"_qs, database->url(), u"--profile"_qs,
            profile, u"--now"_qs, u"1800000000000"_qs, u"--json"_qs});
        QVERIFY2(run.exitCode == 0 || run.exitCode == 1, qPrintable(run.err.join(u"\n"_qs)));
        const QJsonObject json = jsonOf(run);
        QCOMPARE(strings(json.value(u"not_checked"_qs)), notChecked);
        QStringList every = strings(json.value(u"checked"_qs)) + notChecked;
        every.sort();
        QStringList all = allCodes();
        all.sort();
        QCOMPARE(every, all);
    }
};

OUTBOX_TEST_MAIN(TestOutboxctlDiagnose, QCoreApplication)
#include "tst_outboxctl_diagnose.moc"
