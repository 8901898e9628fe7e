// SQLite through Qt's QSQLITE driver: a file, one writer at a time.
#include "databaseurl.h"
#include "dbconnection.h"
#include "queryerror.h"
#include "sqldialect.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>
#include <sys/stat.h>

#include <cmath>
#include <utility>

namespace {

// What a path names when it is not a regular file: opening a FIFO would block until a writer
// came, and a device (/dev/zero) is never a database. Empty for a regular file or none at all.
QString notRegularFile(const QString &path)
{
    struct stat status = {};
    if (::stat(QFile::encodeName(path).constData(), &status) != 0)
        return {};
    if (S_ISREG(status.st_mode))
        return {};
    if (S_ISDIR(status.st_mode))
        return QStringLiteral("a directory");
    if (S_ISFIFO(status.st_mode))
        return QStringLiteral("a FIFO");
    if (S_ISSOCK(status.st_mode))
        return QStringLiteral("a socket");
    return QStringLiteral("a device");
}

// SQLite's files start with this header; an empty file is a new, empty database.
bool hasSqliteHeader(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return true; // unreadable: the open names the cause in the driver's words
    const QByteArray header = file.read(16);
    return header.isEmpty() || header == QByteArray("SQLite format 3", 16);
}

// Off by default in every new session; a table rebuild turns them off around its transaction
// (the pragma does nothing inside one).
const QString ForeignKeysOn = QStringLiteral("PRAGMA foreign_keys = ON");

// PostgreSQL's @> written with json_type, json_extract and json_each: each key of an object
// and each element of an array becomes a condition on the path it names in the document, every
// path and value bound. Inside json_each the path continues from the element's fullkey.
class JsonContainment
{
public:
    JsonContainment(QString document, QString prefix, SqlDialect::BoundValues *values)
        : m_document(std::move(document))
        , m_prefix(std::move(prefix))
        , m_values(values)
    {
    }

    QString contains(const QJsonValue &fragment) { return containsAt({}, u"$"_qs, fragment); }

private:
    QString bind(const QVariant &value)
    {
        const QString name = m_prefix + QString::number(m_values->size());
        m_values->append({name, value});
        return name;
    }

    // base: an SQL expression of a path (an element's fullkey), or empty for the root `$`.
    QString path(const QString &base, const QString &suffix)
    {
        if (base.isEmpty())
            return bind(suffix);
        // An empty suffix would be bound as NULL, and `fullkey || NULL` is NULL.
        return suffix.isEmpty() ? base : u"(%1 || %2)"_qs.arg(base, bind(suffix));
    }

    QString typeIs(const QString &at, const QString &types)
    {
        return u"json_type(%1, %2) IN (%3)"_qs.arg(m_document, at, types);
    }

    QString containsAt(const QString &base, const QString &suffix, const QJsonValue &fragment)
    {
        const QString at = path(base, suffix);
        QStringList conditions;
        if (fragment.isObject()) {
            conditions << typeIs(at, u"'object'"_qs);
            const QJsonObject object = fragment.toObject();
            for (auto it = object.constBegin(); it != object.constEnd(); ++it) {
                conditions << containsAt(base,
                    suffix + QStringLiteral(".\"") + it.key() + QLatin1Char('"'), it.value());
            }
        } else if (fragment.isArray()) {
            conditions << typeIs(at, u"'array'"_qs);
            for (const QJsonValue element : fragment.toArray()) {
                const QString each = u"j%1"_qs.arg(++m_aliases);
                conditions << u"EXISTS (SELECT 1 FROM json_each(%1, %2) AS %3 WHERE %4)"_qs.arg(
                    m_document, at, each, containsAt(each + u".fullkey"_qs, {}, element));
            }
        } else if (fragment.isString()) {
            conditions << typeIs(at, u"'text'"_qs)
                       << u"json_extract(%1, %2) = %3"_qs.arg(
                              m_document, at, bind(fragment.toString()));
        } else if (fragment.isDouble()) {
            const double number = fragment.toDouble();
            const bool integral = std::trunc(number) == number && std::abs(number) < 9.0e15;
            conditions << typeIs(at, u"'integer', 'real'"_qs)
                       << u"json_extract(%1, %2) = %3"_qs.arg(m_document, at,
                              bind(integral ? QVariant(qint64(number)) : QVariant(number)));
        } else if (fragment.isBool()) {
            conditions << typeIs(at, fragment.toBool() ? u"'true'"_qs : u"'false'"_qs);
        } else {
            conditions << typeIs(at, u"'null'"_qs);
        }
        return u"("_qs + conditions.join(u" AND "_qs) + u")"_qs;
    }

