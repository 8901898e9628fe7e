// Any text given as --db: the URL parser never crashes, a refusal says why, and a password it
// accepted never shows in the display or storable forms.
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
    if (url.isValid() && !url.password().isEmpty()) {
        // The user information (the authority, "://" to the next "/", up to its last "@") never
        // holds the password: the display form writes *** there, the storable form leaves it out.
        for (const QString &shown : {url.toDisplayString(), url.toStorableString()}) {
            const QString authority
                = shown.section(QStringLiteral("://"), 1).section(QLatin1Char('/'), 0, 0);
            const qsizetype at = authority.lastIndexOf(QLatin1Char('@'));
            if (at >= 0 && authority.left(at).section(QLatin1Char(':'), 1) == url.password())
                std::abort();
        }
    }
    return 0;
}
