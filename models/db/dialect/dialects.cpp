// The registry of dialects: the one place that maps an engine, or a connection's Qt driver, to
// its dialect. A new engine adds its dialect here.
#include "postgresqldialect.h"
#include "sqlitedialect.h"

namespace {

const PostgreSqlDialect postgreSql;
const SqliteDialect sqlite;

} // namespace

QList<const SqlDialect *> SqlDialect::all()
{
    return {&postgreSql, &sqlite};
}

const SqlDialect &SqlDialect::of(Engine engine)
{
    switch (engine) {
    case Engine::PostgreSql:
        return postgreSql;
    case Engine::Sqlite:
        break;
    }
    return sqlite;
}

QString SqlDialect::missingDriver() const
{
    if (QSqlDatabase::isDriverAvailable(qtDriver()))
        return {};
    return QStringLiteral("Qt SQL driver %1 is not installed (Debian: %2)")
        .arg(qtDriver(), driverPackage());
}

QSqlDatabase SqlDialect::addDatabase(const QString &connectionName) const
{
    return QSqlDatabase::addDatabase(qtDriver(), connectionName);
}

const SqlDialect &SqlDialect::of(const QSqlDatabase &db)
{
    const QString driver = db.driverName();
    for (const SqlDialect *dialect : all()) {
        if (dialect->qtDriver() == driver)
            return *dialect;
    }
    Q_ASSERT_X(false, "SqlDialect::of", "a connection of a driver without a dialect");
    return sqlite;
}
