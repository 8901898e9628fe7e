// Each engine's SqlDialect against its own engine: the fragments do what they say (a row lock
// really locks, the ID set really binds, the read-only transaction really refuses a write,
// the session set-up holds, after a reopen too), and every capability flag agrees with what
// the server does.
#include "enginestatements.h"
#include "failurecause.h"
#include "readonlytransaction.h"
#include "sqldialect.h"
#include "sqltext.h"
#include "sqltransaction.h"
#include "testdatabase.h"
#include "testmain.h"

#include <QElapsedTimer>
#include <QSqlError>
#include <QSqlRecord>
#include <QTemporaryFile>
#include <cstdio>
#include <unistd.h>

namespace {

// What this process writes to stderr (file descriptor 2, where libpq and ServerNotices print)
// while it lives, given back by text().
class StderrCapture
{
public:
    StderrCapture()
    {
        std::fflush(stderr);
        m_saved = ::dup(STDERR_FILENO);
        if (m_file.open())
            ::dup2(m_file.handle(), STDERR_FILENO);
    }
    ~StderrCapture() { restore(); }
    StderrCapture(const StderrCapture &) = delete;
    StderrCapture &operator=(const StderrCapture &) = delete;

    QString text()
    {
        restore();
        m_file.seek(0);
        return QString::fromUtf8(m_file.readAll());
    }

private:
    void restore()
    {
        if (m_saved < 0)
            return;
        std::fflush(stderr);
        ::dup2(m_saved, STDERR_FILENO);
        ::close(m_saved);
        m_saved = -1;
    }

    QTemporaryFile m_file;
    int m_saved = -1;
};

// A NOTICE and a WARNING holding an escape that would clear the terminal's line.
const QString RaiseForged = u"DO $$ BEGIN RAISE NOTICE '%', E'\\x1b[2Kforged';"
                            " RAISE WARNING '%', E'\\x1b[2Kforged'; END $$"_qs;
const QString EscapedForged = u"\\x1b[2Kforged"_qs;

// A connection of its own to `database` with `options`.
std::unique_ptr<DbConnection> openWith(const TestDatabase &database, const OpenOptions &options)
{
    QString error;
    auto connection
        = DbConnection::open(DatabaseUrl::parse(database.url(), &error), options, &error);
    if (!connection)
        qWarning("%s", qPrintable(error));
    return connection;
}

bool runs(const QSqlDatabase &db, const QString &sql)
{
    QSqlQuery query(db);
    return query.exec(sql);
}

// Runs `sql` inside a transaction that is rolled back: whether the engine accepted it.
bool runsAndRollsBack(const QSqlDatabase &db, const QString &sql)
{
    SqlTransaction transaction(db);
    return transaction.isActive() && runs(db, sql);
}

} // namespace

