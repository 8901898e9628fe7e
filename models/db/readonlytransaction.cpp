#include "readonlytransaction.h"

#include "sqltext.h"

#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace {

QString errorOf(const QSqlQuery &query)
{
    return query.lastError().text().simplified();
}

} // namespace

ReadOnlyTransaction::ReadOnlyTransaction(const QSqlDatabase &db)
    : m_db(db)
    , m_sqlite(db.driverName() == QLatin1String("QSQLITE"))
{
    QSqlQuery query(m_db);
    if (m_sqlite) {
        if (!query.exec(QStringLiteral("PRAGMA query_only")) || !query.next()) {
            m_error = errorOf(query);
            return;
        }
        m_restoreQueryOnly = !query.value(0).toBool();
        query.finish();
        if (!query.exec(QStringLiteral("PRAGMA query_only = ON"))) {
            m_error = errorOf(query);
            return;
        }
        m_active = query.exec(QStringLiteral("BEGIN"));
    } else {
        m_active = query.exec(QStringLiteral("START TRANSACTION READ ONLY"));
    }
    if (!m_active)
        m_error = errorOf(query);
}

ReadOnlyTransaction::~ReadOnlyTransaction()
{
    for (QSqlQuery &query : m_queries)
        query.finish();
    QSqlQuery query(m_db);
    if (m_active)
        query.exec(QStringLiteral("ROLLBACK"));
    if (m_restoreQueryOnly)
        query.exec(QStringLiteral("PRAGMA query_only = OFF"));
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
    const auto engine = m_sqlite ? SqlText::Engine::Sqlite : SqlText::Engine::PostgreSql;
    if (SqlText::hasSeveralStatements(sql, engine)) {
        m_error = QStringLiteral("refused to run a read holding more than one statement");
        return nullptr;
    }
    QSqlQuery &query = m_queries.emplace_back(m_db);
    query.setForwardOnly(true);
    if (!query.prepare(sql)) {
        m_lastError = query.lastError();
        m_error = m_lastError.text().simplified();
        return nullptr;
    }
    return &query;
}
