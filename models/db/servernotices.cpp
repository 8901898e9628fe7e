#include "servernotices.h"

#include "databaseurl.h"
#include "plaintext.h"

#include <QCoreApplication>
#include <cstdio>

namespace ServerNotices {

QString line(const QString &severity, const QString &message)
{
    // A trigger may raise a notice of any length: one line stays a line (cut after masking, so
    // a cut never leaves part of a password unmasked).
    constexpr qsizetype MaxChars = 2000;
    const QString masked = DatabaseUrl::maskPasswords(message);
    const QString shown = masked.size() > MaxChars ? masked.left(MaxChars)
            + QStringLiteral("… (%1 more characters)").arg(masked.size() - MaxChars)
                                                   : masked;
    static const QString program = QCoreApplication::applicationName().isEmpty()
        ? QStringLiteral("outbox-health")
        : QCoreApplication::applicationName();
    return program + QStringLiteral(": server ") + PlainText::escaped(severity)
        + QStringLiteral(": ") + PlainText::escaped(shown);
}

// One fwrite keeps the line whole when several connections speak at once.
void print(const QString &severity, const QString &message)
{
    const QByteArray text = (line(severity, message) + QLatin1Char('\n')).toUtf8();
    std::fwrite(text.constData(), 1, size_t(text.size()), stderr);
    std::fflush(stderr);
}

} // namespace ServerNotices
