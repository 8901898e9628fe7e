// The native schema of the design contract: creating it (only `outboxctl init` and the
// embedded demo database do), checking that a database has it, and the simulation mark.
#pragma once

#include <QSqlDatabase>
#include <QString>

namespace Schema {

// Empty when every native table and column exists and, on SQLite, the columns the health
// figures and replay read hold whole numbers; otherwise one line naming every gap at once, e.g.
// "delivery_outbox: missing columns claim_token, lease_until" or "delivery_outbox: column
// created_at holds values that are not whole numbers in 1 row (e.g. 'yesterday')".
QString validate(const QSqlDatabase &db);

// Creates whatever is absent (CREATE ... IF NOT EXISTS). Returns false and sets *error on failure.
bool create(const QSqlDatabase &db, QString *error);

bool markForSimulation(const QSqlDatabase &db, QString *error);
bool isMarkedForSimulation(const QSqlDatabase &db);

// Empties every native table of a simulation database before a scenario or relay run.
bool clearSimulationData(const QSqlDatabase &db, QString *error);

} // namespace Schema
