// SQLite's whole statements (EngineStatements): BEGIN IMMEDIATE has write-locked the database,
// so a SELECT takes no row lock and a batch is claimed and acknowledged in steps; DELETE
// empties; ANALYZE keeps the statistics SQLite keeps only when asked; percentiles by
// ROW_NUMBER(); and the words of its errors as the dialect and the driver give them.
#include "standardstatements.h"

namespace {

class SqliteStatements final : public EngineStatements
{
public:
    QString selectSql(const Select &select) const override
    {
        return StandardStatements::select(select, QString(), QString());
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

    // INSERT ... RETURNING since SQLite 3.35.
    QString insertReturningSql(const QString &table, const QString &columns, const QString &values,
        const QString &key) const override
    {
        return StandardStatements::insertReturning(table, columns, values, key);
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

    QStringList analyseSql(const QSqlDatabase &, const QStringList &) const override
    {
        return {QStringLiteral("ANALYZE")};
    }

    // No rollback journal: a fifth less time per attempt of the Policy lab's storms.
    QStringList scratchSessionSql() const override
    {
        return {QStringLiteral("PRAGMA journal_mode = OFF")};
    }

    QString keepOnUpdateSql(const QString &, const QString &, const QString &) const override
    {
        return {};
    }

    QString percentilesSql(
        const QString &value, const QString &fromWhere, const QList<int> &percents) const override
    {
        return StandardStatements::rankedPercentiles(value, fromWhere, percents);
    }

    QList<Cause> causes() const override
    {
        return {{"SQLite database file not found", "the SQLite database file is missing", true}};
    }

    QStringList authenticationWords() const override { return {}; }
    QStringList lockConflictWords() const override { return {}; }
    QStringList readOnlyRefusalWords() const override { return {}; }
};

} // namespace

const EngineStatements &sqliteStatements()
{
    static const SqliteStatements statements;
    return statements;
}
