// The explicit, versioned migration of the native schema (`outboxctl migrate`): from the
// version a database records in outbox_meta to Schema::CurrentVersion, in one transaction,
// every row and index kept. Nothing else in the program alters a schema: a database older than
// the program is only told so (Schema::outdated) and named the command to run.
//
// Version 1 -> 2: the status CHECK allows 'RESOLVED' (PostgreSQL: the CHECK constraint on status
// dropped and added again as delivery_outbox_status_check; SQLite, which cannot alter a CHECK:
// the table rebuilt from its own definition with the widened list, rows copied, indexes and
// triggers recreated, foreign keys checked), resolve_log and the RESOLVED index created, and
// outbox_meta.schema_version = 2.
// Version 2 -> 3: the engine's script adds version 3's tables (operator notes, payload
// revisions) and, on MySQL, redefines delivery_outbox_pending with claim_token (version 2 made it
// without, so the snapshot read every PENDING row from the table); schema_version = 3.
// A version 1 database goes to 3 in one run. Running it again finds version 3 and changes
// nothing. On MySQL each DDL statement commits by itself (the engine has no transactional DDL):
// a failure part-way leaves what ran, and running migrate again finishes it.
#pragma once

#include <QSqlDatabase>
#include <QStringList>

class SqlDialect;

class SchemaMigration
{
public:
    explicit SchemaMigration(const QSqlDatabase &db);

    // The version found (read by Schema::version), -1 with *error set.
    int fromVersion(QString *error) const;
    // What migrate() does from `from`, one line a step; empty when `from` is current.
    QStringList steps(int from) const;
    // How the steps run, after "schema version 1 -> 3, ": "in one transaction", or where the
    // engine commits each CREATE and ALTER by itself, that a stopped run is finished by another.
    QString atomicity() const;
    // Brings the database to Schema::CurrentVersion. True, with nothing written, when it is
    // there already; false with *error set and nothing changed otherwise. `readOnly`: the
    // connection was opened read-only, refused before anything runs.
    bool migrate(bool readOnly, QString *error);

private:
    bool upgrade(int from, QString *error);
    bool widenCheck(QString *error);
    bool rebuildTable(QString *error);

    QSqlDatabase m_db;
    const SqlDialect *m_dialect = nullptr;
    bool m_rebuild = false; // the engine cannot alter a CHECK: the table is rebuilt
};
