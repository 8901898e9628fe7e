// MariaDB (10.6 and later) and MySQL (8.0.1 and later) through Qt's QMYSQL driver, which Debian
// links against MariaDB's client library. One dialect for both servers: where they differ (the
// statement timeout's variable), the session asks the server which it is.
//
// Every session is set up the same way, whatever the server's defaults (startSession):
// - sql_mode ANSI_QUOTES, PIPES_AS_CONCAT and NO_BACKSLASH_ESCAPES, so that "name" is an
//   identifier, || concatenates and '\' is one backslash, as in the program's other engines;
//   STRICT_ALL_TABLES so that a wrong value is an error, not a warning and a changed value;
// - READ COMMITTED, as on PostgreSQL (InnoDB's default REPEATABLE READ locks gaps);
// - time_zone '+00:00': QMYSQL converts DATETIME and TIMESTAMP values through the client's
//   local time zone, so no time crosses the driver as a date; ages are computed on the server
//   as integers (UNIX_TIMESTAMP) in a session that is UTC;
// - a read-only connection: SET SESSION TRANSACTION READ ONLY;
// - the statement timeout: max_statement_time (seconds) on MariaDB, which silently ignores
//   MySQL's max_execution_time (milliseconds, SELECT only) that MySQL gets;
// - with TLS asked for, the check that the session is encrypted (Ssl_cipher): Qt 6.4's driver
//   falls back to plain text when it cannot set TLS up (a missing CA file, a server without
//   TLS), and such a session is closed instead of used.
#include "databaseurl.h"
#include "dbconnection.h"
#include "mysqloptionfile.h"
#include "queryerror.h"
#include "sqldialect.h"

#include <QJsonDocument>
#include <QJsonValue>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace {

// What configure() decided for the session, kept on the connection's driver (a QObject that
// lives as long as the connection and survives a reopen) for startSession().
const char *const SessionProperty = "outboxHealthSession";
const char *const TlsProperty = "outboxHealthTls";

// How MySQL and MariaDB read quotes and comments: backtick identifiers, # and "-- " comments
// ("--x" is minus minus x), no dollar quotes, no nested comments. The rest depends on the
// server's sql_mode, and a profile may be written for any: a '...' string with backslash
// escapes (the default) or without (NO_BACKSLASH_ESCAPES, which Outbox Health's sessions set),
// "..." a string escaped the same way (the default) or an identifier (ANSI_QUOTES, set in
// Outbox Health's sessions), and /*! ... */ SQL (a server at least the comment's version) or a
// comment (an older one). The earliest finding of any of these readings counts.
QList<SqlText::Reading> mySqlReadings()
{
    QList<SqlText::Reading> out;
    for (const bool backslash : {true, false}) {
        for (const bool doubleQuotedStrings : {true, false}) {
            if (!backslash && doubleQuotedStrings)
                continue; // without backslash escapes a "..." string reads as an identifier
            for (const bool executable : {true, false}) {
                SqlText::Reading r;
                r.backslashInPlainStrings = backslash;
                r.escapeStrings = false;
                r.dollarQuotes = false;
                r.nestedComments = false;
                r.backtickIdentifiers = true;
                r.hashComments = true;
                r.dashCommentsNeedBlank = true;
                r.doubleQuotedStrings = doubleQuotedStrings;
                r.executableComments = executable;
                out << r;
            }
        }
    }
    return out;
}

