#include "failurecause.h"

#include "databaseurl.h"
#include "enginestatements.h"
#include "sqldialect.h"

#include <QCoreApplication>
#include <QStringList>
#include <algorithm>

namespace {

using Cause = EngineStatements::Cause;

// Words that are no engine's own: the system's (errno's, which libpq and MariaDB's client
// library both quote), Qt's and DbConnection's. Each engine's words are its dialect's
// (EngineStatements::causes()), tried between these two lists: the first match wins, so the
// specific causes come before the general "cannot open".
constexpr Cause FirstCauses[] = {
    {"Connection refused", "the server refuses connections (is it running?)", true},
};
constexpr Cause LastCauses[] = {
    {"Connection reset by peer", "the connection to the server is lost", true},
    {"No route to host", "there is no network route to the server", true},
    {"Network is unreachable", "the network is unreachable", true},
    {"database not open", "the connection is not open", true},
    {"cannot open ", "the database cannot be opened", true},
};

bool contains(const QString &text, const char *needle)
{
    return text.contains(QLatin1String(needle), Qt::CaseInsensitive);
}

// Whether `text` holds any of the words `wordsOf` gives for some engine.
bool anyEngineSays(
    const QString &text, QStringList (EngineStatements::*wordsOf)() const, Qt::CaseSensitivity cs)
{
    for (const SqlDialect *dialect : SqlDialect::all()) {
        for (const QString &words : (dialect->statements().*wordsOf)()) {
            if (text.contains(words, cs))
                return true;
        }
    }
    return false;
}

// The causes in the order they are tried.
QList<Cause> causes()
{
    QList<Cause> all(std::begin(FirstCauses), std::end(FirstCauses));
    for (const SqlDialect *dialect : SqlDialect::all())
        all << dialect->statements().causes();
    for (const Cause &cause : LastCauses)
        all << cause;
    return all;
}

} // namespace

bool FailureCause::isLockConflict(const QString &error)
{
    return anyEngineSays(error, &EngineStatements::lockConflictWords, Qt::CaseInsensitive);
}

bool FailureCause::isOutcomeUnknown(const QString &commitError)
{
    return !commitError.isEmpty() && !isLockConflict(commitError) && of(commitError).unreachable;
}

bool FailureCause::isReadOnlyRefusal(const QString &error)
{
    return anyEngineSays(error, &EngineStatements::readOnlyRefusalWords, Qt::CaseSensitive);
}

FailureCause FailureCause::of(const QString &error)
{
    FailureCause cause;
    cause.detail = DatabaseUrl::maskPasswords(error.simplified());
    cause.authentication
        = anyEngineSays(cause.detail, &EngineStatements::authenticationWords, Qt::CaseInsensitive);
    static const QList<Cause> tried = causes();
    for (const Cause &pattern : tried) {
        if (contains(cause.detail, pattern.needle)) {
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
