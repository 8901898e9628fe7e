#include "mysqloptionfile.h"

#include "boundedfile.h"

#include <QDir>
#include <QFileInfo>
#include <QStringList>
#include <sys/stat.h>

namespace MySqlOptionFile {

namespace {

constexpr qint64 LimitBytes = 64 * 1024;

// 'text' or "text" as the client reads a quoted value; a bare value ends at a # comment.
QString unquoted(QString value)
{
    value = value.trimmed();
    if (value.size() >= 2
        && (value.startsWith(QLatin1Char('"')) || value.startsWith(QLatin1Char('\'')))
        && value.endsWith(value.front()))
        return value.mid(1, value.size() - 2);
    const qsizetype hash = value.indexOf(QLatin1String(" #"));
    return hash >= 0 ? value.left(hash).trimmed() : value;
}

} // namespace

Credentials parse(const QString &text)
{
    Credentials found;
    bool inClient = false;
    for (const QString &raw : text.split(QLatin1Char('\n'))) {
        const QString line = raw.trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')) || line.startsWith(QLatin1Char(';')))
            continue;
        if (line.startsWith(QLatin1Char('['))) {
            inClient = line == QLatin1String("[client]");
            continue;
        }
        if (!inClient)
            continue;
        const QString key = line.section(QLatin1Char('='), 0, 0).trimmed();
        const QString value = unquoted(line.section(QLatin1Char('='), 1));
        if (key == QLatin1String("user"))
            found.user = value;
        else if (key == QLatin1String("password"))
            found.password = value;
    }
    return found;
}

Credentials credentials()
{
    QString path = qEnvironmentVariable("OUTBOX_HEALTH_MY_CNF");
    if (path.isEmpty())
        path = QDir::homePath() + QStringLiteral("/.my.cnf");
    if (!QFileInfo::exists(path))
        return {};
    QString error;
    BoundedFile::Status status;
    const auto bytes = BoundedFile::read(path, LimitBytes, QStringLiteral("MySQL option file"),
        &error, &status);
    if (!bytes) {
        Credentials failed;
        failed.error = error;
        return failed;
    }
    if (status.permissions & S_IWOTH)
        return {}; // the client ignores a world-writable option file too
    Credentials found = parse(QString::fromUtf8(*bytes));
    if (!found.password.isEmpty() && (status.permissions & (S_IRWXG | S_IRWXO))) {
        Credentials refused;
        refused.error = QStringLiteral("MySQL option file %1 holds a password and has group or "
                                       "world access; permissions should be u=rw (0600) or less")
                            .arg(path);
        return refused;
    }
    return found;
}

} // namespace MySqlOptionFile
