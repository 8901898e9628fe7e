#include "outboxgenerator.h"

#include "enginestatements.h"
#include "queryerror.h"
#include "schema.h"
#include "sqldialect.h"
#include "sqltransaction.h"
#include "syntheticevent.h"

#include <QElapsedTimer>
#include <QFile>
#include <QSqlQuery>
#include <QSqlRecord>

namespace {

bool failed(const QSqlQuery &query, QString *error)
{
    *error = QueryError::text(query);
    return false;
}

// The tables a bulk load fills, analysed after it.
const QStringList loadedTables
    = {QStringLiteral("delivery_outbox"), QStringLiteral("delivery_attempt")};

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

QVariant orNull(const QString &text)
{
    return text.isEmpty() ? QVariant(QMetaType(QMetaType::QString)) : QVariant(text);
}

QVariant orNull(const std::optional<qint64> &value)
{
    return value ? QVariant(*value) : QVariant(QMetaType(QMetaType::LongLong));
}

QVariantList eventValues(const SyntheticEvent &e)
{
    return {e.eventId, e.aggregateType, e.aggregateId, e.eventType, e.payload, e.status,
        e.failures, e.nextAttemptAt, orNull(e.claimToken), orNull(e.leaseUntil), e.createdAt,
        orNull(e.deliveredAt), orNull(e.lastErrorCategory), orNull(e.lastError)};
}

QVariantList attemptValues(const QString &eventId, const SyntheticAttempt &a)
{
    return {eventId, a.attemptNo, a.worker, a.claimToken, a.claimedAt, orNull(a.finishedAt),
        orNull(a.outcome), orNull(a.errorCategory), orNull(a.errorMessage),
        orNull(a.consumerResult), orNull(a.nextAttemptAt)};
}

// clang-format off
const QString eventInsert = QStringLiteral(
    "INSERT INTO delivery_outbox (event_id, aggregate_type, aggregate_id, event_type, payload,"
    "                             status, failures, next_attempt_at, claim_token, lease_until,"
    "                             created_at, delivered_at, last_error_category, last_error)"
    " VALUES ");
const QString attemptInsert = QStringLiteral(
    "INSERT INTO delivery_attempt (event_id, attempt_no, worker, claim_token, claimed_at,"
    "                              finished_at, outcome, error_category, error_message,"
    "                              consumer_result, next_attempt_at)"
    " VALUES ");
// clang-format on

// `head` followed by `rows` groups of `columns` placeholders: (?, ?), (?, ?).
QString multiRowInsert(const QString &head, qsizetype columns, qsizetype rows)
{
    QStringList placeholders(columns, QStringLiteral("?"));
    const QString row = QLatin1Char('(') + placeholders.join(QStringLiteral(", ")) + QLatin1Char(')');
    return head + QStringList(rows, row).join(QStringLiteral(", "));
}

} // namespace

OutboxGenerator::OutboxGenerator(const QSqlDatabase &db)
    : m_db(db)
    , m_dialect(&SqlDialect::of(db))
    , m_statements(db)
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
        if (!QueryError::exec(m_db, statement, error))
            return std::nullopt;
    }
    // The rows made by the server in a few large statements, where the engine can.
    const bool ok = m_dialect->can().seriesGeneration ? generateOnServer(spec, &result, error)
                                                      : generateInBatches(spec, &result, error);
    if (!ok || !analyse(error))
        return std::nullopt;
    result.elapsedMs = timer.elapsed();
    return result;
}

// As fast as the engine empties a table (EngineStatements::emptyTablesSql), in one transaction.
bool OutboxGenerator::clear(QString *error)
{
    SqlTransaction transaction(m_db);
    if (!transaction.isActive()) {
        *error = transaction.errorText();
        return false;
    }
    const QStringList tables = Schema::simulationDataTables(m_db);
    for (const QString &statement : m_dialect->statements().emptyTablesSql(tables)) {
        if (!QueryError::exec(m_db, statement, error))
            return false;
    }
    if (!transaction.commit()) {
        *error = transaction.errorText();
        return false;
    }
    return true;
}

