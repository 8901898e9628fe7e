// The explicit, versioned migration of the native schema (`outboxctl migrate`): from the
// version a database records in outbox_meta to Schema::CurrentVersion, in one transaction,
// every row and index kept. Nothing else in the program alters a schema: a database older than
// the program is only told so (Schema::outdated) and named the command to run.
//
// Version 1 -> 2: the status CHECK allows 'RESOLVED' (PostgreSQL: the CHECK constraint on status
// dropped and added again as delivery_outbox_status_check; SQLite, which cannot alter a CHECK:
// the table rebuilt from its own definition with the widened list, rows copied, indexes and
// triggers recreated, foreign keys checked), resolve_log and the RESOLVED index created, and
// outbox_meta.schema_version = 2. Running it again finds version 2 and changes nothing.
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
    // Brings the database to Schema::CurrentVersion. True, with nothing written, when it is
    // there already; false with *error set and nothing changed otherwise. `readOnly`: the
    // connection was opened read-only, refused before anything runs.
    bool migrate(bool readOnly, QString *error);

private:
    bool toVersion2(QString *error);
    bool widenCheck(QString *error);
    bool rebuildTable(QString *error);

    QSqlDatabase m_db;
    const SqlDialect *m_dialect = nullptr;
    bool m_rebuild = false; // the engine cannot alter a CHECK: the table is rebuilt
};
