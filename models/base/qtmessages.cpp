#include "qtmessages.h"

#include <QRegularExpression>

namespace QtMessages {

namespace {

QtMessageHandler previous = nullptr;

void quietHandler(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (isSqlNoise(type, context.category, message))
        return;
    if (previous)
        previous(type, context, message);
}

} // namespace

bool isSqlNoise(QtMsgType type, const char *category, const QString &message)
{
    if (type == QtCriticalMsg || type == QtFatalMsg)
        return false;
    if (category && qstrncmp(category, "qt.sql", 6) == 0)
        return true;
    // "QSqlQuery::exec:", and a driver's class ("Q" and MYSQL, PSQL, SQLITE, SQLite or ODBC)
    // followed by "Result::cleanup:", "Driver::…:" and the like.
    static const QRegularExpression sqlClass(
        QStringLiteral("^Q(Sql|MYSQL|PSQL|SQLITE|SQLite|ODBC)\\w*(::\\w+)*:"));
    return sqlClass.match(message).hasMatch()
        || message.startsWith(QLatin1String("Unable to free statement:"));
}

void install()
{
    if (qEnvironmentVariable("OUTBOX_DEBUG") == QLatin1String("1"))
        return;
    const QtMessageHandler replaced = qInstallMessageHandler(quietHandler);
    if (replaced != quietHandler)
        previous = replaced;
}

} // namespace QtMessages
