// Any stored time and any --now: ages and relative times are computed without overflow for
// every BIGINT (UBSan watches the arithmetic) and always read as something.
#include "timeformat.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 16)
        return 0;
    qint64 time = 0, now = 0;
    std::memcpy(&time, data, 8);
    std::memcpy(&now, data + 8, 8);
    if (TimeFormat::age(time).isEmpty() || TimeFormat::relative(time, now).isEmpty()
        || TimeFormat::time(time).isEmpty())
        std::abort();
    return 0;
}
