#include "outboxprofile.h"

#include "failurecause.h"
#include "profileregistry.h"
#include "readonlytransaction.h"
#include "schema.h"
#include "sqldialect.h"

#include <QRegularExpression>
#include <QSqlError>
#include <QSqlQuery>

#include <algorithm>

namespace {

using Column = OutboxProfile::Column;
using Engine = OutboxProfile::Engine;

const std::array<const char *, OutboxProfile::ColumnCount> &columnNames()
{
    static const std::array<const char *, OutboxProfile::ColumnCount> names
        = {"event_id", "aggregate_type", "aggregate_id", "event_type", "payload", "status",
            "failures", "next_attempt_at", "claim_token", "lease_until", "created_at",
            "delivered_at", "last_error_category", "last_error"};
    return names;
}

// The logical type every expression is cast to, so that the native queries (LOWER(event_id),
// next_attempt_at <= :now, ...) see the types they were written for.
QString typeOf(Column column, Engine engine)
{
    switch (column) {
    case Column::Failures:
        return SqlDialect::of(engine).countType();
    case Column::NextAttemptAt:
    case Column::LeaseUntil:
    case Column::CreatedAt:
    case Column::DeliveredAt:
        return SqlDialect::of(engine).integerType();
    default:
        return SqlDialect::of(engine).textType();
    }
}

bool isTime(Column column)
{
    return column == Column::NextAttemptAt || column == Column::LeaseUntil
        || column == Column::CreatedAt || column == Column::DeliveredAt;
}

} // namespace

// The database's own words, one line: PostgreSQL's "ERROR:  column "x" does not exist\nLINE 1:
// ..." becomes `column "x" does not exist`.
QString OutboxProfile::databaseWords(const QSqlError &error)
{
    QString text = error.databaseText().trimmed();
    if (text.isEmpty())
        text = error.text().trimmed();
    text = text.section(QLatin1Char('\n'), 0, 0).trimmed();
    if (text.startsWith(QLatin1String("ERROR:")))
        text = text.mid(6).trimmed();
    return text.simplified();
}

// Why the transaction refused a statement: the database's words when it was the database.
QString OutboxProfile::wordsOf(const ReadOnlyTransaction &transaction)
{
    return transaction.lastError().isValid() ? databaseWords(transaction.lastError())
                                             : transaction.errorText();
}

bool OutboxProfile::usesNow(const QString &sql)
{
    static const QRegularExpression now(QStringLiteral(":now\\b"));
    return now.match(sql).hasMatch();
}

OutboxProfile::Engine OutboxProfile::engineOf(const QSqlDatabase &db)
{
    return SqlDialect::of(db).engine();
}

QString OutboxProfile::sourceOf(const OutboxProfile *profile, const QSqlDatabase &db)
{
    return profile ? profile->source(engineOf(db)) : QStringLiteral("delivery_outbox");
}

QString OutboxProfile::engineName(Engine engine)
{
    return SqlDialect::of(engine).keyPrefix();
}

QString OutboxProfile::engineTitle(Engine engine)
{
    return SqlDialect::of(engine).title();
}

QString OutboxProfile::columnName(Column column)
{
    return QString::fromLatin1(columnNames().at(int(column)));
}

std::optional<OutboxProfile::Column> OutboxProfile::columnFromName(const QString &name)
{
    for (int i = 0; i < ColumnCount; ++i) {
        if (name == QLatin1String(columnNames().at(i)))
            return Column(i);
    }
    return std::nullopt;
}

QString OutboxProfile::cdcSlotFor(const QString &given, const std::optional<OutboxProfile> &profile)
{
    return !given.isEmpty() || !profile ? given : profile->cdcSlot();
}

QString OutboxProfile::cdcSlotProblem(const QString &name)
{
    static const QRegularExpression valid(QStringLiteral("^[a-z0-9_]{1,63}$"));
    if (valid.match(name).hasMatch())
        return {};
    // Shown as given, but bounded and without control characters (a hostile argument).
    QString shown = name.size() > 70 ? name.left(64) + QStringLiteral("...") : name;
    for (QChar &c : shown) {
        if (!c.isPrint())
            c = QLatin1Char('?');
    }
    return QStringLiteral("'%1' is not a replication slot name (1-63 of a-z, 0-9, _)").arg(shown);
}

