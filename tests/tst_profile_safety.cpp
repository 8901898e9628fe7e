// Hostile and sloppy profiles change nothing (issue 12, Why 1-3), on PostgreSQL and SQLite,
// and a field's text is read as each engine reads quotes and comments (MySQL's too, issue 29):
// a field holding a second statement (a DELETE, a COMMIT that leaves the read-only
// transaction, a SET SESSION that makes the session writable) is refused when the profile is
// loaded, by `outboxctl check`, `outboxctl replay` and `outbox-dashboard --read-only` alike;
// reads run in a transaction that is read-only whatever the session says; the tool fences
// every replay statement itself (a DELIVERED row stays DELIVERED, a statement that changes the
// wrong row, two rows, or leaves the row DEAD rolls back); a status expression yielding the
// library's raw states fails `check` and the window's snapshot instead of counting zero; an
// older built-in profile on a newer table names the profile to use. Every attack compares all
// tables' rows before and after. A replay reads every event through the profile in a read-only
// transaction before it writes, so a `from` calling a function that deletes refuses it.
#include "csvexport.h"
#include "eventlistmodel.h"
#include "eventwait.h"
#include "fixturescript.h"
#include "healthmonitor.h"
#include "healthquery.h"
#include "healthtiles.h"
#include "mainwindow.h"
#include "outboxctlrun.h"
#include "profileparser.h"
#include "profileregistry.h"
#include "readonlytransaction.h"
#include "replayer.h"
#include "scratchfile.h"
#include "sqldialect.h"
#include "sqltext.h"
#include "testdata.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QBuffer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QProcess>
#include <QSqlError>
#include <QSqlRecord>

#include <algorithm>

namespace {

constexpr qint64 T = 1800000000000; // the fixtures' now

using Tables = QMap<QString, QStringList>;

// Every table's rows, each row one line, sorted: what "nothing changed" is compared by.
Tables everyTable(const QSqlDatabase &db)
{
    const Engine engine = SqlDialect::of(db).engine();
    QSqlQuery names(db);
    if (engine == Engine::PostgreSql)
        names.exec(u"SELECT table_schema || '.' || table_name FROM information_schema.tables"
                   " WHERE table_type = 'BASE TABLE'"
                   " AND table_schema NOT IN ('pg_catalog', 'information_schema')"_qs);
    else if (engine == Engine::MySql)
        names.exec(u"SELECT TABLE_NAME FROM information_schema.TABLES"
                   " WHERE TABLE_SCHEMA = DATABASE() AND TABLE_TYPE = 'BASE TABLE'"_qs);
    else
        names.exec(u"SELECT name FROM sqlite_master WHERE type = 'table'"_qs);
    Tables tables;
    while (names.next()) {
        const QString table = names.value(0).toString();
        QSqlQuery rows(db);
        rows.exec(u"SELECT * FROM "_qs + table);
        QStringList lines;
        while (rows.next()) {
            QStringList cells;
            for (int i = 0; i < rows.record().count(); ++i)
                cells << (rows.value(i).isNull() ? u"NULL"_qs : rows.value(i).toString());
            lines << cells.join(u'|');
        }
        lines.sort();
        tables.insert(table, lines);
    }
    return tables;
}

// custom.sql (shop_outbox, 8 rows) plus an unrelated table the attacks aim at.
std::unique_ptr<DbConnection> loadShop(const TestDatabase &database)
{
    auto connection = database.connect(false);
    if (!connection || !runSqlScript(connection->database(), TestData::path("fixtures/custom.sql")))
        return nullptr;
    QSqlQuery query(connection->database());
    if (!query.exec(u"CREATE TABLE victim (id INTEGER PRIMARY KEY, note TEXT NOT NULL)"_qs)
        || !query.exec(u"INSERT INTO victim VALUES (1, 'keep'), (2, 'me'), (3, 'please')"_qs))
        return nullptr;
    return connection;
}

// wipe(): a function that deletes every row of victim and returns 0 (PostgreSQL, MySQL).
bool createWipe(const QSqlDatabase &db)
{
    if (SqlDialect::of(db).engine() == Engine::MySql)
        return QSqlQuery(db).exec(u"CREATE FUNCTION wipe() RETURNS INTEGER MODIFIES SQL DATA"
                                  " BEGIN DELETE FROM victim; RETURN 0; END"_qs);
    return QSqlQuery(db).exec(u"CREATE FUNCTION wipe() RETURNS integer LANGUAGE sql AS"
                              " $$ DELETE FROM victim; SELECT 0 $$"_qs);
}

// A session whose transactions may write unless told otherwise.
bool makeSessionWritable(const QSqlDatabase &db)
{
    switch (SqlDialect::of(db).engine()) {
    case Engine::PostgreSql:
        return QSqlQuery(db).exec(u"SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE"_qs);
    case Engine::MySql:
        return QSqlQuery(db).exec(u"SET SESSION TRANSACTION READ WRITE"_qs);
    case Engine::Sqlite:
        break;
    }
    return true;
}

// What the engine says when a read-only transaction refuses a write.
bool saysReadOnly(const QString &error)
{
    return error.contains(u"read-only transaction"_qs) // PostgreSQL
        || error.contains(u"READ ONLY transaction"_qs) // MySQL, MariaDB
        || error.contains(u"readonly database"_qs); // SQLite
}

QString customProfileText()
{
    QFile file(TestData::path("fixtures/custom.profile"));
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

// custom.profile with the line starting with `prefix` (and its continuation lines) replaced by
// `replacement`; `*line` is set to that line's number.
QString customProfileWith(const QString &prefix, const QString &replacement, int *line = nullptr)
{
    QStringList lines = customProfileText().split(u'\n');
    for (qsizetype i = 0; i < lines.size(); ++i) {
        if (!lines.at(i).startsWith(prefix))
            continue;
        lines[i] = replacement;
        while (i + 1 < lines.size() && lines.at(i + 1).startsWith(u' '))
            lines.removeAt(i + 1);
        if (line)
            *line = int(i) + 1;
        return lines.join(u'\n');
    }
    qWarning("custom.profile has no line starting with %s", qPrintable(prefix));
    return {};
}

QStringList replayArguments(const QString &url, const QString &profile, const QString &eventId)
{
    return {u"replay"_qs, u"--db"_qs, url, u"--profile"_qs, profile, u"--event"_qs, eventId,
        u"--operator"_qs, u"ops"_qs, u"--reason"_qs, u"endpoint fixed"_qs, u"--now"_qs,
        QString::number(T), u"--json"_qs, u"--notes-db"_qs, auditStoreUrl()};
}

QStringList checkArguments(const QString &url, const QString &profile)
{
    return {u"check"_qs, u"--db"_qs, url, u"--profile"_qs, profile, u"--now"_qs, QString::number(T),
        u"--max-dead"_qs, u"0"_qs};
}

// outbox-dashboard as an operator starts it; its exit code, and its last line on stderr.
int runDashboard(const QStringList &arguments, QString *lastError)
{
    QTemporaryDir config;
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(u"QT_QPA_PLATFORM"_qs, u"offscreen"_qs);
    environment.insert(u"XDG_CONFIG_HOME"_qs, config.path());
    process.setProcessEnvironment(environment);
    process.start(qEnvironmentVariable("OUTBOX_DASHBOARD"),
        arguments
            + QStringList {u"--screenshot"_qs, config.filePath(u"window.png"_qs),
                u"--screenshot-after-ms"_qs, u"0"_qs});
    if (!process.waitForFinished(60000))
        return -1;
    *lastError = QString::fromUtf8(process.readAllStandardError()).trimmed().section(u'\n', -1);
    return process.exitCode();
}

// The session escape of issue 40: out of the read-only transaction, into a writable one.
const QString SessionEscape = u"COMMIT; BEGIN READ WRITE; DELETE FROM victim; COMMIT"_qs;

// Each SQL field of custom.profile with a value it could hold: (prefix of its line, value).
// Fields the file leaves out are added in front of its `from` line.
struct ProfileField
{
    QString name;
    QString value;
    bool inFile = true;
};

QList<ProfileField> everySqlField()
{
    QList<ProfileField> fields = {{u"from"_qs, u"shop_outbox"_qs},
        {u"where"_qs, u"1 = 1"_qs, false}, {u"detect"_qs, u"SELECT 1 FROM shop_outbox"_qs, false},
        {u"replay"_qs,
            u"UPDATE shop_outbox SET state = 'queued' WHERE job_id = CAST(:event_id AS INTEGER)"
            " AND state = 'error'"_qs}};
    const QStringList absent
        = {u"aggregate_type"_qs, u"aggregate_id"_qs, u"last_error_category"_qs};
    for (int i = 0; i < OutboxProfile::ColumnCount; ++i) {
        const QString column = OutboxProfile::columnName(OutboxProfile::Column(i));
        fields << ProfileField {column, u"kind"_qs, !absent.contains(column)};
    }
    return fields;
}

// custom.profile with `field` set to `value` for PostgreSQL alone (`postgresql.FIELD`, read by
// PostgreSQL's rules only) and to its plain value for the other engines; `*line` is the
// PostgreSQL line.
QString customProfileWithField(const ProfileField &field, const QString &value, int *line)
{
    const QString lines = u"postgresql.%1 = %2\n%1 = %3"_qs.arg(field.name, value, field.value);
    if (field.inFile)
        return customProfileWith(field.name + u" ="_qs, lines, line);
    return customProfileWith(u"from ="_qs, lines + u"\nfrom = shop_outbox"_qs, line);
}

void addEngineRows(const char *name)
{
    for (const char *engine : {"sqlite", "postgresql", "mysql"})
        QTest::addRow("%s, %s", name, engine) << QString::fromLatin1(engine);
}

} // namespace

class TestProfileSafety : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY2(QFileInfo::exists(qEnvironmentVariable("OUTBOXCTL")),
            "OUTBOXCTL must name the binary (set by CTest)");
        QVERIFY2(QFileInfo::exists(qEnvironmentVariable("OUTBOX_DASHBOARD")),
            "OUTBOX_DASHBOARD must name the binary (set by CTest)");
        QVERIFY(!customProfileText().isEmpty());
    }

    void secondStatementFound_data()
    {
        QTest::addColumn<QString>("sql");
        QTest::addColumn<bool>("several");
        QTest::addColumn<QString>("engine"); // whose readings; empty: every engine's
        const QString every;
        QTest::addRow("one statement") << u"SELECT 1 FROM t"_qs << false << every;
        QTest::addRow("trailing semicolon") << u"SELECT 1 FROM t; -- done\n"_qs << false << every;
        QTest::addRow("two statements") << u"t; DELETE FROM victim"_qs << true << every;
        QTest::addRow("commit and begin")
            << u"t; COMMIT; BEGIN READ WRITE; DELETE FROM victim; SELECT 1 FROM t"_qs << true
            << every;
        QTest::addRow("in a string") << u"CASE WHEN e = 'a;b' THEN 1 END"_qs << false << every;
        QTest::addRow("doubled quote") << u"'it''s; fine'"_qs << false << every;
        QTest::addRow("in an identifier") << u"\"odd;name\""_qs << false << every;
        QTest::addRow("in a line comment") << u"a -- x; DELETE\n+ 1"_qs << false << every;
        QTest::addRow("in a block comment") << u"a /* x; DELETE */ + 1"_qs << false << every;
        QTest::addRow("after a comment") << u"a /* x */; DELETE FROM victim"_qs << true << every;
        QTest::addRow("dollar quoted, PostgreSQL") << u"$q$a;b$q$"_qs << false << every;
        // Each engine's reading counts: where one engine sees a string and another does not,
        // the text is refused.
        QTest::addRow("backslash in a plain string")
            << u"'\\'; DELETE FROM victim; SELECT '\\'"_qs << true << every;
        QTest::addRow("escape string") << u"E'\\'; DELETE FROM victim; --'"_qs << true << every;
        QTest::addRow("dollar quotes in a field for both engines")
            << u"$a$; DELETE FROM victim; $a$"_qs << true << every;
        QTest::addRow("SQLite bracket identifier")
            << u"[it's]; DELETE FROM victim; '"_qs << true << every;
        lexerAgreementRows();
        mySqlRows();
    }