SqlDialect::Traits mysqlTraits()
{
    SqlDialect::Traits t;
    t.engine = Engine::MySql;
    t.qtDriver = QStringLiteral("QMYSQL");
    t.urlSchemes = QStringList {QStringLiteral("mysql"), QStringLiteral("mariadb")};
    t.defaultPort = 3306;
    t.keyPrefix = QStringLiteral("mysql");
    t.title = QStringLiteral("MySQL");
    t.driverPackage = QStringLiteral("libqt6sql6-mysql");
    t.urlOptions = QStringList {QStringLiteral("ssl-mode"), QStringLiteral("ssl-ca"),
        QStringLiteral("ssl-capath"), QStringLiteral("ssl-cert"), QStringLiteral("ssl-key")};
    SqlDialect::Capabilities &c = t.can;
    c.rowLocks = c.skipLocked = true; // InnoDB; SKIP LOCKED since MariaDB 10.6 and MySQL 8.0.1
    c.arrayParameters = true; // JSON_TABLE
    c.serverSideCancel = true; // KILL QUERY from a second connection
    c.strictColumnTypes = true; // STRICT_ALL_TABLES, set in every session
    c.alterConstraints = true; // ALTER TABLE … DROP CONSTRAINT / ADD CONSTRAINT … CHECK
    c.localeCollations = true; // utf8mb4_*_ci by default: case- and accent-insensitive
    c.catalogueRowEstimates = true; // InnoDB's row count (information_schema.TABLES)
    // insertReturning stays false: MariaDB has INSERT ... RETURNING (10.5), MySQL has not;
    // the driver's lastInsertId answers on both
    t.beginWrite = QStringLiteral("START TRANSACTION");
    t.beginReadWrite = QStringLiteral("START TRANSACTION READ WRITE");
    t.integerType = QStringLiteral("SIGNED");
    t.backendId = QStringLiteral("SELECT CONNECTION_ID()");
    t.schemaResource = QStringLiteral(":/sql/mysql.sql");
    t.textType = QStringLiteral("CHAR");
    t.countType = QStringLiteral("SIGNED");
    t.readings = mySqlReadings();
    return t;
}

class MySqlDialect final : public SqlDialect
{
public:
    MySqlDialect()
        : SqlDialect(mysqlTraits())
    { }

    bool configure(QSqlDatabase &db, const DatabaseUrl &url, const OpenOptions &options,
        QString *error) const override
    {
        db.setHostName(url.host());
        db.setPort(url.port());
        db.setDatabaseName(url.databaseName());
        const MySqlOptionFile::Credentials saved = MySqlOptionFile::credentials();
        if (!saved.error.isEmpty()) {
            *error = saved.error;
            return false;
        }
        db.setUserName(url.user().isEmpty() ? saved.user : url.user());
        if (!url.password().isEmpty())
            db.setPassword(url.password());
        else if (const QByteArray env = qgetenv("MYSQL_PWD"); !env.isEmpty())
            db.setPassword(QString::fromLocal8Bit(env));
        else if (!saved.password.isEmpty())
            db.setPassword(saved.password);

        QStringList connectOptions {
            QStringLiteral("MYSQL_OPT_CONNECT_TIMEOUT=%1").arg(qMax(2, options.connectTimeoutS))};
        if (options.deadPeerTimeoutS > 0)
            connectOptions
                << QStringLiteral("MYSQL_OPT_READ_TIMEOUT=%1")
                       .arg(qMax(options.deadPeerTimeoutS, options.statementTimeoutMs / 1000 + 5))
                << QStringLiteral("MYSQL_OPT_WRITE_TIMEOUT=%1").arg(options.deadPeerTimeoutS);
        bool tls = false;
        if (!tlsOptions(url, &connectOptions, &tls, error))
            return false;
        db.setConnectOptions(connectOptions.join(QLatin1Char(';')));

        QStringList session {
            QStringLiteral("SET SESSION sql_mode = 'ANSI_QUOTES,PIPES_AS_CONCAT,"
                           "NO_BACKSLASH_ESCAPES,STRICT_ALL_TABLES,NO_ENGINE_SUBSTITUTION'"),
            // MySQL 8 caches information_schema's table statistics for a day by default; 0 reads
            // InnoDB's own figure each time (catalogueRowEstimateSql). MariaDB has no such cache
            // and no such variable, and skips a /*!8xxxx */ comment (MySQL-only syntax).
            QStringLiteral("SET SESSION time_zone = '+00:00'"
                           " /*!80003 , information_schema_stats_expiry = 0 */"),
            QStringLiteral("SET NAMES utf8mb4"),
            // PostgreSQL's default, which every transaction of the program is written for; under
            // InnoDB's REPEATABLE READ a locking read also locks the gaps it scans, and relays
            // claiming side by side deadlock on them.
            QStringLiteral("SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED"),
        };
        if (options.readOnly)
            session << QStringLiteral("SET SESSION TRANSACTION READ ONLY");
        if (options.statementTimeoutMs > 0)
            session << QStringLiteral("timeout %1").arg(options.statementTimeoutMs);
        if (db.driver()) {
            db.driver()->setProperty(SessionProperty, session);
            db.driver()->setProperty(TlsProperty, tls);
        }
        return true;
    }

