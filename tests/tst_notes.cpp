// Operator notes and markers on SQLite, PostgreSQL and MariaDB: `outboxctl note add|list|clear`
// round trip (a cleared note kept with who cleared it), `replay --all-dead` and `--error-group`
// leaving out what an on-hold marker covers (on the event or on its error group) and saying how
// many unless --include-on-hold, `diagnose` counting marked DEAD events as acknowledged,
// hostile text (control characters refused, HTML kept as text, 10 MB refused) with nothing
// written, an event that is not DEAD or not there refused, a read-only role refused, a version 2
// database refused until `outboxctl migrate` creates the table, a profile told notes are not
// available, two operators at once, one operator twice at once (each told its own note's ID).
#include "csvtext.h"
#include "dbconnection.h"
#include "operatornotes.h"
#include "outboxctlrun.h"
#include "outboxrows.h"
#include "profileregistry.h"
#include "readerrole.h"
#include "scratchfile.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlError>
#include <QSqlRecord>
#include <QTemporaryDir>
#include <thread>

namespace {

// D-1, D-2 DEAD by "HTTP 400 from billing", D-3, D-4 DEAD by "timeout after 3000 ms",
// P-1 PENDING, OK-1 DELIVERED.
bool populate(const QSqlDatabase &db)
{
    const auto dead = [&db](const QString &id, const QString &error) {
        OutboxRow row;
        row.id = id;
        row.status = u"DEAD"_qs;
        row.failures = 3;
        row.createdAt = 100;
        row.category = u"PERMANENT"_qs;
        row.error = error;
        return insertRow(db, row);
    };
    OutboxRow pending;
    pending.id = u"P-1"_qs;
    OutboxRow delivered;
    delivered.id = u"OK-1"_qs;
    delivered.status = u"DELIVERED"_qs;
    delivered.deliveredAt = 200;
    return dead(u"D-1"_qs, u"HTTP 400 from billing"_qs)
        && dead(u"D-2"_qs, u"HTTP 400 from billing"_qs)
        && dead(u"D-3"_qs, u"timeout after 3000 ms"_qs)
        && dead(u"D-4"_qs, u"timeout after 5000 ms"_qs) && insertRow(db, pending)
        && insertRow(db, delivered);
}

const QString Timeouts = u"timeout after <n> ms"_qs;

qint64 noteRows(const QSqlDatabase &db)
{
    return scalar(db, u"SELECT COUNT(*) FROM operator_note"_qs).toLongLong();
}

QStringList noteArgs(const QString &action, const QString &url, const QStringList &more)
{
    return QStringList {u"note"_qs, action, u"--db"_qs, url} + more;
}

QJsonArray listedNotes(const QString &url, const QStringList &more = {})
{
    const Run run = outboxctl(noteArgs(u"list"_qs, url, QStringList {u"--json"_qs} + more));
    if (run.exitCode != 0) {
        qWarning("%s", qPrintable(run.err.join(u'\n')));
        return {};
    }
    return QJsonDocument::fromJson(run.out.constFirst().toUtf8())
        .object()
        .value(u"notes"_qs)
        .toArray();
}

QStringList statusesOf(const QSqlDatabase &db)
{
    QStringList out;
    QSqlQuery query(db);
    query.exec(u"SELECT event_id, status FROM delivery_outbox WHERE event_id LIKE 'D-%'"
               " ORDER BY event_id"_qs);
    while (query.next())
        out << query.value(0).toString() + u' ' + query.value(1).toString();
    return out;
}

std::optional<qint64> addOn(
    const QString &urlText, const QString &who, const QString &text = u"looking at it"_qs)
{
    QString error;
    const auto connection = DbConnection::open(DatabaseUrl::parse(urlText, &error), {}, &error);
    if (!connection)
        return std::nullopt;
    OperatorNotes notes(connection->database());
    NoteRequest request;
    request.target.eventId = u"D-1"_qs;
    request.operatorName = who;
    request.text = text;
    request.now = 5000;
    const auto id = notes.add(request, &error);
    if (!id)
        qWarning("%s: %s", qPrintable(who), qPrintable(error));
    return id;
}

} // namespace

