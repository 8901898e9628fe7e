// The embedded SQLite demo database: recreated on each start in the user's data directory,
// marked for simulation and filled by the seed scenarios.
#pragma once

#include "dbconnection.h"

namespace DemoDatabase {
QString defaultPath();
std::unique_ptr<DbConnection> open(QString *error, const QString &path = defaultPath());
} // namespace DemoDatabase
