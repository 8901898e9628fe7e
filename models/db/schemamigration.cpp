#include "schemamigration.h"

#include "queryerror.h"
#include "schema.h"
#include "sqldialect.h"
#include "sqltransaction.h"

#include <QRegularExpression>
#include <QSqlQuery>

namespace {

const QString NewStatuses = QStringLiteral("'PENDING', 'DELIVERED', 'DEAD', 'RESOLVED'");

// One column of text from a fixed catalogue query.
bool column(const QSqlDatabase &db, const QString &sql, QStringList *values, QString *error)
{
    QSqlQuery query(db);
    query.setForwardOnly(true);
    if (!QueryError::exec(query, sql, error))
        return false;
    while (query.next())
        values->append(query.value(0).toString());
    return true;
}

qint64 rowCount(const QSqlDatabase &db, const QString &table, QString *error)
{
    QSqlQuery query(db);
    if (!QueryError::exec(query, QStringLiteral("SELECT COUNT(*) FROM ") + table, error)
        || !query.next())
        return -1;
    return query.value(0).toLongLong();
}

// A catalogue name as an SQL identifier: double-quoted, quotes doubled.
QString identifier(const QString &name)
{
    QString quoted = name;
    quoted.replace(QLatin1Char('"'), QStringLiteral("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

} // namespace

SchemaMigration::SchemaMigration(const QSqlDatabase &db)
    : m_db(db)
    , m_dialect(&SqlDialect::of(db))
    , m_rebuild(!m_dialect->can().alterConstraints)
{ }

int SchemaMigration::fromVersion(QString *error) const
{
    return Schema::version(m_db, error);
}

QStringList SchemaMigration::steps(int from) const
{
    if (from >= Schema::CurrentVersion)
        return {};
    QStringList steps;
    if (from < Schema::ResolveVersion) {
        steps << (!m_rebuild
                ? QStringLiteral("delivery_outbox: drop the status CHECK and add "
                                 "delivery_outbox_status_check allowing 'RESOLVED' (the table is "
                                 "locked while %1 checks every row)")
                      .arg(m_dialect->title())
                : QStringLiteral("delivery_outbox: rebuild the table with a status CHECK allowing "
                                 "'RESOLVED' (every row copied; indexes and triggers recreated)"))
              << QStringLiteral("create tables resolve_log and reopen_log and indexes "
                                "delivery_outbox_resolved, resolve_log_event, reopen_log_event, "
                                "delivery_outbox_unfinished_aggregate");
    }
    // Version 3 (the schema script creates them where they are missing).
    steps << QStringLiteral("create table payload_revision and index payload_revision_event "
                            "(edit and replay)");
    if (!m_dialect->indexColumnsSql(QStringLiteral("delivery_outbox_pending")).isEmpty())
        steps << QStringLiteral("delivery_outbox_pending (with claim_token) and "
                                "delivery_outbox_unfinished_aggregate (whole aggregate columns, "
                                "with the lease) redefined where an older version made them "
                                "otherwise (each rebuilt in place: minutes at millions of rows)");
    steps << QStringLiteral("create table operator_note and indexes operator_note_event, "
                            "operator_note_group (notes and markers)");
    steps << QStringLiteral("outbox_meta: schema_version = %1").arg(Schema::CurrentVersion);
    return steps;
}

QString SchemaMigration::atomicity() const
{
    return m_dialect->can().transactionalDdl
        ? QStringLiteral("in one transaction")
        : QStringLiteral("step by step (%1 commits each CREATE and ALTER by itself: a run that "
                         "stopped midway is finished by running it again)")
              .arg(m_dialect->title());
}

bool SchemaMigration::migrate(bool readOnly, QString *error)
{
    const int from = fromVersion(error);
    if (from < 0)
        return false;
    if (from >= Schema::CurrentVersion)
        return true;
    if (readOnly) {
        *error = QStringLiteral("the connection is read-only: nothing migrated");
        return false;
    }
    return upgrade(from, error);
}

// Version 1 first has its status CHECK widened; then the engine's script adds every table and
// index a later version brought (all IF NOT EXISTS, and on MySQL redefines an index whose key
// changed: Schema::runScript), and the version is recorded.
bool SchemaMigration::upgrade(int from, QString *error)
{
    const bool rebuild = m_rebuild && from < Schema::ResolveVersion;
    // A table rebuild needs foreign keys off, switched outside the transaction; they are checked
    // by hand before the commit and restored afterwards.
    if (rebuild && !QueryError::exec(m_db, m_dialect->foreignKeysOffForRebuildSql(), error))
        return false;
    bool done = false;
    {
        SqlTransaction transaction(m_db);
        if (!transaction.isActive()) {
            *error = transaction.errorText();
        } else if ((from >= Schema::ResolveVersion
                       || (rebuild ? rebuildTable(error) : widenCheck(error)))
            && Schema::runScript(m_db, error)
            && Schema::recordVersion(m_db, Schema::CurrentVersion, error)) {
            done = transaction.commit();
            if (!done)
                *error = transaction.errorText();
        }
    }
    if (rebuild)
        QueryError::exec(m_db, m_dialect->foreignKeysOnAfterRebuildSql(), error);
    return done;
}

// Every CHECK constraint on delivery_outbox that names status (one, normally: PostgreSQL calls
// an unnamed column check delivery_outbox_status_check) is replaced by the wider one.
bool SchemaMigration::widenCheck(QString *error)
{
    // Filtered here, not in SQL: MariaDB has no column list on a derived table.
    QSqlQuery checks(m_db);
    checks.setForwardOnly(true);
    if (!QueryError::exec(
            checks, m_dialect->checkConstraintsSql(QStringLiteral("delivery_outbox")), error))
        return false;
    QStringList names;
    while (checks.next()) {
        if (checks.value(1).toString().contains(QLatin1String("status"), Qt::CaseInsensitive))
            names << checks.value(0).toString();
    }
    checks.finish();
    for (const QString &name : names) {
        if (!QueryError::exec(m_db,
                QStringLiteral("ALTER TABLE delivery_outbox DROP CONSTRAINT ") + identifier(name),
                error))
            return false;
    }
    return QueryError::exec(m_db,
        QStringLiteral("ALTER TABLE delivery_outbox ADD CONSTRAINT delivery_outbox_status_check"
                       " CHECK (status IN (%1))")
            .arg(NewStatuses),
        error);
}

// The way to change a constraint where the engine cannot alter one (SQLite's documented way): a
// new table from the old definition (extra columns of the operator's own kept), every row
// copied, the old one dropped, the new renamed, indexes and triggers recreated from their own
// SQL, then a foreign key check.
bool SchemaMigration::rebuildTable(QString *error)
{
    QStringList definition;
    if (!column(m_db, m_dialect->tableDefinitionSql(QStringLiteral("delivery_outbox")), &definition,
            error))
        return false;
    if (definition.size() != 1) {
        *error = QStringLiteral("delivery_outbox: table not found");
        return false;
    }
    QString sql = definition.constFirst();
    if (sql.contains(QLatin1String("'RESOLVED'")))
        return true; // widened already (by hand): nothing to rebuild
    static const QRegularExpression check(
        QStringLiteral(R"(CHECK\s*\(\s*status\s+IN\s*\([^)]*\)\s*\))"),
        QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression head(QStringLiteral(R"(^CREATE\s+TABLE\s+"?delivery_outbox"?)"),
        QRegularExpression::CaseInsensitiveOption);
    if (!sql.contains(check) || !sql.contains(head)) {
        *error = QStringLiteral("delivery_outbox: its definition has no status CHECK of the native "
                                "schema; nothing migrated");
        return false;
    }
    sql.replace(check, QStringLiteral("CHECK (status IN (%1))").arg(NewStatuses));
    sql.replace(head, QStringLiteral("CREATE TABLE delivery_outbox_migrating"));
    QStringList dependents; // indexes (not the automatic ones) and triggers
    if (!column(m_db, m_dialect->tableDependentsSql(QStringLiteral("delivery_outbox")), &dependents,
            error))
        return false;
    const qint64 before = rowCount(m_db, QStringLiteral("delivery_outbox"), error);
    if (before < 0 || !QueryError::exec(m_db, sql, error)
        || !QueryError::exec(m_db,
            QStringLiteral("INSERT INTO delivery_outbox_migrating SELECT * FROM delivery_outbox"),
            error)
        || !QueryError::exec(m_db, QStringLiteral("DROP TABLE delivery_outbox"), error)
        || !QueryError::exec(m_db,
            QStringLiteral("ALTER TABLE delivery_outbox_migrating RENAME TO delivery_outbox"),
            error))
        return false;
    for (const QString &statement : dependents) {
        if (!QueryError::exec(m_db, statement, error))
            return false;
    }
    const qint64 after = rowCount(m_db, QStringLiteral("delivery_outbox"), error);
    if (after != before) {
        *error
            = QStringLiteral("delivery_outbox: %1 rows before the rebuild, %2 after: rolled back")
                  .arg(before)
                  .arg(after);
        return false;
    }
    QSqlQuery keys(m_db);
    if (!QueryError::exec(keys, m_dialect->foreignKeyCheckSql(), error))
        return false;
    if (keys.next()) {
        *error = QStringLiteral("%1 has rows whose event is missing from delivery_outbox: rolled "
                                "back")
                     .arg(keys.value(0).toString());
        return false;
    }
    return true;
}
