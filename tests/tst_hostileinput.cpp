// Hostile or sloppy input, as an attacker or a careless operator gives it, is harmless
// (issue 12): CSV cells that cannot run as formulas, `outboxctl export` writing the window's
// CSV, ages that cannot wrap, files that are not SQLite databases, URL passwords never echoed,
// unknown error categories refused, text in integer columns named, control characters escaped
// in plain output, every missing column named at once; profile files that are devices, FIFOs or
// too big, and the URL kept off the command line (--db-file, OUTBOX_DB_URL). Each case asserts the
// message names the cause and that no table changed (every row compared before and after).
#include "csvexport.h"
#include "csvtext.h"
#include "eventlistmodel.h"
#include "eventwait.h"
#include "fixturescript.h"
#include "hostilefile.h"
#include "outboxctlrun.h"
#include "passwordrole.h"
#include "redaction.h"
#include "replayer.h"
#include "scratchfile.h"
#include "testdata.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QAbstractItemModelTester>
#include <QBuffer>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSqlError>
#include <QSqlRecord>
#include <QStandardPaths>
#include <QUrl>
#include <sys/stat.h>

namespace {

constexpr qint64 Now = 100000000;

// Test data only, never user input.
bool insertEvent(const QSqlDatabase &db, const QString &values)
{
    return exec(db,
        u"INSERT INTO delivery_outbox (event_id, aggregate_type, aggregate_id, event_type,"
        " payload, status, failures, next_attempt_at, created_at, last_error_category,"
        " last_error) VALUES "_qs
            + values);
}

// Every row of every native table, in a stable order: what "nothing changed" compares.
QStringList allRows(const QSqlDatabase &db)
{
    QStringList rows;
    for (const QString &table : {u"delivery_outbox"_qs, u"delivery_attempt"_qs,
             u"consumer_ledger"_qs, u"consumer_stock"_qs, u"replay_log"_qs, u"outbox_meta"_qs}) {
        QSqlQuery query(db);
        if (!query.exec(u"SELECT * FROM "_qs + table + u" ORDER BY 1"_qs))
            continue;
        while (query.next()) {
            QStringList values;
            for (int i = 0; i < query.record().count(); ++i)
                values << (query.isNull(i) ? u"NULL"_qs : query.value(i).toString());
            rows << table + u": "_qs + values.join(u'|');
        }
    }
    return rows;
}

// Stdout as bytes, for the CSV (Run splits lines).
QByteArray rawStdout(const QStringList &arguments, int *exitCode)
{
    QProcess process;
    process.start(qEnvironmentVariable("OUTBOXCTL"), arguments);
    *exitCode = process.waitForFinished(60000) ? process.exitCode() : -1;
    return process.readAllStandardOutput();
}

void expectOneLine(const Run &run, const QString &cause)
{
    QCOMPARE(run.exitCode, 2);
    QCOMPARE(run.err.size(), 1);
    QVERIFY2(run.err.constFirst().startsWith(u"outboxctl: "_qs), qPrintable(run.err.join(u'\n')));
    QVERIFY2(run.err.constFirst().contains(cause), qPrintable(run.err.constFirst()));
    QVERIFY(run.out.isEmpty());
}

} // namespace

class TestHostileInput : public QObject
{
    Q_OBJECT

