// The downstream consumer of the simulator: applies a StockReserved event exactly once by
// inserting its consumer_ledger row and the consumer_stock mutation in one transaction. A
// repeated event ID answers DUPLICATE and changes nothing.
#pragma once

#include "statementcache.h"

#include <QHash>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QString>

class SqlDialect;

class Consumer
{
public:
    enum class Result { Applied, Duplicate, Error };

    explicit Consumer(const QSqlDatabase &db);

    Result apply(const QString &eventId, const QString &payload, qint64 now);
    QString lastError() const { return m_lastError; }

    static QString resultName(Result result);

private:
    QSqlQuery &prepared(const QString &sql) { return m_statements.prepared(sql); }
    Result fail(const QString &error);

    QSqlDatabase m_db;
    const SqlDialect *m_dialect = nullptr;
    QString m_lastError;
    StatementCache m_statements;
};
