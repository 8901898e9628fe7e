// Everything that differs between database engines, one object per engine (models/db/dialect/):
// who it is, what it can do (capability flags a caller chooses a strategy by), how a
// connection is set up, how transactions begin, the small fragments that are written
// differently (every value still bound), how SqlText reads its quotes and comments, and its
// schema resource. Its own members know no outbox table; where the engines differ in a whole
// statement's shape (claim a batch, percentiles, bulk loads, a limit, a lock, an insert that
// skips a taken key) and in their error words,
// statements() gives the engine's EngineStatements (enginestatements.h), and every other
// statement stays with its owner. A caller never asks "is this PostgreSQL?"; it asks "can
// this engine lock and skip?" (dialect.can().skipLocked), or takes the whole statement.
#pragma once

#include "engine.h"
#include "sqltext.h"

#include <QList>
#include <QSqlDatabase>
#include <QString>
#include <QStringList>
#include <QVariant>
#include <optional>
#include <utility>

class DatabaseUrl;
class EngineStatements;
class QJsonValue;
class QSqlError;
class QSqlQuery;
struct OpenOptions;

class SqlDialect
{
public:
    // What the engine does, so that a caller picks its strategy by name.
    struct Capabilities
    {
        bool rowLocks = false; // SELECT ... FOR UPDATE locks the rows read
        bool skipLocked = false; // ... FOR UPDATE SKIP LOCKED passes over rows others hold
        bool writableCtes = false; // INSERT/UPDATE ... RETURNING inside WITH: one statement
        bool arrayParameters = false; // a bound array (JSON) expanded to rows by the server
        bool percentileDisc = false; // percentile_disc(...) WITHIN GROUP (ORDER BY ...)
        bool serverSideCancel = false; // another connection can cancel a running statement
        bool strictColumnTypes = false; // a column holds only values of its declared type
        bool transactionalDdl = false; // CREATE/ALTER roll back with the transaction
        bool catalogueRowEstimates = false; // the catalogue estimates a table's rows cheaply
        bool alterConstraints = false; // ALTER TABLE drops and adds a CHECK (else: rebuild)
        bool seriesGeneration = false; // generate_series(), TRUNCATE and VACUUM for bulk rows
        bool localeCollations = false; // text may sort by a locale; COLLATE "C" sorts by code
        bool fileDatabase = false; // the URL names a file, not a server
        // INSERT ... RETURNING gives the new row's generated key (else QSqlQuery::lastInsertId,
        // which the MySQL driver answers and the PostgreSQL one does not)
        bool insertReturning = false;
    };
    enum class NoticeLevel { Warning, Error };
    enum class Scope { Session, Transaction };

    // What an engine is and has, as data: the fixed half of its dialect.
    struct Traits
    {
        Engine engine = Engine::Sqlite;
        QString qtDriver; // the Qt SQL driver's name
        QStringList urlSchemes; // "postgresql" first, then any alias
        int defaultPort = 0; // the server's port when the URL names none; 0 for a file
        QString keyPrefix; // a profile file's per-engine key prefix
        QString title; // as a message names the engine
        QString driverPackage; // the Debian package of the Qt driver
        QStringList urlOptions; // the ?KEY=VALUE options its URLs may carry (none: refused)
        Capabilities can;
        QString beginWrite; // begins a transaction that will write
        // begins a transaction that may write even in a session opened read-only (a statement
        // only prepared there, then rolled back)
        QString beginReadWrite;
        QString integerType; // the 64-bit integer type of a CAST
        QString textType = QStringLiteral("TEXT"); // the text type of a CAST
        QString countType = QStringLiteral("INTEGER"); // a CAST's type for a count (failures)
        QString backendId; // SELECT of this connection's server process, or empty
        QString schemaResource; // resources/sql/<engine>.sql in the binary
        QStringList afterSchema; // after the schema's commit
        QStringList bulkLoad; // before a simulation's bulk insert
        QStringList simulationSession; // a session of many short simulation transactions
        // How SqlText reads quotes, identifiers, comments and escapes: each reading one way
        // the engine may be configured to read them.
        QList<SqlText::Reading> readings;
    };

