#include "failurecause.h"

#include "databaseurl.h"

#include <QCoreApplication>
#include <QStringList>
#include <algorithm>

namespace {

struct Pattern
{
    const char *needle; // matched case-insensitively
    const char *plain;
    bool unreachable;
};

// First match wins: the specific causes before the general "cannot open". MariaDB's and
// MySQL's client library words follow PostgreSQL's: a session whose server restarted fails with
// 2006 "server has gone away" or 2013 "Lost connection" while Qt's MySQL driver still says
// isOpen(), so these words (not the driver's state) tell a worker that the connection is lost.
constexpr Pattern Patterns[] = {
    {"Connection refused", "the server refuses connections (is it running?)", true},
    {"Can't connect to", "the server refuses connections (is it running?)", true},
    {"server has gone away", "the connection to the server is lost", true},
    {"Lost connection to", "the connection to the server is lost", true},
    {"Connection was killed", "the server ended the connection", true},
    {"Server shutdown in progress", "the server is shutting down", true},
    {"Unknown server host", "the host name is unknown", true},
    {"(using password: NO)",
        "the server asks for a password and none was given (MYSQL_PWD, ~/.my.cnf or the URL)",
        true},
    {"Access denied for user", "the server rejected the user name or password", true},
    {"max_statement_time exceeded", "a query took longer than the statement timeout", false},
    {"maximum statement execution time exceeded", "a query took longer than the statement timeout",
        false},
    {"Unknown database", "the database or a table does not exist", false},
    {"doesn't exist", "the database or a table does not exist", false},
    {"the database system is starting up", "the server is starting up", true},
    {"the database system is shutting down", "the server is shutting down", true},
    {"the database system is in recovery mode", "the server is recovering from a crash", true},
    {"terminating connection", "the server ended the connection", true},
    {"server closed the connection", "the server closed the connection", true},
    {"no connection to the server", "the connection to the server is lost", true},
    {"could not receive data from server", "the connection to the server is lost", true},
    {"could not send data to server", "the connection to the server is lost", true},
    {"Connection reset by peer", "the connection to the server is lost", true},
    {"SSL SYSCALL error", "the connection to the server is lost", true},
    {"timeout expired", "the server did not answer in time", true},
    {"could not translate host name", "the host name is unknown", true},
    {"No route to host", "there is no network route to the server", true},
    {"Network is unreachable", "the network is unreachable", true},
    {"password authentication failed", "the server rejected the user name or password", true},
    {"no password supplied",
        "the server asks for a password and none was given (~/.pgpass, PGPASSWORD or --db-file)",
        true},
    {"authentication failed", "the server rejected the user name or password", true},
    {"does not exist", "the database or a table does not exist", false},
    {"statement timeout", "a query took longer than the statement timeout", false},
    {"SQLite database file not found", "the SQLite database file is missing", true},
    {"database not open", "the connection is not open", true},
    {"cannot open ", "the database cannot be opened", true},
};

// libpq's words for SQLSTATE 28P01 (invalid password) and 28000 (invalid authorization), which
// a failed connection reports without the code.
constexpr const char *AuthenticationNeedles[] = {
    "password authentication failed", "no password supplied", "authentication failed",
    "no pg_hba.conf entry", "28P01",
    "Access denied for user", // MySQL's 1045 (and 1044, a database the user may not open)
};

bool isAuthentication(const QString &detail)
{
    for (const char *needle : AuthenticationNeedles) {
        if (detail.contains(QLatin1String(needle), Qt::CaseInsensitive))
            return true;
    }
    return false;
}

// The words of a rollback for a lock conflict, as the drivers give them without the code.
constexpr const char *LockConflictNeedles[] = {
    "Deadlock found when trying to get lock", // MySQL, MariaDB 1213
    "Lock wait timeout exceeded", // MySQL, MariaDB 1205
    "deadlock detected", // PostgreSQL 40P01
    "could not serialize access", // PostgreSQL 40001
};

} // namespace

bool FailureCause::isLockConflict(const QString &error)
{
    return std::any_of(std::begin(LockConflictNeedles), std::end(LockConflictNeedles),
        [&error](const char *needle) {
            return error.contains(QLatin1String(needle), Qt::CaseInsensitive);
        });
}

bool FailureCause::isOutcomeUnknown(const QString &commitError)
{
    return !commitError.isEmpty() && !isLockConflict(commitError) && of(commitError).unreachable;
}

bool FailureCause::isReadOnlyRefusal(const QString &error)
{
    return error.contains(QLatin1String("in a READ ONLY transaction"));
}

FailureCause FailureCause::of(const QString &error)
{
    FailureCause cause;
    cause.detail = DatabaseUrl::maskPasswords(error.simplified());
    cause.authentication = isAuthentication(cause.detail);
    for (const Pattern &pattern : Patterns) {
        if (cause.detail.contains(QLatin1String(pattern.needle), Qt::CaseInsensitive)) {
            cause.plain = QCoreApplication::translate("FailureCause", pattern.plain);
            cause.unreachable = pattern.unreachable;
            return cause;
        }
    }
    cause.plain = cause.detail; // already plain (a schema or profile problem named by us)
    return cause;
}

QString FailureCause::headline() const
{
    return unreachable
        ? QCoreApplication::translate("FailureCause", "Cannot reach the database: %1").arg(plain)
        : QCoreApplication::translate("FailureCause", "Cannot read the outbox: %1").arg(plain);
}

FailureCause FailureCause::noAnswer(int seconds)
{
    FailureCause cause;
    cause.plain
        = QCoreApplication::translate("FailureCause", "no answer for %n s", nullptr, seconds);
    cause.detail = QCoreApplication::translate("FailureCause",
        "The last request has had no answer for %n s (network down?).", nullptr, seconds);
    cause.unreachable = true;
    return cause;
}

qint64 FailureCause::authRetryDelayMs(int failures, qint64 intervalMs)
{
    qint64 delay = std::max<qint64>(1, intervalMs);
    for (int i = 1; i < failures && delay < AuthRetryCapMs; ++i)
        delay *= 2;
    return std::min(delay, std::max(AuthRetryCapMs, intervalMs));
}

QString FailureCause::waitText(qint64 ms)
{
    const qint64 seconds = (ms + 999) / 1000;
    if (seconds < 120)
        return QCoreApplication::translate("FailureCause", "%n s", nullptr, int(seconds));
    return QCoreApplication::translate("FailureCause", "%n min", nullptr, int((seconds + 59) / 60));
}
