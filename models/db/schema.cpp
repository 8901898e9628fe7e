#include "schema.h"

#include "queryerror.h"
#include "sqldialect.h"

#include <QFile>
#include <QMap>
#include <QRegularExpression>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QStringList>

namespace {

struct TableColumns
{
    const char *table;
    QStringList columns;
};

// Listed in dependency order: children after the tables they reference.
const QList<TableColumns> &nativeTables()
{
    static const QList<TableColumns> tables = {
        {"delivery_outbox",
            {u"event_id"_qs, u"aggregate_type"_qs, u"aggregate_id"_qs, u"event_type"_qs,
                u"payload"_qs, u"status"_qs, u"failures"_qs, u"next_attempt_at"_qs,
                u"claim_token"_qs, u"lease_until"_qs, u"created_at"_qs, u"delivered_at"_qs,
                u"last_error_category"_qs, u"last_error"_qs}},
        {"delivery_attempt",
            {u"attempt_id"_qs, u"event_id"_qs, u"attempt_no"_qs, u"worker"_qs, u"claim_token"_qs,
                u"claimed_at"_qs, u"finished_at"_qs, u"outcome"_qs, u"error_category"_qs,
                u"error_message"_qs, u"consumer_result"_qs, u"next_attempt_at"_qs}},
        {"consumer_ledger", {u"event_id"_qs, u"applied_at"_qs}},
        {"consumer_stock", {u"sku"_qs, u"quantity"_qs}},
        {"replay_log",
            {u"replay_id"_qs, u"event_id"_qs, u"replayed_at"_qs, u"operator"_qs, u"reason"_qs,
                u"reset_failures"_qs, u"failures_before"_qs}},
        {"outbox_meta", {u"key"_qs, u"value"_qs}},
    };
    return tables;
}

QStringList statementsOf(const QString &script)
{
    QStringList lines;
    for (const QString &line : script.split(QLatin1Char('\n'))) {
        if (!line.trimmed().startsWith(QLatin1String("--")))
            lines << line;
    }
    QStringList statements;
    for (const QString &statement : lines.join(QLatin1Char('\n')).split(QLatin1Char(';'))) {
        if (!statement.trimmed().isEmpty())
            statements << statement.trimmed();
    }
    return statements;
}

// SQLite keeps whatever is written: text in an INTEGER column ("yesterday" as created_at) is
// stored as text and would read as 0. The columns the health figures and replay read are
// checked where they are read, through the indexes that cover them (never the payload pages):
// created_at of every row, the times and failures of PENDING rows, failures of DEAD rows.
struct TypeCheck
{
    const char *rows; // SQL condition
    QStringList columns;
};

const QList<TypeCheck> &typeChecks()
{
    static const QList<TypeCheck> checks = {
        {"1 = 1", {u"created_at"_qs}},
        {"status = 'PENDING'", {u"next_attempt_at"_qs, u"lease_until"_qs, u"failures"_qs}},
        {"status = 'DEAD'", {u"failures"_qs}},
    };
    return checks;
}

// Empty when every checked column holds whole numbers (or NULL); otherwise one clause per
// column, e.g. "delivery_outbox: column created_at holds text, not a whole number, in 1 row
// (e.g. 'yesterday')". An engine with strict column types (PostgreSQL) enforces them itself.
QString wrongTypes(const QSqlDatabase &db)
{
    if (SqlDialect::of(db).can().strictColumnTypes)
        return {};
    QMap<QString, std::pair<qint64, QString>> bad; // column -> rows, an example value
    for (const TypeCheck &check : typeChecks()) {
        QStringList select;
        for (const QString &column : check.columns) {
            const QString wrong
                = QStringLiteral("typeof(%1) NOT IN ('integer', 'null')").arg(column);
            // clang-format off
            select << QStringLiteral(
                "COUNT(CASE WHEN %1 THEN 1 END),"
                " MIN(CASE WHEN %1 THEN CAST(%2 AS TEXT) END)").arg(wrong, column);
            // clang-format on
        }
        QSqlQuery query(db);
        query.setForwardOnly(true);
        // clang-format off
        if (!query.exec(QStringLiteral("SELECT ") + select.join(QStringLiteral(", "))
                + QStringLiteral(" FROM delivery_outbox WHERE ") + QLatin1String(check.rows))
            || !query.next())
            return QStringLiteral("delivery_outbox: cannot check column types: %1")
                .arg(QueryError::text(query));
        // clang-format on
        for (qsizetype i = 0; i < check.columns.size(); ++i) {
            const qint64 rows = query.value(int(2 * i)).toLongLong();
            if (rows == 0)
                continue;
            auto &entry = bad[check.columns.at(i)];
            entry.first += rows;
            if (entry.second.isEmpty())
                entry.second = query.value(int(2 * i + 1)).toString();
        }
    }
    QStringList clauses;
    for (auto it = bad.cbegin(); it != bad.cend(); ++it) {
        clauses << QStringLiteral("delivery_outbox: column %1 holds values that are not whole "
                                  "numbers in %2 row%3 (e.g. '%4')")
                       .arg(it.key())
                       .arg(it.value().first)
                       .arg(it.value().first == 1 ? QString() : QStringLiteral("s"),
                           it.value().second.left(40));
    }
    return clauses.join(QStringLiteral("; "));
}

// An index's key columns as a script writes them: "status, aggregate_type(100), created_at".
QStringList keyColumnsOf(const QString &list)
{
    static const QRegularExpression item(QStringLiteral(R"((\w+)\s*(?:\(\s*(\d+)\s*\))?)"));
    QStringList columns;
    const QString inner = list.mid(1, list.size() - 2);
    for (auto it = item.globalMatch(inner); it.hasNext();) {
        const QRegularExpressionMatch found = it.next();
        columns << (found.captured(2).isEmpty()
                ? found.captured(1).toLower()
                : QStringLiteral("%1(%2)").arg(found.captured(1).toLower(), found.captured(2)));
    }
    return columns;
}

// The key columns the database has for index `name`, the same way; empty when it has no such
// index. False with *error when the catalogue cannot be read.
bool keyColumnsIn(const QSqlDatabase &db, const QString &name, QStringList *columns, QString *error)
{
    QSqlQuery query(db);
    query.setForwardOnly(true);
    if (!QueryError::exec(query, SqlDialect::of(db).indexColumnsSql(name), error))
        return false;
    while (query.next()) {
        const QString column = query.value(0).toString().toLower();
        *columns << (query.value(1).isNull()
                ? column
                : QStringLiteral("%1(%2)").arg(column, query.value(1).toString()));
    }
    return true;
}

// A schema script that declares its indexes inside CREATE TABLE IF NOT EXISTS (MySQL's, which
// has no CREATE INDEX IF NOT EXISTS in version 8) adds none to a table that exists already. Each
// such index the database lacks (a table made by an older script) is added with ALTER TABLE, and
// one an older script defined with other key columns (version 2's delivery_outbox_pending had
// no claim_token) is dropped and added again, in one ALTER TABLE.
// The names are the script's own constants; scripts with CREATE INDEX statements have none here.
bool addMissingIndexes(const QSqlDatabase &db, const QString &statement, QString *error)
{
    static const QRegularExpression table(
        QStringLiteral(R"(^CREATE\s+TABLE\s+IF\s+NOT\s+EXISTS\s+(\w+)\s*\()"),
        QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression index(
        QStringLiteral(R"(^\s*INDEX\s+(\w+)\s*(\((?:[^()]|\([^()]*\))*\)))"),
        QRegularExpression::CaseInsensitiveOption | QRegularExpression::MultilineOption);
    const QRegularExpressionMatch head = table.match(statement);
    if (!head.hasMatch())
        return true;
    for (auto it = index.globalMatch(statement); it.hasNext();) {
        const QRegularExpressionMatch found = it.next();
        const QString name = found.captured(1);
        const QString keys = found.captured(2).simplified();
        QStringList present;
        if (!keyColumnsIn(db, name, &present, error))
            return false;
        if (present == keyColumnsOf(keys))
            continue;
        const QString drop
            = present.isEmpty() ? QString() : QStringLiteral("DROP INDEX %1, ").arg(name);
        if (!QueryError::exec(db,
                QStringLiteral("ALTER TABLE %1 %2ADD INDEX %3 %4")
                    .arg(head.captured(1), drop, name, keys),
                error))
            return false;
    }
    return true;
}

} // namespace

namespace Schema {

QString validate(const QSqlDatabase &db)
{
    QStringList missingTables;
    QStringList gaps;
    for (const TableColumns &table : nativeTables()) {
        const QString name = QString::fromLatin1(table.table);
        const QSqlRecord record = db.record(name);
        if (record.isEmpty()) {
            missingTables << name;
            continue;
        }
        QStringList missing;
        for (const QString &column : table.columns) {
            if (!record.contains(column))
                missing << column;
        }
        if (!missing.isEmpty())
            gaps << QStringLiteral("%1: missing column%2 %3")
                        .arg(name, missing.size() == 1 ? QString() : QStringLiteral("s"),
                            missing.join(QStringLiteral(", ")));
    }
    // No native table at all: the schema is simply absent, and the first table says so.
    if (missingTables.size() == nativeTables().size())
        missingTables = missingTables.mid(0, 1);
    if (!missingTables.isEmpty())
        gaps.prepend(QStringLiteral("missing table%1 %2 (run `outboxctl init --db URL` to create "
                                    "the schema)")
                         .arg(missingTables.size() == 1 ? QString() : QStringLiteral("s"),
                             missingTables.join(QStringLiteral(", "))));
    if (!gaps.isEmpty())
        return gaps.join(QStringLiteral("; "));
    return wrongTypes(db);
}

bool runScript(const QSqlDatabase &db, QString *error)
{
    const SqlDialect &dialect = SqlDialect::of(db);
    QFile file(dialect.schemaResource());
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("schema resource missing: %1").arg(file.fileName());
        return false;
    }
    // "relation already exists, skipping" notices are expected on a re-run
    dialect.setNoticeLevel(db, SqlDialect::NoticeLevel::Warning, SqlDialect::Scope::Transaction);
    for (const QString &statement : statementsOf(QString::fromUtf8(file.readAll()))) {
        if (!QueryError::exec(db, statement, error) || !addMissingIndexes(db, statement, error))
            return false;
    }
    return true;
}

bool recordVersion(const QSqlDatabase &db, int version, QString *error)
{
    QSqlQuery query(db);
    query.prepare(QStringLiteral("DELETE FROM outbox_meta WHERE \"key\" = 'schema_version'"));
    if (!query.exec()) {
        *error = QueryError::text(query);
        return false;
    }
    query.prepare(QStringLiteral(
        "INSERT INTO outbox_meta (\"key\", value) VALUES ('schema_version', :version)"));
    query.bindValue(QStringLiteral(":version"), QString::number(version));
    if (!query.exec()) {
        *error = QueryError::text(query);
        return false;
    }
    return true;
}

int version(const QSqlDatabase &db, QString *error)
{
    QString scratch;
    if (!error)
        error = &scratch;
    if (db.record(QStringLiteral("outbox_meta")).isEmpty())
        return 1;
    QSqlQuery query(db);
    query.setForwardOnly(true);
    query.prepare(QStringLiteral("SELECT value FROM outbox_meta WHERE \"key\" = 'schema_version'"));
    if (!query.exec()) {
        *error = QueryError::text(query);
        return -1;
    }
    if (!query.next())
        return 1;
    bool ok = false;
    const int found = query.value(0).toString().trimmed().toInt(&ok);
    if (!ok || found < 1 || found > CurrentVersion) {
        *error = QStringLiteral("outbox_meta.schema_version is '%1', not a version this program "
                                "knows (1 to %2): a newer program made this database")
                     .arg(query.value(0).toString().left(40))
                     .arg(CurrentVersion);
        return -1;
    }
    return found;
}

QString outdatedMessage(int version, int needed)
{
    if (version >= needed)
        return {};
    const QString missing = version < ResolveVersion
        ? QStringLiteral("no RESOLVED state, no resolve_log")
        : QStringLiteral("no notes, no payload revisions");
    return QStringLiteral("the schema is version %1, older than this program's version %2 (%3): "
                          "run `outboxctl migrate --db URL`")
        .arg(version)
        .arg(CurrentVersion)
        .arg(missing);
}

QString outdated(const QSqlDatabase &db)
{
    QString error;
    const int found = version(db, &error);
    return found < 0 ? error : outdatedMessage(found);
}

bool create(const QSqlDatabase &db, QString *error)
{
    const bool fresh = db.record(QStringLiteral("delivery_outbox")).isEmpty();
    QSqlDatabase handle = db;
    if (!handle.transaction()) {
        *error = QueryError::text(handle);
        return false;
    }
    if (!runScript(db, error) || (fresh && !recordVersion(db, CurrentVersion, error))) {
        handle.rollback();
        return false;
    }
    if (!handle.commit()) {
        *error = QueryError::text(handle);
        return false;
    }
    for (const QString &statement : SqlDialect::of(db).afterSchemaStatements())
        QSqlQuery(db).exec(statement);
    return true;
}

bool markForSimulation(const QSqlDatabase &db, QString *error)
{
    QSqlQuery query(db);
    query.prepare(QStringLiteral("DELETE FROM outbox_meta WHERE \"key\" = 'purpose'"));
    if (!query.exec()) {
        *error = QueryError::text(query);
        return false;
    }
    query.prepare(QStringLiteral(
        "INSERT INTO outbox_meta (\"key\", value) VALUES ('purpose', 'simulation')"));
    if (!query.exec()) {
        *error = QueryError::text(query);
        return false;
    }
    return true;
}

bool isMarkedForSimulation(const QSqlDatabase &db)
{
    QSqlQuery query(db);
    query.prepare(QStringLiteral("SELECT value FROM outbox_meta WHERE \"key\" = 'purpose'"));
    return query.exec() && query.next() && query.value(0).toString() == QLatin1String("simulation");
}

QStringList simulationDataTables(const QSqlDatabase &db)
{
    // resolve_log (version 2), reopen_log and payload_revision go first: they reference
    // delivery_outbox; operator_note (version 3) is emptied with them.
    QStringList tables;
    for (const QString &log : {QStringLiteral("resolve_log"), QStringLiteral("reopen_log"),
             QStringLiteral("payload_revision"), QStringLiteral("operator_note")}) {
        if (!db.record(log).isEmpty())
            tables << log;
    }
    const QList<TableColumns> &native = nativeTables();
    for (auto it = native.crbegin(); it != native.crend(); ++it) {
        if (qstrcmp(it->table, "outbox_meta") != 0)
            tables << QString::fromLatin1(it->table);
    }
    return tables;
}

bool clearSimulationData(const QSqlDatabase &db, QString *error)
{
    QSqlDatabase handle = db;
    if (!handle.transaction()) {
        *error = QueryError::text(handle);
        return false;
    }
    for (const QString &table : simulationDataTables(db)) {
        if (!QueryError::exec(db, QStringLiteral("DELETE FROM ") + table, error)) {
            handle.rollback();
            return false;
        }
    }
    return handle.commit();
}

} // namespace Schema