    static const SqlDialect &of(Engine engine);
    // The dialect of an open connection's driver (a connection Outbox Health opened).
    static const SqlDialect &of(const QSqlDatabase &db);
    static QList<const SqlDialect *> all();
    // The dialect whose URLs start with `scheme` (the text before the first ':'), or none.
    static const SqlDialect *ofUrlScheme(const QString &scheme);

    explicit SqlDialect(Traits traits);
    virtual ~SqlDialect() = default;
    SqlDialect(const SqlDialect &) = delete;
    SqlDialect &operator=(const SqlDialect &) = delete;

    // Identity.
    Engine engine() const { return m_traits.engine; }
    QString qtDriver() const { return m_traits.qtDriver; }
    QStringList urlSchemes() const { return m_traits.urlSchemes; }
    int defaultPort() const { return m_traits.defaultPort; }
    QString keyPrefix() const { return m_traits.keyPrefix; }
    QString title() const { return m_traits.title; }
    QString driverPackage() const { return m_traits.driverPackage; }
    QStringList urlOptions() const { return m_traits.urlOptions; }
    const Capabilities &can() const { return m_traits.can; }
    // Empty when the engine's Qt driver is installed; otherwise the message naming the driver
    // and its Debian package.
    QString missingDriver() const;
    // A new connection of the engine's driver, named `connectionName`.
    QSqlDatabase addDatabase(const QString &connectionName) const;

    // Connection set-up before open(); false with *error when the URL cannot be opened.
    virtual bool configure(QSqlDatabase &db, const DatabaseUrl &url, const OpenOptions &options,
        QString *error) const = 0;
    // The session set-up after open(), and again after every reopen (DbConnection::open and
    // DbConnection::reopen are its only callers): session statements, on PostgreSQL the
    // printer that escapes server notices (ServerNotices::print), on MySQL the check that a
    // session that asked for TLS has it. False with *error: the session must not be used.
    virtual bool startSession(const QSqlDatabase &db, QString *error) const;
    // The least severe server notice that still reaches the client (libpq prints them to
    // stderr); nothing on an engine without notices.
    virtual void setNoticeLevel(const QSqlDatabase &db, NoticeLevel level, Scope scope) const;

    // Transactions.
    QString beginWriteSql() const { return m_traits.beginWrite; }
    QString beginReadWriteSql() const { return m_traits.beginReadWrite; }
    // Begins a transaction that cannot write; *restore: a session setting endReadOnly() undoes
    // (even when the transaction itself did not begin: then `active` is false).
    virtual bool beginReadOnly(const QSqlDatabase &db, bool *restore, QString *error) const = 0;
    virtual void endReadOnly(const QSqlDatabase &db, bool active, bool restore) const;

