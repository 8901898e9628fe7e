// Any profile file: the parser never crashes, and a refusal names the file.
#include "profileparser.h"

#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString text = QString::fromUtf8(reinterpret_cast<const char *>(data), qsizetype(size));
    QString error;
    const std::optional<OutboxProfile> profile
        = ProfileParser::parse(text, QStringLiteral("fuzz.profile"), &error);
    if (!profile && !error.startsWith(QStringLiteral("fuzz.profile")))
        std::abort();
    return 0;
}