    bool startSession(const QSqlDatabase &db, QString *error) const override
    {
        if (!db.isOpen() || !db.driver())
            return true;
        QSqlQuery query(db);
        if (db.driver()->property(TlsProperty).toBool()) {
            if (!query.exec(QStringLiteral("SHOW SESSION STATUS LIKE 'Ssl_cipher'"))
                || !query.next() || query.value(1).toString().isEmpty()) {
                *error = QStringLiteral(
                    "the URL asks for TLS (ssl-mode=REQUIRED) but the session is not encrypted "
                    "(the server has no TLS, or the CA file could not be used); refusing to "
                    "continue in plain text");
                return false;
            }
        }
        const QStringList session = db.driver()->property(SessionProperty).toStringList();
        for (const QString &statement : session) {
            const QString sql = statement.startsWith(QLatin1String("timeout "))
                ? timeoutSql(db, statement.mid(8).toInt())
                : statement;
            if (!query.exec(sql)) {
                *error
                    = QStringLiteral("cannot set up the session: %1").arg(QueryError::text(query));
                return false;
            }
        }
        return true;
    }

    bool beginReadOnly(const QSqlDatabase &db, bool *restore, QString *error) const override
    {
        *restore = false;
        QSqlQuery query(db);
        if (query.exec(QStringLiteral("START TRANSACTION READ ONLY")))
            return true;
        *error = QueryError::text(query);
        return false;
    }

    // JSON_TABLE: MariaDB 10.6, MySQL 8.0.4. The collation is the connection's, so that the IDs
    // compare with a column of the native schema (utf8mb4_bin) as they are.
    QString idSetSelect(const QString &placeholder) const override
    {
        return QStringLiteral("SELECT id FROM JSON_TABLE(%1, '$[*]' COLUMNS"
                              " (id VARCHAR(255) CHARACTER SET utf8mb4 PATH '$')) AS ids")
            .arg(placeholder);
    }

    // JSON_TABLE (MySQL 8, MariaDB 10.6) reads each array once (MariaDB keeps JSON as text:
    // JSON_LENGTH per element would parse it again for each); a window counts the elements.
    QString jsonArrayElementsSql(const QString &eventId, const QString &from, const QString &where,
        const QString &array, int cap) const override
    {
        // clang-format off
        return QStringLiteral(
            "SELECT event_id, attempt, ordinal FROM ("
            "SELECT (%1) AS event_id, attempt_elements.attempt AS attempt,"
            "       attempt_elements.ordinal - 1 AS ordinal,"
            "       COUNT(*) OVER (PARTITION BY (%1)) AS attempt_count"
            "  FROM %2"
            " CROSS JOIN JSON_TABLE(CASE WHEN JSON_TYPE(%3) = 'ARRAY' THEN %3 ELSE '[]' END,"
            "       '$[*]' COLUMNS (ordinal FOR ORDINALITY, attempt JSON PATH '$'))"
            "       AS attempt_elements%5) AS attempt_rows"
            " WHERE ordinal >= attempt_count - %4")
            .arg(eventId, from, array, QString::number(cap),
                where.isEmpty() ? QString() : QStringLiteral(" WHERE ") + where);
        // clang-format on
    }

    // NO_BACKSLASH_ESCAPES is set in every session: '\' is one backslash.
    // JSON_CONTAINS reads a text that is not JSON as NULL with a warning: JSON_VALID first.
    // Unlike @>, it also finds a scalar inside an array at any depth ({"tags": "a"} in
    // {"tags": ["a"]}).
    QString jsonContainsCondition(const QString &column, const QJsonValue &fragment,
        const QString &prefix, BoundValues *values) const override
    {
        const QString name = prefix + QLatin1Char('0');
        values->append({name, jsonText(fragment)});
        return QStringLiteral(
            "(CASE WHEN JSON_VALID(%1) THEN JSON_CONTAINS(%1, %2) ELSE 0 END) = 1")
            .arg(column, name);
    }