class TestNotes : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo::exists(qEnvironmentVariable("OUTBOXCTL")),
            "OUTBOXCTL must name the binary (set by CTest)");
    }

    void addListClearRoundTrip_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void addListClearRoundTrip()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection && populate(connection->database()));
        const QString url = database->url();

        Run run = outboxctl(noteArgs(u"add"_qs, url,
            {u"--event"_qs, u"D-1"_qs, u"--operator"_qs, u"alice"_qs, u"--text"_qs,
                u"fix deploys at 14:00, do not replay"_qs, u"--marker"_qs, u"on-hold"_qs,
                u"--now"_qs, u"1000"_qs}));
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(
            run.out.constFirst().startsWith(u"added note #"_qs), qPrintable(run.out.join(u' ')));
        // A message of the group names it too: normalised to the signature.
        run = outboxctl(noteArgs(u"add"_qs, url,
            {u"--error-group"_qs, u"timeout after 7 ms"_qs, u"--operator"_qs, u"bob"_qs,
                u"--text"_qs, u"upstream slow"_qs, u"--marker"_qs, u"investigating"_qs, u"--now"_qs,
                u"2000"_qs, u"--json"_qs}));
        QCOMPARE(run.exitCode, 0);
        QVERIFY(QJsonDocument::fromJson(run.out.constFirst().toUtf8())
                    .object()
                    .contains(u"note_id"_qs));

        QJsonArray notes = listedNotes(url);
        QCOMPARE(notes.size(), 2);
        QJsonObject first = notes.at(0).toObject();
        QCOMPARE(first.value(u"event_id"_qs).toString(), u"D-1"_qs);
        QVERIFY(first.value(u"error_group"_qs).isNull());
        QCOMPARE(first.value(u"operator"_qs).toString(), u"alice"_qs);
        QCOMPARE(first.value(u"created_at"_qs).toInteger(), 1000);
        QCOMPARE(first.value(u"text"_qs).toString(), u"fix deploys at 14:00, do not replay"_qs);
        QCOMPARE(first.value(u"marker"_qs).toString(), u"on-hold"_qs);
        QVERIFY(first.value(u"cleared_at"_qs).isNull());
        const QJsonObject second = notes.at(1).toObject();
        QCOMPARE(second.value(u"error_group"_qs).toString(), Timeouts);
        QCOMPARE(second.value(u"marker"_qs).toString(), u"investigating"_qs);
        QCOMPARE(listedNotes(url, {u"--event"_qs, u"D-1"_qs}).size(), 1);
        QCOMPARE(listedNotes(url, {u"--error-group"_qs, Timeouts}).size(), 1);

        // explain shows the event's notes after its explanation.
        run = outboxctl({u"explain"_qs, u"--db"_qs, url, u"--event"_qs, u"D-1"_qs});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.filter(u"by alice at "_qs)
                     .filter(u" [on-hold]: fix deploys at 14:00, do not replay"_qs)
                     .size()
                == 1,
            qPrintable(run.out.join(u'\n')));

        run = outboxctl(noteArgs(u"list"_qs, url, {}));
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(
            run.out.filter(u"event D-1"_qs).filter(u"by alice [on-hold]: fix deploys"_qs).size()
                == 1,
            qPrintable(run.out.join(u'\n')));

        run = outboxctl(noteArgs(u"clear"_qs, url,
            {u"--event"_qs, u"D-1"_qs, u"--operator"_qs, u"carol"_qs, u"--now"_qs, u"3000"_qs}));
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out.constFirst(), u"cleared 1 note"_qs);
        notes = listedNotes(url);
        QCOMPARE(notes.size(), 1); // the cleared one is no longer current ...
        notes = listedNotes(url, {u"--all"_qs});
        QCOMPARE(notes.size(), 2); // ... but kept for the audit, with who cleared it and when
        first = notes.at(0).toObject();
        QCOMPARE(first.value(u"cleared_by"_qs).toString(), u"carol"_qs);
        QCOMPARE(first.value(u"cleared_at"_qs).toInteger(), 3000);
        QCOMPARE(noteRows(connection->database()), 2);

        // Clearing it again clears nothing; a clear by note ID.
        run = outboxctl(
            noteArgs(u"clear"_qs, url, {u"--event"_qs, u"D-1"_qs, u"--operator"_qs, u"carol"_qs}));
        QCOMPARE(run.out.constFirst(), u"cleared 0 notes"_qs);
        const QString id = QString::number(second.value(u"note_id"_qs).toInteger());
        run = outboxctl(
            noteArgs(u"clear"_qs, url, {u"--note"_qs, id, u"--operator"_qs, u"carol"_qs}));
        QCOMPARE(run.out.constFirst(), u"cleared 1 note"_qs);
        QCOMPARE(listedNotes(url).size(), 0);

        // The audit export holds both, with who cleared them.
        run = outboxctl({u"export"_qs, u"--db"_qs, url, u"--notes"_qs});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out.constFirst().trimmed(),
            u"note_id,event_id,error_group,operator,created_at,text,marker,cleared_at,cleared_by"_qs);
        QVERIFY2(
            run.out.filter(u",D-1,,alice,1000,\"fix deploys at 14:00, do not replay\",on-hold,"
                           "3000,carol"_qs)
                    .size()
                == 1,
            qPrintable(run.out.join(u'\n')));
        QVERIFY(
            run.out.filter(u",timeout after <n> ms,bob,2000,upstream slow,investigating,"_qs).size()
            == 1);
    }

    void onHoldIsLeftOutOfBulkReplay_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void onHoldIsLeftOutOfBulkReplay()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        const QSqlDatabase db = connection ? connection->database() : QSqlDatabase();
        QVERIFY(connection && populate(db));
        const QString url = database->url();
        QCOMPARE(outboxctl(noteArgs(u"add"_qs, url,
                               {u"--event"_qs, u"D-1"_qs, u"--operator"_qs, u"alice"_qs,
                                   u"--text"_qs, u"hold"_qs, u"--marker"_qs, u"on-hold"_qs}))
                     .exitCode,
            0);
        QCOMPARE(
            outboxctl(noteArgs(u"add"_qs, url,
                          {u"--error-group"_qs, Timeouts, u"--operator"_qs, u"alice"_qs,
                              u"--text"_qs, u"fix at 14:00"_qs, u"--marker"_qs, u"on-hold"_qs}))
                .exitCode,
            0);
        // A note without a marker holds nothing back.
        QCOMPARE(outboxctl(noteArgs(u"add"_qs, url,
                               {u"--event"_qs, u"D-2"_qs, u"--operator"_qs, u"alice"_qs,
                                   u"--text"_qs, u"just a note"_qs}))
                     .exitCode,
            0);
        const QStringList replay = {u"replay"_qs, u"--db"_qs, url, u"--operator"_qs, u"bob"_qs,
            u"--reason"_qs, u"fixed"_qs};

        Run run = outboxctl(replay + QStringList {u"--all-dead"_qs, u"--dry-run"_qs});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains(u"dry run, nothing changed: would replay 1 event with one more "
                                  "attempt each"_qs),
            qPrintable(run.out.join(u'\n')));
        QVERIFY(run.out.contains(u"  left out 3 on hold (--include-on-hold replays them)"_qs));

        run = outboxctl(replay + QStringList {u"--all-dead"_qs});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out.constFirst(),
            u"replayed 1 event: D-2; left out 3 on hold (--include-on-hold replays them): D-1, "
            "D-3, D-4"_qs);
        QCOMPARE(statusesOf(db),
            (QStringList {u"D-1 DEAD"_qs, u"D-2 PENDING"_qs, u"D-3 DEAD"_qs, u"D-4 DEAD"_qs}));

        // --error-group: the group's own marker holds all of it.
        run = outboxctl(replay + QStringList {u"--error-group"_qs, Timeouts, u"--json"_qs});
        QCOMPARE(run.exitCode, 0);
        const QJsonObject json = QJsonDocument::fromJson(run.out.constFirst().toUtf8()).object();
        QCOMPARE(json.value(u"replayed"_qs).toArray().size(), 0);
        QCOMPARE(json.value(u"on_hold"_qs).toArray(),
            QJsonArray::fromStringList({u"D-3"_qs, u"D-4"_qs}));

        // Asked for: replayed, the marker notwithstanding.
        run = outboxctl(replay + QStringList {u"--all-dead"_qs, u"--include-on-hold"_qs});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out.constFirst(), u"replayed 3 events: D-1, D-3, D-4"_qs);
        QCOMPARE(statusesOf(db),
            (QStringList {
                u"D-1 PENDING"_qs, u"D-2 PENDING"_qs, u"D-3 PENDING"_qs, u"D-4 PENDING"_qs}));

        // --include-on-hold with --event is a wrong argument: exit 2.
        run = outboxctl(replay + QStringList {u"--event"_qs, u"D-1"_qs, u"--include-on-hold"_qs});
        QCOMPARE(run.exitCode, 2);
    }

    void diagnoseCountsMarkedDeadAsAcknowledged_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void diagnoseCountsMarkedDeadAsAcknowledged()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection && populate(connection->database()));
        const QString url = database->url();
        const auto diagnose = [&url] {
            const Run run = outboxctl({u"diagnose"_qs, u"--db"_qs, url, u"--json"_qs});
            return QJsonDocument::fromJson(run.out.join(u'\n').toUtf8()).object();
        };
        QJsonObject json = diagnose();
        QVERIFY2(json.contains(u"findings"_qs), "diagnose printed no JSON");
        // No marker: the contract exactly as before, no field added.
        QVERIFY(!json.contains(u"acknowledged"_qs));

        // D-1 on hold by itself and, through its group, D-2 investigating; the timeouts on
        // hold by their group, D-3 also investigating by itself (on hold wins).
        const auto add = [&url](const QStringList &target, const QString &marker) {
            return outboxctl(noteArgs(u"add"_qs, url,
                                 target
                                     + QStringList {u"--operator"_qs, u"a"_qs, u"--text"_qs,
                                         u"t"_qs, u"--marker"_qs, marker}))
                .exitCode;
        };
        QCOMPARE(add({u"--event"_qs, u"D-1"_qs}, u"on-hold"_qs), 0);
        QCOMPARE(add({u"--error-group"_qs, u"HTTP 400 from billing"_qs}, u"investigating"_qs), 0);
        QCOMPARE(add({u"--error-group"_qs, Timeouts}, u"on-hold"_qs), 0);
        QCOMPARE(add({u"--event"_qs, u"D-3"_qs}, u"investigating"_qs), 0);
        json = diagnose();
        const QJsonObject counted {{u"dead"_qs, 4}, {u"on_hold"_qs, 3}, {u"investigating"_qs, 1}};
        QCOMPARE(json.value(u"acknowledged"_qs).toObject(), counted);
        // The contract's fields are all still there.
        for (const QString &field : {u"now"_qs, u"findings"_qs, u"checked"_qs, u"not_checked"_qs})
            QVERIFY2(json.contains(field), qPrintable(field));

        const Run text = outboxctl({u"diagnose"_qs, u"--db"_qs, url});
        QVERIFY2(text.out.contains(u"acknowledged: 4 DEAD events carry an operator's marker (3 on "
                                   "hold, 1 investigating; outboxctl note list)"_qs),
            qPrintable(text.out.join(u'\n')));
        // A cleared marker no longer acknowledges anything: D-4 is no longer covered, D-3 only
        // by its own investigating marker.
        QCOMPARE(outboxctl(noteArgs(u"clear"_qs, url,
                               {u"--error-group"_qs, Timeouts, u"--operator"_qs, u"b"_qs}))
                     .exitCode,
            0);
        QCOMPARE(diagnose().value(u"acknowledged"_qs).toObject(),
            (QJsonObject {{u"dead"_qs, 3}, {u"on_hold"_qs, 1}, {u"investigating"_qs, 2}}));
        // One marked event left (D-1 on hold): said in the singular.
        for (const QStringList &target :
            {QStringList {u"--error-group"_qs, u"HTTP 400 from billing"_qs},
                QStringList {u"--event"_qs, u"D-3"_qs}})
            QCOMPARE(outboxctl(noteArgs(u"clear"_qs, url,
                                   target + QStringList {u"--operator"_qs, u"b"_qs}))
                         .exitCode,
                0);
        const QString one = outboxctl({u"diagnose"_qs, u"--db"_qs, url}).out.join(u'\n');
        QVERIFY2(one.contains(u"acknowledged: 1 DEAD event carries an operator's marker (1 on "
                              "hold, 0 investigating;"_qs),
            qPrintable(one));
        QVERIFY2(one.contains(u"1 of them carries an operator's marker"_qs), qPrintable(one));
    }

    void hostileTextIsRefusedOrKeptAsText_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void hostileTextIsRefusedOrKeptAsText()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        const QSqlDatabase db = connection ? connection->database() : QSqlDatabase();
        QVERIFY(connection && populate(db));
        const QString url = database->url();
        const auto add = [&url](const QString &text, const QString &who = u"alice"_qs) {
            return outboxctl(noteArgs(u"add"_qs, url,
                {u"--event"_qs, u"D-1"_qs, u"--operator"_qs, who, u"--text"_qs, text}));
        };

        Run run = add(u"ok\x1b[2K\routboxctl: replayed 0 events"_qs);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.constFirst().contains(u"control characters"_qs),
            qPrintable(run.err.join(u'\n')));
        QCOMPARE(add(u"x"_qs, u"ev\x07il"_qs).exitCode, 2);
        run = add(QString(OperatorNotes::MaxTextLength + 1, u'a'));
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.constFirst().contains(u"at most 4000"_qs));
        QCOMPARE(add(u"   "_qs).exitCode, 2);
        QCOMPARE(noteRows(db), 0);

        // 10 MB: more than a command line holds, so through the library (the window's path).
        OperatorNotes notes(db);
        NoteRequest big;
        big.target.eventId = u"D-1"_qs;
        big.operatorName = u"alice"_qs;
        big.text = QString(10 * 1024 * 1024, u'x');
        QString error;
        QVERIFY(!notes.add(big, &error));
        QVERIFY2(error.contains(u"10485760 characters long; at most 4000"_qs), qPrintable(error));
        QCOMPARE(noteRows(db), 0);

        // HTML, quotes and lines are text: stored and listed exactly as typed.
        const QString html = u"<b>bold</b> <script>alert('x')</script>\n\"second\" line\tend"_qs;
        QCOMPARE(add(html).exitCode, 0);
        QCOMPARE(listedNotes(url).at(0).toObject().value(u"text"_qs).toString(), html);
        run = outboxctl(noteArgs(u"list"_qs, url, {}));
        QCOMPARE(run.out.size(), 1); // one line: its line break and tab escaped
        QVERIFY2(run.out.constFirst().endsWith(
                     u"<b>bold</b> <script>alert('x')</script>\\n\"second\" line\\tend"_qs),
            qPrintable(run.out.constFirst()));
    }

    void onlyDeadEventsAndKnownGroupsTakeNotes_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void onlyDeadEventsAndKnownGroupsTakeNotes()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        const QSqlDatabase db = connection ? connection->database() : QSqlDatabase();
        QVERIFY(connection && populate(db));
        const auto add = [&database](const QStringList &target) {
            return outboxctl(noteArgs(u"add"_qs, database->url(),
                target + QStringList {u"--operator"_qs, u"a"_qs, u"--text"_qs, u"t"_qs}));
        };
        Run run = add({u"--event"_qs, u"P-1"_qs});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.constFirst().contains(u"event 'P-1' is PENDING, not DEAD"_qs),
            qPrintable(run.err.join(u'\n')));
        QCOMPARE(add({u"--event"_qs, u"OK-1"_qs}).exitCode, 2);
        run = add({u"--event"_qs, u"NOPE"_qs});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.constFirst().contains(u"no event with ID 'NOPE'"_qs));
        run = add({u"--error-group"_qs, u"no such failure"_qs});
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.constFirst().contains(u"no DEAD event has the error signature"_qs));
        QCOMPARE(add({u"--event"_qs, u"D-1"_qs, u"--error-group"_qs, Timeouts}).exitCode, 2);
        QCOMPARE(add({}).exitCode, 2);
        QCOMPARE(add({u"--event"_qs, u"D-1"_qs, u"--marker"_qs, u"later"_qs}).exitCode, 2);
        QCOMPARE(noteRows(db), 0);
    }

    void readOnlyRoleIsRefused_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void readOnlyRoleIsRefused()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        QVERIFY(setup && populate(setup->database()));
        ReaderRole reader(
            engine, database->url(), setup->database(), roleName(database->url(), u"noter_"_qs));
        if (engine == u"sqlite"_qs && !reader.isReady())
            QSKIP("neither chattr +i nor an unwritable file is possible here");
        QVERIFY(reader.isReady());
        const Run run = outboxctl(noteArgs(u"add"_qs, reader.url(),
            {u"--event"_qs, u"D-1"_qs, u"--operator"_qs, u"a"_qs, u"--text"_qs, u"t"_qs}));
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(run.err.constFirst(),
            u"outboxctl: note add: "_qs + reader.refusal(u"INSERT"_qs, u"operator_note"_qs));
        QCOMPARE(noteRows(setup->database()), 0);
        // Reading is allowed.
        QCOMPARE(outboxctl(noteArgs(u"list"_qs, reader.url(), {})).exitCode, 0);
    }

    void versionTwoIsRefusedUntilMigrated_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void versionTwoIsRefusedUntilMigrated()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        const QSqlDatabase db = connection ? connection->database() : QSqlDatabase();
        QVERIFY(connection && populate(db));
        // A version 2 database, as the program before notes made it (test SQL, no input).
        QSqlQuery query(db);
        QVERIFY2(query.exec(u"DROP TABLE operator_note"_qs), qPrintable(query.lastError().text()));
        QVERIFY(
            query.exec(u"UPDATE outbox_meta SET value = '2' WHERE \"key\" = 'schema_version'"_qs));
        const QStringList add = noteArgs(u"add"_qs, database->url(),
            {u"--event"_qs, u"D-1"_qs, u"--operator"_qs, u"a"_qs, u"--text"_qs, u"t"_qs});
        Run run = outboxctl(add);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.constFirst().contains(u"outboxctl migrate --db URL"_qs),
            qPrintable(run.err.join(u'\n')));
        QVERIFY(db.record(u"operator_note"_qs).isEmpty()); // nothing created silently
        // Bulk replay and diagnose still work on version 2, without notes.
        QVERIFY(!outboxctl({u"diagnose"_qs, u"--db"_qs, database->url(), u"--json"_qs})
                     .out.join(u' ')
                     .contains(u"acknowledged"_qs));

        run = outboxctl({u"migrate"_qs, u"--db"_qs, database->url()});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err.join(u'\n')));
        QVERIFY(!db.record(u"operator_note"_qs).isEmpty());
        QCOMPARE(outboxctl(add).exitCode, 0);
        QCOMPARE(noteRows(db), 1);
    }

    void profileSaysNotesAreNotAvailable()
    {
        FRESH_DATABASE(database, u"sqlite"_qs);
        const auto connection = database->initialise();
        QVERIFY(connection && populate(connection->database()));
        QString error;
        const auto profile = ProfileRegistry::byName(u"pg-boss"_qs, &error);
        QVERIFY2(profile, qPrintable(error));
        OperatorNotes notes(connection->database(), &*profile);
        QVERIFY2(notes.unavailable().contains(u"notes need the native schema"_qs),
            qPrintable(notes.unavailable()));
        NoteRequest request;
        request.target.eventId = u"D-1"_qs;
        request.operatorName = u"a"_qs;
        request.text = u"t"_qs;
        QVERIFY(!notes.add(request, &error));
        QVERIFY(error.contains(u"not available through the pg-boss profile"_qs));
        QCOMPARE(noteRows(connection->database()), 0);
    }

    void twoOperatorsAtOnceBothLand_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void twoOperatorsAtOnceBothLand()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection && populate(connection->database()));
        std::optional<qint64> first, second;
        std::thread a([&] { first = addOn(database->url(), u"alice"_qs); });
        std::thread b([&] { second = addOn(database->url(), u"bob"_qs); });
        a.join();
        b.join();
        QVERIFY(first && second);
        QVERIFY(*first != *second);
        const QJsonArray notes = listedNotes(database->url());
        QCOMPARE(notes.size(), 2);
        QStringList who;
        for (const QJsonValue &note : notes)
            who << note.toObject().value(u"operator"_qs).toString();
        who.sort();
        QCOMPARE(who, (QStringList {u"alice"_qs, u"bob"_qs}));
    }

    // Notes are audited like replays: `export --audit` writes the replay log's columns as they
    // were (a reader by header keeps reading them), then, in columns appended after them, the
    // notes and the payload revisions, each row saying its kind.
    void auditExportHoldsReplaysNotesAndRevisions_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void auditExportHoldsReplaysNotesAndRevisions()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection && populate(connection->database()));
        const QString url = database->url();
        Run run = outboxctl(noteArgs(u"add"_qs, url,
            {u"--event"_qs, u"D-1"_qs, u"--operator"_qs, u"alice"_qs, u"--text"_qs,
                u"=fix at 14:00"_qs, u"--marker"_qs, u"on-hold"_qs, u"--now"_qs, u"1000"_qs}));
        QCOMPARE(run.exitCode, 0);
        run = outboxctl({u"replay"_qs, u"--db"_qs, url, u"--event"_qs, u"D-2"_qs, u"--operator"_qs,
            u"bob"_qs, u"--reason"_qs, u"fixed"_qs, u"--now"_qs, u"2000"_qs});
        QCOMPARE(run.exitCode, 0);
        QTemporaryDir dir;
        const QString file = ScratchFile::write(dir, u"fixed.json"_qs, "{\"quantity\": 5}\n");
        QVERIFY(!file.isEmpty());
        run = outboxctl({u"replay"_qs, u"--db"_qs, url, u"--event"_qs, u"D-3"_qs, u"--edit"_qs,
            file, u"--operator"_qs, u"carol"_qs, u"--reason"_qs, u"UP-412"_qs, u"--now"_qs,
            u"3000"_qs});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err.join(u'\n')));

        const QString csv
            = outboxctl({u"export"_qs, u"--db"_qs, url, u"--audit"_qs}).out.join(u'\n')
            + u'\n'; // the lines as written, CRLF each
        const QList<QStringList> rows = parseCsv(csv);
        QVERIFY2(rows.size() == 5, qPrintable(csv));
        const QStringList replayColumns = {u"replay_id"_qs, u"event_id"_qs, u"replayed_at"_qs,
            u"operator"_qs, u"reason"_qs, u"reset_failures"_qs, u"failures_before"_qs};
        QCOMPARE(rows.at(0).mid(0, 7), replayColumns); // as before, in the same order
        QCOMPARE(rows.at(0).mid(7),
            (QStringList {u"kind"_qs, u"at"_qs, u"note_id"_qs, u"error_group"_qs, u"text"_qs,
                u"marker"_qs, u"cleared_at"_qs, u"cleared_by"_qs, u"revision_no"_qs}));
        for (const QStringList &row : rows)
            QCOMPARE(row.size(), 16);
        const auto cell = [&rows](int row, const QString &column) {
            return rows.at(row).at(rows.at(0).indexOf(column));
        };
        // The replays first (the edit replays too), then the note, then the revision.
        QCOMPARE(cell(1, u"kind"_qs), u"replay"_qs);
        QCOMPARE(cell(1, u"event_id"_qs), u"D-2"_qs);
        QCOMPARE(cell(1, u"operator"_qs), u"bob"_qs);
        QCOMPARE(cell(1, u"replayed_at"_qs), u"2000"_qs);
        QCOMPARE(cell(1, u"failures_before"_qs), u"3"_qs);
        QCOMPARE(cell(2, u"kind"_qs), u"replay"_qs);
        QCOMPARE(cell(2, u"event_id"_qs), u"D-3"_qs);
        QCOMPARE(cell(3, u"kind"_qs), u"note"_qs);
        QCOMPARE(cell(3, u"event_id"_qs), u"D-1"_qs);
        QCOMPARE(cell(3, u"operator"_qs), u"alice"_qs);
        QCOMPARE(cell(3, u"at"_qs), u"1000"_qs);
        QCOMPARE(cell(3, u"text"_qs), u"'=fix at 14:00"_qs); // spreadsheet-safe
        QCOMPARE(cell(3, u"marker"_qs), u"on-hold"_qs);
        QVERIFY(cell(3, u"replay_id"_qs).isEmpty());
        QCOMPARE(cell(4, u"kind"_qs), u"revision"_qs);
        QCOMPARE(cell(4, u"event_id"_qs), u"D-3"_qs);
        QCOMPARE(cell(4, u"operator"_qs), u"carol"_qs);
        QCOMPARE(cell(4, u"reason"_qs), u"UP-412"_qs);
        QCOMPARE(cell(4, u"at"_qs), u"3000"_qs);
        QCOMPARE(cell(4, u"revision_no"_qs), u"1"_qs);
        QVERIFY(!csv.contains(u"quantity"_qs)); // never the payloads
    }

    // One operator adding two notes at once from two sessions, in the same millisecond: each
    // is told its own note's ID (the engine's RETURNING or last insert ID), never the other's.
    void oneOperatorTwiceAtOnceGetsTwoIds_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void oneOperatorTwiceAtOnceGetsTwoIds()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        const QSqlDatabase db = connection ? connection->database() : QSqlDatabase();
        QVERIFY(connection && populate(db));
        const auto textOf = [&db](qint64 id) {
            return scalar(
                db, u"SELECT text FROM operator_note WHERE note_id = "_qs + QString::number(id))
                .toString();
        };
        for (int round = 0; round < 5; ++round) {
            const QString one = QStringLiteral("first of round %1").arg(round);
            const QString two = QStringLiteral("second of round %1").arg(round);
            std::optional<qint64> first, second;
            std::thread a([&] { first = addOn(database->url(), u"alice"_qs, one); });
            std::thread b([&] { second = addOn(database->url(), u"alice"_qs, two); });
            a.join();
            b.join();
            QVERIFY(first && second);
            QVERIFY(*first != *second);
            QCOMPARE(textOf(*first), one);
            QCOMPARE(textOf(*second), two);
        }
        QCOMPARE(noteRows(db), 10);
    }
};

OUTBOX_TEST_MAIN(TestNotes, QCoreApplication)
#include "tst_notes.moc"