    // Fragments (every value bound by the caller).
    // A SELECT of one text column: the IDs of the JSON array bound to `placeholder`.
    virtual QString idSetSelect(const QString &placeholder) const = 0;
    // A SELECT, for each row of `from` (a FROM clause, filtered by `where` when not empty), of
    // `eventId` (an expression over those rows) as `event_id` and one row per element of the
    // JSON array `array` (an expression over the same rows): the element as `attempt` (JSON
    // the engine's own functions read: jsonb, JSON, JSON text) and its 0-based position as
    // `ordinal`. Only the last `cap` elements of each array come out, whatever its length (a
    // constant of the program, written in); an array's length is worked out once per row, never
    // per element (a long text array would be parsed again for each). A row whose array is
    // NULL or no array gives no row.
    virtual QString jsonArrayElementsSql(const QString &eventId, const QString &from,
        const QString &where, const QString &array, int cap) const = 0;
    QString integerType() const { return m_traits.integerType; }
    QString textType() const { return m_traits.textType; }
    QString countType() const { return m_traits.countType; }
    virtual QString likeEscapeClause() const; // " ESCAPE '\'": a backslash escapes % and _
    // The statement that keeps the planner from parallel workers and JIT, or empty.
    virtual QString plannerLimitsSql(Scope scope) const;
    // A SELECT of one value, true when the table (or index) exists. `name` is one of the
    // program's own constants (never user text), written in as a string literal so that a
    // traced statement can be replayed as it is.
    virtual QString tableExistsSql(const QString &name) const = 0;
    virtual QString indexExistsSql(const QString &name) const = 0;
    // A SELECT of the index's key columns in key order (one row each: the column and its prefix
    // length or NULL), where a schema script declares indexes inside CREATE TABLE and an older
    // script's index of the same name may have other columns (Schema::runScript redefines it);
    // empty where the script's CREATE INDEX statements say it all.
    virtual QString indexColumnsSql(const QString &name) const;
    // Written after a table in FROM, so that a statement of the native schema reads `index`
    // where the engine's optimizer would pick a worse one (MySQL: " FORCE INDEX (index)"); empty
    // elsewhere. Only on the native schema, whose script makes the index: naming an index a
    // table lacks is an error on MySQL.
    virtual QString indexHint(const QString &index) const;
    // What a statement groups rows by, and matches with IN (SELECT …), where it wants the rows
    // of `columns`' groups that hold more than one row: the column list itself, or, where the
    // engine's grouping pays for the columns' width (MySQL's temporary tables hold a VARCHAR at
    // its full declared width: 2 KB a row for two VARCHAR(255) utf8mb4 columns, on disk past
    // tmp_table_size), one 64-bit hash of them. Equal values give equal keys, so a hash
    // collision only adds a group, never drops one: use it only where the rows it selects are
    // then told apart by the columns themselves. NULL in any column: no key (IN never matches).
    virtual QString groupingKey(const QStringList &columns) const;
    QString backendIdSql() const { return m_traits.backendId; }
    // Cancels the server process bound to `placeholder`; empty without server-side cancel.
    // A SELECT of one value (true: the process was found and signalled), or a statement
    // without rows whose success says the cancel was sent (KILL QUERY).
    virtual QString cancelSql(const QString &placeholder) const;
    // True when `error` says the statement was stopped by a cancel or the statement timeout.
    virtual bool wasCancelled(const QSqlError &error) const;
    // Payload search: a condition, true when the JSON text in `column` contains `fragment` (an
    // object or an array) in the sense of PostgreSQL's jsonb @> (every key of an object with a
    // contained value, every element of an array in some element). Its values are appended to
    // *values, their placeholders named `prefix` and a number. A row whose text is not JSON
    // never matches on SQLite and MySQL; on PostgreSQL (15: no safe cast) it fails the
    // statement, as the expression index on payload::jsonb itself would.
    using BoundValues = QList<std::pair<QString, QVariant>>;
    virtual QString jsonContainsCondition(const QString &column, const QJsonValue &fragment,
        const QString &prefix, BoundValues *values) const = 0;
    // A SELECT of one value, true when text compares by code point ('B' before 'a').
    QString collationProbeSql() const;
    // The same for `column` of `source` (a table, or a profile's derived table), in the
    // column's own collation: on MySQL each table has its own, whatever the connection's. It
    // reads no row.
    QString columnCollationProbeSql(const QString &column, const QString &source) const;
    // `expression` compared by code point, whatever its collation (no index serves it).
    virtual QString codePointOrder(const QString &expression) const;
    // (a, b) `op` (x, y), op one of < <= > >=: a keyset page's start. Written out as
    // a op' x OR (a = x AND b op y) where the server scans an index for a row comparison
    // instead of seeking (MariaDB, MySQL). `x` may appear twice: a named placeholder binds both.
    virtual QString rowComparison(const QString &a, const QString &b, const QString &op,
        const QString &x, const QString &y) const;
    // A SELECT of one row from the catalogue: the table's rows at its last VACUUM or ANALYZE
    // (negative: never), its pages then, its pages now, the live rows the cumulative statistics
    // count, the rows they saw inserted, and whether those statistics saw a VACUUM or ANALYZE.
    // An engine without pages (MySQL's InnoDB) gives its row count as both the rows and the
    // live rows, with 0 pages and those statistics marked as covering the table.
    // Empty without can().catalogueRowEstimates. `table`: a constant, as for tableExistsSql().
    virtual QString catalogueRowEstimateSql(const QString &table) const;
    // A SELECT of one row about the replication slot bound to :slot, read without consuming
    // it (CdcSlotQuery, docs/cdc.md): whether it exists, active, the active process, the
    // plugin, the current WAL position in bytes, the bytes from the consumer's confirmed
    // position and from the slot's restart position to it, wal_status, safe_wal_size, the
    // max_slot_wal_keep_size in bytes (NULL: unlimited), the ms since the server saw it go
    // inactive (NULL: unknown), the server's average WAL bytes per second since its statistics
    // were reset, and the names of every slot, comma separated. Empty on an engine without
    // replication slots.
    virtual QString replicationSlotSql() const;
    // A SELECT of the table name, column name and column type of each column in the current
    // database that an UPDATE sets to the current time (MySQL's ON UPDATE CURRENT_TIMESTAMP),
    // for diagnose; empty on an engine without such columns.
    virtual QString onUpdateTimestampColumnsSql() const;
    // Whether this connection's role may `privilege` ("INSERT", "UPDATE" or "DELETE"; an
    // UPDATE of `columns` only) rows of `table`, by the server's own privilege check, so that
    // every way a grant can be given counts (TableGrants is the caller). `table` and `columns`
    // are the program's own constants. Empty with *error when the server cannot say.
    virtual std::optional<bool> mayWrite(const QSqlDatabase &db, const QString &table,
        const QString &privilege, const QStringList &columns, QString *error) const = 0;
    // The connection's role as a refusal names it ("reader"); empty where there is none.
    virtual QString roleName(const QSqlDatabase &db) const;