    QString m_document;
    QString m_prefix;
    SqlDialect::BoundValues *m_values;
    int m_aliases = 0;
};

SqlDialect::Traits sqliteTraits()
{
    SqlDialect::Traits t;
    t.engine = Engine::Sqlite;
    t.qtDriver = QStringLiteral("QSQLITE");
    t.urlSchemes = QStringList {QStringLiteral("sqlite")};
    t.keyPrefix = QStringLiteral("sqlite");
    t.title = QStringLiteral("SQLite");
    t.driverPackage = QStringLiteral("libqt6sql6-sqlite");
    t.can.arrayParameters = true; // json_each()
    t.can.transactionalDdl = true;
    t.can.fileDatabase = true;
    t.can.insertReturning = true; // since SQLite 3.35
    // IMMEDIATE: a reader which later writes never deadlocks against another writer; the busy
    // timeout then queues writers instead of failing them.
    t.beginWrite = QStringLiteral("BEGIN IMMEDIATE");
    t.beginReadWrite = QStringLiteral("BEGIN");
    t.integerType = QStringLiteral("INTEGER");
    t.schemaResource = QStringLiteral(":/sql/sqlite.sql");
    // Readers (the dashboard) and one writer (the relay) at once.
    t.afterSchema = QStringList {QStringLiteral("PRAGMA journal_mode = WAL")};
    // A simulation database: a crash mid-way may lose the file, which generate recreates.
    t.bulkLoad = QStringList {QStringLiteral("PRAGMA synchronous = OFF")};
    // Many short transactions (WAL) without a sync each: no power-loss durability needed.
    t.simulationSession = QStringList {QStringLiteral("PRAGMA synchronous = NORMAL")};
    // No dollar quotes, no nested comments; [name] and `name` identifiers.
    t.readings = {{false, false, false, false, true}};
    return t;
}

class SqliteDialect final : public SqlDialect
{
public:
    SqliteDialect()
        : SqlDialect(sqliteTraits())
    { }

    bool configure(QSqlDatabase &db, const DatabaseUrl &url, const OpenOptions &options,
        QString *error) const override
    {
        const QFileInfo file(url.path());
        const QString kind = notRegularFile(url.path());
        if (!kind.isEmpty()) {
            *error = QStringLiteral("not a SQLite database: %1 is %2, not a file")
                         .arg(url.path(), kind);
            return false;
        }
        if (!options.allowCreate && !file.exists()) {
            *error = QStringLiteral("SQLite database file not found: %1").arg(url.path());
            return false;
        }
        if (file.exists() && !hasSqliteHeader(url.path())) {
            *error = QStringLiteral("not a SQLite database: %1").arg(url.path());
            return false;
        }
        db.setDatabaseName(url.path());
        QString connectOptions = QStringLiteral("QSQLITE_BUSY_TIMEOUT=10000");
        if (options.readOnly)
            connectOptions += QStringLiteral(";QSQLITE_OPEN_READONLY");
        db.setConnectOptions(connectOptions);
        return true;
    }

    bool startSession(const QSqlDatabase &db, QString *) const override
    {
        exec(db, ForeignKeysOn);
        return true;
    }

    // PRAGMA query_only for the transaction's lifetime; *restore when it was off before.
    bool beginReadOnly(const QSqlDatabase &db, bool *restore, QString *error) const override
    {
        *restore = false;
        QSqlQuery query(db);
        if (!query.exec(QStringLiteral("PRAGMA query_only")) || !query.next()) {
            *error = QueryError::text(query);
            return false;
        }
        *restore = !query.value(0).toBool();
        query.finish();
        if (query.exec(QStringLiteral("PRAGMA query_only = ON"))
            && query.exec(QStringLiteral("BEGIN")))
            return true;
        *error = QueryError::text(query);
        return false;
    }

