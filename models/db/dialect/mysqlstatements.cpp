// MySQL's and MariaDB's whole statements (EngineStatements): no writable CTEs, so a batch is
// claimed and acknowledged in steps (the due rows selected FOR UPDATE SKIP LOCKED); DELETE
// empties (TRUNCATE refuses a table a foreign key references); InnoDB keeps its own statistics;
// percentiles by ROW_NUMBER(); and the words of the server's and its client library's errors.
#include "standardstatements.h"

namespace {

class MySqlStatements final : public EngineStatements
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

    // MySQL and MariaDB write an upsert their own way; a duplicate key that only "updates" the
    // key to itself changes no row, which is what skipping it means.
    QString insertIgnoringSql(const Insert &insert) const override
    {
        QString first = insert.key.section(QLatin1Char(','), 0, 0).trimmed();
        if (!first.startsWith(QLatin1Char('"'))) // a column such as "key" is a reserved word
            first = QLatin1Char('"') + first + QLatin1Char('"');
        return StandardStatements::insert(insert)
            + QStringLiteral(" ON DUPLICATE KEY UPDATE %1 = %1").arg(first);
    }

    QString upsertSql(const Insert &insert, const QStringList &update) const override
    {
        QStringList assignments;
        for (const QString &column : update)
            assignments << column + QStringLiteral(" = VALUES(") + column + QLatin1Char(')');
        return StandardStatements::insert(insert) + QStringLiteral(" ON DUPLICATE KEY UPDATE ")
            + assignments.join(QStringLiteral(", "));
    }

    // MariaDB has INSERT ... RETURNING (10.5), MySQL has not: the driver's last insert ID.
    QString insertReturningSql(
        const QString &, const QString &, const QString &, const QString &) const override
    {
        return {};
    }

    QVariant textList(const QStringList &values) const override
    {
        return StandardStatements::jsonList(values);
    }

    QString claimBatchSql(const QString &) const override { return {}; }
    QString ackBatchSql() const override { return {}; }
    QString consumerApplySql() const override { return {}; }

    QStringList emptyTablesSql(const QStringList &tables) const override
    {
        return StandardStatements::deleteEach(tables);
    }

    // InnoDB's persistent statistics recalculate themselves once a tenth of a table's rows
    // changed, which a bulk load always does.
    QStringList analyseSql(const QSqlDatabase &, const QStringList &) const override { return {}; }

    QStringList scratchSessionSql() const override { return {}; }

    // ON UPDATE CURRENT_TIMESTAMP dropped: the column keeps its value on UPDATE.
    QString keepOnUpdateSql(
        const QString &table, const QString &column, const QString &type) const override
    {
        return QStringLiteral("ALTER TABLE %1 MODIFY %2 %3 NOT NULL DEFAULT CURRENT_TIMESTAMP")
            .arg(table, column, type);
    }

    QString percentilesSql(
        const QString &value, const QString &fromWhere, const QList<int> &percents) const override
    {
        return StandardStatements::rankedPercentiles(value, fromWhere, percents);
    }

    // A session whose server restarted fails with 2006 "server has gone away" or 2013 "Lost
    // connection" while Qt's MySQL driver still says isOpen(), so these words (not the
    // driver's state) tell a worker that the connection is lost.
    QList<Cause> causes() const override
    {
        return {
            {"Can't connect to", "the server refuses connections (is it running?)", true},
            {"server has gone away", "the connection to the server is lost", true},
            {"Lost connection to", "the connection to the server is lost", true},
            {"Connection was killed", "the server ended the connection", true},
            {"Server shutdown in progress", "the server is shutting down", true},
            {"Unknown server host", "the host name is unknown", true},
            {"(using password: NO)",
                "the server asks for a password and none was given (MYSQL_PWD, ~/.my.cnf or the"
                " URL)",
                true},
            {"Access denied for user", "the server rejected the user name or password", true},
            {"max_statement_time exceeded", "a query took longer than the statement timeout",
                false},
            {"maximum statement execution time exceeded",
                "a query took longer than the statement timeout", false},
            {"Unknown database", "the database or a table does not exist", false},
            {"doesn't exist", "the database or a table does not exist", false},
        };
    }

    // 1045 (and 1044, a database the user may not open).
    QStringList authenticationWords() const override
    {
        return {QStringLiteral("Access denied for user")};
    }

    QStringList lockConflictWords() const override
    {
        return {QStringLiteral("Deadlock found when trying to get lock"), // 1213
            QStringLiteral("Lock wait timeout exceeded")}; // 1205
    }

    // MariaDB's 1792, "Cannot execute statement in a READ ONLY transaction", given for a
    // PREPARE too.
    QStringList readOnlyRefusalWords() const override
    {
        return {QStringLiteral("in a READ ONLY transaction")};
    }
};

} // namespace

const EngineStatements &mySqlStatements()
{
    static const MySqlStatements statements;
    return statements;
}
