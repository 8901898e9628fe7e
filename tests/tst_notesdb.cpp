// Notes through a profile (`--notes-db URL`) on SQLite, PostgreSQL and MariaDB: a hand-made outbox
// read through tests/fixtures/custom.profile, its notes in a native database of the tool's own.
// note add/list/clear, explain, export --notes and --audit, an on-hold marker left out of
// `replay --all-dead`, `diagnose` counting marked DEAD events as acknowledged, and nothing ever
// written to the profile's database by the notes; a notes URL that is not a native version 3
// database (the profile's own, a missing file, a version 2 one, no URL at all) refused in one
// line with nothing created, its password masked; the notes connection healing after its
// sessions were ended.
#include "eventlistmodel.h"
#include "fixturescript.h"
#include "notesaccess.h"
#include "outboxctlrun.h"
#include "profileregistry.h"
#include "testdata.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QScopeGuard>
#include <QSqlRecord>
#include <QTemporaryDir>

namespace {

// Every row of every table of the profile's database, as text: what "nothing written" compares.
QStringList contentOf(const QSqlDatabase &db)
{
    QStringList rows;
    QStringList tables = db.tables();
    tables.sort();
    for (const QString &table : std::as_const(tables)) {
        rows << u"table "_qs + table;
        QSqlQuery query(db);
        query.exec(u"SELECT * FROM "_qs + table + u" ORDER BY 1"_qs);
        while (query.next()) {
            QStringList values;
            for (int i = 0; i < query.record().count(); ++i)
                values << query.value(i).toString();
            rows << values.join(u'|');
        }
    }
    return rows;
}

QString shopState(const QSqlDatabase &db, int job)
{
    return scalar(db, u"SELECT state FROM shop_outbox WHERE job_id = "_qs + QString::number(job))
        .toString();
}

} // namespace

class TestNotesDb : public QObject
{
    Q_OBJECT

    const QString m_profile = TestData::path("fixtures/custom.profile");

