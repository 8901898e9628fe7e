// Any text given as --db: the URL parser never crashes, and a password it accepted never shows
// in the display or storable forms.
#include "databaseurl.h"

#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString text = QString::fromUtf8(reinterpret_cast<const char *>(data), qsizetype(size));
    QString error;
    const DatabaseUrl url = DatabaseUrl::parse(text, &error);
    if (!url.isValid() && error.isEmpty())
        std::abort(); // a refusal must say why
    if (url.isValid() && url.password().size() >= 4) {
        if (url.toDisplayString().contains(url.password())
            || url.toStorableString().contains(url.password()))
            std::abort();
    }
    return 0;
}
