// Fills a simulation database with a realistic synthetic outbox for `outboxctl generate`: the
// mix of SyntheticEvent, N events and their attempt rows, replacing whatever the native tables
// held (outbox_meta is kept). PostgreSQL computes each chunk on the server in one statement
// (resources/sql/generate-postgresql.sql: generate_series and hashing, only the parameters
// cross the wire); SQLite and MySQL make the rows here and send them in multi-row INSERTs
// (RowsPerStatement rows a round trip), ClientChunk events a transaction. Progress
// is reported after every chunk; at the end the tables are analysed (and, on PostgreSQL,
// vacuumed, so that the visibility map lets the health queries scan their indexes only).
#pragma once

#include "statementcache.h"

#include <QSqlDatabase>
#include <QVariantList>
#include <functional>
#include <optional>

class SqlDialect;

struct GenerateSpec
{
    qint64 events = 0;
    quint64 seed = 1;
    qint64 now = 0; // ms since the epoch: created_at falls in the 7 days before it
};

struct GenerateResult
{
    qint64 events = 0;
    qint64 attempts = 0;
    qint64 elapsedMs = 0;
};

class OutboxGenerator
{
public:
    static constexpr qint64 PostgresChunk = 100000;
    static constexpr qint64 ClientChunk = 10000;
    // 14 columns: 700 bound values, within SQLite's oldest limit of 999.
    static constexpr qsizetype RowsPerStatement = 50;

    using Progress = std::function<void(qint64 done, qint64 total)>;

    explicit OutboxGenerator(const QSqlDatabase &db);

    void setProgress(Progress progress) { m_progress = std::move(progress); }
    // On failure returns nothing and sets *error to one line; rows of finished chunks stay.
    std::optional<GenerateResult> generate(const GenerateSpec &spec, QString *error);

private:
    bool clear(QString *error);
    bool generateOnServer(const GenerateSpec &spec, GenerateResult *result, QString *error);
    bool generateInBatches(const GenerateSpec &spec, GenerateResult *result, QString *error);
    bool insertChunk(
        const GenerateSpec &spec, qint64 first, qint64 last, qint64 *attempts, QString *error);
    bool insertRows(const QString &head, const QList<QVariantList> &rows, QString *error);
    bool analyse(QString *error);

    QSqlDatabase m_db;
    const SqlDialect *m_dialect = nullptr;
    StatementCache m_statements;
    Progress m_progress;
};
