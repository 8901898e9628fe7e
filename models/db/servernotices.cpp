#include "servernotices.h"

#include "databaseurl.h"
#include "plaintext.h"

#include <QCoreApplication>
#include <QSqlDriver>
#include <QVariant>
#include <cstdio>
#include <libpq-fe.h>

namespace {

QString field(const PGresult *result, int code)
{
    return QString::fromUtf8(PQresultErrorField(result, code));
}

// libpq calls it on the thread running the statement; one fwrite keeps the line whole when
// several connections speak at once.
void receive(void *, const PGresult *result)
{
    const QByteArray text = (ServerNotices::line(field(result, PG_DIAG_SEVERITY),
                                 field(result, PG_DIAG_MESSAGE_PRIMARY))
        + QLatin1Char('\n'))
                                .toUtf8();
    std::fwrite(text.constData(), 1, size_t(text.size()), stderr);
    std::fflush(stderr);
}

} // namespace

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

void escapeOn(const QSqlDatabase &db)
{
    if (!db.isOpen() || !db.driver())
        return;
    // Qt's PostgreSQL driver hands out its PGconn*, which Qt 6 names by the struct behind it.
    const QVariant handle = db.driver()->handle();
    if (!handle.isValid()
        || (qstrcmp(handle.typeName(), "pg_conn*") != 0
            && qstrcmp(handle.typeName(), "PGconn*") != 0))
        return;
    PGconn *connection = *static_cast<PGconn *const *>(handle.constData());
    if (connection)
        PQsetNoticeReceiver(connection, &receive, nullptr);
}

} // namespace ServerNotices