class TestDialect : public QObject
{
    Q_OBJECT

private slots:
    void connectionHandsOutItsEnginesDialect_data() { engines(); }
    void connectionHandsOutItsEnginesDialect()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const SqlDialect &dialect = connection->dialect();
        QCOMPARE(&SqlDialect::of(connection->database()), &dialect);
        QCOMPARE(&SqlDialect::of(dialect.engine()), &dialect);
        QCOMPARE(dialect.keyPrefix(), engine);
        QVERIFY(dialect.urlSchemes().contains(database->url().section(u':', 0, 0)));
        QCOMPARE(dialect.can().fileDatabase, connection->url().isFile());
        QVERIFY(QSqlDatabase::isDriverAvailable(dialect.qtDriver()));
    }

    // The session set-up holds: a reference to a missing event is refused on every engine
    // (SQLite enforces foreign keys only when the session asks).
    void sessionEnforcesForeignKeys_data() { engines(); }
    void sessionEnforcesForeignKeys()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        QVERIFY(!runs(connection->database(),
            u"INSERT INTO replay_log (event_id, replayed_at, operator, reason, reset_failures,"
            " failures_before) VALUES ('NO-SUCH-EVENT', 1, 'alice', 'test', FALSE, 0)"_qs));
    }

    // EngineStatements::selectSql() with a row lock: another transaction waits for the row, or
    // (SKIP LOCKED) passes over it and finds it once it is free.
    void selectSqlLocksRows_data() { engines(); }
    void selectSqlLocksRows()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto holder = database->initialise();
        const auto other = database->connect();
        QVERIFY(holder && other);
        const SqlDialect &dialect = holder->dialect();
        const EngineStatements &statements = dialect.statements();
        using Lock = EngineStatements::RowLock;
        EngineStatements::Select purpose {.columns = u"\"key\""_qs,
            .table = u"outbox_meta"_qs,
            .where = u"\"key\" = 'purpose'"_qs};
        const auto locking = [&](Lock lock, const QString &limit = {}) {
            EngineStatements::Select select = purpose;
            select.lock = lock;
            select.limit = limit;
            return statements.selectSql(select);
        };
        SqlTransaction holding(holder->database());
        QVERIFY(holding.isActive());
        QSqlQuery locked(holder->database());
        QVERIFY2(locked.exec(locking(Lock::Update)) && locked.next(),
            qPrintable(locked.lastError().text()));
        if (dialect.can().skipLocked) {
            for (const QString &skipping :
                {locking(Lock::UpdateSkipLocked), locking(Lock::UpdateSkipLocked, u"1"_qs)}) {
                SqlTransaction passing(other->database());
                QSqlQuery skipped(other->database());
                QVERIFY2(skipped.exec(skipping), qPrintable(skipped.lastError().text()));
                QVERIFY2(!skipped.next(), qPrintable(skipping));
                skipped.finish();
                QVERIFY(passing.commit());
            }
            QVERIFY(holding.commit());
            QSqlQuery skipped(other->database());
            QVERIFY(skipped.exec(locking(Lock::UpdateSkipLocked)) && skipped.next());
            return;
        }
        // Without row locks the write transaction itself holds the lock: a second writer that
        // will not wait is refused until the first has finished.
        QCOMPARE(locking(Lock::Update), locking(Lock::None));
        QCOMPARE(locking(Lock::UpdateSkipLocked), locking(Lock::None));
        QVERIFY(runs(other->database(), u"PRAGMA busy_timeout = 0"_qs));
        QVERIFY(!runs(other->database(), dialect.beginWriteSql()));
        locked.finish();
        QVERIFY(holding.commit());
        QVERIFY(runs(other->database(), dialect.beginWriteSql()));
        QVERIFY(runs(other->database(), u"ROLLBACK"_qs));
    }

    // Each engine's percentile statement gives nearest-rank values, the value at rank
    // ceil(p/100 * count) (as DeliveryLatency and percentile_disc define them), over the rows
    // of its FROM ... WHERE only, and a count of 0 without rows.
    void percentilesAreNearestRank_data() { engines(); }
    void percentilesAreNearestRank()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        QVERIFY(runs(
            db, u"CREATE TABLE percentile_probe (v BIGINT NOT NULL, kept INTEGER NOT NULL)"_qs));
        const QString sql = connection->dialect().statements().percentilesSql(
            u"v * 10"_qs, u"percentile_probe WHERE kept = 1"_qs, {50, 95, 99});
        const auto row = [&] {
            QSqlQuery query(db);
            if (!query.exec(sql) || !query.next())
                return QList<qint64> {-1};
            QList<qint64> values;
            for (int column = 0; column < 4; ++column)
                values << query.value(column).toLongLong();
            return values;
        };
        QCOMPARE(row().constFirst(), 0);
        // 20 rows, written largest first, and one the WHERE leaves out.
        QVERIFY(runs(db, u"INSERT INTO percentile_probe (v, kept) VALUES (1000, 0)"_qs));
        for (int v = 20; v >= 1; --v) {
            QVERIFY(runs(db,
                QStringLiteral("INSERT INTO percentile_probe (v, kept) VALUES (%1, 1)").arg(v)));
        }
        QCOMPARE(row(), (QList<qint64> {20, 100, 190, 200}));
    }

    // FailureCause reads every engine's words from its dialect: each word list is honoured,
    // and each cause is the one given for its own words (or a cause tried before it gives the
    // same plain words).
    void errorWordsReachFailureCause()
    {
        for (const SqlDialect *dialect : SqlDialect::all()) {
            const EngineStatements &words = dialect->statements();
            for (const QString &word : words.lockConflictWords())
                QVERIFY2(FailureCause::isLockConflict(u"ERROR: "_qs + word), qPrintable(word));
            for (const QString &word : words.readOnlyRefusalWords())
                QVERIFY2(FailureCause::isReadOnlyRefusal(u"x "_qs + word), qPrintable(word));
            for (const QString &word : words.authenticationWords())
                QVERIFY2(FailureCause::of(u"FATAL: "_qs + word).authentication, qPrintable(word));
            for (const EngineStatements::Cause &cause : words.causes()) {
                const FailureCause read
                    = FailureCause::of(u"driver: "_qs + QLatin1String(cause.needle) + u" (x)"_qs);
                QVERIFY2(!read.plain.isEmpty(), cause.needle);
                QCOMPARE(read.unreachable, cause.unreachable);
            }
        }
        QVERIFY(!FailureCause::isLockConflict(u"syntax error at or near \"SELEC\""_qs));
    }

    // The IDs arrive as one bound value, whatever they hold: never part of the SQL.
    void idSetBindsEveryId_data() { engines(); }
    void idSetBindsEveryId()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        QSqlQuery query(connection->database());
        QVERIFY(query.prepare(u"SELECT * FROM ("_qs + connection->dialect().idSetSelect(u":ids"_qs)
            + u") ids ORDER BY 1"_qs));
        query.bindValue(u":ids"_qs, u"[\"E-1\", \"it's\", \"x); DROP TABLE outbox_meta; --\"]"_qs);
        QVERIFY2(query.exec(), qPrintable(query.lastError().text()));
        QStringList ids;
        while (query.next())
            ids << query.value(0).toString();
        QCOMPARE(ids, QStringList({u"E-1"_qs, u"it's"_qs, u"x); DROP TABLE outbox_meta; --"_qs}));
        QVERIFY(connection->dialect().can().arrayParameters);
        QVERIFY(!connection->database().record(u"outbox_meta"_qs).isEmpty());
    }

    // Nothing written inside the read-only transaction, and the session writes again after it.
    void readOnlyTransactionRefusesWrites_data() { engines(); }
    void readOnlyTransactionRefusesWrites()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        const QString insert = u"INSERT INTO outbox_meta (\"key\", value) VALUES ('%1', 'x')"_qs;
        {
            ReadOnlyTransaction transaction(db);
            QVERIFY2(transaction.isActive(), qPrintable(transaction.errorText()));
            QSqlQuery *write = transaction.prepare(insert.arg(u"inside"_qs));
            QVERIFY(!write || !write->exec());
        }
        QCOMPARE(
            scalar(db, u"SELECT COUNT(*) FROM outbox_meta WHERE \"key\" = 'inside'"_qs).toInt(), 0);
        QVERIFY(runs(db, insert.arg(u"after"_qs)));
        QCOMPARE(scalar(db, u"SELECT COUNT(*) FROM outbox_meta WHERE \"key\" = 'after'"_qs).toInt(), 1);
    }

    void existenceFragmentsAnswer_data() { engines(); }
    void existenceFragmentsAnswer()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        const SqlDialect &dialect = connection->dialect();
        QVERIFY(scalar(db, dialect.tableExistsSql(u"delivery_outbox"_qs)).toBool());
        QVERIFY(!scalar(db, dialect.tableExistsSql(u"no_such_table"_qs)).toBool());
        QVERIFY(!scalar(db, dialect.tableExistsSql(u"it's"_qs)).toBool());
        QVERIFY(scalar(db, dialect.indexExistsSql(u"delivery_outbox_delivered"_qs)).toBool());
        QVERIFY(!scalar(db, dialect.indexExistsSql(u"no_such_index"_qs)).toBool());
    }

    // Each flag against the server: what the flag promises runs, what it denies is refused.
    void capabilitiesAgreeWithTheServer_data() { engines(); }
    void capabilitiesAgreeWithTheServer()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        const SqlDialect::Capabilities &can = connection->dialect().can();
        const QString meta = u"SELECT \"key\" FROM outbox_meta"_qs;
        QCOMPARE(runsAndRollsBack(db, meta + u" FOR UPDATE"_qs), can.rowLocks);
        QCOMPARE(runsAndRollsBack(db, meta + u" FOR UPDATE SKIP LOCKED"_qs), can.skipLocked);
        QCOMPARE(runsAndRollsBack(db,
                     u"WITH added AS (INSERT INTO outbox_meta (\"key\", value) VALUES ('k', 'v')"
                     " RETURNING key) SELECT COUNT(*) FROM added"_qs),
            can.writableCtes);
        if (can.insertReturning) // promised where set (MariaDB has it too, MySQL has not)
            QVERIFY(runsAndRollsBack(db,
                u"INSERT INTO outbox_meta (\"key\", value) VALUES ('r', 'v') RETURNING \"key\""_qs));
        QCOMPARE(runs(db,
                     u"SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY v)"
                     " FROM (SELECT 1 AS v) t"_qs),
            can.percentileDisc);
        // The collation that compares by code point: "C" where text may sort by a locale, and
        // utf8mb4_bin on MySQL, whose default utf8mb4_*_ci collations ignore case and accents.
        const QString byCode = engine == u"mysql"_qs ? u"utf8mb4_bin"_qs : u"\"C\""_qs;
        QCOMPARE(runs(db, u"SELECT 'a' COLLATE "_qs + byCode + u" < 'b'"_qs), can.localeCollations);
        QVERIFY(runs(db, u"CREATE TABLE probe (n BIGINT)"_qs));
        QCOMPARE(
            !runs(db, u"INSERT INTO probe (n) VALUES ('yesterday')"_qs), can.strictColumnTypes);
        QCOMPARE(runs(db, u"ALTER TABLE probe ADD CONSTRAINT positive CHECK (n > 0)"_qs),
            can.alterConstraints);
        QCOMPARE(runs(db, u"SELECT COUNT(*) FROM generate_series(1, 2) AS s"_qs), can.seriesGeneration);
        {
            SqlTransaction transaction(db);
            QVERIFY(runs(db, u"CREATE TABLE rolled_back (n INTEGER)"_qs));
        }
        QCOMPARE(db.record(u"rolled_back"_qs).isEmpty(), can.transactionalDdl);
        QCOMPARE(runs(db, connection->dialect().catalogueRowEstimateSql(u"probe"_qs)),
            can.catalogueRowEstimates);
    }

    // A second connection cancels the first one's backend where the engine can.
    void cancelReachesTheBackend_data() { engines(); }
    void cancelReachesTheBackend()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto target = database->initialise();
        const auto canceller = database->connect();
        QVERIFY(target && canceller);
        const SqlDialect &dialect = target->dialect();
        if (!dialect.can().serverSideCancel) {
            QVERIFY(dialect.backendIdSql().isEmpty() && dialect.cancelSql(u":pid"_qs).isEmpty());
            return;
        }
        const int pid = scalar(target->database(), dialect.backendIdSql()).toInt();
        QVERIFY(pid > 0);
        QSqlQuery cancel(canceller->database());
        QVERIFY(cancel.prepare(dialect.cancelSql(u":pid"_qs)));
        cancel.bindValue(u":pid"_qs, pid);
        QVERIFY2(cancel.exec(), qPrintable(cancel.lastError().text()));
        if (cancel.isSelect()) { // pg_cancel_backend(); KILL QUERY has no row to answer with
            QVERIFY(cancel.next());
            QVERIFY(cancel.value(0).toBool()); // the backend was found and signalled
        }
        // An idle connection's next statement is not cancelled.
        QCOMPARE(scalar(target->database(), u"SELECT 1"_qs).toInt(), 1);
    }

    // The planner limits, where there are any, run inside a read-only transaction.
    void plannerLimitsRunReadOnly_data() { engines(); }
    void plannerLimitsRunReadOnly()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QString limits
            = connection->dialect().plannerLimitsSql(SqlDialect::Scope::Transaction);
        if (limits.isEmpty())
            return;
        ReadOnlyTransaction transaction(connection->database());
        QSqlQuery *query = transaction.prepare(limits);
        QVERIFY2(query && query->exec(), qPrintable(transaction.errorText()));
    }

    // The lexical rules SqlText takes from the dialect are the server's: a `;` inside the
    // engine's own quoting is one statement to SqlText and to the server alike.
    void readingsAgreeWithTheServer_data() { engines(); }
    void readingsAgreeWithTheServer()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const SqlDialect &dialect = connection->dialect();
        QStringList quoted = {u"SELECT 'a;b'"_qs, u"SELECT 1 /* ; */"_qs};
        for (const SqlText::Reading &reading : dialect.readings()) {
            if (reading.dollarQuotes)
                quoted << u"SELECT $q$a;b$q$"_qs;
            if (reading.bracketIdentifiers)
                quoted << u"SELECT `a;b` FROM (SELECT 1 AS `a;b`) AS t"_qs;
        }
        for (const QString &sql : std::as_const(quoted)) {
            QVERIFY2(!SqlText::hasSeveralStatements(sql, dialect.engine()), qPrintable(sql));
            QVERIFY2(runs(connection->database(), sql), qPrintable(sql));
        }
        QVERIFY(SqlText::hasSeveralStatements(u"SELECT 1; SELECT 2"_qs, dialect.engine()));
    }

    // A reopen (after an outage: the relay's producer, the teaching session's producer) applies
    // the session set-up again: a reference to a missing event is still refused.
    void reopenedSessionEnforcesForeignKeys_data() { engines(); }
    void reopenedSessionEnforcesForeignKeys()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        QSqlDatabase db = connection->database();
        QString error;
        QVERIFY2(DbConnection::reopen(db, &error), qPrintable(error));
        QVERIFY(!runs(db,
            u"INSERT INTO replay_log (event_id, replayed_at, operator, reason, reset_failures,"
            " failures_before) VALUES ('NO-SUCH-EVENT', 1, 'alice', 'test', FALSE, 0)"_qs));
        QVERIFY(runs(db, u"INSERT INTO outbox_meta (\"key\", value) VALUES ('reopened', 'yes')"_qs));
    }

    // A trigger's notice reaches stderr escaped, on a reopened connection as on a new one.
    void reopenedSessionEscapesServerNotices()
    {
        FRESH_DATABASE(database, u"postgresql"_qs);
        const auto connection = database->initialise();
        QVERIFY(connection);
        QSqlDatabase db = connection->database();
        QVERIFY(DbConnection::reopen(db));
        StderrCapture capture;
        const bool raised = runs(db, RaiseForged);
        const QString err = capture.text();
        QVERIFY(raised);
        QVERIFY2(err.contains(u"server NOTICE: "_qs + EscapedForged), qPrintable(err));
        QVERIFY2(!err.contains(u'\x1b'), qPrintable(err));
    }

    // The notice level: at Error a warning no longer reaches stderr; a transaction's level
    // ends with it.
    void noticeLevelSilencesWarnings()
    {
        FRESH_DATABASE(database, u"postgresql"_qs);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        const SqlDialect &dialect = connection->dialect();
        const auto heard = [&db] {
            StderrCapture capture;
            runs(db, RaiseForged);
            return capture.text().contains(u"server WARNING: "_qs + EscapedForged);
        };
        QVERIFY(heard());
        {
            SqlTransaction transaction(db);
            dialect.setNoticeLevel(
                db, SqlDialect::NoticeLevel::Error, SqlDialect::Scope::Transaction);
            QVERIFY(!heard());
            QVERIFY(transaction.commit());
        }
        QVERIFY(heard());
        dialect.setNoticeLevel(db, SqlDialect::NoticeLevel::Error, SqlDialect::Scope::Session);
        QVERIFY(!heard());
        dialect.setNoticeLevel(db, SqlDialect::NoticeLevel::Warning, SqlDialect::Scope::Session);
        QVERIFY(heard());
    }

    // configure(): a read-only session refuses a write (after a reopen too) but reads.
    void readOnlySessionRefusesWrites_data() { engines(); }
    void readOnlySessionRefusesWrites()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        QVERIFY(database->initialise());
        OpenOptions options;
        options.readOnly = true;
        const auto connection = openWith(*database, options);
        QVERIFY(connection);
        QSqlDatabase db = connection->database();
        const QString insert = u"INSERT INTO outbox_meta (\"key\", value) VALUES ('ro', 'x')"_qs;
        QVERIFY(!runs(db, insert));
        QVERIFY(DbConnection::reopen(db));
        QVERIFY(!runs(db, insert));
        QCOMPARE(scalar(db, u"SELECT COUNT(*) FROM outbox_meta WHERE \"key\" = 'ro'"_qs).toInt(), 0);
        QVERIFY(scalar(db, u"SELECT COUNT(*) FROM outbox_meta"_qs).toInt() > 0);
    }

    // configure(): a statement over the statement timeout is cancelled (after a reopen too),
    // long before it would have finished.
    void statementTimeoutCancelsALongStatement()
    {
        FRESH_DATABASE(database, u"postgresql"_qs);
        QVERIFY(database->initialise());
        OpenOptions options;
        options.statementTimeoutMs = 200;
        const auto connection = openWith(*database, options);
        QVERIFY(connection);
        QSqlDatabase db = connection->database();
        for (int round = 0; round < 2; ++round) {
            QElapsedTimer timer;
            timer.start();
            QSqlQuery query(db);
            QVERIFY(!query.exec(u"SELECT pg_sleep(30)"_qs));
            QVERIFY2(query.lastError().text().contains(u"statement timeout"_qs),
                qPrintable(query.lastError().text()));
            QVERIFY(timer.elapsed() < 20000);
            QVERIFY(DbConnection::reopen(db));
        }
    }

    // integerType(): a 64-bit integer, as a profile casts a text column to.
    void integerTypeHoldsSixtyFourBits_data() { engines(); }
    void integerTypeHoldsSixtyFourBits()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QString type = connection->dialect().integerType();
        const QVariant value = scalar(
            connection->database(), u"SELECT CAST('4611686018427387904' AS %1) + 1"_qs.arg(type));
        QCOMPARE(value.toLongLong(), Q_INT64_C(4611686018427387905));
    }

    // likeEscapeClause(): an escaped % or _ matches only itself.
    void likeEscapeMatchesOnlyTheLiteral_data() { engines(); }
    void likeEscapeMatchesOnlyTheLiteral()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        QVERIFY(runs(db, u"CREATE TABLE probe (v TEXT)"_qs));
        QVERIFY(runs(db, u"INSERT INTO probe (v) VALUES ('50%'), ('500'), ('a_b'), ('axb')"_qs));
        const auto matching = [&](const QString &pattern) {
            QSqlQuery query(db);
            query.prepare(u"SELECT v FROM probe WHERE v LIKE :p"_qs
                + connection->dialect().likeEscapeClause());
            query.bindValue(u":p"_qs, pattern);
            QStringList values;
            if (query.exec()) {
                while (query.next())
                    values << query.value(0).toString();
            }
            values.sort(); // by code point, whatever the database's collation
            return values;
        };
        QCOMPARE(matching(u"50\\%"_qs), QStringList {u"50%"_qs});
        QCOMPARE(matching(u"50%"_qs), QStringList({u"50%"_qs, u"500"_qs}));
        QCOMPARE(matching(u"a\\_b"_qs), QStringList {u"a_b"_qs});
        QCOMPARE(matching(u"a_b"_qs), QStringList({u"a_b"_qs, u"axb"_qs}));
    }

    // collationProbeSql() says how ORDER BY sorts text; without locale collations, by code.
    void collationProbeAgreesWithOrderBy_data() { engines(); }
    void collationProbeAgreesWithOrderBy()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        const SqlDialect &dialect = connection->dialect();
        const bool byCode = scalar(db, dialect.collationProbeSql()).toBool();
        const QString first = scalar(
            db, u"SELECT v FROM (SELECT 'a' AS v UNION ALL SELECT 'B') t ORDER BY v LIMIT 1"_qs)
                                  .toString();
        QCOMPARE(first == u"B"_qs, byCode);
        if (!dialect.can().localeCollations)
            QVERIFY(byCode);
    }

    // afterSchemaStatements(): a reader in the middle of a transaction does not keep the
    // writer from committing (the dashboard reads while the relay writes).
    void afterSchemaReaderDoesNotBlockAWriter_data() { engines(); }
    void afterSchemaReaderDoesNotBlockAWriter()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto writer = database->initialise();
        const auto reader = database->connect();
        QVERIFY(writer && reader);
        if (writer->dialect().can().fileDatabase)
            QVERIFY(runs(writer->database(), u"PRAGMA busy_timeout = 0"_qs)); // fail, not wait
        for (const QString &statement : writer->dialect().afterSchemaStatements())
            QVERIFY2(runs(writer->database(), statement), qPrintable(statement));
        ReadOnlyTransaction reading(reader->database());
        QVERIFY(reading.isActive());
        QSqlQuery *read = reading.prepare(u"SELECT COUNT(*) FROM outbox_meta"_qs);
        QVERIFY(read && read->exec() && read->next());
        const int before = read->value(0).toInt();
        SqlTransaction writing(writer->database());
        QVERIFY(writing.isActive());
        QVERIFY(runs(writer->database(),
            u"INSERT INTO outbox_meta (\"key\", value) VALUES ('written', 'x')"_qs));
        QVERIFY2(writing.commit(), qPrintable(writing.errorText()));
        QVERIFY(read->exec() && read->next());
        QVERIFY(read->value(0).toInt() >= before);
    }

    // bulkLoadStatements() and simulationSessionStatements(): accepted by the engine, and the
    // session still commits what it writes.
    void bulkLoadStatementsKeepWritesCommitted_data() { engines(); }
    void bulkLoadStatementsKeepWritesCommitted()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const SqlDialect &dialect = connection->dialect();
        const QSqlDatabase db = connection->database();
        for (const QString &statement :
            dialect.bulkLoadStatements() + dialect.simulationSessionStatements())
            QVERIFY2(runs(db, statement), qPrintable(statement));
        {
            SqlTransaction transaction(db);
            QVERIFY(runs(db, u"INSERT INTO outbox_meta (\"key\", value) VALUES ('bulk', 'x')"_qs));
            QVERIFY(transaction.commit());
        }
        const auto other = database->connect();
        QVERIFY(other);
        QCOMPARE(
            scalar(other->database(), u"SELECT COUNT(*) FROM outbox_meta WHERE \"key\" = 'bulk'"_qs)
                .toInt(),
            1);
    }

    // An outbox_meta row, its key the unique key.
    static EngineStatements::Insert metaRow()
    {
        return {.table = u"outbox_meta"_qs,
            .columns = u"\"key\", value"_qs,
            .values = u":key, :value"_qs,
            .key = u"\"key\""_qs};
    }

    // limitedSql(): at most the rows asked for, in the SELECT's order, also as a derived table.
    void limitedKeepsTheFirstRows_data() { engines(); }
    void limitedKeepsTheFirstRows()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        for (const char *key : {"limit-c", "limit-a", "limit-b"})
            QVERIFY(runs(db,
                u"INSERT INTO outbox_meta (\"key\", value) VALUES ('%1', 'v')"_qs.arg(
                    QLatin1String(key))));
        const EngineStatements &statements = connection->dialect().statements();
        const QString select = statements.limitedSql(
            u"SELECT \"key\" FROM outbox_meta WHERE \"key\" LIKE 'limit-%' ORDER BY \"key\""_qs,
            u":rows"_qs);
        QSqlQuery limited(db);
        QVERIFY(limited.prepare(select));
        limited.bindValue(u":rows"_qs, 2);
        QVERIFY2(limited.exec(), qPrintable(limited.lastError().text()));
        QStringList keys;
        while (limited.next())
            keys << limited.value(0).toString();
        QCOMPARE(keys, (QStringList {u"limit-a"_qs, u"limit-b"_qs}));
        QCOMPARE(scalar(db,
                     u"SELECT COUNT(*) FROM ("_qs
                         + statements.limitedSql(
                             u"SELECT 1 AS one FROM outbox_meta WHERE \"key\" LIKE 'limit-%'"_qs,
                             u"1"_qs)
                         + u") AS first"_qs)
                     .toInt(),
            1);
    }

    // insertIgnoringSql(): a taken key skips the row, and the statement succeeds.
    void ignoreConflictKeepsTheFirstRow_data() { engines(); }
    void ignoreConflictKeepsTheFirstRow()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        QSqlQuery insert(db);
        QVERIFY(insert.prepare(connection->dialect().statements().insertIgnoringSql(metaRow())));
        for (const QString &value : {u"first"_qs, u"second"_qs}) {
            insert.bindValue(u":key"_qs, u"once"_qs);
            insert.bindValue(u":value"_qs, value);
            QVERIFY2(insert.exec(), qPrintable(insert.lastError().text()));
            QCOMPARE(insert.numRowsAffected(), value == u"first"_qs ? 1 : 0);
        }
        QCOMPARE(scalar(db, u"SELECT value FROM outbox_meta WHERE \"key\" = 'once'"_qs).toString(),
            u"first"_qs);
    }

    // upsertSql(): a taken key updates the named columns of the row there.
    void upsertUpdatesTheTakenRow_data() { engines(); }
    void upsertUpdatesTheTakenRow()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const QSqlDatabase db = connection->database();
        QSqlQuery insert(db);
        QVERIFY(
            insert.prepare(connection->dialect().statements().upsertSql(metaRow(), {u"value"_qs})));
        for (const QString &value : {u"first"_qs, u"second"_qs}) {
            insert.bindValue(u":key"_qs, u"latest"_qs);
            insert.bindValue(u":value"_qs, value);
            QVERIFY2(insert.exec(), qPrintable(insert.lastError().text()));
        }
        QCOMPARE(
            scalar(db, u"SELECT COUNT(*) FROM outbox_meta WHERE \"key\" = 'latest'"_qs).toInt(), 1);
        QCOMPARE(scalar(db, u"SELECT value FROM outbox_meta WHERE \"key\" = 'latest'"_qs).toString(),
            u"second"_qs);
    }

    // catalogueRowEstimateSql(): on PostgreSQL nothing before the first ANALYZE, the table's rows
    // after it; InnoDB (MySQL) counts each insert, and samples the table at ANALYZE.
    void catalogueRowEstimateFollowsAnalyze_data() { engines(); }
    void catalogueRowEstimateFollowsAnalyze()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const SqlDialect &dialect = connection->dialect();
        const QString sql = dialect.catalogueRowEstimateSql(u"probe"_qs);
        QCOMPARE(sql.isEmpty(), !dialect.can().catalogueRowEstimates);
        if (sql.isEmpty())
            return;
        const QSqlDatabase db = connection->database();
        QVERIFY(runs(db, u"CREATE TABLE probe (n BIGINT)"_qs));
        QVERIFY(runs(db,
            u"INSERT INTO probe WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s"
            " WHERE n < 1000) SELECT n FROM s"_qs));
        const bool mySql = engine == u"mysql"_qs;
        if (mySql) // about 1000: a background recalculation may have sampled meanwhile
            QVERIFY(scalar(db, sql).toDouble() > 0);
        else
            QVERIFY(scalar(db, sql).toDouble() < 0); // never analysed
        QVERIFY(runs(db, mySql ? u"ANALYZE TABLE probe"_qs : u"ANALYZE probe"_qs));
        QSqlQuery estimate(db);
        QVERIFY(estimate.exec(sql) && estimate.next());
        QCOMPARE(estimate.value(0).toDouble(), 1000.0); // one page: the sample is the table
        QCOMPARE(estimate.value(1).toDouble() > 0, !mySql); // InnoDB's count has no pages
        QCOMPARE(estimate.value(2).toDouble(), estimate.value(1).toDouble());
        QVERIFY(estimate.value(5).toBool()); // the statistics saw the ANALYZE
    }

    // The rebuild fragments of an engine that cannot alter a CHECK: the table's own definition
    // and its indexes; foreign keys off lets a dangling reference in, the check names its
    // table, and on again refuses it. An engine that alters lists its CHECKs instead.
    void tableRebuildFragmentsAnswer_data() { engines(); }
    void tableRebuildFragmentsAnswer()
    {
        QFETCH(QString, engine);
        FRESH_DATABASE(database, engine);
        const auto connection = database->initialise();
        QVERIFY(connection);
        const SqlDialect &dialect = connection->dialect();
        const QSqlDatabase db = connection->database();
        const QString table = u"delivery_outbox"_qs;
        const QString dangling = u"INSERT INTO replay_log (event_id, replayed_at, operator, reason,"
                                 " reset_failures, failures_before)"
                                 " VALUES ('NO-SUCH-EVENT', 1, 'alice', 'test', FALSE, 0)"_qs;
        if (dialect.can().alterConstraints) {
            QVERIFY(dialect.tableDefinitionSql(table).isEmpty());
            QVERIFY(dialect.foreignKeysOffForRebuildSql().isEmpty());
            QSqlQuery checks(db);
            QVERIFY(checks.exec(dialect.checkConstraintsSql(table)));
            QStringList definitions;
            while (checks.next())
                definitions << checks.value(1).toString();
            QVERIFY2(
                definitions.filter(u"status"_qs).size() == 1, qPrintable(definitions.join(u'|')));
            return;
        }
        QVERIFY(dialect.checkConstraintsSql(table).isEmpty());
        QVERIFY(scalar(db, dialect.tableDefinitionSql(table))
                    .toString()
                    .startsWith(u"CREATE TABLE"_qs, Qt::CaseInsensitive));
        QSqlQuery dependents(db);
        QVERIFY(dependents.exec(dialect.tableDependentsSql(table)));
        QStringList statements;
        while (dependents.next())
            statements << dependents.value(0).toString();
        QVERIFY2(!statements.filter(u"delivery_outbox_delivered"_qs).isEmpty(),
            qPrintable(statements.join(u'|')));
        QVERIFY(runs(db, dialect.foreignKeysOffForRebuildSql()));
        QVERIFY(runs(db, dangling));
        QCOMPARE(scalar(db, dialect.foreignKeyCheckSql()).toString(), u"replay_log"_qs);
        QVERIFY(runs(db, u"DELETE FROM replay_log"_qs));
        QVERIFY(runs(db, dialect.foreignKeysOnAfterRebuildSql()));
        QVERIFY(!runs(db, dangling));
    }

private:
    static void engines()
    {
        TestDatabase::addEngineColumn();
        TestDatabase::addEngineRows();
    }
};

OUTBOX_TEST_MAIN(TestDialect, QCoreApplication)
#include "tst_dialect.moc"
