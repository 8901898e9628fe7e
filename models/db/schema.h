// The native schema of the design contract: creating it (only `outboxctl init` and the
// embedded demo database do), checking that a database has it, its version, and the simulation
// mark. Version 1 had no RESOLVED state; version 2 adds it and resolve_log; version 3
// (CurrentVersion) adds the operators' notes and the payload revisions of edit-and-replay (and,
// on MySQL, claim_token in delivery_outbox_pending).
// `outboxctl migrate` (SchemaMigration) brings a version 1 database forward, never implicitly.
#pragma once

#include <QSqlDatabase>
#include <QString>
#include <QStringList>

namespace Schema {

// The version this program creates (outbox_meta.schema_version).
constexpr int CurrentVersion = 3;
// The version resolve and reopen need (the RESOLVED state, resolve_log): a version 2 database
// keeps every action it had; only what version 3 added asks for `outboxctl migrate`.
constexpr int ResolveVersion = 2;

// Empty when every native table and column exists and, on SQLite, the columns the health
// figures and replay read hold whole numbers; otherwise one line naming every gap at once, e.g.
// "delivery_outbox: missing columns claim_token, lease_until" or "delivery_outbox: column
// created_at holds values that are not whole numbers in 1 row (e.g. 'yesterday')".
QString validate(const QSqlDatabase &db);

// outbox_meta.schema_version: 1 when no version is recorded (databases made before versions
// existed), -1 with *error set when it cannot be read or is no version this program knows.
int version(const QSqlDatabase &db, QString *error = nullptr);

// Empty when the database's native schema is current; otherwise one sentence saying it is older
// than the program and which command brings it forward, e.g. "the schema is version 1, older
// than this program's version 2 (no RESOLVED state): run `outboxctl migrate --db URL`".
QString outdated(const QSqlDatabase &db);
// The same sentence for a version already read; empty when `version` has what `needed` brought.
QString outdatedMessage(int version, int needed = CurrentVersion);

// Creates whatever is absent (CREATE ... IF NOT EXISTS). Returns false and sets *error on failure.
// A new database gets the current version recorded; a version 1 database keeps its version
// (its status CHECK is only widened by `outboxctl migrate`).
bool create(const QSqlDatabase &db, QString *error);
// Runs the engine's schema script (every statement IF NOT EXISTS) inside the caller's
// transaction: what create() does, and the last step of a migration.
bool runScript(const QSqlDatabase &db, QString *error);
// Records `version` in outbox_meta, inside the caller's transaction.
bool recordVersion(const QSqlDatabase &db, int version, QString *error);

bool markForSimulation(const QSqlDatabase &db, QString *error);
bool isMarkedForSimulation(const QSqlDatabase &db);

// The native tables a simulation's data lives in (all but outbox_meta, and those of later
// schema versions only where they exist), each referencing table before the ones it references.
QStringList simulationDataTables(const QSqlDatabase &db);
// Empties every native table of a simulation database before a scenario or relay run.
bool clearSimulationData(const QSqlDatabase &db, QString *error);

} // namespace Schema
