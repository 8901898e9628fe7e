// The embedded SQLite demo database: recreated empty on each start in the user's data
// directory and marked for simulation; the dashboard's live relay fills it.
#pragma once

#include "dbconnection.h"

namespace DemoDatabase {
QString defaultPath();
std::unique_ptr<DbConnection> open(QString *error, const QString &path = defaultPath());
} // namespace DemoDatabase
