// Runs the outboxctl binary that CTest names in $OUTBOXCTL, as a user would from a shell.
#pragma once

#include <QStringList>
#include <functional>
#include <memory>

class DbConnection;
class QSqlDatabase;
class TestDatabase;

struct Run
{
    int exitCode = -1; // -1: it did not finish within a minute
    QStringList out; // stdout lines
    QStringList err; // stderr lines
};

Run outboxctl(const QStringList &arguments);
// Runs each argument list as its own outboxctl, all at once (they must not depend on each
// other: reads of one database), and returns their runs in the same order.
QList<Run> outboxctlAll(const QList<QStringList> &runs);

// Whether a --json run that failed told it on both streams: one line on stderr, and on stdout
// exactly one JSON object whose "error" is that line without "outboxctl: ".
bool failedAsJson(const Run &run);

// A real outbox as a user makes one, not marked for simulation: a fresh database of `engine`
// (*database), `outboxctl init`, then `populate` on a connection of its own (*connection).
// False with *skip (no server for the engine) or *fail set.
bool initialisedByCli(const QString &engine,
    const std::function<bool(const QSqlDatabase &)> &populate,
    std::unique_ptr<TestDatabase> *database, std::unique_ptr<DbConnection> *connection,
    QString *skip, QString *fail);

// The team's audit store of a test program: a native SQLite database of the tool's own, made
// once by `outboxctl init` in a temporary folder (every replay through a profile is recorded
// there, or refused: pass it as --notes-db).
QString auditStoreUrl();
