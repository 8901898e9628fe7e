#include "sqltransaction.h"

#include <QSqlError>
#include <QSqlQuery>

SqlTransaction::SqlTransaction(const QSqlDatabase &db)
    : m_db(db)
{
    const bool sqlite = db.driverName() == QLatin1String("QSQLITE");
    QSqlQuery query(m_db);
    m_active = query.exec(sqlite ? QStringLiteral("BEGIN IMMEDIATE") : QStringLiteral("BEGIN"));
    if (!m_active)
        m_error = query.lastError().text().simplified();
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
        m_error = query.lastError().text().simplified();
        return false;
    }
    m_active = false;
    return true;
}
