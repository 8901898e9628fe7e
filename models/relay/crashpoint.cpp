#include "crashpoint.h"

#include <QAtomicInteger>
#include <QByteArray>
#include <csignal>

namespace {

struct Config
{
    QByteArray point = qgetenv("OUTBOX_CRASH_AT");
    int after = qEnvironmentVariableIsSet("OUTBOX_CRASH_AFTER")
        ? qEnvironmentVariableIntValue("OUTBOX_CRASH_AFTER")
        : 1;
};

const Config &config()
{
    static const Config instance;
    return instance;
}

} // namespace

namespace CrashPoint {

void reached(const char *point)
{
    if (config().point.isEmpty() || config().point != point)
        return;
    static QAtomicInteger<int> occurrences;
    if (occurrences.fetchAndAddRelaxed(1) + 1 >= config().after)
        std::raise(SIGKILL);
}

} // namespace CrashPoint