    QString tableExistsSql(const QString &name) const override
    {
        return QStringLiteral("SELECT COUNT(*) FROM information_schema.TABLES"
                              " WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = %1")
            .arg(literal(name));
    }

    QString indexExistsSql(const QString &name) const override
    {
        return QStringLiteral("SELECT COUNT(*) FROM information_schema.STATISTICS"
                              " WHERE TABLE_SCHEMA = DATABASE() AND INDEX_NAME = %1")
            .arg(literal(name));
    }

    QString indexColumnsSql(const QString &name) const override
    {
        return QStringLiteral("SELECT COLUMN_NAME, SUB_PART FROM information_schema.STATISTICS"
                              " WHERE TABLE_SCHEMA = DATABASE() AND INDEX_NAME = %1"
                              " ORDER BY SEQ_IN_INDEX")
            .arg(literal(name));
    }

    // InnoDB's optimizer weighs a covering index against a shorter one whose leading column
    // also matches and, for the snapshot's PENDING statement at 10M rows, picked
    // delivery_outbox_state_created and read 200,000 rows from the table (9-15 s) instead of
    // the covering delivery_outbox_pending (about 1 s), even after ANALYZE TABLE.
    QString indexHint(const QString &index) const override
    {
        return QStringLiteral(" FORCE INDEX (%1)").arg(index);
    }

    // Two columns: the CRC32 of each, side by side in 64 bits (blocked_aggregate's grouping of
    // 300,000 unfinished rows at 10M events: 0.5 s against 3.0 s on the columns themselves).
    QString groupingKey(const QStringList &columns) const override
    {
        if (columns.size() == 2)
            return QStringLiteral("(CRC32(%1) << 32 | CRC32(%2))").arg(columns[0], columns[1]);
        if (columns.size() == 1)
            return QStringLiteral("CRC32(%1)").arg(columns[0]);
        return QStringLiteral("CRC32(CONCAT(%1))").arg(columns.join(QStringLiteral(", x'00', ")));
    }

    // The connection ID the caller read from CONNECTION_ID() on the connection to cancel,
    // bound (the server prepares KILL with a placeholder). It returns no row; an idle
    // connection's next statement is not affected.
    QString cancelSql(const QString &placeholder) const override
    {
        return QStringLiteral("KILL QUERY %1").arg(placeholder);
    }

    // ER_QUERY_INTERRUPTED (KILL QUERY), MariaDB's ER_STATEMENT_TIMEOUT (max_statement_time)
    // and MySQL's ER_QUERY_TIMEOUT (max_execution_time).
    bool wasCancelled(const QSqlError &error) const override
    {
        static const QStringList codes
            = {QStringLiteral("1317"), QStringLiteral("1969"), QStringLiteral("3024")};
        return codes.contains(error.nativeErrorCode());
    }

    // Neither server seeks an index to a row comparison: it reads the index from its start
    // and filters, so a page deep in the table read every row before it.
    QString rowComparison(const QString &a, const QString &b, const QString &op, const QString &x,
        const QString &y) const override
    {
        return QStringLiteral("(%1 %2 %3 OR (%1 = %3 AND %4 %5 %6))")
            .arg(a, op.left(1), x, b, op, y);
    }

    // Converted first: a profile's table may hold another character set (latin1), for which
    // utf8mb4_bin is no collation.
    QString codePointOrder(const QString &expression) const override
    {
        return QStringLiteral("CONVERT(%1 USING utf8mb4) COLLATE utf8mb4_bin").arg(expression);
    }

