#include "readonlytransaction.h"

#include "queryerror.h"
#include "sqldialect.h"
#include "sqltext.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

ReadOnlyTransaction::ReadOnlyTransaction(const QSqlDatabase &db)
    : m_db(db)
    , m_dialect(&SqlDialect::of(db))
{
    m_active = m_dialect->beginReadOnly(m_db, &m_restore, &m_error);
}

ReadOnlyTransaction::~ReadOnlyTransaction()
{
    for (QSqlQuery &query : m_queries)
        query.finish();
    m_dialect->endReadOnly(m_db, m_active, m_restore);
    m_queries.clear();
}

QSqlQuery *ReadOnlyTransaction::prepare(const QString &sql)
{
    m_lastError = QSqlError();
    if (!m_active) {
        if (m_error.isEmpty())
            m_error = QStringLiteral("no read-only transaction");
        return nullptr;
    }
    if (SqlText::hasSeveralStatements(sql, m_dialect->engine())) {
        m_error = QStringLiteral("refused to run a read holding more than one statement");
        return nullptr;
    }
    QSqlQuery &query = m_queries.emplace_back(m_db);
    query.setForwardOnly(true);
    if (!m_dialect->prepareOne(m_db, query, sql, &m_lastError)) {
        m_error = QueryError::text(m_lastError);
        return nullptr;
    }
    return &query;
}
