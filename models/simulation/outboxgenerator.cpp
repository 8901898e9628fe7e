#include "outboxgenerator.h"

#include "schema.h"
#include "sqldialect.h"
#include "sqltransaction.h"
#include "syntheticevent.h"

#include <QElapsedTimer>
#include <QFile>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>

namespace {

bool exec(const QSqlDatabase &db, const QString &sql, QString *error)
{
    QSqlQuery query(db);
    if (query.exec(sql))
        return true;
    *error = query.lastError().text().simplified();
    return false;
}

bool failed(const QSqlQuery &query, QString *error)
{
    *error = query.lastError().text().simplified();
    return false;
}

// The generator statement without its comment lines: Qt would read a colon followed by a
// letter in a comment as a placeholder.
QString postgresStatement()
{
    QFile file(QStringLiteral(":/sql/generate-postgresql.sql"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QStringList lines;
    for (const QString &line : QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'))) {
        if (!line.trimmed().startsWith(QLatin1String("--")))
            lines << line;
    }
    return lines.join(QLatin1Char('\n'));
}

// A PostgreSQL text[] literal bound as one value; the lists are our own constants.
QString textArray(const QStringList &values)
{
    QStringList quoted;
    for (QString value : values)
        quoted << QLatin1Char('"')
                + value.replace(QLatin1Char('\\'), QStringLiteral("\\\\"))
                      .replace(QLatin1Char('"'), QStringLiteral("\\\""))
                + QLatin1Char('"');
    return QLatin1Char('{') + quoted.join(QLatin1Char(',')) + QLatin1Char('}');
}

QVariant orNull(const QString &text)
{
    return text.isEmpty() ? QVariant(QMetaType(QMetaType::QString)) : QVariant(text);
}

QVariant orNull(const std::optional<qint64> &value)
{
    return value ? QVariant(*value) : QVariant(QMetaType(QMetaType::LongLong));
}

void bindEvent(QSqlQuery &insert, const SyntheticEvent &e)
{
    const QVariantList values = {e.eventId, e.aggregateType, e.aggregateId, e.eventType, e.payload,
        e.status, e.failures, e.nextAttemptAt, orNull(e.claimToken), orNull(e.leaseUntil),
        e.createdAt, orNull(e.deliveredAt), orNull(e.lastErrorCategory), orNull(e.lastError)};
    for (qsizetype i = 0; i < values.size(); ++i)
        insert.bindValue(int(i), values.at(i));
}

void bindAttempt(QSqlQuery &insert, const QString &eventId, const SyntheticAttempt &a)
{
    const QVariantList values = {eventId, a.attemptNo, a.worker, a.claimToken, a.claimedAt,
        orNull(a.finishedAt), orNull(a.outcome), orNull(a.errorCategory), orNull(a.errorMessage),
        orNull(a.consumerResult), orNull(a.nextAttemptAt)};
    for (qsizetype i = 0; i < values.size(); ++i)
        insert.bindValue(int(i), values.at(i));
}

} // namespace

OutboxGenerator::OutboxGenerator(const QSqlDatabase &db)
    : m_db(db)
    , m_dialect(&SqlDialect::of(db))
{ }

std::optional<GenerateResult> OutboxGenerator::generate(const GenerateSpec &spec, QString *error)
{
    QElapsedTimer timer;
    timer.start();
    GenerateResult result;
    if (!clear(error))
        return std::nullopt;
    // A simulation database: durability traded for speed (a crash mid-way loses rows that
    // generate makes anew anyway).
    for (const QString &statement : m_dialect->bulkLoadStatements()) {
        if (!exec(m_db, statement, error))
            return std::nullopt;
    }
    // The rows made by the server in a few large statements, where the engine can.
    const bool ok = m_dialect->can().seriesGeneration ? generatePostgres(spec, &result, error)
                                                      : generateSqlite(spec, &result, error);
    if (!ok || !analyse(error))
        return std::nullopt;
    result.elapsedMs = timer.elapsed();
    return result;
}

bool OutboxGenerator::clear(QString *error)
{
    if (!m_dialect->can().seriesGeneration)
        return Schema::clearSimulationData(m_db, error);
    // TRUNCATE, not DELETE: emptying ten million rows must not take longer than making them.
    // resolve_log exists from schema version 2, reopen_log once init added it; both reference
    // delivery_outbox.
    QString logs;
    for (const QString &log : {QStringLiteral("resolve_log"), QStringLiteral("reopen_log")}) {
        if (!m_db.record(log).isEmpty())
            logs += QLatin1Char(' ') + log + QLatin1Char(',');
    }
    return exec(m_db,
        QStringLiteral("TRUNCATE delivery_attempt, replay_log,") + logs
            + QStringLiteral(" consumer_ledger, consumer_stock, delivery_outbox RESTART IDENTITY"),
        error);
}

bool OutboxGenerator::generatePostgres(
    const GenerateSpec &spec, GenerateResult *result, QString *error)
{
    // A chunk's rows are materialised once for both inserts: give that room.
    if (!exec(m_db, QStringLiteral("SET work_mem = '64MB'"), error))
        return false;
    QSqlQuery chunk(m_db);
    if (!chunk.prepare(postgresStatement()))
        return failed(chunk, error);
    for (qint64 first = 1; first <= spec.events; first += PostgresChunk) {
        const qint64 last = std::min(spec.events, first + PostgresChunk - 1);
        chunk.bindValue(QStringLiteral(":first"), first);
        chunk.bindValue(QStringLiteral(":last"), last);
        chunk.bindValue(QStringLiteral(":count"), spec.events);
        chunk.bindValue(QStringLiteral(":now"), spec.now);
        chunk.bindValue(QStringLiteral(":seed"), qint64(spec.seed));
        chunk.bindValue(QStringLiteral(":seed_hex"), QString::number(spec.seed, 16));
        chunk.bindValue(QStringLiteral(":payload_format"), SyntheticEvent::payloadTemplate());
        chunk.bindValue(QStringLiteral(":transient"), textArray(SyntheticEvent::transientErrors()));
        chunk.bindValue(QStringLiteral(":permanent"), textArray(SyntheticEvent::permanentErrors()));
        chunk.bindValue(QStringLiteral(":aggregates"), textArray(SyntheticEvent::aggregateTypes()));
        chunk.bindValue(QStringLiteral(":types"), textArray(SyntheticEvent::eventTypes()));
        if (!chunk.exec())
            return failed(chunk, error);
        result->events = last;
        result->attempts += chunk.numRowsAffected(); // the outer INSERT: the attempt rows
        if (m_progress)
            m_progress(last, spec.events);
    }
    return true;
}

bool OutboxGenerator::generateSqlite(
    const GenerateSpec &spec, GenerateResult *result, QString *error)
{
    for (qint64 first = 1; first <= spec.events; first += SqliteChunk) {
        const qint64 last = std::min(spec.events, first + SqliteChunk - 1);
        if (!insertSqliteChunk(spec, first, last, &result->attempts, error))
            return false;
        result->events = last;
        if (m_progress)
            m_progress(last, spec.events);
    }
    return true;
}

bool OutboxGenerator::insertSqliteChunk(
    const GenerateSpec &spec, qint64 first, qint64 last, qint64 *attempts, QString *error)
{
    SqlTransaction transaction(m_db);
    if (!transaction.isActive()) {
        *error = transaction.errorText();
        return false;
    }
    QSqlQuery event(m_db);
    QSqlQuery attempt(m_db);
    // clang-format off
    if (!event.prepare(QStringLiteral(
            "INSERT INTO delivery_outbox (event_id, aggregate_type, aggregate_id, event_type,"
            "                             payload, status, failures, next_attempt_at,"
            "                             claim_token, lease_until, created_at, delivered_at,"
            "                             last_error_category, last_error)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")))
        return failed(event, error);
    if (!attempt.prepare(QStringLiteral(
            "INSERT INTO delivery_attempt (event_id, attempt_no, worker, claim_token, claimed_at,"
            "                              finished_at, outcome, error_category, error_message,"
            "                              consumer_result, next_attempt_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")))
        return failed(attempt, error);
    // clang-format on
    for (qint64 n = first; n <= last; ++n) {
        const SyntheticEvent e = SyntheticEvent::make(spec.seed, n, spec.events, spec.now);
        bindEvent(event, e);
        if (!event.exec())
            return failed(event, error);
        for (const SyntheticAttempt &a : e.attempts) {
            bindAttempt(attempt, e.eventId, a);
            if (!attempt.exec())
                return failed(attempt, error);
        }
        *attempts += e.attempts.size();
    }
    if (!transaction.commit()) {
        *error = transaction.errorText();
        return false;
    }
    return true;
}

bool OutboxGenerator::analyse(QString *error)
{
    if (!m_dialect->can().seriesGeneration)
        return exec(m_db, QStringLiteral("ANALYZE"), error);
    // VACUUM sets the visibility map, without which an index-only scan still visits the table;
    // ANALYZE records reltuples, which the DELIVERED estimate reads.
    // VACUUM also sets the statistics' live row count, and this session's inserts are added to
    // it when the session next sends its statistics (at most once a second): a generation that
    // takes under a second would count every row twice. PostgreSQL 15 sends them now on asking.
    QSqlQuery version(m_db);
    if (version.exec(QStringLiteral("SHOW server_version_num")) && version.next()
        && version.value(0).toInt() >= 150000
        && !exec(m_db, QStringLiteral("SELECT pg_stat_force_next_flush()"), error))
        return false;
    return exec(m_db, QStringLiteral("VACUUM (ANALYZE) delivery_outbox"), error)
        && exec(m_db, QStringLiteral("VACUUM (ANALYZE) delivery_attempt"), error);
}
