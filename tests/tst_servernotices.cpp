// What the database says besides results never reaches the terminal raw (issue 26, part 5): an
// application's trigger and function on PostgreSQL RAISE a NOTICE and a WARNING holding
// "\x1b[2K\routboxctl: replayed 0 events", and check, metrics, diagnose (through a profile
// whose status expression calls that function), replay and relay (through the trigger), serve
// and the dashboard each print it escaped on a line of its own that names it a server notice,
// or not at all (the relay silences them): never an ESC or a carriage return on stderr.
#include "outboxctlrun.h"
#include "outboxrows.h"
#include "servernotices.h"
#include "testdata.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QSqlError>
#include <QTemporaryDir>

namespace {

const QString Forged = u"\x1b[2K\routboxctl: replayed 0 events"_qs;
// What a notice looks like once escaped, after "outboxctl: server NOTICE: ".
const QString Escaped = u"\\x1b[2K\\routboxctl: replayed 0 events"_qs;

// noisy() raises a NOTICE and a WARNING with the forged line; a trigger calls it on every
// write to delivery_outbox.
bool addNoise(const QSqlDatabase &db)
{
    const QString forged = u"E'\\x1b[2K\\routboxctl: replayed 0 events'"_qs;
    const QString body = u"BEGIN RAISE NOTICE '%', "_qs + forged + u"; RAISE WARNING '%', "_qs
        + forged + u"; RETURN true; END"_qs;
    QSqlQuery query(db);
    const bool ok = query.exec(u"CREATE FUNCTION noisy() RETURNS boolean LANGUAGE plpgsql AS $$ "_qs
                        + body + u" $$"_qs)
        && query.exec(u"CREATE FUNCTION noisy_write() RETURNS trigger LANGUAGE plpgsql AS $$"
                      " BEGIN PERFORM noisy(); RETURN COALESCE(NEW, OLD); END $$"_qs)
        && query.exec(u"CREATE TRIGGER noisy BEFORE INSERT OR UPDATE OR DELETE ON delivery_outbox"
                      " FOR EACH ROW EXECUTE FUNCTION noisy_write()"_qs);
    if (!ok)
        qWarning("%s", qPrintable(query.lastError().text()));
    return ok;
}

// The native profile under another name, its status read through noisy(): every read through
// it makes the server speak.
QString writeNoisyProfile(const QTemporaryDir &dir)
{
    QFile native(TestData::sourceDir() + u"/resources/profiles/native.profile"_qs);
    if (!native.open(QIODevice::ReadOnly))
        return {};
    QString text = QString::fromUtf8(native.readAll());
    text.replace(u"name = native"_qs, u"name = noisy"_qs);
    text.replace(u"status = status"_qs, u"status = CASE WHEN noisy() THEN status END"_qs);
    text.replace(u"replay = native"_qs, u"replay_unavailable = not in this test"_qs);
    const QString path = dir.filePath(u"noisy.profile"_qs);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.toUtf8()) != text.toUtf8().size())
        return {};
    return path;
}

// No escape and no carriage return anywhere in `err`; `heard` when a notice was printed as
// the escaped line.
void expectNothingRaw(const QString &err, bool heard)
{
    QVERIFY2(!err.contains(u'\x1b') && !err.contains(u'\r'), qPrintable(Escaped + err));
    if (heard) {
        QVERIFY2(err.contains(u"server NOTICE: "_qs + Escaped), qPrintable(err));
        QVERIFY2(err.contains(u"server WARNING: "_qs + Escaped), qPrintable(err));
    }
}

// stderr of a running process until `until` appears in it or `ms` pass.
QString readErrorUntil(QProcess &process, const QString &until, int ms)
{
    QString err;
    QElapsedTimer timer;
    timer.start();
    while (!err.contains(until) && timer.elapsed() < ms) {
        process.waitForReadyRead(200);
        err += QString::fromUtf8(process.readAllStandardError());
    }
    return err;
}

void stop(QProcess &process)
{
    process.terminate();
    if (!process.waitForFinished(20000)) {
        process.kill();
        process.waitForFinished();
    }
}

} // namespace

