#include "dbconnection.h"

#include "schema.h"
#include "servernotices.h"

#include <QAtomicInteger>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QMutex>
#include <QSqlError>
#include <QSqlQuery>
#include <QThread>
#include <sys/stat.h>

namespace {

QString nextConnectionName()
{
    static QAtomicInteger<quint64> counter;
    return QStringLiteral("outbox-health-%1").arg(counter.fetchAndAddRelaxed(1));
}

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

bool configureSqlite(
    QSqlDatabase &db, const DatabaseUrl &url, const OpenOptions &options, QString *error)
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

void configurePostgreSql(QSqlDatabase &db, const DatabaseUrl &url, const OpenOptions &options)
{
    db.setHostName(url.host());
    db.setPort(url.port());
    db.setDatabaseName(url.databaseName());
    if (!url.user().isEmpty())
        db.setUserName(url.user());
    if (!url.password().isEmpty())
        db.setPassword(url.password()); // otherwise libpq reads PGPASSWORD or ~/.pgpass
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
}

struct ThreadAccount
{
    int open = 0;
    int ever = 0;
};

QMutex accountsMutex;
QHash<const QThread *, ThreadAccount> accounts;

void account(const QThread *thread, int change)
{
    const QMutexLocker lock(&accountsMutex);
    ThreadAccount &entry = accounts[thread];
    entry.open += change;
    if (change > 0)
        entry.ever += change;
}

} // namespace

int DbConnection::openCountOn(const QThread *thread)
{
    const QMutexLocker lock(&accountsMutex);
    return accounts.value(thread).open;
}

int DbConnection::everOpenedOn(const QThread *thread)
{
    const QMutexLocker lock(&accountsMutex);
    return accounts.value(thread).ever;
}

std::unique_ptr<DbConnection> DbConnection::open(
    const DatabaseUrl &url, const OpenOptions &options, QString *error)
{
    QString scratch;
    if (!error)
        error = &scratch;
    if (!url.isValid()) {
        *error = QStringLiteral("invalid database URL");
        return nullptr;
    }
    const QString driver = url.isSqlite() ? QStringLiteral("QSQLITE") : QStringLiteral("QPSQL");
    if (!QSqlDatabase::isDriverAvailable(driver)) {
        *error = QStringLiteral("Qt SQL driver %1 is not installed (Debian: %2)")
                     .arg(driver,
                         url.isSqlite() ? QStringLiteral("libqt6sql6-sqlite")
                                        : QStringLiteral("libqt6sql6-psql"));
        return nullptr;
    }

    const QString name = nextConnectionName();
    std::unique_ptr<DbConnection> connection(new DbConnection(url, name, options.readOnly));
    QSqlDatabase db = QSqlDatabase::addDatabase(driver, name);
    if (url.isSqlite()) {
        if (!configureSqlite(db, url, options, error))
            return nullptr;
    } else {
        configurePostgreSql(db, url, options);
    }
    if (!db.open()) {
        *error = QStringLiteral("cannot open %1: %2")
                     .arg(url.toDisplayString(), db.lastError().text().simplified());
        return nullptr;
    }
    ServerNotices::escapeOn(db);
    if (url.isSqlite())
        QSqlQuery(db).exec(QStringLiteral("PRAGMA foreign_keys = ON"));
    if (options.validateSchema) {
        const QString problem = Schema::validate(db);
        if (!problem.isEmpty()) {
            *error = problem;
            return nullptr;
        }
    }
    return connection;
}

DbConnection::DbConnection(const DatabaseUrl &url, const QString &name, bool readOnly)
    : m_url(url)
    , m_name(name)
    , m_readOnly(readOnly)
    , m_thread(QThread::currentThread())
{
    account(m_thread, +1);
}

DbConnection::~DbConnection()
{
    account(m_thread, -1);
    {
        QSqlDatabase db = QSqlDatabase::database(m_name, false);
        if (db.isValid())
            db.close();
    }
    QSqlDatabase::removeDatabase(m_name);
}

QSqlDatabase DbConnection::database() const
{
    return QSqlDatabase::database(m_name, false);
}