    // EXTRA reads "on update current_timestamp()" (MariaDB) or "DEFAULT_GENERATED on update
    // CURRENT_TIMESTAMP" (MySQL 8).
    // The server's own check: EXPLAIN of the write, which never runs it but is refused (1142,
    // 1143 for a column) exactly as the write would be, whether the grant is global, on the
    // database, the table or the columns, or comes through a role. information_schema's
    // privilege tables were not used: on MariaDB they list only the grants made to the
    // account itself, so a role with UPDATE (a default role) would read as none.
    std::optional<bool> mayWrite(const QSqlDatabase &db, const QString &table,
        const QString &privilege, const QStringList &columns, QString *error) const override
    {
        QString sql;
        const auto quote
            = [](const QString &name) -> QString { return u"\""_qs + name + u"\""_qs; };
        const QString quoted = quote(table);
        if (privilege == QLatin1String("UPDATE")) {
            QStringList sets;
            for (const QString &column : columns)
                sets << quote(column) + u" = "_qs + quote(column);
            if (sets.isEmpty())
                return std::nullopt;
            sql = u"EXPLAIN UPDATE "_qs + quoted + u" SET "_qs + sets.join(u", "_qs)
                + u" WHERE 1 = 0"_qs;
        } else if (privilege == QLatin1String("DELETE")) {
            sql = u"EXPLAIN DELETE FROM "_qs + quoted + u" WHERE 1 = 0"_qs;
        } else {
            sql = u"EXPLAIN INSERT INTO "_qs + quoted + u" SELECT * FROM "_qs + quoted
                + u" WHERE 1 = 0"_qs;
        }
        QSqlQuery query(db);
        bool done = query.exec(sql);
        // A read-only session (outboxctl --dry-run, the window's workers) refuses to prepare a
        // write at all (1792): asked again with the session writable for the EXPLAIN only,
        // which never writes.
        if (!done && query.lastError().nativeErrorCode() == QLatin1String("1792")) {
            exec(db, QStringLiteral("SET SESSION TRANSACTION READ WRITE"));
            done = query.exec(sql);
            exec(db, QStringLiteral("SET SESSION TRANSACTION READ ONLY"));
        }
        if (done)
            return true;
        const QString code = query.lastError().nativeErrorCode();
        if (code == QLatin1String("1142") || code == QLatin1String("1143"))
            return false;
        if (error)
            *error = QueryError::text(query);
        return std::nullopt;
    }

    QString roleName(const QSqlDatabase &db) const override
    {
        QSqlQuery query(db);
        return query.exec(QStringLiteral("SELECT SUBSTRING_INDEX(CURRENT_USER(), '@', 1)"))
                && query.next()
            ? query.value(0).toString()
            : QString();
    }

    QString onUpdateTimestampColumnsSql() const override
    {
        return QStringLiteral("SELECT TABLE_NAME, COLUMN_NAME, COLUMN_TYPE"
                              " FROM information_schema.COLUMNS"
                              " WHERE TABLE_SCHEMA = DATABASE() AND LOWER(EXTRA) LIKE '%on update%'"
                              " ORDER BY TABLE_NAME, COLUMN_NAME");
    }

    // InnoDB's row count: set by each statistics recalculation from a sample of leaf pages
    // (innodb_stats_persistent_sample_pages, 20 by default: after ANALYZE TABLE, and in the
    // background once 10% of the rows have changed) and moved by one on every insert and
    // delete in between, so its error is the last sample's. No pages: the count is taken as
    // it is (HealthQuery). MySQL 8 reads it fresh: information_schema_stats_expiry = 0 in
    // every session (configure()).
    QString catalogueRowEstimateSql(const QString &table) const override
    {
        // clang-format off
        return QStringLiteral(
            "SELECT TABLE_ROWS, 0, 0, TABLE_ROWS, 0, 1 FROM information_schema.TABLES"
            " WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = %1").arg(literal(table));
        // clang-format on
    }