class TestServerNotices : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo::exists(qEnvironmentVariable("OUTBOXCTL")),
            "OUTBOXCTL must name the binary (set by CTest)");
        QVERIFY2(QFileInfo::exists(qEnvironmentVariable("OUTBOX_DASHBOARD")),
            "OUTBOX_DASHBOARD must name the binary (set by CTest)");
    }

    void init()
    {
        QString skip, fail;
        m_database = TestDatabase::create(u"postgresql"_qs, &skip, &fail);
        if (!fail.isEmpty())
            QFAIL(qPrintable(fail));
        if (!m_database)
            QSKIP(qPrintable(skip));
        m_connection = m_database->initialise();
        QVERIFY(m_connection);
        OutboxRow dead;
        dead.id = u"D-1"_qs;
        dead.status = u"DEAD"_qs;
        dead.failures = 3;
        dead.category = u"PERMANENT"_qs;
        QVERIFY(insertRow(m_connection->database(), dead));
        QVERIFY(addNoise(m_connection->database()));
        m_profile = writeNoisyProfile(m_dir);
        QVERIFY(!m_profile.isEmpty());
    }

    void readsThroughAProfile_data()
    {
        QTest::addColumn<QString>("command");
        for (const char *command : {"check", "metrics", "diagnose"})
            QTest::addRow("%s", command) << QString::fromLatin1(command);
    }
    void readsThroughAProfile()
    {
        QFETCH(QString, command);
        const Run run = outboxctl({command, u"--db"_qs, m_database->url(), u"--profile"_qs,
            m_profile, u"--now"_qs, u"100"_qs});
        QVERIFY2(run.exitCode >= 0 && run.exitCode <= 1, qPrintable(run.err.join(u'\n')));
        expectNothingRaw(run.err.join(u'\n'), true);
        for (const QString &line : run.err) // each notice a line of its own, named
            QVERIFY2(line.startsWith(u"outboxctl: server "_qs), qPrintable(line));
    }

    void replayThroughATrigger()
    {
        const Run run
            = outboxctl({u"replay"_qs, u"--db"_qs, m_database->url(), u"--event"_qs, u"D-1"_qs,
                u"--operator"_qs, u"ops"_qs, u"--reason"_qs, u"fixed"_qs, u"--now"_qs, u"100"_qs});
        QCOMPARE(run.exitCode, 0);
        expectNothingRaw(run.err.join(u'\n'), true);
        QCOMPARE(run.out, QStringList {u"replayed 1 event: D-1"_qs});
    }

    // The relay sets client_min_messages = error on its connections: nothing at all.
    void relayThroughATrigger()
    {
        const Run run
            = outboxctl({u"relay"_qs, u"--db"_qs, m_database->url(), u"--produce"_qs, u"3"_qs});
        QCOMPARE(run.exitCode, 0);
        expectNothingRaw(run.err.join(u'\n'), false);
    }

    void serve()
    {
        QProcess process;
        process.start(qEnvironmentVariable("OUTBOXCTL"),
            {u"serve"_qs, u"--listen"_qs, u"127.0.0.1:0"_qs, u"--outbox"_qs,
                u"noisy="_qs + m_database->url() + u";profile="_qs + m_profile});
        const QString err = readErrorUntil(process, u"server WARNING: "_qs + Escaped, 30000);
        stop(process);
        expectNothingRaw(err + QString::fromUtf8(process.readAllStandardError()), true);
    }

    void dashboard()
    {
        QTemporaryDir config;
        QProcess process;
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(u"QT_QPA_PLATFORM"_qs, u"offscreen"_qs);
        environment.insert(u"XDG_CONFIG_HOME"_qs, config.path());
        process.setProcessEnvironment(environment);
        process.start(qEnvironmentVariable("OUTBOX_DASHBOARD"),
            {u"--db"_qs, m_database->url(), u"--profile"_qs, m_profile});
        const QString err = readErrorUntil(process, u"server WARNING: "_qs + Escaped, 30000);
        stop(process);
        expectNothingRaw(err + QString::fromUtf8(process.readAllStandardError()), true);
    }

    // A notice of any length is one line of bounded length, and cutting it never leaves part of
    // a password in it.
    void longNoticeIsCutAfterMasking()
    {
        const QString message = u"postgresql://op:hunter2@db/shop "_qs + QString(100000, u'x');
        const QString line = ServerNotices::line(u"NOTICE"_qs, message);
        QVERIFY2(line.size() < 2200, qPrintable(QString::number(line.size())));
        QVERIFY(!line.contains(u"hunter2"_qs));
        QVERIFY(line.contains(u"op:***@db/shop"_qs));
        QVERIFY(line.endsWith(u"more characters)"_qs));
        const QString cutInPassword = QString(1990, u'y') + u" postgresql://op:hunter2@db/shop"_qs;
        QVERIFY(!ServerNotices::line(u"NOTICE"_qs, cutInPassword).contains(u"hunt"_qs));
    }

    void cleanup()
    {
        m_connection.reset();
        m_database.reset();
    }

private:
    QTemporaryDir m_dir;
    QString m_profile;
    std::unique_ptr<TestDatabase> m_database;
    std::unique_ptr<DbConnection> m_connection;
};

OUTBOX_TEST_MAIN(TestServerNotices, QCoreApplication)
#include "tst_servernotices.moc"
