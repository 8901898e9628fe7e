// Actions that know the database's grants, with real roles: a PostgreSQL role and a MariaDB
// user that may only SELECT, and on SQLite a database file no one may write (chattr +i, which
// holds even for root; chmod 0444 where chattr is not allowed and the tests do not run as root).
// The window disables Replay, Resolve and Reopen with the missing privilege as the tooltip
// (shown as written, whatever the role's name) and shows the "read-only by the database's
// grants" badge; once the role is granted and the window has reconnected, they are offered
// again. outboxctl replay, resolve, reopen and purge exit 2 with one line naming the missing
// privilege before anything is read or changed, with --dry-run as well; a role that may UPDATE
// but not DELETE replays but may not purge; one that may replay but not INSERT payload_revision
// is refused Edit and replay in the window and `replay --edit`. `note add` needs INSERT on
// operator_note only and `note clear` UPDATE only: each goes through with exactly its own
// privilege and is refused without it (exit 2, one line, --json's {"error"}, nothing written),
// and the window offers Add note and Clear notes by the same grants.
#include "editactions.h"
#include "fixturescript.h"
#include "healthtiles.h"
#include "mainwindow.h"
#include "notesactions.h"
#include "operatoractions.h"
#include "outboxctlrun.h"
#include "plaintext.h"
#include "readerrole.h"
#include "reopenactions.h"
#include "resolveactions.h"
#include "scratchfile.h"
#include "stateevents.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QAction>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QProcess>
#include <QSqlError>
#include <QTemporaryDir>
#include <QTextDocument>
#include <QTextDocumentFragment>
#include <QUrl>
#include <sys/stat.h>
#include <unistd.h>

namespace {

// What a user sees of a widget's tooltip: the window shows it through PlainToolTips
// (PlainText::toolTip), and Qt shows that as markup when it may be markup.
QString shownToolTip(const QString &stored)
{
    const QString tip = PlainText::toolTip(stored);
    return Qt::mightBeRichText(tip) ? QTextDocumentFragment::fromHtml(tip).toPlainText() : tip;
}

qint64 logRows(const QSqlDatabase &db)
{
    return scalar(db,
        u"SELECT (SELECT COUNT(*) FROM replay_log) + (SELECT COUNT(*) FROM resolve_log)"
        " + (SELECT COUNT(*) FROM reopen_log)"_qs)
        .toLongLong();
}

} // namespace

class TestGrants : public QObject
{
    Q_OBJECT

private slots:
    void windowFollowsTheGrants_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void windowFollowsTheGrants()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        QVERIFY(setup && insertKnownEvents(setup->database()));
        ReaderRole reader(
            engine, database->url(), setup->database(), roleName(database->url(), u"reader_"_qs));
        if (engine == u"sqlite"_qs && !reader.isReady())
            QSKIP("neither chattr +i nor an unwritable file is possible here");
        QVERIFY(reader.isReady());

        auto connection = openAs(reader.url());
        QVERIFY(connection);
        MainWindow window(std::move(connection), {});
        window.show();
        QAction *replay = window.operatorActions()->replaySelectedAction();
        QAction *matching = window.operatorActions()->replayMatchingAction();
        QAction *resolve = window.resolveActions()->resolveSelectedAction();
        QAction *reopen = window.reopenActions()->reopenSelectedAction();
        auto *badge = window.findChild<QLabel *>(u"grantsReadOnlyLabel"_qs);
        QVERIFY(badge);
        const QString update = reader.refusal(u"UPDATE"_qs, u"delivery_outbox"_qs);
        QTRY_COMPARE(shownToolTip(replay->toolTip()), update);
        QCOMPARE(shownToolTip(matching->toolTip()), update);
        QCOMPARE(shownToolTip(resolve->toolTip()), update);
        QCOMPARE(shownToolTip(reopen->toolTip()), update);
        QTRY_VERIFY(window.selectEvent(u"E-1"_qs)); // DEAD: offered, were it allowed
        QVERIFY(!replay->isEnabled());
        QVERIFY(!matching->isEnabled());
        QVERIFY(!resolve->isEnabled());
        QVERIFY(badge->isVisibleTo(&window));
        QCOMPARE(badge->text(), u"read-only by the database's grants"_qs);