bool OutboxGenerator::generateOnServer(
    const GenerateSpec &spec, GenerateResult *result, QString *error)
{
    const EngineStatements &statements = m_dialect->statements();
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
        chunk.bindValue(
            QStringLiteral(":transient"), statements.textList(SyntheticEvent::transientErrors()));
        chunk.bindValue(
            QStringLiteral(":permanent"), statements.textList(SyntheticEvent::permanentErrors()));
        chunk.bindValue(
            QStringLiteral(":aggregates"), statements.textList(SyntheticEvent::aggregateTypes()));
        chunk.bindValue(
            QStringLiteral(":types"), statements.textList(SyntheticEvent::eventTypes()));
        if (!chunk.exec())
            return failed(chunk, error);
        result->events = last;
        result->attempts += chunk.numRowsAffected(); // the outer INSERT: the attempt rows
        if (m_progress)
            m_progress(last, spec.events);
    }
    return true;
}

bool OutboxGenerator::generateInBatches(
    const GenerateSpec &spec, GenerateResult *result, QString *error)
{
    for (qint64 first = 1; first <= spec.events; first += ClientChunk) {
        const qint64 last = std::min(spec.events, first + ClientChunk - 1);
        if (!insertChunk(spec, first, last, &result->attempts, error))
            return false;
        result->events = last;
        if (m_progress)
            m_progress(last, spec.events);
    }
    return true;
}

// One transaction; the events RowsPerStatement at a time in one INSERT, then their attempts.
bool OutboxGenerator::insertChunk(
    const GenerateSpec &spec, qint64 first, qint64 last, qint64 *attempts, QString *error)
{
    SqlTransaction transaction(m_db);
    if (!transaction.isActive()) {
        *error = transaction.errorText();
        return false;
    }
    for (qint64 from = first; from <= last; from += RowsPerStatement) {
        QList<QVariantList> events, eventAttempts;
        for (qint64 n = from; n <= std::min(last, from + RowsPerStatement - 1); ++n) {
            const SyntheticEvent e = SyntheticEvent::make(spec.seed, n, spec.events, spec.now);
            events << eventValues(e);
            for (const SyntheticAttempt &a : e.attempts)
                eventAttempts << attemptValues(e.eventId, a);
        }
        if (!insertRows(eventInsert, events, error) || !insertRows(attemptInsert, eventAttempts, error))
            return false;
        *attempts += eventAttempts.size();
    }
    if (!transaction.commit()) {
        *error = transaction.errorText();
        return false;
    }
    return true;
}

// Sends `rows` in multi-row INSERTs of at most RowsPerStatement rows each.
bool OutboxGenerator::insertRows(const QString &head, const QList<QVariantList> &rows, QString *error)
{
    for (qsizetype from = 0; from < rows.size(); from += RowsPerStatement) {
        const qsizetype count = std::min<qsizetype>(RowsPerStatement, rows.size() - from);
        const qsizetype columns = rows.at(from).size();
        QSqlQuery &insert = m_statements.prepared(multiRowInsert(head, columns, count));
        for (qsizetype row = 0; row < count; ++row) {
            const QVariantList &values = rows.at(from + row);
            for (qsizetype column = 0; column < columns; ++column)
                insert.bindValue(int(row * columns + column), values.at(column));
        }
        if (!insert.exec())
            return failed(insert, error);
    }
    return true;
}

// The engine's statements after a bulk load (EngineStatements::analyseSql): statistics, and
// on PostgreSQL the visibility map, so that the health queries scan their indexes only.
bool OutboxGenerator::analyse(QString *error)
{
    for (const QString &statement : m_dialect->statements().analyseSql(m_db, loadedTables)) {
        if (!QueryError::exec(m_db, statement, error))
            return false;
    }
    return true;
}