    void endReadOnly(const QSqlDatabase &db, bool active, bool restore) const override
    {
        SqlDialect::endReadOnly(db, active, restore);
        if (restore)
            exec(db, QStringLiteral("PRAGMA query_only = OFF"));
    }

    QString idSetSelect(const QString &placeholder) const override
    {
        return QStringLiteral("SELECT value FROM json_each(%1)").arg(placeholder);
    }

    // json_each walks each array once, in C; its key is the position, its value an element's
    // JSON text; a window counts the elements (json_array_length per element would parse the
    // text again for each). The event's row is read first: json_each has columns of its own
    // (id, key, value...) that would clash with the event's. Text that is not a JSON array
    // reads as an empty one.
    QString jsonArrayElementsSql(const QString &eventId, const QString &from, const QString &where,
        const QString &array, int cap) const override
    {
        // clang-format off
        return QStringLiteral(
            "SELECT event_id, attempt, ordinal FROM ("
            "SELECT event_rows.event_id AS event_id, attempt_elements.value AS attempt,"
            "       attempt_elements.key AS ordinal,"
            "       COUNT(*) OVER (PARTITION BY event_rows.event_id) AS attempt_count"
            "  FROM (SELECT (%1) AS event_id, CASE WHEN json_valid(%3) AND json_type(%3) = 'array'"
            "       THEN %3 ELSE '[]' END AS attempt_array FROM %2%5) AS event_rows"
            " CROSS JOIN json_each(event_rows.attempt_array) AS attempt_elements) AS attempt_rows"
            " WHERE ordinal >= attempt_count - %4")
            .arg(eventId, from, array, QString::number(cap),
                where.isEmpty() ? QString() : QStringLiteral(" WHERE ") + where);
        // clang-format on
    }

    // json_valid first (CASE keeps the order): json_type fails the statement on text that is
    // not JSON.
    QString jsonContainsCondition(const QString &column, const QJsonValue &fragment,
        const QString &prefix, BoundValues *values) const override
    {
        const QString condition = JsonContainment(column, prefix, values).contains(fragment);
        return u"(CASE WHEN json_valid(%1) THEN %2 ELSE 0 END) = 1"_qs.arg(column, condition);
    }

    QString tableExistsSql(const QString &name) const override
    {
        return existsSql(QStringLiteral("table"), name);
    }

    QString indexExistsSql(const QString &name) const override
    {
        return existsSql(QStringLiteral("index"), name);
    }

    // SQLite's documented way to change a constraint: a new table from the old one's own
    // definition, with foreign keys off around it and checked by hand before the commit.
    QString foreignKeysOffForRebuildSql() const override
    {
        return QStringLiteral("PRAGMA foreign_keys = OFF");
    }

    QString foreignKeysOnAfterRebuildSql() const override { return ForeignKeysOn; }

    QString foreignKeyCheckSql() const override
    {
        return QStringLiteral("PRAGMA foreign_key_check");
    }

    QString tableDefinitionSql(const QString &table) const override
    {
        return QStringLiteral("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = %1")
            .arg(literal(table));
    }

    // Not the automatic indexes (of UNIQUE and PRIMARY KEY): they have no SQL of their own.
    QString tableDependentsSql(const QString &table) const override
    {
        return QStringLiteral("SELECT sql FROM sqlite_master WHERE tbl_name = %1"
                              " AND type IN ('index', 'trigger') AND sql IS NOT NULL")
            .arg(literal(table));
    }

private:
    static QString existsSql(const QString &type, const QString &name)
    {
        return QStringLiteral("SELECT COUNT(*) FROM sqlite_master WHERE type = '%1' AND name = %2")
            .arg(type, literal(name));
    }

    // No roles: a file (or its folder, where the journal goes) this process may not write
    // refuses every write. The connection's own open mode does not count: a read-only one
    // (outboxctl --dry-run, the window's workers) asks for what a writing one could do.
    std::optional<bool> mayWrite(const QSqlDatabase &db, const QString &, const QString &,
        const QStringList &, QString *) const override
    {
        const QFileInfo file(db.databaseName());
        if (!file.exists())
            return true;
        return file.isWritable() && QFileInfo(file.absolutePath()).isWritable();
    }
};

} // namespace

const SqlDialect &sqliteDialect()
{
    static const SqliteDialect dialect;
    return dialect;
}
