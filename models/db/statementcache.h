// Prepared statements kept per connection and reused. On PostgreSQL a fresh prepare costs a
// round trip of its own (and another to deallocate), so hot paths prepare each text once.
// preparedOne() is for a text holding a profile's SQL: checked as one statement by the
// database first (SqlDialect::prepareOne()), and kept only once prepared.
#pragma once

#include "sqldialect.h"

#include <QHash>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>

class StatementCache
{
public:
    explicit StatementCache(const QSqlDatabase &db)
        : m_db(db)
    { }

    QSqlQuery &prepared(const QString &sql)
    {
        auto it = m_statements.find(sql);
        if (it == m_statements.end()) {
            QSqlQuery query(m_db);
            query.prepare(sql);
            it = m_statements.insert(sql, query);
        }
        return *it;
    }

    // Null with *error when the text is not one statement or the database refuses it.
    QSqlQuery *preparedOne(const QString &sql, QSqlError *error)
    {
        auto it = m_statements.find(sql);
        if (it == m_statements.end()) {
            QSqlQuery query(m_db);
            if (!SqlDialect::of(m_db).prepareOne(m_db, query, sql, error))
                return nullptr;
            it = m_statements.insert(sql, query);
        }
        return &*it;
    }

private:
    QSqlDatabase m_db;
    QHash<QString, QSqlQuery> m_statements;
};