bool OutboxProfile::isRequired(Column column)
{
    return column == Column::EventId || column == Column::Status || column == Column::NextAttemptAt;
}

QString OutboxProfile::expression(Column column, Engine engine) const
{
    return m_columns.at(int(column)).at(int(engine));
}

QStringList OutboxProfile::notAvailable() const
{
    QStringList out;
    for (int i = 0; i < ColumnCount; ++i) {
        if (m_unavailable.at(i))
            out << columnName(Column(i));
    }
    if (!hasAttemptList())
        out << QStringLiteral("attempt_history");
    if (!m_native)
        out << QStringLiteral("replay_log");
    return out;
}

QStringList OutboxProfile::notAvailableCounts() const
{
    QStringList out;
    if (!hasClaims())
        out << QStringLiteral("in_flight");
    if (!hasLeases())
        out << QStringLiteral("lease_expired");
    if (!m_statuses.contains(QLatin1String("DELIVERED")))
        out << QStringLiteral("delivered");
    if (!m_statuses.contains(QLatin1String("DEAD")))
        out << QStringLiteral("dead");
    return out;
}

QString OutboxProfile::castExpression(Column column, Engine engine) const
{
    const QString type = typeOf(column, engine);
    if (column == Column::LeaseUntil && !isAvailable(column) && hasClaims()) {
        return QStringLiteral("CAST(CASE WHEN (%1) IS NOT NULL THEN 9223372036854775807 END AS %2)")
            .arg(expression(Column::ClaimToken, engine), type);
    }
    if (!isAvailable(column))
        return QStringLiteral("CAST(NULL AS %1)").arg(type);
    const QString sql = isTime(column) ? m_timeZone.toEpochSql(expression(column, engine))
                                       : expression(column, engine);
    return QStringLiteral("CAST((%1) AS %2)").arg(sql, type);
}

QString OutboxProfile::source(Engine engine) const
{
    if (m_native)
        return QStringLiteral("delivery_outbox");
    QStringList select;
    for (int i = 0; i < ColumnCount; ++i)
        select << castExpression(Column(i), engine) + QLatin1String(" AS ") + columnName(Column(i));
    QString sql = QLatin1String("(SELECT ") + select.join(QLatin1String(", "))
        + attemptLimitColumn(engine) + QLatin1String(" FROM ") + from(engine);
    if (!where(engine).isEmpty())
        sql += QLatin1String(" WHERE ") + where(engine);
    return sql + QLatin1String(") AS delivery_outbox");
}

QString OutboxProfile::attemptLimitColumn(Engine engine) const
{
    if (!hasAttemptLimit())
        return {};
    return QStringLiteral(", CAST((%1) AS %2) AS attempt_limit")
        .arg(m_attemptLimit.at(int(engine)).isEmpty() ? QStringLiteral("NULL")
                                                      : m_attemptLimit.at(int(engine)),
            SqlDialect::of(engine).countType());
}

bool OutboxProfile::hasAttemptLimit() const
{
    return std::any_of(m_attemptLimit.cbegin(), m_attemptLimit.cend(),
        [](const QString &expression) { return !expression.isEmpty(); });
}

QString OutboxProfile::attemptSource(Engine engine, const QString &oneEvent) const
{
    if (m_native)
        return QStringLiteral("delivery_attempt");
    if (m_attempts.kind == AttemptMapping::Kind::None)
        return {};
    return m_attempts.source(
        engine, expression(Column::EventId, engine), from(engine), where(engine), oneEvent);
}

// The attempt mapping and the attempt limit, each read once (WHERE 1 = 0), blaming the field
// that names them.
QString OutboxProfile::probeAttempts(ReadOnlyTransaction &transaction, Engine engine) const
{
    QString error;
    if (hasAttemptLimit()) {
        error = probe(transaction,
            QStringLiteral("SELECT attempt_limit FROM %1 WHERE 1 = 0").arg(source(engine)),
            QStringLiteral("attempt_limit"), engine);
    }
    if (error.isEmpty() && m_attempts.kind != AttemptMapping::Kind::None) {
        error = probe(transaction,
            QStringLiteral("SELECT * FROM %1 WHERE 1 = 0").arg(attemptSource(engine)),
            QStringLiteral("attempts"), engine);
    }
    return error;
}

int OutboxProfile::lineOfField(const QString &field, Engine engine) const
{
    const int specific = lineOf(engineName(engine) + QLatin1Char('.') + field);
    return specific ? specific : lineOf(field);
}

