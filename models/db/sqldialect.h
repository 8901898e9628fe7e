// Everything that differs between database engines, one object per engine (models/db/dialect/):
// who it is, what it can do (capability flags a caller chooses a strategy by), how a
// connection is set up, how transactions begin, the small fragments that are written
// differently (every value still bound), how SqlText reads its quotes and comments, and its
// schema resource. It knows no outbox table: each owner keeps its own statements, and the
// dialect only removes the branching. A caller never asks "is this PostgreSQL?"; it asks
// "can this engine lock and skip?" (dialect.can().skipLocked).
#pragma once

#include "engine.h"
#include "sqltext.h"

#include <QList>
#include <QSqlDatabase>
#include <QString>
#include <QStringList>

class DatabaseUrl;
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
    };
    enum class NoticeLevel { Warning, Error };
    enum class Scope { Session, Transaction };

    static const SqlDialect &of(Engine engine);
    // The dialect of an open connection's driver (a connection Outbox Health opened).
    static const SqlDialect &of(const QSqlDatabase &db);
    static QList<const SqlDialect *> all();

    virtual ~SqlDialect() = default;

    // Identity.
    virtual Engine engine() const = 0;
    virtual QString qtDriver() const = 0; // the Qt SQL driver's name
    // Empty when the engine's Qt driver is installed; otherwise the message naming the driver
    // and its Debian package.
    QString missingDriver() const;
    // A new connection of the engine's driver, named `connectionName`.
    QSqlDatabase addDatabase(const QString &connectionName) const;
    virtual QStringList urlSchemes() const = 0; // "postgresql" first, then any alias
    virtual QString keyPrefix() const = 0; // a profile file's per-engine key prefix
    virtual QString title() const = 0; // as a message names the engine
    virtual QString driverPackage() const = 0; // the Debian package of the Qt driver
    virtual const Capabilities &can() const = 0;

    // Connection set-up before open(); false with *error when the URL cannot be opened.
    virtual bool configure(QSqlDatabase &db, const DatabaseUrl &url, const OpenOptions &options,
        QString *error) const = 0;
    // The session statements after open(), and again after a reconnect.
    virtual void startSession(const QSqlDatabase &db) const = 0;
    // The least severe server notice that still reaches the client (libpq prints them to
    // stderr); nothing on an engine without notices.
    virtual void setNoticeLevel(const QSqlDatabase &db, NoticeLevel level, Scope scope) const;

    // Transactions.
    virtual QString beginWriteSql() const = 0; // a transaction that will write
    // Begins a transaction that cannot write; *restore: a session setting endReadOnly() undoes
    // (even when the transaction itself did not begin: then `active` is false).
    virtual bool beginReadOnly(const QSqlDatabase &db, bool *restore, QString *error) const = 0;
    virtual void endReadOnly(const QSqlDatabase &db, bool active, bool restore) const = 0;

    // Fragments (every value bound by the caller).
    virtual QString rowLockClause() const; // " FOR UPDATE", or empty where a write lock serialises
    virtual QString skipLockedClause() const; // " FOR UPDATE SKIP LOCKED", or empty
    // A SELECT of one text column: the IDs of the JSON array bound to `placeholder`.
    virtual QString idSetSelect(const QString &placeholder) const = 0;
    virtual QString integerType() const = 0; // the 64-bit integer type of a CAST
    virtual QString likeEscapeClause() const; // " ESCAPE '\'": a backslash escapes % and _
    // The statement that keeps the planner from parallel workers and JIT, or empty.
    virtual QString plannerLimitsSql(Scope scope) const;
    // A SELECT of one value, true when the table (or index) exists. `name` is one of the
    // program's own constants (never user text), written in as a string literal so that a
    // traced statement can be replayed as it is.
    virtual QString tableExistsSql(const QString &name) const = 0;
    virtual QString indexExistsSql(const QString &name) const = 0;
    virtual QString backendIdSql() const; // this connection's server process, or empty
    virtual QString cancelSql(const QString &placeholder) const; // cancel that process, or empty
    // A SELECT of one value, true when text compares by code point ('B' before 'a').
    QString collationProbeSql() const;

    // Schema and bulk loads.
    virtual QString schemaResource() const = 0; // resources/sql/<engine>.sql in the binary
    virtual QStringList afterSchemaStatements() const = 0; // after the schema's commit
    virtual QStringList bulkLoadStatements() const = 0; // a simulation's bulk insert
    virtual QStringList simulationSessionStatements() const = 0; // many short transactions

    // Lexical rules: how SqlText reads quotes, identifiers, comments and escapes (each reading
    // one way the engine may be configured to read them).
    virtual QList<SqlText::Reading> readings() const = 0;

protected:
    static void exec(const QSqlDatabase &db, const QString &sql);
    static QString literal(const QString &name); // 'name', quotes doubled
};
