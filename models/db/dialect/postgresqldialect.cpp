// PostgreSQL through Qt's QPSQL driver (libpq).
#include "databaseurl.h"
#include "dbconnection.h"
#include "queryerror.h"
#include "servernotices.h"
#include "sqldialect.h"

#include <QJsonDocument>
#include <QJsonValue>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>
#include <libpq-fe.h>

namespace {

QString field(const PGresult *result, int code)
{
    return QString::fromUtf8(PQresultErrorField(result, code));
}

// libpq calls it on the thread running the statement.
void printNotice(void *, const PGresult *result)
{
    ServerNotices::print(field(result, PG_DIAG_SEVERITY), field(result, PG_DIAG_MESSAGE_PRIMARY));
}

// Qt's driver hands out its PGconn*, which Qt 6 names by the struct behind it; null when the
// connection is not open or not QPSQL's.
PGconn *connectionOf(const QSqlDatabase &db)
{
    if (!db.isOpen() || !db.driver())
        return nullptr;
    const QVariant handle = db.driver()->handle();
    if (!handle.isValid()
        || (qstrcmp(handle.typeName(), "pg_conn*") != 0
            && qstrcmp(handle.typeName(), "PGconn*") != 0))
        return nullptr;
    return *static_cast<PGconn *const *>(handle.constData());
}

// Qt's qIsAlnum() in qsqlresult.cpp: [a-zA-Z0-9_].
bool isPlaceholderChar(QChar c)
{
    return (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') || (c >= u'0' && c <= u'9')
        || c == u'_';
}

// The text Qt 6.4's QPSQL driver sends after "PREPARE qpsqlpstmt_N AS ", mirroring its two
// steps: QSqlResultPrivate::namedToPositionalBinding() (qsqlresult.cpp) turns each :name into
// ?, and QSqlResultPrivate::positionalToNamedBinding() with QPSQLResultPrivate's fieldSerial()
// turns the i-th ? into $i. Both skip text between '...', "..." and `...` (no escapes, no
// comments; PostgreSQL's [ is no quote there); :name needs a [a-zA-Z0-9_] after the colon and no
// colon before it (a::int stays). tst_profile_safety compares it with what the server got.
QString qtPreparedText(const QString &sql)
{
    QString positional;
    QChar closing;
    for (qsizetype i = 0; i < sql.size();) {
        const QChar c = sql.at(i);
        if (!closing.isNull()) {
            if (c == closing)
                closing = QChar();
        } else if (c == u':' && (i == 0 || sql.at(i - 1) != u':') && i + 1 < sql.size()
            && isPlaceholderChar(sql.at(i + 1))) {
            i += 2;
            while (i < sql.size() && isPlaceholderChar(sql.at(i)))
                ++i;
            positional += u'?';
            continue;
        } else if (c == u'\'' || c == u'"' || c == u'`') {
            closing = c;
        }
        positional += c;
        ++i;
    }
    QString numbered;
    int count = 0;
    closing = QChar();
    for (const QChar c : std::as_const(positional)) {
        if (!closing.isNull()) {
            if (c == closing)
                closing = QChar();
        } else if (c == u'?') {
            numbered += QLatin1Char('$');
            numbered += QString::number(++count);
            continue;
        } else if (c == u'\'' || c == u'"' || c == u'`') {
            closing = c;
        }
        numbered += c;
    }
    return numbered;
}

SqlDialect::Traits postgresqlTraits()
{
    SqlDialect::Traits t;
    t.engine = Engine::PostgreSql;
    t.qtDriver = QStringLiteral("QPSQL");
    t.urlSchemes = QStringList {QStringLiteral("postgresql"), QStringLiteral("postgres")};
    t.defaultPort = 5432;
    t.keyPrefix = QStringLiteral("postgresql");
    t.title = QStringLiteral("PostgreSQL");
    t.driverPackage = QStringLiteral("libqt6sql6-psql");
    SqlDialect::Capabilities &c = t.can;
    c.rowLocks = c.skipLocked = c.writableCtes = c.arrayParameters = true;
    c.percentileDisc = c.serverSideCancel = c.strictColumnTypes = true;
    c.transactionalDdl = c.catalogueRowEstimates = c.alterConstraints = true;
    c.seriesGeneration = c.localeCollations = c.insertReturning = true;
    t.beginWrite = QStringLiteral("BEGIN");
    t.beginReadWrite = QStringLiteral("BEGIN READ WRITE");
    t.integerType = QStringLiteral("BIGINT");
    t.backendId = QStringLiteral("SELECT pg_backend_pid()");
    t.schemaResource = QStringLiteral(":/sql/postgresql.sql");
    // A simulation database: no wait for the WAL flush of each chunk; and a chunk's rows are
    // materialised once for both inserts of the generator's statement: give that room.
    t.bulkLoad = QStringList {
        QStringLiteral("SET synchronous_commit = off"), QStringLiteral("SET work_mem = '64MB'")};
    // standard_conforming_strings on (the default) and off; a "--" comment ends at CR or LF.
    for (const bool backslash : {false, true}) {
        SqlText::Reading r;
        r.backslashInPlainStrings = backslash;
        r.returnEndsLineComments = true;
        t.readings << r;
    }
    return t;
}

class PostgreSqlDialect final : public SqlDialect
{
public:
    PostgreSqlDialect()
        : SqlDialect(postgresqlTraits())
    { }

    // Host, port, user and password from the URL (libpq reads PGPASSWORD or ~/.pgpass when
    // the URL has none); read-only and the statement timeout as server options, so that they
    // hold for every statement of the session, and after a reconnect too.
    bool configure(QSqlDatabase &db, const DatabaseUrl &url, const OpenOptions &options,
        QString *) const override
    {
        db.setHostName(url.host());
        db.setPort(url.port());
        db.setDatabaseName(url.databaseName());
        if (!url.user().isEmpty())
            db.setUserName(url.user());
        if (!url.password().isEmpty())
            db.setPassword(url.password());
        QStringList serverOptions;
        if (options.readOnly)
            serverOptions << QStringLiteral("-c default_transaction_read_only=on");
        if (options.statementTimeoutMs > 0)
            serverOptions
                << QStringLiteral("-c statement_timeout=%1").arg(options.statementTimeoutMs);
        QString connectOptions
            = QStringLiteral("connect_timeout=%1").arg(qMax(2, options.connectTimeoutS));
        if (options.deadPeerTimeoutS > 0)
            connectOptions += deadPeerOptions(options.deadPeerTimeoutS);
        if (!serverOptions.isEmpty())
            connectOptions
                += QStringLiteral(";options='%1'").arg(serverOptions.join(QLatin1Char(' ')));
        db.setConnectOptions(connectOptions);
        return true;
    }

    // libpq's own printer writes a notice to stderr as it came, control characters and all;
    // a new server connection (every reopen) starts with it again.
    bool startSession(const QSqlDatabase &db, QString *) const override
    {
        if (PGconn *connection = connectionOf(db))
            PQsetNoticeReceiver(connection, &printNotice, nullptr);
        return true;
    }

    QString driverText(const QString &sql) const override { return qtPreparedText(sql); }

    // The exact text Qt will send, prepared as the unnamed statement through the extended
    // query protocol (a Parse message), which refuses "cannot insert multiple commands into a
    // prepared statement" whatever any lexer thinks. Qt never uses the unnamed statement, and
    // its next PREPARE (a simple query) drops it. Inside a transaction a refusal aborts it, as
    // Qt's own failed PREPARE would.
    bool checkOneStatement(
        const QSqlDatabase &db, const QString &sql, QSqlError *error) const override
    {
        PGconn *connection = connectionOf(db);
        if (!connection) {
            *error = QSqlError(QStringLiteral("QPSQL: Unable to prepare statement"),
                QStringLiteral("no open PostgreSQL connection"), QSqlError::ConnectionError);
            return false;
        }
        // A forward-only query reads its rows one at a time (single-row mode), so the rest of
        // one may still be on its way, and libpq takes no new command until it is read. Qt's
        // next PREPARE discards it (PQexec() does, and QPSQLDriverPrivate::sendQuery() calls
        // discardResults() first); this one discards it the same way, first.
        if (PQtransactionStatus(connection) == PQTRANS_ACTIVE) {
            while (PGresult *pending = PQgetResult(connection))
                PQclear(pending);
        }
        PGresult *result
            = PQprepare(connection, "", qtPreparedText(sql).toUtf8().constData(), 0, nullptr);
        if (result && PQresultStatus(result) == PGRES_COMMAND_OK) {
            PQclear(result);
            return true;
        }
        *error = QSqlError(QStringLiteral("QPSQL: Unable to prepare statement"),
            QString::fromUtf8(result ? PQresultErrorMessage(result) : PQerrorMessage(connection)),
            QSqlError::StatementError,
            result ? QString::fromLatin1(PQresultErrorField(result, PG_DIAG_SQLSTATE)) : QString());
        PQclear(result);
        return false;
    }

    void setNoticeLevel(const QSqlDatabase &db, NoticeLevel level, Scope scope) const override
    {
        const QString value
            = level == NoticeLevel::Error ? QStringLiteral("error") : QStringLiteral("warning");
        exec(db,
            (scope == Scope::Transaction ? QStringLiteral("SET LOCAL") : QStringLiteral("SET"))
                + QStringLiteral(" client_min_messages = ") + value);
    }

    // START TRANSACTION READ ONLY: neither the server's default_transaction_read_only nor a
    // session switched to READ WRITE can make it writable.
    bool beginReadOnly(const QSqlDatabase &db, bool *restore, QString *error) const override
    {
        *restore = false;
        QSqlQuery query(db);
        if (query.exec(QStringLiteral("START TRANSACTION READ ONLY")))
            return true;
        *error = QueryError::text(query);
        return false;
    }

    QString idSetSelect(const QString &placeholder) const override
    {
        return QStringLiteral("SELECT jsonb_array_elements_text(CAST(%1 AS jsonb))")
            .arg(placeholder);
    }

    // to_jsonb reads a jsonb[] (Oban), json or jsonb alike, once per row (OFFSET 0 keeps the
    // planner from copying it into each use); the positions come from generate_series over the
    // array's length, so a long array is never expanded whole.
    QString jsonArrayElementsSql(const QString &eventId, const QString &from, const QString &where,
        const QString &array, int cap) const override
    {
        // clang-format off
        return QStringLiteral(
            "SELECT (%1) AS event_id, attempt_array.elements -> attempt_index.ordinal AS attempt,"
            "       attempt_index.ordinal AS ordinal"
            "  FROM %2"
            " CROSS JOIN LATERAL (SELECT elements, CASE WHEN jsonb_typeof(elements) = 'array'"
            "       THEN jsonb_array_length(elements) ELSE 0 END AS length"
            "       FROM (SELECT to_jsonb(%3) AS elements OFFSET 0) AS attempt_json)"
            "       AS attempt_array"
            " CROSS JOIN LATERAL generate_series(GREATEST(attempt_array.length - %4, 0),"
            "       attempt_array.length - 1) AS attempt_index(ordinal)%5")
            .arg(eventId, from, array, QString::number(cap),
                where.isEmpty() ? QString() : QStringLiteral(" WHERE ") + where);
        // clang-format on
    }

    // payload::jsonb exactly as the GIN expression index of docs/user-guide.md is written, so
    // that the planner can use it.
    QString jsonContainsCondition(const QString &column, const QJsonValue &fragment,
        const QString &prefix, BoundValues *values) const override
    {
        const QString name = prefix + QLatin1Char('0');
        values->append({name, jsonText(fragment)});
        return QStringLiteral("CAST(%1 AS jsonb) @> CAST(%2 AS jsonb)").arg(column, name);
    }

    // No parallel workers and no JIT: for small aggregates their start-up costs more than the
    // scan, and on a busy server the workers take cores from the relay.
    QString plannerLimitsSql(Scope scope) const override
    {
        const QString local
            = scope == Scope::Transaction ? QStringLiteral("true") : QStringLiteral("false");
        // clang-format off
        return QStringLiteral("SELECT set_config('max_parallel_workers_per_gather', '0', %1),"
                              "        set_config('jit', 'off', %1)").arg(local);
        // clang-format on
    }

    QString tableExistsSql(const QString &name) const override
    {
        return QStringLiteral("SELECT to_regclass(%1) IS NOT NULL").arg(literal(name));
    }

    QString indexExistsSql(const QString &name) const override
    {
        return tableExistsSql(name); // a relation, as a table is
    }

    QString cancelSql(const QString &placeholder) const override
    {
        return QStringLiteral("SELECT pg_cancel_backend(%1)").arg(placeholder);
    }

    // query_canceled: pg_cancel_backend() or statement_timeout stopped the statement.
    bool wasCancelled(const QSqlError &error) const override
    {
        return error.nativeErrorCode() == QLatin1String("57014")
            || error.databaseText().contains(QLatin1String("canceling statement"));
    }

    QString codePointOrder(const QString &expression) const override
    {
        return expression + QStringLiteral(" COLLATE \"C\"");
    }

    // pg_class's density of the last VACUUM or ANALYZE and the pages the table has now; the
    // cumulative statistics' live and inserted rows, and whether they saw a VACUUM or ANALYZE
    // (a statistics reset, as after a crash, clears those times).
    QString catalogueRowEstimateSql(const QString &table) const override
    {
        // clang-format off
        return QStringLiteral(
            "SELECT reltuples, relpages,"
            "        pg_relation_size(oid) / CAST(current_setting('block_size') AS integer),"
            "        pg_stat_get_live_tuples(oid), pg_stat_get_tuples_inserted(oid),"
            "        COALESCE(pg_stat_get_last_vacuum_time(oid),"
            "                 pg_stat_get_last_autovacuum_time(oid),"
            "                 pg_stat_get_last_analyze_time(oid),"
            "                 pg_stat_get_last_autoanalyze_time(oid)) IS NOT NULL"
            " FROM pg_class WHERE oid = to_regclass(%1)").arg(literal(table));
        // clang-format on
    }

    // pg_replication_slots beside the server's WAL insert position (written WAL, not only what
    // the WAL writer has flushed yet, which lags under synchronous_commit = off; the replayed
    // position on a standby),
    // max_slot_wal_keep_size and pg_stat_wal's average: one statement, nothing consumed.
    // PostgreSQL 17's inactive_since is read through to_jsonb, so that older servers, which
    // lack the column, run the same text.
    QString replicationSlotSql() const override
    {
        // clang-format off
        return QStringLiteral(
            "SELECT s.slot_name IS NOT NULL, COALESCE(s.active, false), s.active_pid, s.plugin,"
            "       CAST(pg_wal_lsn_diff(w.lsn, '0/0') AS bigint),"
            "       CAST(pg_wal_lsn_diff(w.lsn, s.confirmed_flush_lsn) AS bigint),"
            "       CAST(pg_wal_lsn_diff(w.lsn, s.restart_lsn) AS bigint),"
            "       s.wal_status, s.safe_wal_size,"
            "       (SELECT CASE WHEN setting = '-1' THEN NULL"
            "                    ELSE pg_size_bytes(setting || COALESCE(unit, '')) END"
            "          FROM pg_settings WHERE name = 'max_slot_wal_keep_size'),"
            "       CAST(EXTRACT(EPOCH FROM clock_timestamp()"
            "            - CAST(to_jsonb(s) ->> 'inactive_since' AS timestamptz)) * 1000 AS bigint),"
            "       (SELECT CAST(wal_bytes AS double precision)"
            "               / NULLIF(EXTRACT(EPOCH FROM clock_timestamp() - stats_reset), 0)"
            "          FROM pg_stat_wal),"
            "       (SELECT string_agg(slot_name, ', ' ORDER BY slot_name)"
            "          FROM pg_replication_slots)"
            " FROM (SELECT CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn()"
            "                   ELSE pg_current_wal_insert_lsn() END AS lsn) w"
            " LEFT JOIN pg_replication_slots s ON s.slot_name = :slot");
        // clang-format on
    }

    // has_column_privilege() is true for a grant on the whole table too, so a role that may
    // UPDATE only the columns an operation sets may run it. Roles the role is a member of
    // (INHERIT) count, as they do for the statement itself.
    std::optional<bool> mayWrite(const QSqlDatabase &db, const QString &table,
        const QString &privilege, const QStringList &columns, QString *error) const override
    {
        QSqlQuery query(db);
        const QStringList each = columns.isEmpty() ? QStringList {QString()} : columns;
        for (const QString &column : each) {
            query.prepare(column.isEmpty()
                    ? QStringLiteral("SELECT has_table_privilege(:table, :privilege)")
                    : QStringLiteral("SELECT has_column_privilege(:table, :column, :privilege)"));
            query.bindValue(QStringLiteral(":table"), table);
            if (!column.isEmpty())
                query.bindValue(QStringLiteral(":column"), column);
            query.bindValue(QStringLiteral(":privilege"), privilege);
            if (!query.exec() || !query.next()) {
                if (error)
                    *error = QueryError::text(query);
                return std::nullopt;
            }
            if (!query.value(0).toBool())
                return false;
        }
        if (privilege != QLatin1String("INSERT"))
            return true;
        // A serial column's default calls nextval(): an INSERT needs USAGE on its sequence too.
        query.prepare(QStringLiteral(
            "SELECT COALESCE(bool_and(has_sequence_privilege(s, 'USAGE')), true) FROM ("
            "SELECT pg_get_serial_sequence(:table, attname) AS s FROM pg_attribute"
            " WHERE attrelid = to_regclass(:table) AND attnum > 0 AND NOT attisdropped) AS c"
            " WHERE s IS NOT NULL"));
        query.bindValue(QStringLiteral(":table"), table);
        if (!query.exec() || !query.next()) {
            if (error)
                *error = QueryError::text(query);
            return std::nullopt;
        }
        return query.value(0).toBool();
    }

    QString roleName(const QSqlDatabase &db) const override
    {
        QSqlQuery query(db);
        return query.exec(QStringLiteral("SELECT current_user")) && query.next()
            ? query.value(0).toString()
            : QString();
    }

    QString checkConstraintsSql(const QString &table) const override
    {
        // clang-format off
        return QStringLiteral(
            "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint"
            " WHERE conrelid = to_regclass(%1) AND contype = 'c'").arg(literal(table));
        // clang-format on
    }

private:
    // The server declared gone after `seconds` without an acknowledgement.
    static QString deadPeerOptions(int seconds)
    {
        return QStringLiteral(";tcp_user_timeout=%1;keepalives=1;keepalives_idle=%2"
                              ";keepalives_interval=1;keepalives_count=%2")
            .arg(seconds * 1000)
            .arg(seconds);
    }
};

} // namespace

const SqlDialect &postgreSqlDialect()
{
    static const PostgreSqlDialect dialect;
    return dialect;
}
