#include "demodatabase.h"

#include "schema.h"

#include <QDir>
#include <QFile>
#include <QStandardPaths>

namespace DemoDatabase {

QString defaultPath()
{
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation);
    return dir + QStringLiteral("/demo.sqlite");
}

std::unique_ptr<DbConnection> open(QString *error, const QString &path)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    for (const QString &suffix : {QString(), QStringLiteral("-wal"), QStringLiteral("-shm")})
        QFile::remove(path + suffix);
    OpenOptions options;
    options.allowCreate = true;
    options.validateSchema = false;
    auto connection = DbConnection::open(
        DatabaseUrl::parse(QStringLiteral("sqlite:") + path, error), options, error);
    if (!connection || !Schema::create(connection->database(), error)
        || !Schema::markForSimulation(connection->database(), error))
        return nullptr;
    return connection;
}

} // namespace DemoDatabase
