#include "sqltransaction.h"

#include "failurecause.h"
#include "queryerror.h"
#include "sqldialect.h"

#include <QSqlQuery>

SqlTransaction::SqlTransaction(const QSqlDatabase &db)
    : m_db(db)
{
    QSqlQuery query(m_db);
    m_active = query.exec(SqlDialect::of(db).beginWriteSql());
    if (!m_active)
        m_error = QueryError::text(query);
}

SqlTransaction::~SqlTransaction()
{
    if (m_active)
        QSqlQuery(m_db).exec(QStringLiteral("ROLLBACK"));
}

bool SqlTransaction::commit()
{
    QSqlQuery query(m_db);
    if (!query.exec(QStringLiteral("COMMIT"))) {
        m_error = QueryError::text(query);
        m_outcomeUnknown = FailureCause::isOutcomeUnknown(m_error);
        // A lost connection has no transaction left to roll back (a ROLLBACK would only fail
        // on it again); a refused COMMIT (SQLite's busy one) still holds it: rolled back.
        m_active = !m_outcomeUnknown;
        return false;
    }
    m_active = false;
    return true;
}
