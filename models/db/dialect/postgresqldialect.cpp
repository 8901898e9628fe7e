#include "postgresqldialect.h"

#include "databaseurl.h"
#include "dbconnection.h"

#include <QSqlError>
#include <QSqlQuery>

QString PostgreSqlDialect::qtDriver() const
{
    return QStringLiteral("QPSQL");
}

QStringList PostgreSqlDialect::urlSchemes() const
{
    return {QStringLiteral("postgresql"), QStringLiteral("postgres")};
}

QString PostgreSqlDialect::keyPrefix() const
{
    return QStringLiteral("postgresql");
}

QString PostgreSqlDialect::title() const
{
    return QStringLiteral("PostgreSQL");
}

QString PostgreSqlDialect::driverPackage() const
{
    return QStringLiteral("libqt6sql6-psql");
}

const SqlDialect::Capabilities &PostgreSqlDialect::can() const
{
    static const Capabilities capabilities = [] {
        Capabilities c;
        c.rowLocks = c.skipLocked = c.writableCtes = c.arrayParameters = true;
        c.percentileDisc = c.serverSideCancel = c.strictColumnTypes = true;
        c.transactionalDdl = c.catalogueRowEstimates = c.alterConstraints = true;
        c.seriesGeneration = c.localeCollations = true;
        return c;
    }();
    return capabilities;
}

// Host, port, user and password from the URL (libpq reads PGPASSWORD or ~/.pgpass when the URL
// has none); read-only and the statement timeout as server options, so that they hold for
// every statement of the session, and after a reconnect too.
bool PostgreSqlDialect::configure(
    QSqlDatabase &db, const DatabaseUrl &url, const OpenOptions &options, QString *) const
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
        serverOptions << QStringLiteral("-c statement_timeout=%1").arg(options.statementTimeoutMs);
    QString connectOptions
        = QStringLiteral("connect_timeout=%1").arg(qMax(2, options.connectTimeoutS));
    if (options.deadPeerTimeoutS > 0) {
        const int seconds = options.deadPeerTimeoutS;
        connectOptions += QStringLiteral(";tcp_user_timeout=%1;keepalives=1;keepalives_idle=%2"
                                         ";keepalives_interval=1;keepalives_count=%2")
                              .arg(seconds * 1000)
                              .arg(seconds);
    }
    if (!serverOptions.isEmpty())
        connectOptions += QStringLiteral(";options='%1'").arg(serverOptions.join(QLatin1Char(' ')));
    db.setConnectOptions(connectOptions);
    return true;
}

void PostgreSqlDialect::startSession(const QSqlDatabase &) const { }

void PostgreSqlDialect::setNoticeLevel(
    const QSqlDatabase &db, NoticeLevel level, Scope scope) const
{
    const QString value = level == NoticeLevel::Error ? QStringLiteral("error")
                                                      : QStringLiteral("warning");
    exec(db,
        (scope == Scope::Transaction ? QStringLiteral("SET LOCAL") : QStringLiteral("SET"))
            + QStringLiteral(" client_min_messages = ") + value);
}

QString PostgreSqlDialect::beginWriteSql() const
{
    return QStringLiteral("BEGIN");
}

// START TRANSACTION READ ONLY: neither the server's default_transaction_read_only nor a
// session switched to READ WRITE can make it writable.
bool PostgreSqlDialect::beginReadOnly(const QSqlDatabase &db, bool *restore, QString *error) const
{
    *restore = false;
    QSqlQuery query(db);
    if (query.exec(QStringLiteral("START TRANSACTION READ ONLY")))
        return true;
    *error = query.lastError().text().simplified();
    return false;
}

void PostgreSqlDialect::endReadOnly(const QSqlDatabase &db, bool active, bool) const
{
    if (active)
        exec(db, QStringLiteral("ROLLBACK"));
}

QString PostgreSqlDialect::rowLockClause() const
{
    return QStringLiteral(" FOR UPDATE");
}

QString PostgreSqlDialect::skipLockedClause() const
{
    return QStringLiteral(" FOR UPDATE SKIP LOCKED");
}

QString PostgreSqlDialect::idSetSelect(const QString &placeholder) const
{
    return QStringLiteral("SELECT jsonb_array_elements_text(CAST(%1 AS jsonb))").arg(placeholder);
}

QString PostgreSqlDialect::integerType() const
{
    return QStringLiteral("BIGINT");
}

// No parallel workers and no JIT: for small aggregates their start-up costs more than the scan,
// and on a busy server the workers take cores from the relay.
QString PostgreSqlDialect::plannerLimitsSql(Scope scope) const
{
    const QString local = scope == Scope::Transaction ? QStringLiteral("true")
                                                      : QStringLiteral("false");
    // clang-format off
    return QStringLiteral("SELECT set_config('max_parallel_workers_per_gather', '0', %1),"
                          "        set_config('jit', 'off', %1)").arg(local);
    // clang-format on
}

QString PostgreSqlDialect::tableExistsSql(const QString &name) const
{
    return QStringLiteral("SELECT to_regclass(%1) IS NOT NULL").arg(literal(name));
}

QString PostgreSqlDialect::indexExistsSql(const QString &name) const
{
    return tableExistsSql(name); // a relation, as a table is
}

QString PostgreSqlDialect::backendIdSql() const
{
    return QStringLiteral("SELECT pg_backend_pid()");
}

QString PostgreSqlDialect::cancelSql(const QString &placeholder) const
{
    return QStringLiteral("SELECT pg_cancel_backend(%1)").arg(placeholder);
}

QString PostgreSqlDialect::schemaResource() const
{
    return QStringLiteral(":/sql/postgresql.sql");
}

QStringList PostgreSqlDialect::afterSchemaStatements() const
{
    return {};
}

// A simulation database: no wait for the WAL flush of each chunk.
QStringList PostgreSqlDialect::bulkLoadStatements() const
{
    return {QStringLiteral("SET synchronous_commit = off")};
}

QStringList PostgreSqlDialect::simulationSessionStatements() const
{
    return {};
}

QList<SqlText::Reading> PostgreSqlDialect::readings() const
{
    return {
        {false, true, true, true, false}, // standard_conforming_strings = on (the default)
        {true, true, true, true, false}, // standard_conforming_strings = off
    };
}
