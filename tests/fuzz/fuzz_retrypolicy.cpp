// Any --policy spec: the parser never crashes, and an accepted policy gives delays within its own
// bounds for every failure count, with no overflow (UBSan watches the arithmetic).
#include "retrypolicy.h"

#include <QRandomGenerator>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString spec = QString::fromUtf8(reinterpret_cast<const char *>(data), qsizetype(size));
    RetryPolicy policy;
    QString error;
    if (!RetryPolicy::parse(spec, &policy, &error)) {
        if (error.isEmpty())
            std::abort();
        return 0;
    }
    QRandomGenerator random(42);
    for (int failures : {1, 2, 3, 10, 62, 63, 64, 100, 1000000, 2147483647}) {
        const qint64 low = policy.minimumDelayAfter(failures);
        const qint64 high = policy.maximumDelayAfter(failures);
        const qint64 delay = policy.delayAfter(failures, random);
        if (low < 0 || high < low || delay < low || delay > high)
            std::abort();
    }
    return 0;
}
