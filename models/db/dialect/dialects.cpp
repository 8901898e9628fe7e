// The registry of dialects: the one place that maps an engine, or a connection's Qt driver, to
// its dialect. A new engine adds its dialect here.
#include "sqldialect.h"

#include "enginestatements.h"

// One function per engine, in its own file of this folder.
const SqlDialect &postgreSqlDialect(); // postgresqldialect.cpp
const SqlDialect &sqliteDialect(); // sqlitedialect.cpp
const SqlDialect &mySqlDialect(); // mysqldialect.cpp
const EngineStatements &postgreSqlStatements(); // postgresqlstatements.cpp
const EngineStatements &sqliteStatements(); // sqlitestatements.cpp
const EngineStatements &mySqlStatements(); // mysqlstatements.cpp

QList<const SqlDialect *> SqlDialect::all()
{
    return {&postgreSqlDialect(), &sqliteDialect(), &mySqlDialect()};
}

const SqlDialect *SqlDialect::ofUrlScheme(const QString &scheme)
{
    for (const SqlDialect *dialect : all()) {
        if (dialect->urlSchemes().contains(scheme))
            return dialect;
    }
    return nullptr;
}

const SqlDialect &SqlDialect::of(Engine engine)
{
    switch (engine) {
    case Engine::PostgreSql:
        return postgreSqlDialect();
    case Engine::MySql:
        return mySqlDialect();
    case Engine::Sqlite:
        break;
    }
    return sqliteDialect();
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
    return sqliteDialect();
}

const EngineStatements &SqlDialect::statements() const
{
    switch (engine()) {
    case Engine::PostgreSql:
        return postgreSqlStatements();
    case Engine::MySql:
        return mySqlStatements();
    case Engine::Sqlite:
        break;
    }
    return sqliteStatements();
}
