#include "dbconnection.h"

#include "queryerror.h"
#include "schema.h"
#include "sqldialect.h"

#include <QAtomicInteger>
#include <QHash>
#include <QMutex>
#include <QSqlQuery>
#include <QThread>
#include <openssl/crypto.h>

namespace {

QString nextConnectionName()
{
    static QAtomicInteger<quint64> counter;
    return QStringLiteral("outbox-health-%1").arg(counter.fetchAndAddRelaxed(1));
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

// libpq uses libcrypto on the connection's thread (SCRAM's nonce and HMACs, TLS), which keeps
// per-thread state (random generators, the error queue) that it frees when the thread exits.
// Qt's threads are detached and QThread::wait() returns before that exit is over, so a
// program that ends right after joining its workers (`outboxctl serve` on SIGTERM) could
// reach exit(), OPENSSL_cleanup and the sanitizers' leak check while a worker's state was
// still unfreed: LeakSanitizer saw ~7 KB from CRYPTO_zalloc and OPENSSL_sk_deep_copy. Freed
// here instead, on the thread, once its last connection is closed (made again on demand).
void releaseThreadState()
{
    OPENSSL_thread_stop();
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
    const SqlDialect &dialect = SqlDialect::of(url.engine());
    if (const QString missing = dialect.missingDriver(); !missing.isEmpty()) {
        *error = missing;
        return nullptr;
    }

    const QString name = nextConnectionName();
    std::unique_ptr<DbConnection> connection(new DbConnection(url, name, options.readOnly));
    QSqlDatabase db = dialect.addDatabase(name);
    if (!dialect.configure(db, url, options, error))
        return nullptr;
    if (!db.open()) {
        *error
            = QStringLiteral("cannot open %1: %2").arg(url.toDisplayString(), QueryError::text(db));
        return nullptr;
    }
    if (QString problem; !dialect.startSession(db, &problem)) {
        db.close();
        *error = QStringLiteral("cannot use %1: %2").arg(url.toDisplayString(), problem);
        return nullptr;
    }
    if (options.validateSchema) {
        const QString problem = Schema::validate(db);
        if (!problem.isEmpty()) {
            *error = problem;
            return nullptr;
        }
    }
    return connection;
}

bool DbConnection::reopen(QSqlDatabase &db, QString *error)
{
    db.close();
    if (!db.open()) {
        if (error)
            *error = QueryError::text(db);
        return false;
    }
    QString problem;
    if (!SqlDialect::of(db).startSession(db, &problem)) {
        db.close();
        if (error)
            *error = problem;
        return false;
    }
    return true;
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
    const QString companionPrefix = m_name + u'/';
    for (const QString &name : QSqlDatabase::connectionNames()) {
        if (!name.startsWith(companionPrefix))
            continue;
        {
            QSqlDatabase companion = QSqlDatabase::database(name, false);
            if (companion.isValid())
                companion.close();
        }
        QSqlDatabase::removeDatabase(name);
    }
    {
        QSqlDatabase db = QSqlDatabase::database(m_name, false);
        if (db.isValid())
            db.close();
    }
    QSqlDatabase::removeDatabase(m_name);
    if (QThread::currentThread() == m_thread && openCountOn(m_thread) == 0)
        releaseThreadState();
}

const SqlDialect &DbConnection::dialect() const
{
    return SqlDialect::of(m_url.engine());
}

QSqlDatabase DbConnection::database() const
{
    return QSqlDatabase::database(m_name, false);
}