private:
    // Where the servers' own lexers read what an older SqlText did not (issue 40): a carriage
    // return ends a "--" comment on PostgreSQL only, and every character from U+0080 up is a
    // name character (PostgreSQL's ident_cont and dolq_cont), so `€$a$` is a name, not a name
    // and a dollar quote.
    static void lexerAgreementRows()
    {
        const QString pg = u"postgresql"_qs;
        const QString every;
        QTest::addRow("CR ends a line comment, postgresql")
            << u"a -- x\r; DELETE FROM victim"_qs << true << pg;
        QTest::addRow("CR ends a line comment, every engine")
            << u"a -- x\r; DELETE FROM victim"_qs << true << every;
        QTest::addRow("CR does not end a line comment, mysql")
            << u"a -- x\r; DELETE FROM victim\n+ 1"_qs << false << u"mysql"_qs;
        QTest::addRow("euro sign before a dollar is one name, postgresql")
            << u"€$a$; COMMIT; BEGIN READ WRITE; DELETE FROM victim; COMMIT; SELECT $a$"_qs << true
            << pg;
        QTest::addRow("euro sign before a dollar is one name, every engine")
            << u"x€$a$; DELETE FROM victim; SELECT $a$"_qs << true << every;
        QTest::addRow("a name ending in E before a quote is no escape string")
            << u"€E'\\'; DELETE FROM victim; --'"_qs << true << pg;
        QTest::addRow("a number before a dollar quote")
            << u"1$a$ x $a$; DELETE FROM victim; $a$"_qs << true << pg;
        QTest::addRow("dollar quoted, a non-ASCII tag") << u"$€$a;b$€$"_qs << false << pg;
        QTest::addRow("dollar quoted, a tag holding a name") << u"$ab$a;b$ab$"_qs << false << pg;
    }

    // MySQL's and MariaDB's lexical rules, read as that engine reads them (and as every
    // engine, where another engine's reading finds what MySQL's would not).
    static void mySqlRows()
    {
        const QString my = u"mysql"_qs;
        const auto row = [&my](const char *name, const QString &sql, bool several) {
            QTest::addRow("MySQL: %s", name) << sql << several << my;
        };
        row("backtick identifier", u"`odd;name`"_qs, false);
        row("doubled backtick", u"`a``;`; DELETE FROM victim"_qs, true);
        row("doubled backtick hides nothing", u"`a``; DELETE FROM victim; ``b`"_qs, false);
        row("hash comment", u"a # x; DELETE FROM victim\n+ 1"_qs, false);
        row("hash comment ends at the line", u"a # x\n; DELETE FROM victim"_qs, true);
        row("dash dash blank comment", u"a -- x; DELETE FROM victim\n+ 1"_qs, false);
        row("dash dash tab comment", u"a --\tx; DELETE FROM victim\n+ 1"_qs, false);
        row("dash dash without a blank is minus minus", u"a --1; DELETE FROM victim"_qs, true);
        row("backslash-escaped quote", u"'a\\';b'"_qs,
            true); // without NO_BACKSLASH_ESCAPES: one string
        row("backslash in a string either way", u"'a\\\\;b'"_qs, false);
        row("double-quoted string with backslash", u"\"\\\"; DELETE FROM victim; SELECT \"\\\""_qs,
            true);
        row("double-quoted text either way", u"\"a;b\""_qs, false);
        row("executable comment", u"a /*! ; DELETE FROM victim */"_qs, true);
        row("versioned executable comment", u"a /*!50001 ; DELETE FROM victim */"_qs, true);
        row("MariaDB executable comment", u"a /*M!100100 ; DELETE FROM victim */"_qs, true);
        row("executable comment of a later version read as a comment",
            u"/*!99999 ' */; DELETE FROM victim; -- '"_qs, true);
        row("string inside an executable comment", u"a /*! 'x;y' */ + 1"_qs, false);
        row("plain comment", u"a /* ; DELETE FROM victim */ + 1"_qs, false);
        // PostgreSQL reads # as an operator and /*! as a comment: a field for every engine is
        // read both ways.
        QTest::addRow("hash comment in a field for every engine")
            << u"a # x; DELETE FROM victim\n+ 1"_qs << true << QString();
        QTest::addRow("executable comment on PostgreSQL")
            << u"a /*! ; DELETE FROM victim */"_qs << false << u"postgresql"_qs;
        QTest::addRow("executable comment in a field for every engine")
            << u"a /*! ; DELETE FROM victim */"_qs << true << QString();
    }