    // Changing a table the engine cannot ALTER (without can().alterConstraints): rebuilt from
    // its own definition. Empty on an engine that alters instead.
    // Statements before and after the rebuild's transaction: foreign keys off, then on again.
    virtual QString foreignKeysOffForRebuildSql() const;
    virtual QString foreignKeysOnAfterRebuildSql() const;
    // A SELECT of the rows that break a foreign key, the referencing table's name first.
    virtual QString foreignKeyCheckSql() const;
    // A SELECT of one text: the table's CREATE TABLE statement.
    virtual QString tableDefinitionSql(const QString &table) const;
    // A SELECT of the CREATE statements of the table's own indexes and triggers.
    virtual QString tableDependentsSql(const QString &table) const;
    // Where the engine alters constraints: a SELECT of the name and definition of each CHECK
    // constraint on `table`.
    virtual QString checkConstraintsSql(const QString &table) const;

    // Schema and bulk loads.
    QString schemaResource() const { return m_traits.schemaResource; }
    QStringList afterSchemaStatements() const { return m_traits.afterSchema; }
    QStringList bulkLoadStatements() const { return m_traits.bulkLoad; }
    QStringList simulationSessionStatements() const { return m_traits.simulationSession; }

    // Lexical rules for SqlText.
    QList<SqlText::Reading> readings() const { return m_traits.readings; }

    // Whole statements where the engines differ in shape (claim and ack a batch, bulk loads,
    // percentiles) and the words of the engine's errors: one object per engine
    // (enginestatements.h, models/db/dialect/<engine>statements.cpp).
    const EngineStatements &statements() const;

    // One statement, decided by the database: whether the server parses `sql`, as this
    // engine's Qt driver will send it to be prepared (driverText()), as exactly one statement.
    // PostgreSQL asks the server through the extended query protocol on the connection itself
    // (Qt's own PREPARE goes through the simple query protocol, which runs every statement of
    // a text). MySQL and SQLite answer yes while their Qt driver prepares for real: MySQL's
    // through mysql_stmt_prepare() and SQLite's through sqlite3_prepare16_v2() with any tail
    // refused, both one statement by definition. False with *error (the server's words) when
    // the text is not one statement, or could not be checked: then it must not be prepared.
    virtual bool checkOneStatement(
        const QSqlDatabase &db, const QString &sql, QSqlError *error) const;
    // The text the Qt driver sends to be prepared for `sql`: `sql` itself, but on PostgreSQL.
    virtual QString driverText(const QString &sql) const;
    // `sql` prepared on `query` (a query of `db`) once checkOneStatement() said yes: how every
    // text holding a profile's SQL is prepared. False with *error (the check's or the driver's).
    bool prepareOne(
        const QSqlDatabase &db, QSqlQuery &query, const QString &sql, QSqlError *error) const;

protected:
    static void exec(const QSqlDatabase &db, const QString &sql);
    static QString literal(const QString &name); // 'name', quotes doubled
    static QString jsonText(const QJsonValue &value); // compact JSON text

private:
    Traits m_traits;
};