// Runs a statement that reads nothing (WHERE 1 = 0) in the read-only transaction and blames
// `field` when it fails.
QString OutboxProfile::probe(
    ReadOnlyTransaction &transaction, const QString &sql, const QString &field, Engine engine) const
{
    QSqlQuery *query = transaction.prepare(sql);
    if (query && query->exec())
        return {};
    return QStringLiteral("%1: field %2 (%3:%4): %5")
        .arg(m_name, field, m_origin)
        .arg(lineOfField(field, engine))
        .arg(query ? databaseWords(query->lastError()) : wordsOf(transaction));
}

QStringList OutboxProfile::supportedTitles() const
{
    QStringList titles;
    for (const Engine engine : AllEngines) {
        if (supports(engine))
            titles << engineTitle(engine);
    }
    return titles;
}

QString OutboxProfile::wrongEngine(Engine engine) const
{
    return QStringLiteral("%1: the profile is for %2 only, not for %3")
        .arg(m_name, supportedTitles().join(QStringLiteral(" and ")), engineTitle(engine));
}

QString OutboxProfile::validate(const QSqlDatabase &db) const
{
    const Engine engine = engineOf(db);
    if (!supports(engine))
        return wrongEngine(engine);
    if (m_native)
        return Schema::validate(db);
    QString error = probeFields(db, engine);
    if (error.isEmpty())
        error = newerVersionFound(db);
    return error;
}

// Every field's probe, in one read-only transaction; the action statements are prepared there
// too, never run (profilestatements.cpp; one the read-only transaction refuses to prepare is
// prepared just after it ended).
QString OutboxProfile::probeFields(const QSqlDatabase &db, Engine engine) const
{
    QList<Action> outside;
    {
        ReadOnlyTransaction transaction(db);
        if (!transaction.isActive())
            return QStringLiteral("%1: %2").arg(m_name, transaction.errorText());
        const QString table = from(engine);
        QString error = probe(transaction,
            QLatin1String("SELECT 1 FROM ") + table + QLatin1String(" WHERE 1 = 0"),
            QStringLiteral("from"), engine);
        if (error.isEmpty() && !where(engine).isEmpty()) {
            error = probe(transaction,
                QStringLiteral("SELECT 1 FROM %1 WHERE (%2) AND 1 = 0").arg(table, where(engine)),
                QStringLiteral("where"), engine);
        }
        for (int i = 0; i < ColumnCount && error.isEmpty(); ++i) {
            if (!m_unavailable.at(i)) {
                error = probe(transaction,
                    QStringLiteral("SELECT %1 FROM %2 WHERE 1 = 0")
                        .arg(castExpression(Column(i), engine), table),
                    columnName(Column(i)), engine);
            }
        }
        if (error.isEmpty())
            error = probeAttempts(transaction, engine);
        if (error.isEmpty())
            error = probeStatements(transaction, engine, &outside);
        if (!error.isEmpty())
            return error;
    }
    for (const Action action : std::as_const(outside)) {
        if (const QString error = probeOutside(db, engine, action); !error.isEmpty())
            return error;
    }
    return {};
}

// A built-in profile for an older version of a library validates on the newer table too (the
// old columns are still there) but reads it wrongly: name the profile that fits.
QString OutboxProfile::newerVersionFound(const QSqlDatabase &db) const
{
    if (m_newer.isEmpty())
        return {};
    QString ignored;
    const std::optional<OutboxProfile> newer = ProfileRegistry::byName(m_newer, &ignored);
    if (!newer || !newer->isPresent(db))
        return {};
    return QStringLiteral("%1: this table is a newer version of the library (%2's schema was"
                          " found): use --profile %2")
        .arg(m_name, m_newer);
}

bool OutboxProfile::isPresent(const QSqlDatabase &db, QString *error) const
{
    const Engine engine = engineOf(db);
    const QString sql = m_detect.at(int(engine));
    if (!supports(engine) || sql.isEmpty())
        return false;
    ReadOnlyTransaction transaction(db);
    QSqlQuery *query = transaction.prepare(sql);
    if (!query || !query->exec()) {
        if (error)
            *error = QStringLiteral("%1: field detect: %2")
                         .arg(m_name,
                             query ? databaseWords(query->lastError()) : wordsOf(transaction));
        return false;
    }
    return query->next();
}
