#include "sqlitedialect.h"

#include "databaseurl.h"
#include "dbconnection.h"

#include <QFile>
#include <QFileInfo>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>
#include <sys/stat.h>

namespace {

// What a path names when it is not a regular file: opening a FIFO would block until a writer
// came, and a device (/dev/zero) is never a database. Empty for a regular file or none at all.
QString notRegularFile(const QString &path)
{
    struct stat status = {};
    if (::stat(QFile::encodeName(path).constData(), &status) != 0)
        return {};
    if (S_ISREG(status.st_mode))
        return {};
    if (S_ISDIR(status.st_mode))
        return QStringLiteral("a directory");
    if (S_ISFIFO(status.st_mode))
        return QStringLiteral("a FIFO");
    if (S_ISSOCK(status.st_mode))
        return QStringLiteral("a socket");
    return QStringLiteral("a device");
}

// SQLite's files start with this header; an empty file is a new, empty database.
bool hasSqliteHeader(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return true; // unreadable: the open names the cause in the driver's words
    const QByteArray header = file.read(16);
    return header.isEmpty() || header == QByteArray("SQLite format 3", 16);
}

QString errorOf(const QSqlQuery &query)
{
    return query.lastError().text().simplified();
}

} // namespace

QString SqliteDialect::qtDriver() const
{
    return QStringLiteral("QSQLITE");
}

QStringList SqliteDialect::urlSchemes() const
{
    return {QStringLiteral("sqlite")};
}

QString SqliteDialect::keyPrefix() const
{
    return QStringLiteral("sqlite");
}

QString SqliteDialect::title() const
{
    return QStringLiteral("SQLite");
}

QString SqliteDialect::driverPackage() const
{
    return QStringLiteral("libqt6sql6-sqlite");
}

const SqlDialect::Capabilities &SqliteDialect::can() const
{
    static const Capabilities capabilities = [] {
        Capabilities c;
        c.arrayParameters = true; // json_each()
        c.transactionalDdl = true;
        c.fileDatabase = true;
        return c;
    }();
    return capabilities;
}

bool SqliteDialect::configure(
    QSqlDatabase &db, const DatabaseUrl &url, const OpenOptions &options, QString *error) const
{
    const QFileInfo file(url.path());
    const QString kind = notRegularFile(url.path());
    if (!kind.isEmpty()) {
        *error
            = QStringLiteral("not a SQLite database: %1 is %2, not a file").arg(url.path(), kind);
        return false;
    }
    if (!options.allowCreate && !file.exists()) {
        *error = QStringLiteral("SQLite database file not found: %1").arg(url.path());
        return false;
    }
    if (file.exists() && !hasSqliteHeader(url.path())) {
        *error = QStringLiteral("not a SQLite database: %1").arg(url.path());
        return false;
    }
    db.setDatabaseName(url.path());
    QString connectOptions = QStringLiteral("QSQLITE_BUSY_TIMEOUT=10000");
    if (options.readOnly)
        connectOptions += QStringLiteral(";QSQLITE_OPEN_READONLY");
    db.setConnectOptions(connectOptions);
    return true;
}

void SqliteDialect::startSession(const QSqlDatabase &db) const
{
    exec(db, QStringLiteral("PRAGMA foreign_keys = ON"));
}

// IMMEDIATE: a reader which later writes never deadlocks against another writer; the busy
// timeout then queues writers instead of failing them.
QString SqliteDialect::beginWriteSql() const
{
    return QStringLiteral("BEGIN IMMEDIATE");
}

// PRAGMA query_only for the transaction's lifetime; *restore when it was off before.
bool SqliteDialect::beginReadOnly(const QSqlDatabase &db, bool *restore, QString *error) const
{
    *restore = false;
    QSqlQuery query(db);
    if (!query.exec(QStringLiteral("PRAGMA query_only")) || !query.next()) {
        *error = errorOf(query);
        return false;
    }
    *restore = !query.value(0).toBool();
    query.finish();
    if (!query.exec(QStringLiteral("PRAGMA query_only = ON"))) {
        *error = errorOf(query);
        return false;
    }
    if (query.exec(QStringLiteral("BEGIN")))
        return true;
    *error = errorOf(query);
    return false;
}

void SqliteDialect::endReadOnly(const QSqlDatabase &db, bool active, bool restore) const
{
    if (active)
        exec(db, QStringLiteral("ROLLBACK"));
    if (restore)
        exec(db, QStringLiteral("PRAGMA query_only = OFF"));
}

QString SqliteDialect::idSetSelect(const QString &placeholder) const
{
    return QStringLiteral("SELECT value FROM json_each(%1)").arg(placeholder);
}

QString SqliteDialect::integerType() const
{
    return QStringLiteral("INTEGER");
}

QString SqliteDialect::tableExistsSql(const QString &name) const
{
    return QStringLiteral("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = %1")
        .arg(literal(name));
}

QString SqliteDialect::indexExistsSql(const QString &name) const
{
    return QStringLiteral("SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND name = %1")
        .arg(literal(name));
}

QString SqliteDialect::schemaResource() const
{
    return QStringLiteral(":/sql/sqlite.sql");
}

// Readers (the dashboard) and one writer (the relay) at once.
QStringList SqliteDialect::afterSchemaStatements() const
{
    return {QStringLiteral("PRAGMA journal_mode = WAL")};
}

// A simulation database: a crash mid-way may lose the file, which generate recreates anyway.
QStringList SqliteDialect::bulkLoadStatements() const
{
    return {QStringLiteral("PRAGMA synchronous = OFF")};
}

// Many short transactions (WAL) without a sync each; a simulation needs no power-loss
// durability.
QStringList SqliteDialect::simulationSessionStatements() const
{
    return {QStringLiteral("PRAGMA synchronous = NORMAL")};
}

// No dollar quotes, no nested comments, [name] and `name` identifiers.
QList<SqlText::Reading> SqliteDialect::readings() const
{
    return {{false, false, false, false, true}};
}
