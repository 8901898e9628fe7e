// PostgreSQL's whole statements (EngineStatements): writable CTEs claim and acknowledge a batch
// in one statement each, TRUNCATE empties and VACUUM (ANALYZE) finishes a bulk load,
// percentile_disc ranks; and the words of libpq's and the server's errors.
#include "standardstatements.h"

#include <QSqlQuery>

namespace {

// clang-format off
const QString ClaimBatch = QStringLiteral(
    "WITH picked AS ("
    "    SELECT event_id, claim_token AS old_token, next_attempt_at"
    "    FROM delivery_outbox"
    "    WHERE %1"
    "    ORDER BY next_attempt_at LIMIT :limit"
    "    FOR UPDATE SKIP LOCKED"
    "), claimed AS ("
    "    UPDATE delivery_outbox o"
    "    SET claim_token = gen_random_uuid()::text, lease_until = :lease"
    "    FROM picked"
    "    WHERE o.event_id = picked.event_id"
    "    RETURNING o.event_id, o.claim_token, o.payload, picked.old_token, picked.next_attempt_at"
    "), expired AS ("
    "    UPDATE delivery_attempt a"
    "    SET outcome = 'LEASE_EXPIRED', finished_at = :now3"
    "    FROM claimed"
    "    WHERE a.event_id = claimed.event_id"
    "      AND claimed.old_token IS NOT NULL"
    "      AND a.outcome IS NULL"
    "), opened AS ("
    "    INSERT INTO delivery_attempt (event_id, attempt_no, worker, claim_token, claimed_at)"
    "    SELECT claimed.event_id,"
    "           COALESCE((SELECT MAX(attempt_no) FROM delivery_attempt x"
    "                     WHERE x.event_id = claimed.event_id), 0) + 1,"
    "           :worker, claimed.claim_token, :now4"
    "    FROM claimed"
    "    RETURNING event_id, attempt_no"
    ")"
    " SELECT claimed.event_id, claimed.claim_token, claimed.payload,"
    "        claimed.old_token IS NOT NULL, opened.attempt_no"
    " FROM claimed JOIN opened ON opened.event_id = claimed.event_id"
    " ORDER BY claimed.next_attempt_at");

const QString AckBatch = QStringLiteral(
    "WITH v AS ("
    "    SELECT * FROM unnest(CAST(:ids AS text[]), CAST(:tokens AS text[]),"
    "                         CAST(:results AS text[]))"
    "        AS v(event_id, token, result)"
    "), acked AS ("
    "    UPDATE delivery_outbox o"
    "    SET status = 'DELIVERED', delivered_at = :now1, claim_token = NULL, lease_until = NULL"
    "    FROM v"
    "    WHERE o.event_id = v.event_id AND o.claim_token = v.token AND o.status = 'PENDING'"
    "    RETURNING o.event_id, v.token, v.result"
    "), finished AS ("
    "    UPDATE delivery_attempt a"
    "    SET outcome = 'DELIVERED', finished_at = :now2, consumer_result = acked.result"
    "    FROM acked"
    "    WHERE a.event_id = acked.event_id AND a.claim_token = acked.token"
    "      AND a.outcome IS NULL"
    ")"
    " SELECT event_id FROM acked");

const QString ConsumerApply = QStringLiteral(
    "WITH ledger AS ("
    "    INSERT INTO consumer_ledger (event_id, applied_at) VALUES (:id, :now)"
    "    ON CONFLICT (event_id) DO NOTHING"
    "    RETURNING event_id"
    "), stock AS ("
    "    UPDATE consumer_stock SET quantity = quantity - :quantity"
    "    WHERE sku = :sku AND EXISTS (SELECT 1 FROM ledger)"
    "    RETURNING sku"
    ")"
    " SELECT (SELECT COUNT(*) FROM ledger), (SELECT COUNT(*) FROM stock)");
// clang-format on

class PostgreSqlStatements final : public EngineStatements
{
public:
    QString selectSql(const Select &select) const override
    {
        return StandardStatements::select(
            select, QStringLiteral(" FOR UPDATE"), QStringLiteral(" FOR UPDATE SKIP LOCKED"));
    }

    QString limitedSql(const QString &select, const QString &rows) const override
    {
        return StandardStatements::limited(select, rows);
    }

    QString insertIgnoringSql(const Insert &insert) const override
    {
        return StandardStatements::insertOnConflictDoNothing(insert);
    }

    QString upsertSql(const Insert &insert, const QStringList &update) const override
    {
        return StandardStatements::insertOnConflictUpdate(insert, update);
    }

    QString insertReturningSql(const QString &table, const QString &columns, const QString &values,
        const QString &key) const override
    {
        return StandardStatements::insertReturning(table, columns, values, key);
    }