private slots:

    void secondStatementFound()
    {
        QFETCH(QString, sql);
        QFETCH(bool, several);
        QFETCH(QString, engine);
        // Dollar quotes are PostgreSQL's alone; read as every engine, $q$a;b$q$ is refused.
        const bool dollars = QByteArray(QTest::currentDataTag()).startsWith("dollar quoted");
        std::optional<Engine> reading;
        if (dollars || engine == u"postgresql"_qs)
            reading = Engine::PostgreSql;
        else if (engine == u"mysql"_qs)
            reading = Engine::MySql;
        QCOMPARE(SqlText::hasSeveralStatements(sql, reading), several);
        if (several)
            QVERIFY(SqlText::hasSeveralStatements(sql, std::nullopt)); // every engine's reading
        if (dollars)
            QVERIFY(SqlText::hasSeveralStatements(sql, std::nullopt));
    }

    void firstKeyword()
    {
        QCOMPARE(SqlText::firstKeyword(u"  /* c */ with gone AS (DELETE) UPDATE"_qs), u"WITH"_qs);
        QCOMPARE(SqlText::firstKeyword(u"-- c\n(WITH x AS (SELECT 1) SELECT 1)"_qs), u"WITH"_qs);
        QCOMPARE(SqlText::firstKeyword(u"UPDATE t SET a = 1"_qs), u"UPDATE"_qs);
        // MySQL: # comments, and the SQL inside an executable comment is the statement's start.
        QCOMPARE(SqlText::firstKeyword(u"# c\nUPDATE t SET a = 1"_qs), u"UPDATE"_qs);
        QCOMPARE(SqlText::firstKeyword(u"/*! DELETE FROM victim WHERE 1 = 0 */ UPDATE t"_qs),
            u"DELETE"_qs);
        QCOMPARE(
            SqlText::firstKeyword(u"/*!50001 WITH x AS (SELECT 1) */ UPDATE t"_qs), u"WITH"_qs);
        QCOMPARE(SqlText::firstKeyword(u"/* c */ UPDATE t"_qs), u"UPDATE"_qs);
    }

    // Every SQL field holding a second statement is refused at load, naming file, line and
    // field; the replay statement must be one plain UPDATE.
    void loaderRefuses_data()
    {
        QTest::addColumn<QString>("prefix");
        QTest::addColumn<QString>("replacement");
        QTest::addColumn<QString>("expected");
        const QString several = u"holds more than one statement"_qs;
        QTest::addRow("from with a DELETE")
            << u"from ="_qs
            << u"from = shop_outbox; DELETE FROM victim; SELECT 1 FROM shop_outbox"_qs
            << u"field 'from' "_qs + several;
        QTest::addRow("from leaving the read-only transaction")
            << u"from ="_qs
            << u"from = shop_outbox; COMMIT; BEGIN READ WRITE; DELETE FROM victim;"
               " SELECT 1 FROM shop_outbox"_qs
            << u"field 'from' "_qs + several;
        QTest::addRow("from making the session writable")
            << u"from ="_qs
            << u"from = shop_outbox; SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE;"
               " SELECT 1 FROM shop_outbox"_qs
            << u"field 'from' "_qs + several;
        QTest::addRow("a column")
            << u"event_id ="_qs
            << u"event_id = CAST(job_id AS TEXT) FROM shop_outbox; DELETE FROM victim; SELECT 'x'"_qs
            << u"field 'event_id' "_qs + several;
        QTest::addRow("an engine's column")
            << u"status ="_qs << u"sqlite.status = 'PENDING'; DELETE FROM victim\nstatus = state"_qs
            << u"field 'status' "_qs + several;
        QTest::addRow("replay with a second statement")
            << u"replay ="_qs
            << u"replay = UPDATE shop_outbox SET state = 'queued' WHERE job_id ="
               " CAST(:event_id AS INTEGER); DELETE FROM victim"_qs
            << u"field 'replay' "_qs + several;
        QTest::addRow("replay starting with WITH")
            << u"replay ="_qs
            << u"replay = WITH gone AS (DELETE FROM victim RETURNING 1) UPDATE shop_outbox"
               " SET state = 'queued' WHERE job_id = CAST(:event_id AS INTEGER)"
               " AND state = 'error'"_qs
            << u"field 'replay' starts with WITH"_qs;
        QTest::addRow("a MySQL column with an executable comment")
            << u"status ="_qs
            << u"mysql.status = state /*! ; DELETE FROM victim */\nstatus = state"_qs
            << u"field 'status' "_qs + several;
        QTest::addRow("a MySQL column ending its string with a backslash")
            << u"status ="_qs
            << u"mysql.status = CASE WHEN state = '\\' THEN 'DEAD' END; DELETE FROM victim; SELECT "
               u"'\\'\n"
               "status = state"_qs
            << u"field 'status' "_qs + several;
        QTest::addRow("a MySQL column with a hash comment hiding nothing")
            << u"status ="_qs
            << u"mysql.status = state #\n  ; DELETE FROM victim\nstatus = state"_qs
            << u"field 'status' "_qs + several;
        QTest::addRow("replay hidden in a MySQL executable comment")
            << u"replay ="_qs
            << u"replay = /*! DELETE FROM shop_outbox WHERE job_id = CAST(:event_id AS INTEGER)"
               " OR */ UPDATE shop_outbox SET state = 'queued' WHERE job_id ="
               " CAST(:event_id AS INTEGER)"_qs
            << u"field 'replay' must be one UPDATE statement, not DELETE"_qs;
        QTest::addRow("a column ending in a line comment")
            << u"event_id ="_qs << u"event_id = CAST(job_id AS TEXT) -- the rest is ours"_qs
            << u"field 'event_id' ends inside a comment"_qs;
        QTest::addRow("a MySQL column ending in a hash comment")
            << u"status ="_qs << u"mysql.status = state #\nstatus = state"_qs
            << u"field 'status' ends inside a comment"_qs;
        QTest::addRow("a MySQL column ending in a bare double dash")
            << u"status ="_qs << u"mysql.status = state --\nstatus = state"_qs
            << u"field 'status' ends inside a comment"_qs;
        QTest::addRow("a column ending in an open block comment")
            << u"event_id ="_qs << u"event_id = CAST(job_id AS TEXT) /* the rest"_qs
            << u"field 'event_id' ends inside a comment"_qs;
        QTest::addRow("replay deleting the row")
            << u"replay ="_qs
            << u"replay = DELETE FROM shop_outbox WHERE job_id = CAST(:event_id AS INTEGER)"_qs
            << u"field 'replay' must be one UPDATE statement, not DELETE"_qs;
    }

    void loaderRefuses()
    {
        QFETCH(QString, prefix);
        QFETCH(QString, replacement);
        QFETCH(QString, expected);
        int line = 0;
        const QString text = customProfileWith(prefix, replacement, &line);
        QString error;
        QVERIFY(!ProfileParser::parse(text, u"evil.profile"_qs, &error));
        QCOMPARE(error.section(u' ', 0, 0), QStringLiteral("evil.profile:%1:").arg(line));
        QVERIFY2(error.contains(expected), qPrintable(error));
    }

    // A carriage return, or any control character but tab and line feed, in an SQL field is
    // refused at load, naming file, line, field and character; a file with CR LF line breaks
    // (written on Windows) reads as its LF twin.
    void loaderRefusesControlCharacters_data()
    {
        QTest::addColumn<QString>("prefix");
        QTest::addColumn<QString>("replacement");
        QTest::addColumn<QString>("expected");
        const auto refused = [](const char *field, const char *code) {
            return QStringLiteral("field '%1' holds the control character U+%2: an SQL field"
                                  " may hold tabs and line breaks, no other control character")
                .arg(QLatin1String(field), QLatin1String(code));
        };
        QTest::addRow("from, CR ending a comment")
            << u"from ="_qs
            << u"from = shop_outbox -- x\r; COMMIT; BEGIN READ WRITE; DELETE FROM victim; COMMIT"_qs
            << refused("from", "000D");
        QTest::addRow("where, CR")
            << u"from ="_qs << u"where = 1 = 1 --\r; DELETE FROM victim\nfrom = shop_outbox"_qs
            << refused("where", "000D");
        QTest::addRow("a column, NUL")
            << u"event_type ="_qs << u"event_type = kind\x01"_qs << refused("event_type", "0001");
        QTest::addRow("replay, DEL")
            << u"replay ="_qs
            << u"replay = UPDATE shop_outbox SET state = 'queued' \x7f WHERE job_id ="
               " CAST(:event_id AS INTEGER)"_qs
            << refused("replay", "007F");
        QTest::addRow("detect, C1")
            << u"from ="_qs << u"detect = SELECT 1 \u0085 + 1\nfrom = shop_outbox"_qs
            << refused("detect", "0085");
    }

    void loaderRefusesControlCharacters() { loaderRefuses(); }

    void loaderReadsCrLfAsLf()
    {
        const QString lf = customProfileText();
        QString crlf = lf;
        crlf.replace(u"\n"_qs, u"\r\n"_qs);
        QString error;
        const auto fromLf = ProfileParser::parse(lf, u"lf.profile"_qs, &error);
        QVERIFY2(fromLf, qPrintable(error));
        const auto fromCrLf = ProfileParser::parse(crlf, u"crlf.profile"_qs, &error);
        QVERIFY2(fromCrLf, qPrintable(error));
        for (const Engine engine : AllEngines) {
            QCOMPARE(fromCrLf->source(engine), fromLf->source(engine));
            QVERIFY(!fromCrLf->source(engine).contains(u'\r'));
            QCOMPARE(fromCrLf->replaySql(engine), fromLf->replaySql(engine));
        }
    }

    void loaderAcceptsSemicolonsInStrings()
    {
        const QString text = customProfileWith(u"last_error ="_qs,
            u"last_error = CASE WHEN error = 'a;b' THEN 'x; y' ELSE error END;"_qs);
        QString error;
        const auto profile = ProfileParser::parse(text, u"ok.profile"_qs, &error);
        QVERIFY2(profile, qPrintable(error));
        QCOMPARE(
            profile->expression(OutboxProfile::Column::LastError, OutboxProfile::Engine::Sqlite),
            u"CASE WHEN error = 'a;b' THEN 'x; y' ELSE error END"_qs);
    }

    // Why 1 as reported: `check`, `replay` and `outbox-dashboard --read-only` with the hostile
    // copy of custom.profile. Each refuses it in one line, and no table changed.
    void hostileProfileChangesNothing_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<QString>("from");
        const QList<std::pair<const char *, QString>> attacks
            = {{"DELETE", u"from = shop_outbox; DELETE FROM victim; SELECT 1 FROM shop_outbox"_qs},
                {"COMMIT; BEGIN READ WRITE",
                    u"from = shop_outbox; COMMIT; BEGIN READ WRITE; DELETE FROM victim;"
                    " SELECT 1 FROM shop_outbox"_qs},
                {"SET SESSION CHARACTERISTICS",
                    u"from = shop_outbox; SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE;"
                    " DELETE FROM victim; SELECT 1 FROM shop_outbox"_qs}};
        for (const auto &[name, from] : attacks) {
            for (const char *engine : {"sqlite", "postgresql", "mysql"})
                QTest::addRow("%s, %s", name, engine) << QString::fromLatin1(engine) << from;
        }
    }

    void hostileProfileChangesNothing()
    {
        QFETCH(QString, engine);
        QFETCH(QString, from);
        FRESH_DATABASE(database, engine);
        const auto connection = loadShop(*database);
        QVERIFY(connection);
        const Tables before = everyTable(connection->database());
        QTemporaryDir dir;
        int line = 0;
        const QString path = ScratchFile::writeText(
            dir, u"evil.profile"_qs, customProfileWith(u"from ="_qs, from, &line));
        const QString expected = QStringLiteral("%1:%2: field 'from' holds more than one statement")
                                     .arg(path)
                                     .arg(line);

        const Run check = outboxctl(checkArguments(database->url(), path));
        QCOMPARE(check.exitCode, 2);
        QVERIFY2(check.err.join(u'\n').startsWith(u"outboxctl: "_qs + expected),
            qPrintable(check.err.join(u'\n')));
        QCOMPARE(everyTable(connection->database()), before);

        const Run replay = outboxctl(replayArguments(database->url(), path, u"7"_qs));
        QCOMPARE(replay.exitCode, 2);
        QVERIFY2(replay.err.join(u'\n').startsWith(u"outboxctl: "_qs + expected),
            qPrintable(replay.err.join(u'\n')));
        QCOMPARE(everyTable(connection->database()), before);

        QString err;
        QCOMPARE(runDashboard(
                     {u"--db"_qs, database->url(), u"--read-only"_qs, u"--profile"_qs, path}, &err),
            2);
        QVERIFY2(err.startsWith(u"outbox-dashboard: "_qs + expected), qPrintable(err));
        QCOMPARE(everyTable(connection->database()), before);
    }

    // The read-only transaction does not rely on the session: a session switched to READ
    // WRITE (PostgreSQL) or a writable connection (SQLite) still cannot write inside it, a
    // text with two statements is refused before the database sees it, and SQLite's
    // query_only is restored afterwards.
    void readOnlyWhateverTheSession_data()
    {
        QTest::addColumn<QString>("engine");
        addEngineRows("writable session");
    }

    void readOnlyWhateverTheSession()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = loadShop(*database);
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        QVERIFY(makeSessionWritable(db));
        const Tables before = everyTable(db);
        {
            ReadOnlyTransaction transaction(db);
            QVERIFY2(transaction.isActive(), qPrintable(transaction.errorText()));
            QSqlQuery *query = transaction.prepare(u"DELETE FROM victim"_qs);
            // MariaDB refuses it as it is prepared (error 1792), the others when it runs.
            const QString refusal = !query ? transaction.lastError().text()
                : !query->exec()           ? query->lastError().text()
                                           : u"the DELETE ran"_qs;
            QVERIFY2(saysReadOnly(refusal), qPrintable(refusal));
        }
        {
            ReadOnlyTransaction transaction(db);
            QVERIFY(!transaction.prepare(
                u"SELECT 1 FROM shop_outbox; DELETE FROM victim; SELECT 1"_qs));
            QCOMPARE(transaction.errorText(),
                u"refused to run a read holding more than one statement"_qs);
        }
        QCOMPARE(everyTable(db), before);
        if (engine == u"sqlite"_qs)
            QCOMPARE(scalar(db, u"PRAGMA query_only"_qs).toInt(), 0);
        QVERIFY(QSqlQuery(db).exec(u"DELETE FROM victim WHERE id = 3"_qs)); // writable again
    }

    // A single statement can still call a function that writes (PostgreSQL, MySQL). Every
    // read through the profile (the snapshot, the window's event list, the DEAD rows a replay
    // selects, the CSV export) fails on a writable connection and nothing changes.
    void writingFunctionCannotWrite_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<QString>("readOnly"); // the engine's words
        // MariaDB refuses to prepare the call inside the read-only transaction: validation
        // refuses the profile before any read.
        QTest::addColumn<bool>("validates");
        QTest::addRow("postgresql")
            << u"postgresql"_qs << u"cannot execute DELETE in a read-only transaction"_qs << true;
        QTest::addRow("mysql") << u"mysql"_qs << u"READ ONLY transaction"_qs << false;
    }
    void writingFunctionCannotWrite()
    {
        QFETCH(QString, engine);
        QFETCH(QString, readOnly);
        QFETCH(bool, validates);
        FRESH_DATABASE(database, engine);
        const auto connection = loadShop(*database);
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        QVERIFY(createWipe(db));
        QVERIFY(makeSessionWritable(db));
        QString error;
        const auto profile = ProfileParser::parse(
            customProfileWith(
                u"status ="_qs, u"status = CASE WHEN wipe() = 0 THEN 'PENDING' ELSE 'DEAD' END"_qs),
            u"wipe.profile"_qs, &error);
        QVERIFY2(profile, qPrintable(error));
        const Tables before = everyTable(db);
        if (!validates) {
            const QString refused = profile->validate(db);
            QVERIFY2(refused.contains(u"field status"_qs) && refused.contains(readOnly),
                qPrintable(refused));
            QCOMPARE(everyTable(db), before);
            return;
        }
        QVERIFY2(profile->validate(db).isEmpty(), qPrintable(profile->validate(db)));

        HealthQuery::Options options;
        options.profile = &*profile;
        QVERIFY(!HealthQuery::compute(db, T, &error, options));
        QVERIFY2(error.contains(readOnly), qPrintable(error));

        EventListModel events;
        openEvents(events, *database);
        events.setProfile(*profile);
        QVERIFY(settled(events));
        QCOMPARE(events.rowCount(), 0);
        QVERIFY2(events.lastError().contains(readOnly), qPrintable(events.lastError()));

        Replayer replayer(db, *profile);
        error.clear();
        QVERIFY(replayer.matchingDeadEvents(EventFilter(), T, &error).isEmpty());
        QVERIFY2(error.contains(readOnly), qPrintable(error));

        QBuffer csv;
        QVERIFY(csv.open(QIODevice::WriteOnly));
        error.clear();
        QVERIFY(!CsvExport::exportEvents(db, EventFilter(), T, {}, &csv, &error, nullptr,
            profile->source(OutboxProfile::engineOf(db))));
        QVERIFY2(error.contains(readOnly), qPrintable(error));
        QCOMPARE(everyTable(db), before);
    }

    // A replay's own reads through the profile cannot write either (issue 26, part 6): every
    // event is read first in a read-only transaction, so a `from` (or a status expression)
    // calling a function that deletes from another table refuses the replay, exit 2 with the
    // reason, before the write transaction that would have committed the delete; the event
    // stays DEAD and every other table keeps its rows.
    void replayWhoseReadWritesIsRefused_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<QString>("prefix");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("readOnly"); // the engine's words
        QTest::addColumn<QString>("refusal"); // how the replay is refused
        const QString afterRead = u"failed in a read-only transaction, so nothing was replayed"_qs;
        const QString pgWords = u"cannot execute DELETE in a read-only transaction"_qs;
        const QString status
            = u"status = CASE WHEN wipe() = 0 AND state = 'error' THEN 'DEAD' ELSE 'PENDING' END"_qs;
        QTest::addRow("from calling a function that deletes, postgresql")
            << u"postgresql"_qs << u"from ="_qs << u"from = shop_outbox CROSS JOIN wipe() AS w"_qs
            << pgWords << afterRead;
        QTest::addRow("status calling a function that deletes, postgresql")
            << u"postgresql"_qs << u"status ="_qs << status << pgWords << afterRead;
        // MySQL has no function in FROM; a status expression calls it, and MariaDB refuses
        // to prepare that call in the read-only transaction: validation refuses the profile.
        QTest::addRow("status calling a function that deletes, mysql")
            << u"mysql"_qs << u"status ="_qs << status << u"READ ONLY transaction"_qs
            << u"field status"_qs;
    }
    void replayWhoseReadWritesIsRefused()
    {
        QFETCH(QString, engine);
        QFETCH(QString, prefix);
        QFETCH(QString, field);
        QFETCH(QString, readOnly);
        QFETCH(QString, refusal);
        FRESH_DATABASE(database, engine);
        const auto connection = loadShop(*database);
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        QVERIFY(createWipe(db));
        const Tables before = everyTable(db);
        QTemporaryDir dir;
        const QString path
            = ScratchFile::writeText(dir, u"wipe.profile"_qs, customProfileWith(prefix, field));

        const Run run = outboxctl(replayArguments(database->url(), path, u"7"_qs));
        QCOMPARE(run.exitCode, 2);
        QVERIFY(failedAsJson(run)); // one line on stderr, its JSON twin on stdout
        QVERIFY2(run.err.constFirst().contains(refusal), qPrintable(run.err.constFirst()));
        QVERIFY2(run.err.constFirst().contains(readOnly), qPrintable(run.err.constFirst()));
        QCOMPARE(scalar(db, u"SELECT count(*) FROM victim"_qs).toInt(), 3);
        QCOMPARE(everyTable(db), before);
    }

    // Why 2: the tool's own fence around the profile's statement, through `outboxctl replay`.
    void replayIsFenced_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<QString>("statement");
        QTest::addColumn<QString>("eventId");
        QTest::addColumn<QString>("expected"); // stderr's text, or the JSON line on success
        struct Case
        {
            const char *name;
            QString statement;
            QString eventId;
            QString expected;
        };
        const QString unfenced
            = u"UPDATE shop_outbox SET state = 'queued' WHERE job_id = CAST(:event_id AS INTEGER)"_qs;
        const QList<Case> cases = {
            {"unfenced statement on a DELIVERED row is skipped", unfenced, u"6"_qs,
                u"{\"replayed\":[],\"skipped\":[\"6\"]}"_qs},
            {"unfenced statement on a DEAD row replays it", unfenced, u"7"_qs,
                u"{\"replayed\":[\"7\"],\"skipped\":[]}"_qs},
            {"statement changing another row",
                u"UPDATE shop_outbox SET state = 'queued'"
                " WHERE job_id = CAST(:event_id AS INTEGER) + 1"_qs,
                u"7"_qs, u"changed a row, but the event is still DEAD: rolled back"_qs},
            {"statement changing two rows",
                u"UPDATE shop_outbox SET state = 'queued'"
                " WHERE state = 'error' AND job_id >= CAST(:event_id AS INTEGER)"_qs,
                u"7"_qs, u"changed 2 rows, not one: rolled back"_qs},
            {"statement leaving the row DEAD",
                u"UPDATE shop_outbox SET tries = tries + 1"
                " WHERE job_id = CAST(:event_id AS INTEGER)"_qs,
                u"7"_qs, u"changed a row, but the event is still DEAD: rolled back"_qs},
            {"WITH deleting another table",
                u"WITH gone AS (DELETE FROM victim RETURNING 1) UPDATE shop_outbox"
                " SET state = 'queued' WHERE job_id = CAST(:event_id AS INTEGER)"
                " AND state = 'error'"_qs,
                u"7"_qs, u"field 'replay' starts with WITH"_qs},
        };
        for (const Case &c : cases) {
            for (const char *engine : {"sqlite", "postgresql", "mysql"}) {
                QTest::addRow("%s, %s", c.name, engine)
                    << QString::fromLatin1(engine) << c.statement << c.eventId << c.expected;
            }
        }
    }

    void replayIsFenced()
    {
        QFETCH(QString, engine);
        QFETCH(QString, statement);
        QFETCH(QString, eventId);
        QFETCH(QString, expected);
        FRESH_DATABASE(database, engine);
        const auto connection = loadShop(*database);
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        const Tables before = everyTable(db);
        QTemporaryDir dir;
        const QString path = ScratchFile::writeText(dir, u"fence.profile"_qs,
            customProfileWith(u"replay ="_qs, u"replay = "_qs + statement));

        const Run run = outboxctl(replayArguments(database->url(), path, eventId));
        const QString state
            = scalar(db, u"SELECT state FROM shop_outbox WHERE job_id = "_qs + eventId).toString();
        if (expected.startsWith(u'{')) {
            QCOMPARE(run.exitCode, 0);
            QCOMPARE(run.out.size(), 1);
            // Each replay through a profile says where it was audited (issue 42).
            QJsonObject json = QJsonDocument::fromJson(run.out.constFirst().toUtf8()).object();
            QVERIFY(json.take(u"audit"_qs).toString().startsWith(u"profile_audit in "_qs));
            QCOMPARE(
                QString::fromUtf8(QJsonDocument(json).toJson(QJsonDocument::Compact)), expected);
            if (expected.contains(u"\"replayed\":[]"_qs))
                QCOMPARE(everyTable(db), before);
            else
                QCOMPARE(state, u"queued"_qs);
            return;
        }
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(run.err.size(), 1);
        QVERIFY2(run.err.constFirst().contains(expected), qPrintable(run.err.constFirst()));
        QCOMPARE(everyTable(db), before);
    }

    // Why 3: a status expression yielding the library's raw states (or NULL for a state it
    // forgot) fails `check` with exit 2, naming how many rows and the commonest values,
    // instead of printing zeros and "healthy".
    void statusValuesChecked_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<QString>("status");
        QTest::addColumn<QString>("expected");
        const QString other = u"a status other than PENDING, DELIVERED or DEAD"_qs;
        for (const char *engine : {"sqlite", "postgresql", "mysql"}) {
            QTest::addRow("raw states, %s", engine)
                << QString::fromLatin1(engine) << u"status = state"_qs
                << u"8 rows have "_qs + other + u" (values 'queued', 'error', 'sending')"_qs;
            QTest::addRow("a state left out, %s", engine)
                << QString::fromLatin1(engine)
                << u"status = CASE state WHEN 'sent' THEN 'DELIVERED' WHEN 'error' THEN 'DEAD'"
                   " WHEN 'queued' THEN 'PENDING' END"_qs
                << u"2 rows have "_qs + other + u" (value NULL)"_qs;
        }
    }

    void statusValuesChecked()
    {
        QFETCH(QString, engine);
        QFETCH(QString, status);
        QFETCH(QString, expected);
        FRESH_DATABASE(database, engine);
        const auto connection = loadShop(*database);
        QVERIFY(connection);
        const Tables before = everyTable(connection->database());
        QTemporaryDir dir;
        int line = 0;
        const QString path = ScratchFile::writeText(
            dir, u"sloppy.profile"_qs, customProfileWith(u"status ="_qs, status, &line));
        for (const QStringList &extra : {QStringList(), QStringList {u"--json"_qs}}) {
            const Run run = outboxctl(checkArguments(database->url(), path) + extra);
            QCOMPARE(run.exitCode, 2);
            QVERIFY(run.out.isEmpty());
            QCOMPARE(run.err.size(), 1);
            QVERIFY2(run.err.constFirst().contains(u"shop: "_qs + expected),
                qPrintable(run.err.constFirst()));
            QVERIFY2(run.err.constFirst().contains(QStringLiteral("%1:%2").arg(path).arg(line)),
                qPrintable(run.err.constFirst()));
        }
        QCOMPARE(everyTable(connection->database()), before);
    }

    // The window says so too: the banner above the tiles names the rows, and the tiles show no
    // count (not zero).
    void windowSaysStatusValuesAreWrong_data()
    {
        QTest::addColumn<QString>("engine");
        addEngineRows("raw states");
    }

    void windowSaysStatusValuesAreWrong()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        auto connection = loadShop(*database);
        QVERIFY(connection);
        QString error;
        WindowOptions options;
        options.readOnly = true;
        options.profile = ProfileParser::parse(
            customProfileWith(u"status ="_qs, u"status = state"_qs), u"sloppy.profile"_qs, &error);
        QVERIFY2(options.profile, qPrintable(error));
        QVERIFY(options.profile->validate(connection->database()).isEmpty());
        MainWindow window(std::move(connection), options);
        window.monitor()->setClock([] { return T; });
        window.show();
        window.monitor()->refreshNow();
        auto *banner = window.findChild<QLabel *>(u"staleBannerText"_qs);
        QVERIFY(banner);
        QTRY_VERIFY2(banner->text().contains(u"8 rows have a status other than PENDING, DELIVERED"
                                             " or DEAD"_qs),
            qPrintable(banner->text()));
        QVERIFY2(
            banner->text().startsWith(u"Cannot read the outbox: "_qs), qPrintable(banner->text()));
        const auto *tiles = window.findChild<HealthTiles *>();
        QVERIFY(tiles);
        for (const auto tile :
            {HealthTiles::Tile::Due, HealthTiles::Tile::Dead, HealthTiles::Tile::Delivered})
            QCOMPARE(tiles->valueText(tile), u"—"_qs);
    }

    // Issue 40's attack as reported: a carriage return ending a "--" comment, or a name ending
    // in `€` before `$a$`, hid a `;` from the loader, and Qt's PREPARE (a simple query) ran
    // the session escape after it. Each variant in every SQL field, through `check`: refused at
    // load, naming file, line and field, and the victim keeps its 3 rows.
    void sessionEscapeRefusedInEveryField_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("expected");
        QTest::addColumn<int>("line");
        for (const ProfileField &field : everySqlField()) {
            const QString code = u"%1 -- x\r; "_qs.arg(field.value) + SessionEscape;
            const QString euro = u"%1 AND x\u20ac$a$ IS NULL; "_qs.arg(field.value) + SessionEscape
                + u"; SELECT 1 -- $a$"_qs;
            int line = 0;
            QString text = customProfileWithField(field, code, &line);
            QTest::addRow("CR ends a comment, %s", qPrintable(field.name))
                << text << field.name << u"holds the control character U+000D"_qs << line;
            text = customProfileWithField(field, euro, &line);
            QTest::addRow("euro sign before a dollar, %s", qPrintable(field.name))
                << text << field.name << u"holds more than one statement"_qs << line;
        }
    }

    void sessionEscapeRefusedInEveryField()
    {
        QFETCH(QString, text);
        QFETCH(QString, field);
        QFETCH(QString, expected);
        QFETCH(int, line);
        FRESH_DATABASE(database, u"postgresql"_qs);
        const auto connection = loadShop(*database);
        QVERIFY(connection);
        QTemporaryDir dir;
        const QString path = ScratchFile::writeText(dir, u"escape.profile"_qs, text);
        const Run check = outboxctl(checkArguments(database->url(), path));
        QCOMPARE(check.exitCode, 2);
        QCOMPARE(check.err.size(), 1);
        const QString start
            = QStringLiteral("outboxctl: %1:%2: field '%3' ").arg(path).arg(line).arg(field);
        QVERIFY2(check.err.constFirst().startsWith(start + expected),
            qPrintable(check.err.constFirst()));
        QCOMPARE(scalar(connection->database(), u"SELECT count(*) FROM victim"_qs).toInt(), 3);
    }

    // The same attack in `from` through every surface that reads through a profile.
    void sessionEscapeRefusedEverywhere_data()
    {
        QTest::addColumn<QString>("variant");
        QTest::addColumn<QString>("surface");
        const QStringList surfaces = {u"check"_qs, u"explain"_qs, u"diagnose"_qs, u"errors"_qs,
            u"metrics"_qs, u"export"_qs, u"replay --dry-run"_qs, u"serve"_qs, u"dashboard"_qs};
        for (const QString &variant : {u"CR"_qs, u"euro"_qs}) {
            for (const QString &surface : surfaces)
                QTest::addRow("%s, %s", qPrintable(variant), qPrintable(surface))
                    << variant << surface;
        }
    }

    void sessionEscapeRefusedEverywhere()
    {
        QFETCH(QString, variant);
        QFETCH(QString, surface);
        FRESH_DATABASE(database, u"postgresql"_qs);
        const auto connection = loadShop(*database);
        QVERIFY(connection);
        const Tables before = everyTable(connection->database());
        const QString escape = variant == u"CR"_qs
            ? QString(u"shop_outbox -- x\r; "_qs + SessionEscape)
            : QString(u"shop_outbox AS x\u20ac$a$; "_qs + SessionEscape + u"; SELECT 1 -- $a$"_qs);
        const QString from = u"postgresql.from = "_qs + escape + u"\nfrom = shop_outbox"_qs;
        QTemporaryDir dir;
        int line = 0;
        const QString path = ScratchFile::writeText(
            dir, u"escape.profile"_qs, customProfileWith(u"from ="_qs, from, &line));
        const QString expected = QStringLiteral("%1:%2: field 'from' ").arg(path).arg(line);
        const QString url = database->url();
        const QStringList db
            = {u"--db"_qs, url, u"--profile"_qs, path, u"--now"_qs, QString::number(T)};
        QString err;
        int exitCode = -1;
        if (surface == u"dashboard"_qs) {
            exitCode
                = runDashboard({u"--db"_qs, url, u"--read-only"_qs, u"--profile"_qs, path}, &err);
            QVERIFY2(err.startsWith(u"outbox-dashboard: "_qs + expected), qPrintable(err));
        } else {
            QStringList arguments;
            if (surface == u"serve"_qs)
                arguments = {u"serve"_qs, u"--listen"_qs, u"127.0.0.1:0"_qs, u"--outbox"_qs,
                    u"shop=%1;profile=%2"_qs.arg(url, path)};
            else if (surface == u"replay --dry-run"_qs)
                arguments = QStringList {u"replay"_qs} + db
                    + QStringList {u"--all-dead"_qs, u"--dry-run"_qs};
            else if (surface == u"explain"_qs)
                arguments = QStringList {u"explain"_qs} + db + QStringList {u"--event"_qs, u"7"_qs};
            else
                arguments = QStringList {surface} + db;
            const Run run = outboxctl(arguments);
            exitCode = run.exitCode;
            err = run.err.join(u'\n');
            QVERIFY2(err.contains(expected), qPrintable(err));
        }
        QCOMPARE(exitCode, 2);
        QCOMPARE(scalar(connection->database(), u"SELECT count(*) FROM victim"_qs).toInt(), 3);
        QCOMPARE(everyTable(connection->database()), before);
    }

    // One statement, decided by the database, with the tool's lexer bypassed: PostgreSQL's
    // extended query protocol refuses a text of several statements (SqlDialect::
    // checkOneStatement()), and MySQL's and SQLite's Qt drivers refuse to prepare one
    // (mysql_stmt_prepare(); sqlite3_prepare16_v2()'s tail). Nothing runs.
    void serverRefusesSeveralStatements_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<QString>("sql");
        const QList<std::pair<const char *, QString>> texts
            = {{"plain", u"SELECT COUNT(*) FROM victim; DELETE FROM victim"_qs},
                {"session escape", u"SELECT COUNT(*) FROM victim; "_qs + SessionEscape}};
        for (const auto &[name, sql] : texts) {
            for (const char *engine : {"sqlite", "postgresql", "mysql"})
                QTest::addRow("%s, %s", name, engine) << QString::fromLatin1(engine) << sql;
        }
        // One statement on MySQL and SQLite, whose "--" comments end at a line feed only.
        QTest::addRow("CR ending a comment, postgresql")
            << u"postgresql"_qs << u"SELECT COUNT(*) FROM victim -- x\r; "_qs + SessionEscape;
        QTest::addRow("euro sign before a dollar, postgresql")
            << u"postgresql"_qs
            << u"SELECT COUNT(*) AS x\u20ac$a$ FROM victim; "_qs + SessionEscape
                + u"; SELECT 1 -- $a$"_qs;
    }

    void serverRefusesSeveralStatements()
    {
        QFETCH(QString, engine);
        QFETCH(QString, sql);
        FRESH_DATABASE(database, engine);
        const auto connection = loadShop(*database);
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        const SqlDialect &dialect = SqlDialect::of(db);
        QSqlError error;
        if (engine == u"postgresql"_qs) {
            QVERIFY(!dialect.checkOneStatement(db, sql, &error));
            QVERIFY2(error.databaseText().contains(
                         u"cannot insert multiple commands into a prepared statement"_qs),
                qPrintable(error.text()));
        }
        QSqlQuery query(db);
        QVERIFY(!dialect.prepareOne(db, query, sql, &error));
        QVERIFY(error.isValid());
        QCOMPARE(scalar(db, u"SELECT COUNT(*) FROM victim"_qs).toInt(), 3);
        // One statement is prepared and runs.
        QVERIFY2(
            dialect.prepareOne(db, query, u"SELECT COUNT(*) FROM victim WHERE id > :id"_qs, &error),
            qPrintable(error.text()));
        query.bindValue(u":id"_qs, 1);
        QVERIFY(query.exec() && query.next());
        QCOMPARE(query.value(0).toInt(), 2);
    }

    // The check runs on the connection while a forward-only read still has rows on the way
    // (Qt's single-row mode): it does not fail with "another command is already in progress".
    void serverCheckWithARowsPending()
    {
        FRESH_DATABASE(database, u"postgresql"_qs);
        const auto connection = loadShop(*database);
        QVERIFY(connection);
        ReadOnlyTransaction transaction(connection->database());
        QSqlQuery *rows = transaction.prepare(u"SELECT id FROM victim ORDER BY id"_qs);
        QVERIFY(rows && rows->exec() && rows->next());
        QSqlQuery *count = transaction.prepare(u"SELECT COUNT(*) FROM victim"_qs);
        QVERIFY2(count, qPrintable(transaction.errorText()));
        QVERIFY(count->exec() && count->next());
        QCOMPARE(count->value(0).toInt(), 3);
    }

    // The text checked is the text Qt 6.4's PostgreSQL driver prepares (`PREPARE qpsqlpstmt_N AS
    // ...`, as pg_prepared_statements holds it): :name and ? become $1, $2, ... outside '...',
    // "..." and `...`, and :: casts stay.
    void driverTextIsQtsText_data()
    {
        QTest::addColumn<QString>("sql");
        QTest::addRow("named placeholders, one repeated")
            << u"SELECT CAST(:a AS INTEGER) + CAST(:b AS INTEGER) + CAST(:a AS INTEGER)"_qs;
        QTest::addRow("casts, quotes and identifiers")
            << u"SELECT :a::text, ':b', 'it''s :c', 1 AS \"x:d\", ARRAY[:e::int]"_qs;
        QTest::addRow("a backtick in a comment hides a placeholder from Qt")
            << u"SELECT :a::text -- ` :b `\n, :c::text"_qs;
        QTest::addRow("a dollar quote is no quote for Qt") << u"SELECT :b::text, $$:a$$"_qs;
        QTest::addRow("an E string") << u"SELECT E'\\\\', :a::text"_qs;
    }

    void driverTextIsQtsText()
    {
        QFETCH(QString, sql);
        FRESH_DATABASE(database, u"postgresql"_qs);
        const auto connection = database->connect(false);
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        QSqlQuery query(db);
        QVERIFY2(query.prepare(sql), qPrintable(query.lastError().text()));
        QSqlQuery prepared(db);
        QVERIFY(prepared.exec(u"SELECT name, statement FROM pg_prepared_statements"
                              " WHERE statement NOT LIKE '%pg_prepared_statements%'"_qs));
        QStringList statements;
        while (prepared.next()) {
            statements << prepared.value(1).toString();
        }
        const QString driverText = SqlDialect::of(db).driverText(sql);
        QVERIFY2(std::any_of(statements.cbegin(), statements.cend(),
                     [&driverText](const QString &statement) {
                         return statement.endsWith(u" AS "_qs + driverText)
                             && statement.startsWith(u"PREPARE qpsqlpstmt_"_qs);
                     }),
            qPrintable(statements.join(u" | "_qs) + u" vs "_qs + driverText));
        QSqlError error;
        QVERIFY2(SqlDialect::of(db).checkOneStatement(db, sql, &error), qPrintable(error.text()));
    }

    // What a read-only transaction does not stop (ReadHazards): refused by name at load, bare,
    // quoted or schema-qualified, in any case, in every reading (a MySQL executable comment
    // too); the same words in a string or a comment, or inside a longer name, are fine.
    void loaderRefusesHazards_data()
    {
        QTest::addColumn<QString>("replacement");
        QTest::addColumn<QString>("hazard"); // empty: accepted
        const auto from
            = [](const QString &tail) -> QString { return u"from = shop_outbox"_qs + tail; };
        const auto status = [](const QString &call) -> QString {
            return u"status = CASE WHEN "_qs + call + u" IS NULL THEN 'DEAD' ELSE 'PENDING' END"_qs;
        };
        QTest::addRow("dblink_exec") << status(u"dblink_exec('dbname=x', 'DELETE FROM victim')"_qs)
                                     << u"dblink_exec, which runs SQL on another connection"_qs;
        QTest::addRow("dblink in from")
            << from(u" CROSS JOIN dblink('dbname=x', 'SELECT 1') AS d(x int)"_qs) << u"dblink,"_qs;
        QTest::addRow("quoted") << status(u"\"dblink_exec\"('x', 'y')"_qs) << u"dblink_exec,"_qs;
        QTest::addRow("schema-qualified")
            << status(u"public.dblink_exec('x', 'y')"_qs) << u"dblink_exec,"_qs;
        QTest::addRow("quoted and qualified, upper case")
            << status(u"\"public\".\"DBLINK_EXEC\"('x', 'y')"_qs) << u"DBLINK_EXEC,"_qs;
        QTest::addRow("postgres_fdw")
            << status(u"postgres_fdw_disconnect_all()"_qs) << u"postgres_fdw_disconnect_all,"_qs;
        QTest::addRow("pg_file_write") << status(u"pg_file_write('/tmp/x', 'y', false)"_qs)
                                       << u"pg_file_write, which reads or writes a file"_qs;
        QTest::addRow("lo_export") << status(u"lo_export(1, '/tmp/x')"_qs) << u"lo_export,"_qs;
        QTest::addRow("pg_read_file")
            << status(u"pg_read_file('/etc/passwd')"_qs) << u"pg_read_file,"_qs;
        QTest::addRow("pg_advisory_lock")
            << status(u"pg_advisory_lock(1)"_qs)
            << u"pg_advisory_lock, which takes or drops a session lock"_qs;
        QTest::addRow("pg_try_advisory_lock")
            << status(u"pg_try_advisory_lock(1)"_qs) << u"pg_try_advisory_lock,"_qs;
        QTest::addRow("GET_LOCK") << u"mysql.status = CASE WHEN GET_LOCK('x', 0) THEN 'DEAD' END\n"
                                     "status = state"_qs
                                  << u"GET_LOCK, which takes or drops a session lock"_qs;
        QTest::addRow("GET_LOCK in an executable comment")
            << u"mysql.status = state /*! + GET_LOCK('x', 0) */\nstatus = state"_qs
            << u"GET_LOCK,"_qs;
        QTest::addRow("pg_terminate_backend")
            << status(u"pg_terminate_backend(1)"_qs) << u"pg_terminate_backend,"_qs;
        QTest::addRow("set_config")
            << status(u"set_config('statement_timeout', '0', false)"_qs) << u"set_config,"_qs;
        QTest::addRow("query_to_xml")
            << status(u"query_to_xml('SELECT 1', true, true, '')"_qs) << u"query_to_xml,"_qs;
        QTest::addRow("U& name") << status(u"U&\"d\\0062link_exec\"('x', 'y')"_qs) << u"U&,"_qs;
        QTest::addRow("INTO OUTFILE") << from(u" INTO OUTFILE '/tmp/x' LINES STARTING BY 'y' #"_qs)
                                      << u"INTO, which stores a result"_qs;
        QTest::addRow("INTO DUMPFILE") << from(u" INTO DUMPFILE '/tmp/x' #"_qs) << u"INTO,"_qs;
        QTest::addRow("INTO @var") << from(u" INTO @v #"_qs) << u"INTO,"_qs;
        QTest::addRow("in a string") << status(u"'dblink_exec INTO OUTFILE'"_qs) << QString();
        QTest::addRow("in a comment") << status(u"/* get_lock into */ kind"_qs) << QString();
        QTest::addRow("inside a longer name") << status(u"kind_into_get_lock"_qs) << QString();
    }

    void loaderRefusesHazards()
    {
        QFETCH(QString, replacement);
        QFETCH(QString, hazard);
        const QString prefix = replacement.section(u' ', 0, 0).section(u'.', -1) + u" ="_qs;
        int line = 0;
        const QString text = customProfileWith(prefix, replacement, &line);
        QString error;
        const auto profile = ProfileParser::parse(text, u"evil.profile"_qs, &error);
        if (hazard.isEmpty()) {
            QVERIFY2(profile, qPrintable(error));
            return;
        }
        QVERIFY(!profile);
        QVERIFY2(error.startsWith(QStringLiteral("evil.profile:%1: field '").arg(line)),
            qPrintable(error));
        QVERIFY2(error.contains(u"' uses "_qs + hazard), qPrintable(error));
        QVERIFY2(
            error.endsWith(u"no profile field may (docs/profiles.md, \"A profile is code\")"_qs),
            qPrintable(error));
    }

    // MariaDB's INTO OUTFILE as reported: a `from` ending in it wrote a file on the database
    // host during check, export and replay --dry-run. Refused at load: no file, no change. The
    // server (on this machine) is first shown to write such a file when asked directly.
    void intoOutfileWritesNothing_data()
    {
        QTest::addColumn<QString>("surface");
        for (const char *surface : {"check", "export", "replay --dry-run"})
            QTest::addRow("%s", surface) << QString::fromLatin1(surface);
    }

    void intoOutfileWritesNothing()
    {
        QFETCH(QString, surface);
        FRESH_DATABASE(database, u"mysql"_qs);
        const auto connection = loadShop(*database);
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        QTemporaryDir dir;
        QVERIFY(QFile::setPermissions(dir.path(),
            QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner
                | QFileDevice::WriteOther | QFileDevice::ExeOther));
        const QString control = dir.filePath(u"control.txt"_qs);
        QSqlQuery direct(db);
        if (direct.exec(u"SELECT 1 INTO OUTFILE '%1'"_qs.arg(control)))
            QVERIFY(QFileInfo::exists(control)); // the attack would have worked
        else
            qInfo("the server refuses INTO OUTFILE itself here: %s",
                qPrintable(direct.lastError().text()));
        const QString target = dir.filePath(u"written.txt"_qs);
        const Tables before = everyTable(db);
        int line = 0;
        const QString path = ScratchFile::writeText(dir, u"outfile.profile"_qs,
            customProfileWith(u"from ="_qs,
                u"from = shop_outbox INTO OUTFILE '%1' LINES STARTING BY 'pwned ' #"_qs.arg(target),
                &line));
        const QStringList common
            = {u"--db"_qs, database->url(), u"--profile"_qs, path, u"--now"_qs, QString::number(T)};
        const Run run = surface == u"check"_qs ? outboxctl(checkArguments(database->url(), path))
            : surface == u"export"_qs          ? outboxctl(QStringList {u"export"_qs} + common)
                                               : outboxctl(QStringList {u"replay"_qs} + common
                                                   + QStringList {u"--all-dead"_qs, u"--dry-run"_qs});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.join(u'\n').contains(
                     QStringLiteral("%1:%2: field 'from' uses INTO, which stores a result")
                         .arg(path)
                         .arg(line)),
            qPrintable(run.err.join(u'\n')));
        QVERIFY(!QFileInfo::exists(target));
        QCOMPARE(everyTable(db), before);
    }

    // A built-in profile for an older version on a newer table names the one to use.
    void olderBuiltInNamesTheNewer_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<QString>("fixture");
        QTest::addRow("postgresql") << u"postgresql"_qs << u"fixtures/spring-modulith-2.sql"_qs;
    }
    void olderBuiltInNamesTheNewer()
    {
        QFETCH(QString, engine);
        QFETCH(QString, fixture);
        FRESH_DATABASE(database, engine);
        {
            const auto connection = database->connect(false);
            QVERIFY(connection);
            QVERIFY(runSqlScript(connection->database(), TestData::path(fixture)));
        }
        const Run run = outboxctl({u"check"_qs, u"--db"_qs, database->url(), u"--profile"_qs,
            u"spring-modulith"_qs, u"--now"_qs, QString::number(T)});
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(run.err,
            QStringList {u"outboxctl: spring-modulith: this table is a newer version of the"
                         " library (spring-modulith-2's schema was found): use --profile"
                         " spring-modulith-2"_qs});
        const Run newer = outboxctl(
            {u"check"_qs, u"--db"_qs, database->url(), u"--profile"_qs, u"spring-modulith-2"_qs,
                u"--now"_qs, QString::number(T), u"--no-default-thresholds"_qs});
        QCOMPARE(newer.exitCode, 0);
    }

    void everyNewerNamesABuiltIn()
    {
        for (const OutboxProfile &profile : ProfileRegistry::builtIns()) {
            if (!profile.newer().isEmpty())
                QVERIFY2(ProfileRegistry::builtInNames().contains(profile.newer()),
                    qPrintable(profile.name()));
        }
    }
};

OUTBOX_TEST_MAIN(TestProfileSafety, QApplication)
#include "tst_profile_safety.moc"