        // Granted what replay writes, then reconnected: replay is offered, resolve still not.
        QVERIFY(reader.grant(u"UPDATE"_qs, {u"delivery_outbox"_qs}));
        QVERIFY(reader.grant(u"INSERT"_qs, {u"replay_log"_qs}));
        if (engine == u"sqlite"_qs)
            return; // a file has no session to end; outboxctl covers the writable file below
        reader.disconnect();
        QTRY_VERIFY_WITH_TIMEOUT(matching->isEnabled(), 30000);
        QCOMPARE(replay->toolTip(), u"Replay the selected DEAD events with the same event IDs"_qs);
        QCOMPARE(shownToolTip(resolve->toolTip()), reader.refusal(u"INSERT"_qs, u"resolve_log"_qs));
        QVERIFY(!resolve->isEnabled());
        QVERIFY(!badge->isVisibleTo(&window));
    }

    void outboxctlRefusesBeforeAnything_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void outboxctlRefusesBeforeAnything()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        QVERIFY(setup && insertKnownEvents(setup->database()));
        ReaderRole reader(
            engine, database->url(), setup->database(), roleName(database->url(), u"reader_"_qs));
        if (engine == u"sqlite"_qs && !reader.isReady())
            QSKIP("neither chattr +i nor an unwritable file is possible here");
        QVERIFY(reader.isReady());
        const QStringList before = statusLines(setup->database());
        const QString url = reader.url();
        const QString update = reader.refusal(u"UPDATE"_qs, u"delivery_outbox"_qs);
        const QString remove = reader.refusal(u"DELETE"_qs, u"delivery_outbox"_qs);
        const QStringList purge {u"purge"_qs, u"--db"_qs, url, u"--delivered-older-than"_qs,
            u"1ms"_qs, u"--now"_qs, u"100000"_qs};
        const QList<std::pair<QStringList, QString>> runs {
            {operatorArgs(
                 u"replay"_qs, url, {u"--event"_qs, u"E-1"_qs}, u"ops"_qs, u"r"_qs, u"10000"_qs),
                u"replay: "_qs + update},
            {operatorArgs(u"replay"_qs, url, {u"--all-dead"_qs, u"--dry-run"_qs}, u"ops"_qs,
                 u"r"_qs, u"10000"_qs),
                u"replay: "_qs + update},
            {operatorArgs(
                 u"resolve"_qs, url, {u"--event"_qs, u"E-1"_qs}, u"ops"_qs, u"r"_qs, u"10000"_qs),
                u"resolve: "_qs + update},
            {operatorArgs(u"resolve"_qs, url, {u"--event"_qs, u"E-1"_qs, u"--dry-run"_qs},
                 u"ops"_qs, u"r"_qs, u"10000"_qs),
                u"resolve: "_qs + update},
            {operatorArgs(
                 u"reopen"_qs, url, {u"--event"_qs, u"E-1"_qs}, u"ops"_qs, u"r"_qs, u"10000"_qs),
                u"reopen: "_qs + update},
            {purge, u"purge: "_qs + remove},
            {purge + QStringList {u"--dry-run"_qs}, u"purge: "_qs + remove},
        };
        for (const auto &[arguments, line] : runs) {
            const Run run = outboxctl(arguments);
            QCOMPARE(run.exitCode, 2);
            QCOMPARE(run.err, QStringList {u"outboxctl: "_qs + line});
            QCOMPARE(run.out, QStringList {});
        }
        QCOMPARE(statusLines(setup->database()), before);
        QCOMPARE(logRows(setup->database()), 0);

        // UPDATE without DELETE: replay goes through, purge is still refused, nothing purged.
        QVERIFY(reader.grant(u"UPDATE"_qs, {u"delivery_outbox"_qs}));
        QVERIFY(reader.grant(u"INSERT"_qs, {u"replay_log"_qs}));
        const Run replay = outboxctl(operatorArgs(
            u"replay"_qs, url, {u"--event"_qs, u"E-1"_qs}, u"ops"_qs, u"r"_qs, u"10000"_qs));
        QVERIFY2(replay.exitCode == 0, qPrintable(replay.err.join(u'\n')));
        QCOMPARE(scalar(setup->database(),
                     u"SELECT status FROM delivery_outbox WHERE event_id = 'E-1'"_qs)
                     .toString(),
            u"PENDING"_qs);
        if (engine == u"sqlite"_qs)
            return; // the file is writable again: a file has no DELETE of its own to withhold
        const Run refused = outboxctl(purge);
        QCOMPARE(refused.exitCode, 2);
        QCOMPARE(refused.err, QStringList {u"outboxctl: purge: "_qs + remove});
        QCOMPARE(scalar(setup->database(),
                     u"SELECT COUNT(*) FROM delivery_outbox WHERE status = 'DELIVERED'"_qs)
                     .toLongLong(),
            1);
    }

    // Edit and replay writes a revision too: a role that may replay (UPDATE delivery_outbox,
    // INSERT replay_log) but not INSERT payload_revision is refused the edit, in the window
    // (Edit disabled, the missing privilege as its tooltip, Replay offered) and by outboxctl
    // (exit 2, one line, nothing written); granted it, the edit goes through.
    void editNeedsItsRevisionGrant_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void editNeedsItsRevisionGrant()
    {
        QFETCH(QString, engine);
        if (engine == u"sqlite"_qs)
            QSKIP("a SQLite file is writable or not as a whole: no table's INSERT to withhold");
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        QVERIFY(setup && insertKnownEvents(setup->database()));
        const QSqlDatabase db = setup->database();
        ReaderRole reader(engine, database->url(), db, roleName(database->url(), u"editor_"_qs));
        QVERIFY(reader.isReady());
        QVERIFY(reader.grant(u"UPDATE"_qs, {u"delivery_outbox"_qs}));
        QVERIFY(reader.grant(u"INSERT"_qs, {u"replay_log"_qs}));
        const QString refusal = reader.refusal(u"INSERT"_qs, u"payload_revision"_qs);
        const QString payloadBefore
            = scalar(db, u"SELECT payload FROM delivery_outbox WHERE event_id = 'E-1'"_qs)
                  .toString();

        {
            auto connection = openAs(reader.url());
            QVERIFY(connection);
            MainWindow window(std::move(connection), {});
            window.show();
            QAction *edit = window.editActions()->editSelectedAction();
            QAction *replay = window.operatorActions()->replaySelectedAction();
            QTRY_COMPARE(shownToolTip(edit->toolTip()), refusal);
            QTRY_VERIFY(window.selectEvent(u"E-1"_qs));
            QTRY_VERIFY(replay->isEnabled()); // replay is allowed ...
            QVERIFY(!edit->isEnabled()); // ... the edit is not
            QCOMPARE(shownToolTip(edit->toolTip()), refusal);
        }

        QTemporaryDir dir;
        const QString file = ScratchFile::write(dir, u"edited.json"_qs, "{\"edited\": true}\n");
        QVERIFY(!file.isEmpty());
        const QStringList editArgs = operatorArgs(u"replay"_qs, reader.url(),
            {u"--event"_qs, u"E-1"_qs, u"--edit"_qs, file}, u"ops"_qs, u"r"_qs, u"10000"_qs);
        const QStringList before = statusLines(db);
        const Run run = outboxctl(editArgs);
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(run.err, QStringList {u"outboxctl: replay: "_qs + refusal});
        QCOMPARE(run.out, QStringList {});
        QCOMPARE(statusLines(db), before);
        QCOMPARE(
            scalar(db, u"SELECT payload FROM delivery_outbox WHERE event_id = 'E-1'"_qs).toString(),
            payloadBefore);
        QCOMPARE(scalar(db, u"SELECT COUNT(*) FROM payload_revision"_qs).toLongLong(), 0);
        QCOMPARE(logRows(db), 0);

        QVERIFY(reader.grant(u"INSERT"_qs, {u"payload_revision"_qs}));
        const Run granted = outboxctl(editArgs);
        QVERIFY2(granted.exitCode == 0, qPrintable(granted.err.join(u'\n')));
        QCOMPARE(scalar(db, u"SELECT COUNT(*) FROM payload_revision"_qs).toLongLong(), 1);
    }

    // A role with SELECT and exactly one privilege on operator_note: INSERT adds a note and may
    // not clear one, UPDATE clears and may not add. The refused one exits 2 with one line (and
    // with --json one {"error"} object), nothing written; the window agrees.
    void notesNeedExactlyTheirGrant_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<QString>("privilege");
        for (const char *engine : {"postgresql", "mysql"}) {
            for (const char *privilege : {"INSERT", "UPDATE"})
                QTest::addRow("%s: %s only", engine, privilege)
                    << QString::fromLatin1(engine) << QString::fromLatin1(privilege);
        }
    }
    void notesNeedExactlyTheirGrant()
    {
        QFETCH(QString, engine);
        QFETCH(QString, privilege);
        FRESH_DATABASE(database, engine);
        const auto setup = database->initialise();
        QVERIFY(setup && insertKnownEvents(setup->database()));
        const QSqlDatabase db = setup->database();
        const QStringList note {u"--event"_qs, u"E-1"_qs, u"--operator"_qs, u"ops"_qs};
        const Run first = outboxctl(QStringList {u"note"_qs, u"add"_qs, u"--db"_qs, database->url()}
            + note + QStringList {u"--text"_qs, u"by the owner"_qs});
        QVERIFY2(first.exitCode == 0, qPrintable(first.err.join(u'\n')));
        ReaderRole reader(engine, database->url(), db, roleName(database->url(), u"noter_"_qs));
        QVERIFY(reader.isReady());
        QVERIFY(reader.grant(privilege, {u"operator_note"_qs}));
        const auto count = [&db](const QString &where) {
            return scalar(db, u"SELECT COUNT(*) FROM operator_note WHERE "_qs + where).toLongLong();
        };
        const QStringList add = QStringList {u"note"_qs, u"add"_qs, u"--db"_qs, reader.url()} + note
            + QStringList {u"--text"_qs, u"by the role"_qs, u"--json"_qs};
        const QStringList clear = QStringList {u"note"_qs, u"clear"_qs, u"--db"_qs, reader.url()}
            + note + QStringList {u"--json"_qs};
        const bool mayAdd = privilege == u"INSERT"_qs;
        const Run allowed = outboxctl(mayAdd ? add : clear);
        QVERIFY2(allowed.exitCode == 0, qPrintable(allowed.err.join(u'\n')));
        QCOMPARE(allowed.err, QStringList {});
        const Run refused = outboxctl(mayAdd ? clear : add);
        const QString line = mayAdd
            ? u"note clear: "_qs + reader.refusal(u"UPDATE"_qs, u"operator_note"_qs)
            : u"note add: "_qs + reader.refusal(u"INSERT"_qs, u"operator_note"_qs);
        QCOMPARE(refused.exitCode, 2);
        QCOMPARE(refused.err, QStringList {u"outboxctl: "_qs + line});
        QCOMPARE(refused.out.size(), 1);
        QCOMPARE(QJsonDocument::fromJson(refused.out.constFirst().toUtf8())
                     .object()
                     .value(u"error"_qs)
                     .toString(),
            line);
        // INSERT: two notes, none cleared. UPDATE: the owner's one note, cleared by the role.
        QCOMPARE(count(u"1 = 1"_qs), mayAdd ? 2 : 1);
        QCOMPARE(count(u"cleared_at IS NOT NULL"_qs), mayAdd ? 0 : 1);

        auto connection = openAs(reader.url());
        QVERIFY(connection);
        MainWindow window(std::move(connection), {});
        window.show();
        NotesActions *notes = window.findChild<NotesActions *>();
        QVERIFY(notes);
        QTRY_VERIFY(window.selectEvent(u"E-1"_qs));
        QAction *allowedAction = mayAdd ? notes->addNoteAction() : notes->clearNotesAction();
        QAction *refusedAction = mayAdd ? notes->clearNotesAction() : notes->addNoteAction();
        QTRY_VERIFY(allowedAction->isEnabled());
        QTRY_COMPARE(
            shownToolTip(refusedAction->toolTip()), line.mid(line.indexOf(u"the role"_qs)));
        QVERIFY(!refusedAction->isEnabled());
    }

    // A role whose name holds quotes and markup: the tooltip shows it as written.
    void hostileRoleNameShowsAsWritten()
    {
        FRESH_DATABASE(database, u"postgresql"_qs);
        const auto setup = database->initialise();
        QVERIFY(setup && insertKnownEvents(setup->database()));
        const QString name = u"rd'<b>x</b> & \"q\" "_qs + roleName(database->url(), QString());
        ReaderRole reader(u"postgresql"_qs, database->url(), setup->database(), name);
        QVERIFY(reader.isReady());
        auto connection = openAs(reader.url());
        QVERIFY(connection);
        MainWindow window(std::move(connection), {});
        QAction *replay = window.operatorActions()->replaySelectedAction();
        const QString expected = u"the role '%1' may not UPDATE delivery_outbox"_qs.arg(name);
        QTRY_COMPARE(shownToolTip(replay->toolTip()), expected);
        const Run run = outboxctl(operatorArgs(u"replay"_qs, reader.url(),
            {u"--event"_qs, u"E-1"_qs}, u"ops"_qs, u"r"_qs, u"10000"_qs));
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(run.err, QStringList {u"outboxctl: replay: "_qs + expected});
    }
};

OUTBOX_TEST_MAIN(TestGrants, QApplication)
#include "tst_grants.moc"