    // A text[] literal, bound as one value: {"a","b",NULL}.
    QVariant textList(const QStringList &values) const override
    {
        QStringList quoted;
        for (const QString &value : values) {
            if (value.isNull()) {
                quoted << QStringLiteral("NULL");
                continue;
            }
            QString escaped = value;
            escaped.replace(QLatin1Char('\\'), QStringLiteral("\\\\"))
                .replace(QLatin1Char('"'), QStringLiteral("\\\""));
            quoted << QLatin1Char('"') + escaped + QLatin1Char('"');
        }
        return QString(QLatin1Char('{') + quoted.join(QLatin1Char(',')) + QLatin1Char('}'));
    }

    QString claimBatchSql(const QString &due) const override { return ClaimBatch.arg(due); }
    QString ackBatchSql() const override { return AckBatch; }
    QString consumerApplySql() const override { return ConsumerApply; }

    // TRUNCATE, not DELETE: emptying ten million rows must not take longer than making them.
    QStringList emptyTablesSql(const QStringList &tables) const override
    {
        return {QStringLiteral("TRUNCATE ") + tables.join(QStringLiteral(", "))
            + QStringLiteral(" RESTART IDENTITY")};
    }

    // VACUUM sets the visibility map, without which an index-only scan still visits the table;
    // ANALYZE records reltuples, which the DELIVERED estimate reads. VACUUM also sets the
    // statistics' live row count, and this session's inserts are added to it when the session
    // next sends its statistics (at most once a second): a load that takes under a second would
    // count every row twice. PostgreSQL 15 sends them now on asking.
    QStringList analyseSql(const QSqlDatabase &db, const QStringList &tables) const override
    {
        QStringList statements;
        QSqlQuery version(db);
        if (version.exec(QStringLiteral("SHOW server_version_num")) && version.next()
            && version.value(0).toInt() >= 150000)
            statements << QStringLiteral("SELECT pg_stat_force_next_flush()");
        for (const QString &table : tables)
            statements << QStringLiteral("VACUUM (ANALYZE) ") + table;
        return statements;
    }

    QStringList scratchSessionSql() const override { return {}; }

    QString keepOnUpdateSql(const QString &, const QString &, const QString &) const override
    {
        return {};
    }

    QString percentilesSql(
        const QString &value, const QString &fromWhere, const QList<int> &percents) const override
    {
        QStringList columns {QStringLiteral("COUNT(*)")};
        for (const int percent : percents)
            columns << QStringLiteral("percentile_disc(%1) WITHIN GROUP (ORDER BY %2)")
                           .arg(QString::number(percent / 100.0), value);
        return QStringLiteral("SELECT ") + columns.join(QStringLiteral(", "))
            + QStringLiteral(" FROM ") + fromWhere;
    }

    QList<Cause> causes() const override
    {
        return {
            {"the database system is starting up", "the server is starting up", true},
            {"the database system is shutting down", "the server is shutting down", true},
            {"the database system is in recovery mode", "the server is recovering from a crash",
                true},
            {"terminating connection", "the server ended the connection", true},
            {"server closed the connection", "the server closed the connection", true},
            {"no connection to the server", "the connection to the server is lost", true},
            {"could not receive data from server", "the connection to the server is lost", true},
            {"could not send data to server", "the connection to the server is lost", true},
            {"SSL SYSCALL error", "the connection to the server is lost", true},
            {"timeout expired", "the server did not answer in time", true},
            {"could not translate host name", "the host name is unknown", true},
            {"password authentication failed", "the server rejected the user name or password",
                true},
            {"no password supplied",
                "the server asks for a password and none was given (~/.pgpass, PGPASSWORD or"
                " --db-file)",
                true},
            {"authentication failed", "the server rejected the user name or password", true},
            {"does not exist", "the database or a table does not exist", false},
            {"statement timeout", "a query took longer than the statement timeout", false},
        };
    }

    // libpq's words for SQLSTATE 28P01 (invalid password) and 28000 (invalid authorization),
    // which a failed connection reports without the code.
    QStringList authenticationWords() const override
    {
        return {QStringLiteral("password authentication failed"),
            QStringLiteral("no password supplied"), QStringLiteral("authentication failed"),
            QStringLiteral("no pg_hba.conf entry"), QStringLiteral("28P01")};
    }

    QStringList lockConflictWords() const override
    {
        return {QStringLiteral("deadlock detected"), // 40P01
            QStringLiteral("could not serialize access")}; // 40001
    }

    // A read-only transaction refuses a write when it runs, not when it is prepared.
    QStringList readOnlyRefusalWords() const override { return {}; }
};

} // namespace

const EngineStatements &postgreSqlStatements()
{
    static const PostgreSqlStatements statements;
    return statements;
}