    QStringList through(const QString &outboxUrl, const QString &notesUrl) const
    {
        return {u"--db"_qs, outboxUrl, u"--profile"_qs, m_profile, u"--notes-db"_qs, notesUrl};
    }

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo::exists(qEnvironmentVariable("OUTBOXCTL")),
            "OUTBOXCTL must name the binary (set by CTest)");
    }

    void notesLiveInTheNotesDatabase_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void notesLiveInTheNotesDatabase()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(outbox, engine);
        FRESH_DATABASE(notesDatabase, engine);
        const auto shop = outbox->connect(false);
        QVERIFY(shop);
        const QSqlDatabase db = shop->database();
        QVERIFY(runSqlScript(db, TestData::path("fixtures/custom.sql")));
        const auto notesConnection = notesDatabase->initialise();
        QVERIFY(notesConnection);
        const QSqlDatabase notesDb = notesConnection->database();
        const QString notesUrl = notesDatabase->url();
        const QStringList before = contentOf(db);

        // Without --notes-db: not available, and the sentence names the option.
        Run run = outboxctl(QStringList {
            u"note"_qs, u"list"_qs, u"--db"_qs, outbox->url(), u"--profile"_qs, m_profile});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.join(u' ').contains(u"give --notes-db URL"_qs),
            qPrintable(run.err.join(u'\n')));

        const auto add = [&](const QStringList &target, const QString &marker) {
            return outboxctl(QStringList {u"note"_qs, u"add"_qs} + through(outbox->url(), notesUrl)
                + target
                + QStringList {u"--operator"_qs, u"alice"_qs, u"--text"_qs,
                    u"fix deploys at 14:00"_qs, u"--marker"_qs, marker, u"--now"_qs, u"1000"_qs});
        };
        run = add({u"--event"_qs, u"7"_qs}, u"on-hold"_qs);
        QVERIFY2(run.exitCode == 0, qPrintable(run.err.join(u'\n')));
        run = add({u"--error-group"_qs, u"HTTP 400: bad address"_qs}, u"investigating"_qs);
        QVERIFY2(run.exitCode == 0, qPrintable(run.err.join(u'\n')));
        // The event's state is the profile's: job 6 was sent (DELIVERED), job 99 is not there.
        run = add({u"--event"_qs, u"6"_qs}, u"on-hold"_qs);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.join(u' ').contains(u"event '6' is DELIVERED, not DEAD"_qs),
            qPrintable(run.err.join(u'\n')));
        QCOMPARE(add({u"--event"_qs, u"99"_qs}, u"on-hold"_qs).exitCode, 2);
        QCOMPARE(scalar(notesDb, u"SELECT COUNT(*) FROM operator_note"_qs).toInt(), 2);

        run = outboxctl(QStringList {u"note"_qs, u"list"_qs} + through(outbox->url(), notesUrl)
            + QStringList {u"--json"_qs});
        QCOMPARE(run.exitCode, 0);
        const QJsonArray notes = QJsonDocument::fromJson(run.out.constFirst().toUtf8())
                                     .object()
                                     .value(u"notes"_qs)
                                     .toArray();
        QCOMPARE(notes.size(), 2);
        QCOMPARE(notes.at(0).toObject().value(u"event_id"_qs).toString(), u"7"_qs);
        QCOMPARE(notes.at(1).toObject().value(u"error_group"_qs).toString(),
            u"HTTP <n>: bad address"_qs);

        run = outboxctl(
            QStringList {u"explain"_qs, u"--event"_qs, u"7"_qs} + through(outbox->url(), notesUrl));
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(!run.out.filter(u"[on-hold]: fix deploys at 14:00"_qs).isEmpty(),
            qPrintable(run.out.join(u'\n')));

        // Marked DEAD events are acknowledged: 7 on hold by itself, 8 investigating by its group.
        run = outboxctl(QStringList {u"diagnose"_qs, u"--json"_qs, u"--now"_qs, u"1800000000000"_qs}
            + through(outbox->url(), notesUrl));
        const QJsonObject diagnosis
            = QJsonDocument::fromJson(run.out.join(u'\n').toUtf8()).object();
        QCOMPARE(diagnosis.value(u"acknowledged"_qs).toObject(),
            (QJsonObject {{u"dead"_qs, 2}, {u"on_hold"_qs, 1}, {u"investigating"_qs, 1}}));

        // The notes' export reads them in the notes database.
        run = outboxctl(
            QStringList {u"export"_qs, u"--notes"_qs} + through(outbox->url(), notesUrl));
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out.size(), 3);
        QVERIFY2(run.out.at(1).startsWith(u"1,7,,alice,1000,fix deploys at 14:00,on-hold,"_qs),
            qPrintable(run.out.join(u'\n')));

        run = outboxctl(QStringList {u"note"_qs, u"clear"_qs, u"--error-group"_qs,
                            u"HTTP 400: bad address"_qs, u"--operator"_qs, u"bob"_qs}
            + through(outbox->url(), notesUrl));
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out.constFirst(), u"cleared 1 note"_qs);

        // Nothing of it was written to the profile's database.
        QCOMPARE(contentOf(db), before);

        // The on-hold event is left out of a bulk replay (the profile's own statement).
        run = outboxctl(QStringList {u"replay"_qs, u"--all-dead"_qs, u"--operator"_qs, u"bob"_qs,
                            u"--reason"_qs, u"fixed"_qs}
            + through(outbox->url(), notesUrl));
        QVERIFY2(run.exitCode == 0, qPrintable(run.err.join(u'\n')));
        QVERIFY2(run.out.constFirst().contains(
                     u"left out 1 on hold (--include-on-hold replays them): 7"_qs),
            qPrintable(run.out.join(u'\n')));
        QCOMPARE(shopState(db, 7), u"error"_qs);
        QCOMPARE(shopState(db, 8), u"queued"_qs);
    }

    // The Events table marks a profile's DEAD row with the marker kept in the notes database.
    void theEventTableShowsTheNotes_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void theEventTableShowsTheNotes()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(outbox, engine);
        FRESH_DATABASE(notesDatabase, engine);
        const auto shop = outbox->connect(false);
        QVERIFY(shop);
        QVERIFY(runSqlScript(shop->database(), TestData::path("fixtures/custom.sql")));
        const auto notesConnection = notesDatabase->initialise();
        QVERIFY(notesConnection);
        const Run run = outboxctl(QStringList {u"note"_qs, u"add"_qs}
            + through(outbox->url(), notesDatabase->url())
            + QStringList {u"--event"_qs, u"7"_qs, u"--operator"_qs, u"alice"_qs, u"--text"_qs,
                u"hold it"_qs, u"--marker"_qs, u"on-hold"_qs});
        QVERIFY2(run.exitCode == 0, qPrintable(run.err.join(u'\n')));
        QString error;
        const auto profile = ProfileRegistry::fromFile(m_profile, &error);
        QVERIFY2(profile, qPrintable(error));
        const auto reset = qScopeGuard([] { NotesAccess::setNotesDatabase({}); });
        NotesAccess::setNotesDatabase(DatabaseUrl::parse(notesDatabase->url(), &error));
        EventListModel model;
        model.setProfile(*profile);
        model.setSource(DatabaseUrl::parse(outbox->url(), &error));
        const auto noteOf = [&model](const QString &id) {
            for (int row = 0; row < model.rowCount(); ++row) {
                if (model.eventIdAt(row) == id)
                    return model.index(row, EventListModel::StateColumn)
                        .data(EventListModel::NoteRole)
                        .toString();
            }
            return u"(no row)"_qs;
        };
        QTRY_COMPARE_WITH_TIMEOUT(noteOf(u"7"_qs), u"on-hold"_qs, 20000);
        QCOMPARE(noteOf(u"8"_qs), QString()); // DEAD, no note
    }

    void aNotesUrlThatIsNotANativeV3DatabaseIsRefused_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void aNotesUrlThatIsNotANativeV3DatabaseIsRefused()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(outbox, engine);
        FRESH_DATABASE(older, engine);
        const auto shop = outbox->connect(false);
        QVERIFY(shop);
        const QSqlDatabase db = shop->database();
        QVERIFY(runSqlScript(db, TestData::path("fixtures/custom.sql")));
        // A version 2 native database, as the program before notes made it (test SQL, no input).
        const auto olderConnection = older->initialise();
        QVERIFY(olderConnection);
        QSqlQuery downgrade(olderConnection->database());
        QVERIFY(downgrade.exec(u"DROP TABLE operator_note"_qs));
        QVERIFY(downgrade.exec(
            u"UPDATE outbox_meta SET value = '2' WHERE \"key\" = 'schema_version'"_qs));
        const QStringList before = contentOf(db);
        QTemporaryDir dir;
        const QString missing = dir.filePath(u"notes.sqlite"_qs);

        const auto addWith = [&](const QString &notesUrl) {
            return outboxctl(QStringList {u"note"_qs, u"add"_qs} + through(outbox->url(), notesUrl)
                + QStringList {
                    u"--event"_qs, u"7"_qs, u"--operator"_qs, u"a"_qs, u"--text"_qs, u"t"_qs});
        };
        const auto refusedInOneLine = [](const Run &run, const QString &words) {
            QStringList lines = run.err; // but the warning of a test server's password in --db
            lines.removeIf([](const QString &line) { return line.contains(u"warning:"_qs); });
            if (run.exitCode != 2 || lines.size() != 1 || !lines.constFirst().contains(words)) {
                qWarning("exit %d: %s", run.exitCode, qPrintable(run.err.join(u'\n')));
                return false;
            }
            return true;
        };
        // The profile's own database is another application's, not a native one.
        QVERIFY(refusedInOneLine(addWith(outbox->url()), u"cannot hold notes"_qs));
        QVERIFY(refusedInOneLine(addWith(older->url()), u"its schema is version 2"_qs));
        QVERIFY(refusedInOneLine(addWith(u"sqlite:"_qs + missing), u"outboxctl init --db URL"_qs));
        QVERIFY(!QFileInfo::exists(missing)); // nothing created silently
        QVERIFY(refusedInOneLine(addWith(u"nope://x"_qs), u"--notes-db"_qs));
        // Every command that takes it refuses it alike, before doing anything.
        const Run replay = outboxctl(QStringList {u"replay"_qs, u"--all-dead"_qs, u"--operator"_qs,
                                         u"b"_qs, u"--reason"_qs, u"r"_qs}
            + through(outbox->url(), older->url()));
        QVERIFY(refusedInOneLine(replay, u"replay: the notes database"_qs));
        QVERIFY(refusedInOneLine(
            outboxctl(QStringList {u"diagnose"_qs} + through(outbox->url(), older->url())),
            u"diagnose: the notes database"_qs));
        QCOMPARE(contentOf(db), before);
        QCOMPARE(shopState(db, 7), u"error"_qs);

        // A password in the notes URL is never printed.
        const Run secret = addWith(u"postgresql://op:hunter2@127.0.0.1:1/notes"_qs);
        QCOMPARE(secret.exitCode, 2);
        QVERIFY2(!secret.err.join(u' ').contains(u"hunter2"_qs), qPrintable(secret.err.join(u' ')));
    }

    // The notes connection heals like the others: its sessions ended (as a server restart
    // ends them), a read fails with the cause, and the next NotesAccess::open opens it again.
    void theNotesConnectionHeals_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addRow("postgresql") << u"postgresql"_qs;
        QTest::addRow("mysql") << u"mysql"_qs;
    }
    void theNotesConnectionHeals()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(outbox, u"sqlite"_qs);
        FRESH_DATABASE(notesDatabase, engine);
        const auto shop = outbox->connect(false);
        QVERIFY(shop && runSqlScript(shop->database(), TestData::path("fixtures/custom.sql")));
        const auto root = notesDatabase->initialise();
        QVERIFY(root);
        QString error;
        const auto profile = ProfileRegistry::fromFile(m_profile, &error);
        QVERIFY2(profile, qPrintable(error));
        NotesAccess::setNotesDatabase(DatabaseUrl::parse(notesDatabase->url(), &error));
        const auto notesOf = [&] { return NotesAccess::open(shop->database(), &*profile); };
        QVERIFY2(notesOf().unavailable().isEmpty(), qPrintable(notesOf().unavailable()));
        QVERIFY(notesOf().list({}, false, &error));

        // Every other session of the notes database ended by the server.
        QSqlQuery end(root->database());
        if (engine == u"postgresql"_qs) {
            QVERIFY(end.exec(u"SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                             " WHERE datname = current_database() AND pid <> pg_backend_pid()"_qs));
        } else {
            QVERIFY(end.exec(u"SELECT id FROM information_schema.processlist"
                             " WHERE db = DATABASE() AND id <> CONNECTION_ID()"_qs));
            QStringList ids;
            while (end.next())
                ids << end.value(0).toString();
            QVERIFY(!ids.isEmpty());
            for (const QString &id : std::as_const(ids))
                QSqlQuery(root->database()).exec(u"KILL "_qs + id);
        }
        QVERIFY(!notesOf().list({}, false, &error)); // the cause, once
        QVERIFY(!error.isEmpty());
        QVERIFY2(notesOf().list({}, false, &error), qPrintable(error)); // opened again
        NotesAccess::setNotesDatabase({});
    }
};

OUTBOX_TEST_MAIN(TestNotesDb, QCoreApplication)
#include "tst_notesdb.moc"
