// Loading the schema fixtures of tests/fixtures/ (each library's published DDL with its rows),
// running one statement of test data (exec), and driving a real pg-boss
// (tests/pgboss/make-jobs.mjs) and a real graphile-worker (tests/graphile-worker/make-jobs.mjs),
// for the profile tests.
#pragma once

#include <QJsonObject>
#include <QSqlDatabase>
#include <QStringList>

// Splits an SQL script at the semicolons outside strings, dollar quotes and comments (the
// pg-boss DDL has PL/pgSQL bodies).
QStringList sqlStatements(const QString &script);
// The fixture of a built-in profile for db's engine, relative to the tests' data
// (TestData::path): fixtures/<profile>.sql on PostgreSQL, fixtures/<profile>-mysql.sql on
// MySQL/MariaDB and fixtures/<profile>-sqlite.sql on SQLite, each from the library's own DDL for
// that engine; the native schema's rows are fixtures/native.sql on every engine.
QString fixtureFor(const QString &profile, const QSqlDatabase &db);
// Runs every statement of the file; false (with a warning naming the statement) on the first
// failure.
bool runSqlScript(const QSqlDatabase &db, const QString &path);
// Runs one statement of test data (never user input); false with a warning naming it and the
// server's words when it fails.
bool exec(const QSqlDatabase &db, const QString &sql);

// Where scripts/bootstrap installs pg-boss@10: $PGBOSS_DIR, else
// ${XDG_CACHE_HOME:-$HOME/.cache}/outbox-health-bench/pgboss.
QString pgBossDir();
// Why the real pg-boss tests cannot run here (node or pg-boss missing); empty when they can.
QString pgBossMissing();
// Runs `node make-jobs.mjs ARGUMENTS` (script = its path); its last output line is JSON.
// Empty with *error set when it fails.
QJsonObject runPgBoss(const QString &script, const QStringList &arguments, QString *error);

// Where scripts/bootstrap installs graphile-worker@0.17: $GRAPHILE_WORKER_DIR, else
// ${XDG_CACHE_HOME:-$HOME/.cache}/outbox-health-bench/graphile-worker.
QString graphileWorkerDir();
// Why the real graphile-worker test cannot run here (node or graphile-worker missing); empty
// when it can.
QString graphileWorkerMissing();
// Runs `node make-jobs.mjs ARGUMENTS` of tests/graphile-worker (script = its path); its last
// output line is JSON. Empty with *error set when it fails.
QJsonObject runGraphileWorker(const QString &script, const QStringList &arguments, QString *error);
