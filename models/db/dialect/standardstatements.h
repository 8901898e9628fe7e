// The standard SQL forms that several engines' EngineStatements share (dialect/ only): each
// engine's file still answers every member itself, by one of these or by its own text.
#pragma once

#include "enginestatements.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace StandardStatements {

// A whole SELECT, its ORDER BY last, then LIMIT :n.
inline QString limited(const QString &select, const QString &rows)
{
    return select + QStringLiteral(" LIMIT ") + rows;
}

// SELECT ... WHERE ... ORDER BY ... LIMIT :n, then the engine's lock clause (" FOR UPDATE",
// " FOR UPDATE SKIP LOCKED", or empty where the write transaction holds the database).
inline QString select(
    const EngineStatements::Select &s, const QString &rowLock, const QString &skipLocked)
{
    QString sql = QStringLiteral("SELECT ") + s.columns + QStringLiteral(" FROM ") + s.table
        + QStringLiteral(" WHERE ") + s.where;
    if (!s.orderBy.isEmpty())
        sql += QStringLiteral(" ORDER BY ") + s.orderBy;
    if (!s.limit.isEmpty())
        sql = limited(sql, s.limit);
    switch (s.lock) {
    case EngineStatements::RowLock::None:
        break;
    case EngineStatements::RowLock::Update:
        sql += rowLock;
        break;
    case EngineStatements::RowLock::UpdateSkipLocked:
        sql += skipLocked;
        break;
    }
    return sql;
}

inline QString insert(const EngineStatements::Insert &i)
{
    return QStringLiteral("INSERT INTO ") + i.table + QStringLiteral(" (") + i.columns
        + QStringLiteral(") VALUES (") + i.values + QLatin1Char(')');
}

// PostgreSQL's form, which SQLite took in 3.24.
inline QString insertOnConflictDoNothing(const EngineStatements::Insert &i)
{
    return insert(i) + QStringLiteral(" ON CONFLICT (") + i.key + QStringLiteral(") DO NOTHING");
}

inline QString insertOnConflictUpdate(const EngineStatements::Insert &i, const QStringList &update)
{
    QStringList assignments;
    for (const QString &column : update)
        assignments << column + QStringLiteral(" = excluded.") + column;
    return insert(i) + QStringLiteral(" ON CONFLICT (") + i.key + QStringLiteral(") DO UPDATE SET ")
        + assignments.join(QStringLiteral(", "));
}

inline QString insertReturning(
    const QString &table, const QString &columns, const QString &values, const QString &key)
{
    return QStringLiteral("INSERT INTO ") + table + QStringLiteral(" (") + columns
        + QStringLiteral(") VALUES (") + values + QStringLiteral(") RETURNING ") + key;
}

// A list of texts as one JSON array (JSON null for a null text).
inline QVariant jsonList(const QStringList &values)
{
    QJsonArray array;
    for (const QString &value : values)
        array.append(value.isNull() ? QJsonValue() : QJsonValue(value));
    return QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Compact));
}

inline QStringList deleteEach(const QStringList &tables)
{
    QStringList statements;
    for (const QString &table : tables)
        statements << QStringLiteral("DELETE FROM ") + table;
    return statements;
}

// The row at rank ceil(p/100 * total), without a division: MySQL's `/` gives a decimal, and its
// `DIV` is not SQL. (position - 1) * 100 < p * total <= position * 100.
inline QString rankCondition(int percent)
{
    return QStringLiteral("((position - 1) * 100 < total * %1 AND total * %1 <= position * 100)")
        .arg(percent);
}

// Nearest-rank percentiles by ROW_NUMBER(), for an engine without percentile_disc: each
// percentile's one row picked by its rank, folded into the one row percentilesSql() promises.
inline QString rankedPercentiles(
    const QString &value, const QString &fromWhere, const QList<int> &percents)
{
    QStringList columns {QStringLiteral("COALESCE(MAX(total), 0)")};
    QStringList ranks;
    for (const int percent : percents) {
        columns << QStringLiteral("MAX(CASE WHEN %1 THEN v END)").arg(rankCondition(percent));
        ranks << rankCondition(percent);
    }
    return QStringLiteral("SELECT ") + columns.join(QStringLiteral(", "))
        + QStringLiteral(" FROM (SELECT ") + value
        + QStringLiteral(" AS v, ROW_NUMBER() OVER (ORDER BY ") + value
        + QStringLiteral(") AS position, COUNT(*) OVER () AS total FROM ") + fromWhere
        + QStringLiteral(") ranked WHERE ") + ranks.join(QStringLiteral(" OR "));
}

} // namespace StandardStatements
