// Prepared statements kept per connection and reused. On PostgreSQL a fresh prepare costs a
// round trip of its own (and another to deallocate), so hot paths prepare each text once.
#pragma once

#include <QHash>
#include <QSqlDatabase>
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

private:
    QSqlDatabase m_db;
    QHash<QString, QSqlQuery> m_statements;
};
