// The native schema of the design contract: creating it (only `outboxctl init` and the
// embedded demo database do), checking that a database has it, and the simulation mark.
#pragma once

#include <QSqlDatabase>
#include <QString>

namespace Schema {

// Empty when every native table and column exists; otherwise one line naming the first gap,
// e.g. "delivery_outbox: missing column lease_until".
QString validate(const QSqlDatabase &db);

// Creates whatever is absent (CREATE ... IF NOT EXISTS). Returns false and sets *error on failure.
bool create(const QSqlDatabase &db, QString *error);

bool markForSimulation(const QSqlDatabase &db, QString *error);
bool isMarkedForSimulation(const QSqlDatabase &db);

// Empties every native table of a simulation database before a scenario or relay run.
bool clearSimulationData(const QSqlDatabase &db, QString *error);

} // namespace Schema
