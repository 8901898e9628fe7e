#include "demodatabase.h"

#include "scenario.h"
#include "schema.h"
#include "simulation.h"

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
    auto connection = DbConnection::open(DatabaseUrl::parse(QStringLiteral("sqlite:") + path, error), options, error);
    if (!connection || !Schema::create(connection->database(), error)
        || !Schema::markForSimulation(connection->database(), error))
        return nullptr;
    // Scenarios whose event IDs do not collide, so every lifecycle state is on screen.
    for (const QString &name : {QStringLiteral("lost-ack"), QStringLiteral("retry-schedule"),
                                QStringLiteral("poison-dead"), QStringLiteral("permanent-rejection")}) {
        Simulation simulation(connection->database());
        ScenarioRunner runner(simulation, *Scenario::byName(name));
        if (!runner.start() || !runner.runToEnd()) {
            *error = simulation.errorText();
            return nullptr;
        }
    }
    return connection;
}

} // namespace DemoDatabase
