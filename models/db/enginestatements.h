// The whole statements whose shape differs between engines, and the words of each engine's
// errors: one object per engine, written out in full in models/db/dialect/<engine>statements.cpp
// and reached through its dialect (SqlDialect::statements()). No caller appends a clause of its
// own to shared SQL (a LIMIT, a FOR UPDATE, an ON CONFLICT): these are complete, so an engine
// that writes a lock as a table hint and a limit as TOP (SQL Server: docs/architecture.md, "How
// to add a database engine") answers them without a caller changing. Their owners bind every
// value; a statement that knows an outbox table names the one the native schema (resources/sql/)
// creates.
#pragma once

#include <QList>
#include <QSqlDatabase>
#include <QString>
#include <QStringList>
#include <QVariant>

class EngineStatements
{
public:
    virtual ~EngineStatements() = default;

    // How a SELECT locks the rows it reads, inside a write transaction.
    enum class RowLock {
        None,
        Update, // held to the end of the transaction (none where the write transaction
                // already holds the whole database: SQLite)
        UpdateSkipLocked, // the same, passing over rows another transaction holds
    };
    // A SELECT by its parts, each a fragment of the caller's own, every value bound.
    struct Select
    {
        // Each may be left out of a designated initializer ({.columns = ..., .where = ...}).
        QString columns {}; // "event_id, payload"
        QString table {}; // one table (a lock hint goes after it)
        QString where {}; // a condition, never empty
        QString orderBy {}; // empty: any order
        QString limit {}; // the placeholder of the row limit (":limit"), or empty: all rows
        RowLock lock = RowLock::None;
    };
    virtual QString selectSql(const Select &select) const = 0;
    // `select` (a whole SELECT, its ORDER BY the last clause if it has one) giving at most `rows`
    // rows: `rows` a placeholder (":limit") or a constant of the program ("1"). Its result may
    // stand as a derived table in a FROM. (A LIMIT after the ORDER BY here; TOP or OFFSET ...
    // FETCH where an engine has no LIMIT.)
    virtual QString limitedSql(const QString &select, const QString &rows) const = 0;

    // An INSERT of one row by its parts, each a fragment of the caller's own, every value bound.
    struct Insert
    {
        QString table {};
        QString columns {}; // "sku, quantity"
        QString values {}; // ":sku, :quantity"
        QString key {}; // the columns of the unique key that may be taken already ("sku")
    };
    // The INSERT, but a row whose key is taken already is skipped: the statement succeeds with
    // no row affected.
    virtual QString insertIgnoringSql(const Insert &insert) const = 0;
    // The INSERT, but a row whose key is taken already has its `update` columns set to the
    // values the INSERT gave them (one row affected or more, as the engine counts).
    virtual QString upsertSql(const Insert &insert, const QStringList &update) const = 0;

    // INSERT INTO `table` (`columns`) VALUES (`values`) that gives the new row's `key` as its
    // one result row; empty where the engine cannot (the caller asks the driver's
    // QSqlQuery::lastInsertId()).
    virtual QString insertReturningSql(const QString &table, const QString &columns,
        const QString &values, const QString &key) const = 0;

    // The value bound for a list of texts where a statement of this object expands one
    // (claim, ack, the generator): {"a","b",NULL} on PostgreSQL, a JSON array elsewhere.
    virtual QVariant textList(const QStringList &values) const = 0;

    // ---- The outbox store (OutboxStore) ----
    // Claims a batch in one statement: locks up to :limit rows that meet `due` (with its own
    // placeholders :now1 and :now2), oldest due first, passing over rows another relay holds;
    // gives each a new claim token and the lease :lease, marks a taken-over row's open attempt
    // LEASE_EXPIRED at :now3, opens an attempt for :worker at :now4. Its rows: event_id,
    // claim_token, payload, took over an expired lease, attempt_no, in due order. Empty where
    // the engine claims in steps: selectSql() of the due rows, then one row at a time.
    virtual QString claimBatchSql(const QString &due) const = 0;
    // Acknowledges a batch in one statement, each row fenced by its own token: textList()s
    // :ids, :tokens and :results, delivered at :now1, attempts finished at :now2. Its rows:
    // the event_id of each row acknowledged. Empty: one fenced UPDATE per row.
    virtual QString ackBatchSql() const = 0;

    // ---- The simulation's consumer (Consumer) ----
    // Inserts the ledger row of :id at :now unless it is there, and only then takes :quantity
    // of :sku from the stock, in one statement: one row, the ledger rows inserted (0 or 1) and
    // the stock rows changed. Empty: the insert and the update in one transaction.
    virtual QString consumerApplySql() const = 0;

    // ---- Bulk loads (OutboxGenerator) ----
    // Empties `tables` (the referencing tables before the ones they reference) as fast as the
    // engine can, inside the caller's transaction: emptying ten million rows must not take
    // longer than making them.
    virtual QStringList emptyTablesSql(const QStringList &tables) const = 0;
    // Statements after a bulk load of `tables`, so that the planner's statistics (and on
    // PostgreSQL the visibility map) know the new rows; may ask `db` which server it is.
    virtual QStringList analyseSql(const QSqlDatabase &db, const QStringList &tables) const = 0;

    // Statements for a throw-away database that is never read after a failure (the Policy
    // lab's scratch database), trading safety for speed.
    virtual QStringList scratchSessionSql() const = 0;

    // ---- Advice (DiagnosisQuery) ----
    // The statement an operator runs so that `column` of `table` (its type `type`, as
    // SqlDialect::onUpdateTimestampColumnsSql() read it) keeps its value on UPDATE and is set
    // once on INSERT; empty on an engine without such columns.
    virtual QString keepOnUpdateSql(
        const QString &table, const QString &column, const QString &type) const = 0;

    // ---- Percentiles (LatencyQuery) ----
    // A SELECT of one row: the count of rows, then for each of `percents` the nearest-rank
    // percentile of `value` (the smallest value at or above that share of the rows; NULL
    // without rows), over the rows of `fromWhere` ("delivery_outbox WHERE ...").
    virtual QString percentilesSql(
        const QString &value, const QString &fromWhere, const QList<int> &percents) const = 0;

    // ---- The words of the engine's errors (FailureCause) ----
    struct Cause
    {
        const char *needle; // matched case-insensitively
        const char *plain; // the cause in plain words (translated in FailureCause's context)
        bool unreachable; // the database could not be reached
    };
    // The engine's own words, the specific before the general: the first match wins.
    virtual QList<Cause> causes() const = 0;
    // Words of a refused password or role (the server's, and its client library's).
    virtual QStringList authenticationWords() const = 0;
    // Words of a rollback for a lock conflict (deadlock, lock wait timeout, serialization).
    virtual QStringList lockConflictWords() const = 0;
    // Words of a read-only transaction refusing even to prepare a statement that writes.
    virtual QStringList readOnlyRefusalWords() const = 0;
};