    QString checkConstraintsSql(const QString &table) const override
    {
        // MySQL 8's CHECK_CONSTRAINTS has no TABLE_NAME (MariaDB's has): the table's
        // constraints come from TABLE_CONSTRAINTS on both.
        // clang-format off
        return QStringLiteral(
            "SELECT c.CONSTRAINT_NAME, c.CHECK_CLAUSE"
            " FROM information_schema.TABLE_CONSTRAINTS AS t"
            " JOIN information_schema.CHECK_CONSTRAINTS AS c"
            "   ON c.CONSTRAINT_SCHEMA = t.CONSTRAINT_SCHEMA"
            "  AND c.CONSTRAINT_NAME = t.CONSTRAINT_NAME"
            " WHERE t.TABLE_SCHEMA = DATABASE() AND t.TABLE_NAME = %1"
            "   AND t.CONSTRAINT_TYPE = 'CHECK'").arg(literal(table));
        // clang-format on
    }

private:
    // ssl-mode=DISABLED (the default without any ssl- option) or REQUIRED (the default with
    // one); ssl-ca, ssl-capath, ssl-cert, ssl-key as the mysql client's options. Qt 6.4's
    // driver turns TLS on only with one of these files, so REQUIRED alone uses the system's
    // CA folder. It cannot ask the client library to verify the server's certificate, so
    // VERIFY_CA and VERIFY_IDENTITY are refused rather than promised.
    static bool tlsOptions(
        const DatabaseUrl &url, QStringList *connectOptions, bool *tls, QString *error)
    {
        const QString mode = url.option(QStringLiteral("ssl-mode")).toUpper();
        const QString ca = url.option(QStringLiteral("ssl-ca"));
        const QString caPath = url.option(QStringLiteral("ssl-capath"));
        const QString cert = url.option(QStringLiteral("ssl-cert"));
        const QString key = url.option(QStringLiteral("ssl-key"));
        const bool files = !ca.isEmpty() || !caPath.isEmpty() || !cert.isEmpty() || !key.isEmpty();
        if (mode == QLatin1String("VERIFY_CA") || mode == QLatin1String("VERIFY_IDENTITY")) {
            *error = QStringLiteral("ssl-mode=%1 is not supported: Qt 6.4's MySQL driver cannot "
                                    "ask for the server's certificate to be verified (use "
                                    "ssl-mode=REQUIRED, which refuses a session that is not "
                                    "encrypted)")
                         .arg(mode);
            return false;
        }
        if (!mode.isEmpty() && mode != QLatin1String("REQUIRED")
            && mode != QLatin1String("DISABLED")) {
            *error = QStringLiteral("unknown ssl-mode '%1' (expected REQUIRED or DISABLED)")
                         .arg(mode.left(40));
            return false;
        }
        if (mode == QLatin1String("DISABLED")) {
            if (files) {
                *error = QStringLiteral("ssl-mode=DISABLED with TLS files: choose one");
                return false;
            }
            return true;
        }
        if (mode.isEmpty() && !files)
            return true;
        *tls = true;
        if (!ca.isEmpty())
            *connectOptions << QStringLiteral("SSL_CA=") + ca;
        if (!caPath.isEmpty())
            *connectOptions << QStringLiteral("SSL_CAPATH=") + caPath;
        if (!cert.isEmpty())
            *connectOptions << QStringLiteral("SSL_CERT=") + cert;
        if (!key.isEmpty())
            *connectOptions << QStringLiteral("SSL_KEY=") + key;
        if (!files)
            *connectOptions << QStringLiteral("SSL_CAPATH=/etc/ssl/certs");
        return true;
    }

    // MariaDB: max_statement_time in seconds (it ignores MySQL's variable); MySQL:
    // max_execution_time in milliseconds.
    static QString timeoutSql(const QSqlDatabase &db, int ms)
    {
        QSqlQuery query(db);
        const bool mariaDb = query.exec(QStringLiteral("SELECT VERSION()")) && query.next()
            && query.value(0).toString().contains(QLatin1String("MariaDB"), Qt::CaseInsensitive);
        if (mariaDb)
            return QStringLiteral("SET SESSION max_statement_time = %1")
                .arg(ms / 1000.0, 0, 'f', 3);
        return QStringLiteral("SET SESSION max_execution_time = %1").arg(ms);
    }
};

} // namespace

const SqlDialect &mySqlDialect()
{
    static const MySqlDialect dialect;
    return dialect;
}