    QTemporaryDir m_config; // the dashboard's settings, as the CLI reads them

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo::exists(qEnvironmentVariable("OUTBOXCTL")),
            "OUTBOXCTL must name the binary (set by CTest)");
        // The user's own dashboard settings never leak into the tests' exports.
        qputenv("XDG_CONFIG_HOME", QFile::encodeName(m_config.path()));
    }

    void csvFieldIsSpreadsheetSafe_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("field");
        QTest::addRow("formula") << u"=HYPERLINK(\"http://x\")"_qs
                                 << u"\"'=HYPERLINK(\"\"http://x\"\")\""_qs;
        QTest::addRow("plus") << u"+cmd|' /C calc'!A0"_qs << u"'+cmd|' /C calc'!A0"_qs;
        QTest::addRow("minus") << u"-2+3"_qs << u"'-2+3"_qs;
        QTest::addRow("at") << u"@SUM(A1)"_qs << u"'@SUM(A1)"_qs;
        QTest::addRow("tab") << u"\t=1"_qs << u"'\t=1"_qs;
        QTest::addRow("carriage return") << u"\r=1"_qs << u"\"'\r=1\""_qs;
        QTest::addRow("inside is harmless") << u"a=b+c"_qs << u"a=b+c"_qs;
        QTest::addRow("empty") << QString() << QString();
        QTest::addRow("plain") << u"E-1"_qs << u"E-1"_qs;
    }
    void csvFieldIsSpreadsheetSafe()
    {
        QFETCH(QString, text);
        QFETCH(QString, field);
        QCOMPARE(CsvExport::field(text), field);
    }

    void redactionIgnoresCaseAndSeparators_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<bool>("masked");
        for (const QString &key : {u"E-Mail"_qs, u"e_mail"_qs, u"eMail"_qs, u"EMAIL"_qs, u"pwd"_qs,
                 u"userPwd"_qs, u"passphrase"_qs, u"apiKey"_qs, u"api_key"_qs, u"API-KEY"_qs,
                 u"private_key"_qs, u"credentials"_qs, u"ssn"_qs, u"user_SSN"_qs, u"phoneNumber"_qs,
                 u"iban"_qs, u"bank_account"_qs, u"creditCard"_qs, u"clientSecret"_qs,
                 u"refresh-token"_qs, u"national_id"_qs})
            QTest::addRow("%s", qPrintable(key)) << key << true;
        for (const QString &key : {u"className"_qs, u"business"_qs, u"sku"_qs, u"amount"_qs,
                 u"keyboard"_qs, u"aggregateId"_qs})
            QTest::addRow("%s kept", qPrintable(key)) << key << false;
    }
    void redactionIgnoresCaseAndSeparators()
    {
        QFETCH(QString, key);
        QFETCH(bool, masked);
        const QString payload = u"{\""_qs + key + u"\":\"v4lue\"}"_qs;
        const QString redacted = Redaction::redactJson(payload);
        QCOMPARE(!redacted.contains(u"v4lue"_qs), masked);
    }

    // One Redactor for a whole export remembers each key's verdict: a key seen again, at any
    // depth, in any payload, is masked or kept exactly as a fresh redaction decides.
    void redactorRemembersVerdicts()
    {
        const Redaction::Redactor redactor;
        const QStringList payloads {u"{\"email\":\"a@b\",\"sku\":\"S1\"}"_qs,
            u"{\"order\":{\"email\":\"c@d\",\"sku\":\"S2\",\"className\":\"X\"}}"_qs,
            u"[{\"e_mail\":\"e@f\"},{\"sku\":\"S3\",\"userSSN\":\"123\"}]"_qs,
            u"{\"email\":\"g@h\",\"sku\":\"S4\"}"_qs, u"not json"_qs};
        for (const QString &payload : payloads)
            QCOMPARE(redactor.redactJson(payload), Redaction::redactJson(payload));
        QVERIFY(!redactor.redactJson(payloads.at(3)).contains(u"g@h"_qs));
        QVERIFY(redactor.redactJson(payloads.at(3)).contains(u"S4"_qs));
    }

    void exportIsTheWindowsCsv_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void exportIsTheWindowsCsv()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        QVERIFY(insertEvent(db,
            u"('E-1', 'Order', '-1', '=HYPERLINK(\"http://evil\")', '{\"E-Mail\":\"a@b.c\","
            "\"apiKey\":\"k-123\",\"sku\":\"S\"}', 'DEAD', 3, 0, 1000, 'TRANSIENT', '+cmd|x'),"
            " ('E-2', 'Order', '2', 'T', '{\"pwd\":\"hunter2\"}', 'DEAD', 1, 0, 2000,"
            " 'PERMANENT', '@boom'),"
            " ('E-3', 'Order', '3', 'T', '{}', 'PENDING', 0, 0, 99999000, NULL, NULL)"_qs));
        QVERIFY(exec(db,
            u"INSERT INTO replay_log (event_id, replayed_at, operator, reason, reset_failures,"
            " failures_before) VALUES ('E-2', 5, '-alice', '=1+1', FALSE, 1)"_qs));
        const QStringList before = allRows(db);

        // The whole outbox on stdout: cells neutralised, payload redacted.
        int exitCode = -1;
        const QByteArray all = rawStdout(
            {u"export"_qs, u"--db"_qs, database->url(), u"--now"_qs, QString::number(Now)},
            &exitCode);
        QCOMPARE(exitCode, 0);
        const QList<QStringList> records = parseCsv(QString::fromUtf8(all));
        QCOMPARE(records.size(), 4);
        QCOMPARE(records.at(1).at(1), u"'=HYPERLINK(\"http://evil\")"_qs);
        QCOMPARE(records.at(1).at(3), u"'-1"_qs);
        QCOMPARE(records.at(1).at(9), u"'+cmd|x"_qs);
        QCOMPARE(records.at(1).at(10), u"{\"E-Mail\":\"***\",\"apiKey\":\"***\",\"sku\":\"S\"}"_qs);
        QCOMPARE(records.at(2).at(9), u"'@boom"_qs);
        QVERIFY(!all.contains("hunter2") && !all.contains("a@b.c") && !all.contains("k-123"));

        // Narrowed as the window narrows: byte for byte what the window's export writes.
        EventFilter filter;
        filter.state = EventFilter::State::Dead;
        filter.errorCategory = u"TRANSIENT"_qs;
        filter.minAgeMs = 1000;
        QBuffer window;
        QVERIFY(window.open(QIODevice::WriteOnly));
        QString error;
        QVERIFY2(CsvExport::exportEvents(
                     db, filter, Now, Redaction::defaultSensitiveKeys(), &window, &error),
            qPrintable(error));
        const QString file = QDir(m_config.path()).filePath(engine + u"-dead.csv"_qs);
        const Run toFile = outboxctl({u"export"_qs, u"--db"_qs, database->url(), u"--state"_qs,
            u"dead"_qs, u"--error-category"_qs, u"transient"_qs, u"--older-than-ms"_qs, u"1000"_qs,
            u"--now"_qs, QString::number(Now), u"--output"_qs, file});
        QCOMPARE(toFile.err, QStringList());
        QCOMPARE(toFile.exitCode, 0);
        QCOMPARE(toFile.out, QStringList {u"exported 1 event to "_qs + file});
        QFile written(file);
        QVERIFY(written.open(QIODevice::ReadOnly));
        QCOMPARE(written.readAll(), window.data());

        // The replay log, neutralised too.
        const QByteArray audit
            = rawStdout({u"export"_qs, u"--db"_qs, database->url(), u"--audit"_qs}, &exitCode);
        QCOMPARE(exitCode, 0);
        const QList<QStringList> log = parseCsv(QString::fromUtf8(audit));
        QCOMPARE(log.size(), 2);
        QCOMPARE(log.at(1).at(3), u"'-alice"_qs);
        QCOMPARE(log.at(1).at(4), u"'=1+1"_qs);

        QCOMPARE(allRows(db), before); // export never writes
    }

    void exportReadsThroughAProfile_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void exportReadsThroughAProfile()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->connect(false);
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        QVERIFY(runSqlScript(db, TestData::path("fixtures/custom.sql")));
        const auto shopRows = [&db] {
            QStringList rows;
            QSqlQuery query(db);
            query.exec(u"SELECT * FROM shop_outbox ORDER BY 1"_qs);
            while (query.next()) {
                QStringList values;
                for (int i = 0; i < query.record().count(); ++i)
                    values << query.value(i).toString();
                rows << values.join(u'|');
            }
            return rows;
        };
        const QStringList before = shopRows();
        QCOMPARE(before.size(), 8);
        const QString profile = TestData::path("fixtures/custom.profile");
        int exitCode = -1;
        const QByteArray csv = rawStdout({u"export"_qs, u"--db"_qs, database->url(),
                                             u"--profile"_qs, profile, u"--state"_qs, u"dead"_qs},
            &exitCode);
        QCOMPARE(exitCode, 0);
        const QList<QStringList> records = parseCsv(QString::fromUtf8(csv));
        QCOMPARE(records.size(), 3); // the header and the two failed jobs
        QCOMPARE(records.at(1).at(0), u"7"_qs);
        QCOMPARE(records.at(1).at(9), u"HTTP 400: unknown customer"_qs);
        QCOMPARE(records.at(2).at(0), u"8"_qs);

        expectOneLine(outboxctl({u"export"_qs, u"--db"_qs, database->url(), u"--profile"_qs,
                          profile, u"--audit"_qs}),
            u"has no replay log"_qs);
        QCOMPARE(shopRows(), before);
    }

    void exportRedactsWithTheDashboardsList()
    {
        FRESH_DATABASE(database, u"sqlite"_qs);
        const auto connection = database->initialise();
        QVERIFY(connection);
        QVERIFY(insertEvent(connection->database(),
            u"('E-1', 'O', '1', 'T', '{\"sku\":\"S-9\",\"email\":\"a@b.c\"}', 'DEAD', 1, 0, 1,"
            " NULL, NULL)"_qs));
        // The window's setting (Settings > redaction/sensitiveKeys), as the dashboard keeps it.
        QDir(m_config.path()).mkpath(u"OutboxHealth"_qs);
        QFile settings(QDir(m_config.path()).filePath(u"OutboxHealth/Outbox Health.conf"_qs));
        QVERIFY(settings.open(QIODevice::WriteOnly));
        settings.write("[redaction]\nsensitiveKeys=sku\n");
        settings.close();
        int exitCode = -1;
        const QByteArray csv = rawStdout({u"export"_qs, u"--db"_qs, database->url()}, &exitCode);
        QVERIFY(settings.remove());
        QCOMPARE(exitCode, 0);
        QVERIFY2(csv.contains("\"{\"\"email\"\":\"\"a@b.c\"\",\"\"sku\"\":\"\"***\"\"}\""),
            csv.constData());
    }

    void exportBadInputIsOneLine_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("cause");
        QTest::addRow("unknown category")
            << QStringList {u"--error-category"_qs, u"TRANSENT"_qs}
            << u"export: --error-category must be TRANSIENT or PERMANENT, not 'TRANSENT'"_qs;
        QTest::addRow("unknown state") << QStringList {u"--state"_qs, u"gone"_qs}
                                       << u"export: --state must be one of any, pending"_qs;
        QTest::addRow("--audit narrowed") << QStringList {u"--audit"_qs, u"--state"_qs, u"dead"_qs}
                                          << u"the replay log (--audit) is exported whole"_qs;
        QTest::addRow("--older-than-ms negative") << QStringList {
            u"--older-than-ms=-5"_qs} << u"--older-than-ms must be a whole number from 0 to"_qs;
        QTest::addRow("--now beyond any clock")
            << QStringList {u"--now"_qs, u"9223372036854775807"_qs}
            << u"--now must be a whole number from 0 to 9007199254740992"_qs;
        QTest::addRow("unwritable output") << QStringList {u"--output"_qs,
            u"/nonexistent-dir/x.csv"_qs} << u"export: cannot write /nonexistent-dir/x.csv"_qs;
    }
    void exportBadInputIsOneLine()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, cause);
        FRESH_DATABASE(database, u"sqlite"_qs);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QStringList before = allRows(connection->database());
        expectOneLine(
            outboxctl(QStringList {u"export"_qs, u"--db"_qs, database->url()} + arguments), cause);
        QCOMPARE(allRows(connection->database()), before);
    }

    void notASqliteDatabase_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("cause");
        QTest::addRow("text file") << u"text"_qs << u"not a SQLite database: "_qs;
        QTest::addRow("/etc/passwd")
            << u"/etc/passwd"_qs << u"not a SQLite database: /etc/passwd"_qs;
        QTest::addRow("/dev/zero")
            << u"/dev/zero"_qs << u"not a SQLite database: /dev/zero is a device"_qs;
        QTest::addRow("FIFO") << u"fifo"_qs << u"is a FIFO, not a file"_qs;
        QTest::addRow("directory") << u"dir"_qs << u"is a directory, not a file"_qs;
    }
    void notASqliteDatabase()
    {
        QFETCH(QString, kind);
        QFETCH(QString, cause);
        QTemporaryDir dir;
        QString path = kind;
        if (kind == u"text"_qs) {
            path = dir.filePath(u"notes.txt"_qs);
            QFile text(path);
            QVERIFY(text.open(QIODevice::WriteOnly));
            text.write("hello, I am not a database\n");
        } else if (kind == u"fifo"_qs) {
            path = dir.filePath(u"pipe"_qs);
            QCOMPARE(::mkfifo(QFile::encodeName(path).constData(), 0600), 0);
        } else if (kind == u"dir"_qs) {
            path = dir.path();
        }
        const QByteArray contentBefore = QFileInfo(path).isFile() ? [&path] {
            QFile file(path);
            return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
        }()
                                                                  : QByteArray();
        const QString url = u"sqlite:"_qs + path;
        // Each returns at once (a FIFO would block an open until a writer came).
        for (const QStringList &arguments : {QStringList {u"check"_qs, u"--db"_qs, url},
                 QStringList {u"export"_qs, u"--db"_qs, url},
                 QStringList {u"replay"_qs, u"--db"_qs, url, u"--all-dead"_qs, u"--operator"_qs,
                     u"a"_qs, u"--reason"_qs, u"r"_qs}}) {
            const Run run = outboxctl(arguments);
            QVERIFY2(run.exitCode != -1, "outboxctl hung");
            expectOneLine(run, cause);
        }
        if (QFileInfo(path).isFile()) {
            QFile file(path);
            QVERIFY(file.open(QIODevice::ReadOnly));
            QCOMPARE(file.readAll(), contentBefore);
        }
        QString error;
        QVERIFY(!DbConnection::open(DatabaseUrl::parse(url, &error), {}, &error));
        QVERIFY2(error.contains(cause), qPrintable(error));
    }

    // A profile path that is a device, a FIFO (no writer), a directory or a file over 256 KiB
    // is refused in one line before anything is opened, and never blocks (issue 26).
    void hostileProfileFiles_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("cause");
        QTest::addRow("/dev/zero")
            << u"/dev/zero"_qs << u"not a profile: /dev/zero is a character device, not a file"_qs;
        QTest::addRow("FIFO") << u"fifo"_qs << u"is a FIFO, not a file"_qs;
        QTest::addRow("over 256 KiB") << u"big"_qs << u"is larger than 256 KiB"_qs;
    }
    void hostileProfileFiles()
    {
        QFETCH(QString, kind);
        QFETCH(QString, cause);
        QTemporaryDir dir;
        const QString path = HostileFile::make(dir, kind);
        QVERIFY(!path.isEmpty());
        const QString db = u"sqlite:"_qs + dir.filePath(u"never.sqlite"_qs);
        for (const QStringList &arguments :
            {QStringList {u"check"_qs, u"--db"_qs, db, u"--profile"_qs, path},
                QStringList {u"export"_qs, u"--db"_qs, db, u"--profile"_qs, path}}) {
            const Run run = outboxctl(arguments);
            QVERIFY2(run.exitCode != -1, "outboxctl hung");
            expectOneLine(run, cause);
        }
        QVERIFY(!QFileInfo::exists(dir.filePath(u"never.sqlite"_qs)));
    }

    // The URL can stay out of ps: --db-file (its first line) or OUTBOX_DB_URL read as --db
    // would be; a --db-file that is not a regular file, or that holds a password while group
    // or others may read it, is refused in one line; --db and --db-file exclude each other.
    void databaseUrlOffTheCommandLine()
    {
        FRESH_DATABASE(database, u"sqlite"_qs);
        QVERIFY(database->initialise());
        QTemporaryDir dir;
        const QString file = ScratchFile::writeText(
            dir, u"db.url"_qs, database->url() + u"\n# a comment line, never read\n"_qs);
        QVERIFY(!file.isEmpty());
        const Run direct = outboxctl({u"check"_qs, u"--db"_qs, database->url(), u"--json"_qs});
        QCOMPARE(direct.exitCode, 0);
        const Run fromFile = outboxctl({u"check"_qs, u"--db-file"_qs, file, u"--json"_qs});
        QCOMPARE(fromFile.exitCode, 0);
        QCOMPARE(fromFile.out.size(), direct.out.size());
        QVERIFY(fromFile.err.isEmpty());
        qputenv("OUTBOX_DB_URL", database->url().toUtf8());
        const Run fromEnvironment = outboxctl({u"check"_qs, u"--json"_qs});
        qunsetenv("OUTBOX_DB_URL");
        QCOMPARE(fromEnvironment.exitCode, 0);
        QCOMPARE(fromEnvironment.out.size(), direct.out.size());

        expectOneLine(outboxctl({u"check"_qs, u"--db"_qs, database->url(), u"--db-file"_qs, file}),
            u"check: --db and --db-file exclude each other"_qs);
        expectOneLine(outboxctl({u"check"_qs, u"--db-file"_qs, u"/dev/zero"_qs}),
            u"not a database URL file: /dev/zero is a character device, not a file"_qs);

        QCOMPARE(
            ScratchFile::write(dir, u"db.url"_qs, "postgresql://op:hunter2@127.0.0.1:1/orders\n"),
            file);
        QVERIFY(QFile::setPermissions(
            file, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup));
        const Run exposed = outboxctl({u"check"_qs, u"--db-file"_qs, file});
        expectOneLine(exposed,
            u"--db-file %1 holds a password and has group or world access; permissions should "
            "be u=rw (0600) or less"_qs.arg(file));
        QVERIFY(QFile::setPermissions(file, QFileDevice::ReadOwner | QFileDevice::WriteOwner));
        const Run private_ = outboxctl({u"check"_qs, u"--db-file"_qs, file});
        expectOneLine(private_, u"postgresql://op:***@127.0.0.1:1/orders"_qs);
        QVERIFY(!private_.err.constFirst().contains(u"hunter2"_qs));
    }

    // A password on the command line is visible in ps while any command runs: a command that
    // connects says so on stderr (once, masked) and still does its work; the same URL from a
    // private --db-file gets no warning.
    void passwordOnTheCommandLineIsWarnedOf()
    {
        FRESH_DATABASE(database, u"postgresql"_qs);
        QVERIFY(database->initialise());
        QUrl withPassword(database->url());
        withPassword.setPassword(u"hunter2"_qs); // the test server trusts loopback: not asked for
        const QString url = withPassword.toString();
        const Run run
            = outboxctl({u"check"_qs, u"--db"_qs, url, u"--json"_qs, u"--now"_qs, u"1000"_qs});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.out.size(), 1);
        QCOMPARE(run.err.size(), 1);
        QVERIFY2(run.err.constFirst().startsWith(
                     u"outboxctl: warning: a password on the command line is visible"_qs),
            qPrintable(run.err.constFirst()));
        QVERIFY(!run.err.constFirst().contains(u"hunter2"_qs));

        QTemporaryDir dir;
        const QString file = ScratchFile::write(dir, u"db.url"_qs, url.toUtf8() + "\n");
        QVERIFY(!file.isEmpty());
        QVERIFY(QFile::setPermissions(file, QFileDevice::ReadOwner | QFileDevice::WriteOwner));
        const Run fromFile = outboxctl(
            {u"check"_qs, u"--db-file"_qs, file, u"--json"_qs, u"--now"_qs, u"1000"_qs});
        QCOMPARE(fromFile.exitCode, 0);
        QCOMPARE(fromFile.out, run.out);
        QVERIFY2(fromFile.err.isEmpty(), qPrintable(fromFile.err.join(u'\n')));
    }

    // As psql does: when the server asks for a password that neither the URL, PGPASSWORD nor
    // ~/.pgpass gave, outboxctl asks on the terminal with echo off (the typed password never
    // shows); without a terminal it names the cause instead of waiting for input.
    void passwordPromptOnATerminal()
    {
        if (qEnvironmentVariableIsEmpty("OUTBOX_TEST_PG_URL"))
            QSKIP("no PostgreSQL server (scripts/test starts one)");
        if (QStandardPaths::findExecutable(u"script"_qs).isEmpty())
            QSKIP("script(1) is not installed: no terminal to type at");
        const QString role = u"outbox_prompt_auth"_qs;
        const QString why = PasswordRole::create(role, u"typed-at-the-prompt"_qs);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        // The URL without the password: PasswordRole::url's with it cut out.
        const QString url = PasswordRole::url(role, u"x"_qs).replace(u":x@"_qs, u"@"_qs);
        const Run noTerminal = outboxctl({u"check"_qs, u"--db"_qs, url});
        expectOneLine(noTerminal, u"no password supplied"_qs);

        const auto typeAtThePrompt = [&url](const QByteArray &typed) -> QString {
            QProcess terminal;
            terminal.start(u"script"_qs,
                {u"-qec"_qs,
                    QStringLiteral("%1 check --db %2").arg(qEnvironmentVariable("OUTBOXCTL"), url),
                    u"/dev/null"_qs});
            QString screen;
            const bool asked = QTest::qWaitFor(
                [&] {
                    terminal.waitForReadyRead(100);
                    screen += QString::fromUtf8(terminal.readAll());
                    return screen.contains(u"Password for user outbox_prompt_auth: "_qs);
                },
                30000);
            terminal.write(typed + '\n');
            if (!asked || !terminal.waitForFinished(30000))
                return u"(no prompt, or no end) "_qs + screen;
            return screen + QString::fromUtf8(terminal.readAll());
        };
        const QString right = typeAtThePrompt("typed-at-the-prompt");
        QVERIFY2(right.contains(u"Password for user outbox_prompt_auth: "_qs), qPrintable(right));
        QVERIFY2(!right.contains(u"typed-at-the-prompt"_qs), qPrintable(right)); // echo off
        // Signed in: whatever follows is about the database, not the password.
        QVERIFY2(!right.contains(u"authentication failed"_qs), qPrintable(right));
        QVERIFY2(!right.contains(u"no password supplied"_qs), qPrintable(right));
        const QString wrong = typeAtThePrompt("not-the-password");
        QVERIFY2(wrong.contains(u"password authentication failed"_qs), qPrintable(wrong));
        QVERIFY2(!wrong.contains(u"not-the-password"_qs), qPrintable(wrong));
    }

    void urlPasswordsAreMaskedWhereverEchoed_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("cause");
        const QString url = u"postgresql://op:hunter2@db.example.org/orders"_qs;
        QTest::addRow("URL without --db") << QStringList {u"check"_qs,
            url} << u"unexpected argument 'postgresql://op:***@db.example.org/orders'"_qs;
        QTest::addRow("URL as command")
            << QStringList {url} << u"unknown command 'postgresql://op:***@db.example.org"_qs;
        QTest::addRow("URL as an option value") << QStringList {u"replay"_qs, u"--db"_qs,
            u"sqlite:x"_qs, u"--all-dead"_qs, u"--operator"_qs, u"a"_qs, u"--reason"_qs, u"r"_qs,
            u"--now"_qs, url} << u"not 'postgresql://op:***@db.example.org/orders'"_qs;
        QTest::addRow("unencoded @ in the password")
            << QStringList {u"export"_qs, u"postgres://op:p@ss:w/rd@db/x"_qs}
            << u"unexpected argument 'postgres://op:***@db/x'"_qs;
    }
    void urlPasswordsAreMaskedWhereverEchoed()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, cause);
        const Run run = outboxctl(arguments);
        expectOneLine(run, cause);
        QVERIFY(!run.err.constFirst().contains(u"hunter2"_qs));
        QVERIFY(!run.err.constFirst().contains(u"rd@"_qs));
    }

    void replayRefusesUnknownCategory_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void replayRefusesUnknownCategory()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        QVERIFY(insertEvent(connection->database(),
            u"('E-1', 'O', '1', 'T', '{}', 'DEAD', 3, 0, 1, 'TRANSIENT', 'x')"_qs));
        const QStringList before = allRows(connection->database());
        expectOneLine(outboxctl({u"replay"_qs, u"--db"_qs, database->url(), u"--all-dead"_qs,
                          u"--error-category"_qs, u"TRANSENT"_qs, u"--operator"_qs, u"a"_qs,
                          u"--reason"_qs, u"r"_qs}),
            u"replay: --error-category must be TRANSIENT or PERMANENT, not 'TRANSENT'"_qs);
        QCOMPARE(allRows(connection->database()), before);
    }

    // SQLite keeps text in an INTEGER column; PostgreSQL refuses it on insert.
    void textInIntegerColumnsIsNamed()
    {
        FRESH_DATABASE(database, u"sqlite"_qs);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        QVERIFY(insertEvent(db,
            u"('E-1', 'O', '1', 'T', '{}', 'DEAD', 'three', 0, 'yesterday', 'TRANSIENT', 'x'),"
            " ('E-2', 'O', '2', 'T', '{}', 'DEAD', 2, 0, 5, 'TRANSIENT', 'x')"_qs));
        const QStringList before = allRows(db);
        const QString cause = u"delivery_outbox: column created_at holds values that are not "
                              "whole numbers in 1 row (e.g. 'yesterday'); delivery_outbox: column "
                              "failures holds values that are not whole numbers in 1 row (e.g. "
                              "'three')"_qs;
        for (const QStringList &arguments : {QStringList {u"check"_qs}, QStringList {u"export"_qs},
                 QStringList {u"replay"_qs, u"--all-dead"_qs, u"--operator"_qs, u"a"_qs,
                     u"--reason"_qs, u"r"_qs}}) {
            const QStringList command
                = QStringList {arguments.constFirst(), u"--db"_qs, database->url()}
                + arguments.mid(1);
            expectOneLine(outboxctl(command), cause);
        }
        QCOMPARE(allRows(db), before);

        // A row that went bad after the connection was validated: replay names the column
        // and rewrites nothing (failures used to become 0 without --reset-budget).
        Replayer replayer(db);
        ReplayRequest request;
        request.eventIds = {u"E-1"_qs};
        request.operatorName = u"a"_qs;
        request.reason = u"r"_qs;
        request.now = Now;
        const ReplayResult result = replayer.replay(request);
        QVERIFY2(result.error.contains(u"column failures holds 'three', not a whole number"_qs),
            qPrintable(result.error));
        QCOMPARE(allRows(db), before);
    }

    void replayWithoutResetKeepsFailures_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void replayWithoutResetKeepsFailures()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        QVERIFY(insertEvent(
            db, u"('E-1', 'O', '1', 'T', '{}', 'DEAD', 2147483647, 0, 1, 'TRANSIENT', 'x')"_qs));
        const Run run = outboxctl({u"replay"_qs, u"--db"_qs, database->url(), u"--event"_qs,
            u"E-1"_qs, u"--operator"_qs, u"a"_qs, u"--reason"_qs, u"r"_qs});
        QCOMPARE(run.err, QStringList());
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(scalar(db, u"SELECT failures FROM delivery_outbox"_qs).toLongLong(), 2147483647LL);
        QCOMPARE(
            scalar(db, u"SELECT failures_before FROM replay_log"_qs).toLongLong(), 2147483647LL);
    }

    void controlCharactersAreEscapedInPlainOutput_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void controlCharactersAreEscapedInPlainOutput()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        const QString forged = u"E-1\x1b[2K\routboxctl: replayed 0 events\nX"_qs;
        QSqlQuery insert(db);
        insert.prepare(u"INSERT INTO delivery_outbox (event_id, aggregate_type, aggregate_id,"
                       " event_type, payload, status, failures, next_attempt_at, created_at,"
                       " last_error_category) VALUES (:id, 'O', '1', 'T', '{}', 'DEAD', 1, 0, 1,"
                       " :category)"_qs);
        insert.bindValue(u":id"_qs, forged);
        insert.bindValue(u":category"_qs, u"BAD\nhealthy"_qs);
        QVERIFY2(insert.exec(), qPrintable(insert.lastError().text()));

        const Run text = outboxctl(
            {u"check"_qs, u"--db"_qs, database->url(), u"--now"_qs, QString::number(Now)});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains(u"errors:   TRANSIENT: 0, PERMANENT: 0, BAD\\nhealthy: 1"_qs),
            qPrintable(text.out.join(u'\n')));
        QCOMPARE(text.out.count(u"healthy"_qs), 1); // only the real verdict line

        const Run json = outboxctl(
            {u"replay"_qs, u"--db"_qs, database->url(), u"--all-dead"_qs, u"--operator"_qs, u"a"_qs,
                u"--reason"_qs, u"r"_qs, u"--json"_qs, u"--now"_qs, QString::number(Now)});
        QCOMPARE(json.exitCode, 0);
        QCOMPARE(json.out.size(), 1); // JSON escapes by itself and stays exact
        const QJsonObject object = QJsonDocument::fromJson(json.out.constFirst().toUtf8()).object();
        QCOMPARE(object.value(u"replayed"_qs).toArray(), QJsonArray {forged});

        QVERIFY(exec(db, u"UPDATE delivery_outbox SET status = 'DEAD'"_qs));
        const Run sentence = outboxctl({u"replay"_qs, u"--db"_qs, database->url(), u"--all-dead"_qs,
            u"--operator"_qs, u"a"_qs, u"--reason"_qs, u"r"_qs});
        QCOMPARE(sentence.exitCode, 0);
        QCOMPARE(sentence.out,
            QStringList {u"replayed 1 event: E-1\\x1b[2K\\routboxctl: replayed 0 events\\nX"_qs});
    }

    void invisibleCharactersAreEscapedInPlainOutput_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    // Issue 40: U+202E turns "R-gpj.exe" into "R-exe.jpg" on a terminal, U+200B hides in an ID:
    // every command that prints IDs, types or errors shows them escaped, as it shows C0 controls.
    void invisibleCharactersAreEscapedInPlainOutput()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        QSqlQuery insert(db);
        insert.prepare(u"INSERT INTO delivery_outbox (event_id, aggregate_type, aggregate_id,"
                       " event_type, payload, status, failures, next_attempt_at, created_at,"
                       " last_error_category, last_error) VALUES (:id, 'O', '1', :type, '{}',"
                       " 'DEAD', 1, 0, 1, 'PERMANENT', :error)"_qs);
        insert.bindValue(u":id"_qs, u"R-\u202egpj.exe"_qs);
        insert.bindValue(u":type"_qs, u"Order\u202eCreated"_qs);
        insert.bindValue(u":error"_qs, u"<h1 style=\"color:red\">REPLAY ALL NOW</h1>\u200b"_qs);
        QVERIFY2(insert.exec(), qPrintable(insert.lastError().text()));
        const QStringList before = allRows(db);
        const QString db_ = database->url();
        const QString now = QString::number(Now);
        const QList<QStringList> commands {{u"errors"_qs, u"--db"_qs, db_, u"--now"_qs, now},
            {u"explain"_qs, u"--db"_qs, db_, u"--event"_qs, u"R-\u202egpj.exe"_qs, u"--now"_qs,
                now},
            {u"diagnose"_qs, u"--db"_qs, db_, u"--now"_qs, now}};
        for (const QStringList &command : commands) {
            const Run run = outboxctl(command);
            const QString out = run.out.join(u'\n') + run.err.join(u'\n');
            QVERIFY2(run.exitCode == 0 || run.exitCode == 1, qPrintable(out));
            for (const QChar hidden : {QChar(0x202e), QChar(0x200b)})
                QVERIFY2(!out.contains(hidden), qPrintable(command.constFirst() + u": "_qs + out));
            if (command.constFirst() == u"errors"_qs)
                QVERIFY2(out.contains(u"types: Order\\u202eCreated 1"_qs), qPrintable(out));
            if (command.constFirst() != u"diagnose"_qs) // the error quoted, tags as written
                QVERIFY2(out.contains(u"REPLAY ALL NOW</h1>\\u200b"_qs), qPrintable(out));
        }
        const Run replay = outboxctl({u"replay"_qs, u"--db"_qs, db_, u"--all-dead"_qs,
            u"--operator"_qs, u"a"_qs, u"--reason"_qs, u"r"_qs, u"--dry-run"_qs});
        const QString preview = replay.out.join(u'\n') + replay.err.join(u'\n');
        QVERIFY2(preview.contains(u"by type: Order\\u202eCreated 1"_qs), qPrintable(preview));
        QVERIFY(!preview.contains(QChar(0x202e)) && !preview.contains(QChar(0x200b)));
        QCOMPARE(allRows(db), before);
        const Run replayed = outboxctl({u"replay"_qs, u"--db"_qs, db_, u"--all-dead"_qs,
            u"--operator"_qs, u"a"_qs, u"--reason"_qs, u"r"_qs});
        QCOMPARE(replayed.out, QStringList {u"replayed 1 event: R-\\u202egpj.exe"_qs});
    }

    // MariaDB quotes 'user'@'host' in its refusal: the message stays whole, the password gone.
    void mariaDbRefusalSurvivesPasswordMasking()
    {
        FRESH_DATABASE(database, u"mysql"_qs);
        const QString url = database->url();
        QVERIFY2(url.contains(u"://root@"_qs), qPrintable(url));
        const QString password = u"wr0ng-pa55word"_qs;
        QString wrong = url;
        wrong.replace(u"://root@"_qs, u"://nobody_here:"_qs + password + u'@');
        const Run run = outboxctl({u"check"_qs, u"--db"_qs, wrong});
        expectOneLine(run, u"Access denied for user 'nobody_here'@'"_qs);
        const QString line = run.err.constFirst();
        QVERIFY2(line.contains(u"(using password: YES)"_qs), qPrintable(line));
        QVERIFY2(line.contains(u"nobody_here:***@"_qs), qPrintable(line));
        QVERIFY2(!line.contains(password), qPrintable(line));
    }

    void killedSessionIsOneLine_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addRow("postgresql") << u"postgresql"_qs;
        QTest::addRow("mysql") << u"mysql"_qs;
    }
    // Issue 40: a session the server kills under a read used to leave Qt's own lines on stderr
    // (the MySQL driver's "…Result::cleanup: unable to free statement handle", "QSqlQuery::exec:
    // database not open") beside the error; stderr is the one error line now.
    void killedSessionIsOneLine()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        QVERIFY(insertEvent(connection->database(),
            u"('E-1', 'O', '1', 'T', '{}', 'DEAD', 1, 0, 1, 'PERMANENT', 'x')"_qs));
        const auto locker = database->connect(false);
        const QSqlDatabase lock = locker->database();
        const bool mysql = engine == u"mysql"_qs;
        if (mysql) {
            QVERIFY(exec(lock, u"LOCK TABLES delivery_outbox WRITE"_qs));
        } else {
            QVERIFY(QSqlDatabase(lock).transaction());
            QVERIFY(exec(lock, u"LOCK TABLE delivery_outbox IN ACCESS EXCLUSIVE MODE"_qs));
        }
        QProcess check;
        check.start(qEnvironmentVariable("OUTBOXCTL"),
            {u"check"_qs, u"--db"_qs, database->url(), u"--now"_qs, QString::number(Now)});
        // Its session, waiting for the lock.
        const QString waiting = mysql
            ? u"SELECT ID FROM information_schema.PROCESSLIST WHERE ID <> CONNECTION_ID()"
              " AND STATE LIKE 'Waiting for table%'"_qs
            : u"SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
              " AND datname = current_database()"_qs;
        const auto watcher = database->connect(false);
        QString session;
        QTRY_VERIFY_WITH_TIMEOUT(
            !(session = scalar(watcher->database(), waiting).toString()).isEmpty(), 30000);
        QVERIFY(exec(watcher->database(),
            mysql ? QString(u"KILL "_qs + session)
                  : QString(u"SELECT pg_terminate_backend("_qs + session + u')')));
        QVERIFY(check.waitForFinished(60000));
        if (mysql)
            QVERIFY(exec(lock, u"UNLOCK TABLES"_qs));
        else
            QVERIFY(QSqlDatabase(lock).rollback());
        const QStringList err
            = QString::fromUtf8(check.readAllStandardError()).split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(check.exitCode(), 2);
        QVERIFY2(err.size() == 1 && err.constFirst().startsWith(u"outboxctl: "_qs),
            qPrintable(err.join(u'\n')));
    }

    void everyMissingColumnIsNamed_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void everyMissingColumnIsNamed()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        {
            const auto connection = database->initialise();
            QVERIFY(connection);
            const QSqlDatabase db = connection->database();
            QVERIFY(exec(db, u"ALTER TABLE delivery_outbox RENAME TO delivery_outbox_old"_qs));
            QVERIFY(exec(db,
                u"CREATE TABLE delivery_outbox AS SELECT event_id, aggregate_type, aggregate_id,"
                " event_type, payload, status, failures, next_attempt_at, created_at,"
                " delivered_at, last_error_category, last_error FROM delivery_outbox_old"_qs));
            QVERIFY(exec(db, u"DROP TABLE replay_log"_qs));
            QVERIFY(exec(db, u"DROP TABLE outbox_meta"_qs));
        }
        const Run run = outboxctl({u"check"_qs, u"--db"_qs, database->url()});
        expectOneLine(run,
            u"outboxctl: missing tables replay_log, outbox_meta (run `outboxctl init --db URL` "
            "to create the schema); delivery_outbox: missing columns claim_token, lease_until"_qs);
    }

    void agesNeverWrap_data()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
    void agesNeverWrap()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        QVERIFY(insertEvent(db,
            u"('E-1', 'O', '1', 'T', '{}', 'PENDING', 0, 0, -9223372036854775808, NULL, NULL),"
            " ('E-2', 'O', '2', 'T', '{}', 'PENDING', 0, 0, 9223372036854775807, NULL, NULL),"
            " ('E-3', 'O', '3', 'T', '{}', 'PENDING', 0, 0, 100000000000000, NULL, NULL),"
            " ('E-4', 'O', '4', 'T', '{}', 'PENDING', 0, 0, 100300000, NULL, NULL),"
            " ('E-5', 'O', '5', 'T', '{}', 'PENDING', 2147483647, 0, 99999000, NULL, NULL)"_qs));
        const QStringList before = allRows(db);
        const QStringList check
            = {u"check"_qs, u"--db"_qs, database->url(), u"--now"_qs, QString::number(Now)};

        // A limit on the oldest age cannot be judged honestly: refused, naming why.
        expectOneLine(outboxctl(check + QStringList {u"--max-oldest-pending-ms"_qs, u"1"_qs}),
            u"check: --max-oldest-pending-ms cannot be judged: 1 PENDING row has created_at "
            "before 1970; 2 PENDING rows have created_at in the future (more than 5 min after "
            "now)"_qs);

        const Run text = outboxctl(check);
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains(u"oldest:   1.0 s"_qs), qPrintable(text.out.join(u'\n')));
        QVERIFY(text.out.contains(
            u"warning:  1 PENDING row has created_at before 1970; 2 PENDING rows have "
            "created_at in the future (more than 5 min after now)"_qs));

        const Run json = outboxctl(check + QStringList {u"--json"_qs});
        QCOMPARE(json.exitCode, 0);
        const QJsonObject snapshot = QJsonDocument::fromJson(json.out.value(0).toUtf8()).object();
        QCOMPARE(snapshot.value(u"oldest_pending_age_ms"_qs).toInteger(), 1000);
        QCOMPARE(snapshot.value(u"counts"_qs).toObject().value(u"due"_qs).toInt(), 5);
        qint64 bucketed = 0;
        for (const QJsonValue &bucket : snapshot.value(u"age_histogram"_qs).toArray())
            bucketed += bucket.toObject().value(u"count"_qs).toInteger();
        QCOMPARE(bucketed, 2); // the plausible ones: E-4 (within the tolerance) and E-5
        QCOMPARE(snapshot.value(u"implausible_created_at"_qs).toObject(),
            QJsonObject({{u"before_1970"_qs, 1}, {u"in_future"_qs, 2}}));
        QVERIFY(json.out.constFirst().endsWith(
            u",\"implausible_created_at\":{\"before_1970\":1,\"in_future\":2}}"_qs));
        // A huge failure count is one bucket, not two billion.
        const QJsonArray attempts = snapshot.value(u"attempts_histogram"_qs).toArray();
        QCOMPARE(attempts.size(), 102);
        QCOMPARE(attempts.last().toObject().value(u"failures"_qs).toInteger(), 2147483647);
        QCOMPARE(allRows(db), before);

        // The window's event table: no age for a time that is none, never a wrapped one.
        EventListModel model;
        QAbstractItemModelTester tester(
            &model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setNow(Now);
        openEvents(model, *database);
        QVERIFY(settled(model));
        allIds(model);
        QCOMPARE(model.rowCount(), 5);
        QStringList ages;
        for (int row = 0; row < model.rowCount(); ++row)
            ages << model.eventIdAt(row) + u' '
                    + model.index(row, EventListModel::AgeColumn).data().toString();
        QCOMPARE(ages,
            QStringList({u"E-1 before 1970"_qs, u"E-2 in the future"_qs, u"E-3 in the future"_qs,
                u"E-4 0 units"_qs, u"E-5 1000 units"_qs}));
    }
};

OUTBOX_TEST_MAIN(TestHostileInput, QCoreApplication)
#include "tst_hostileinput.moc"
