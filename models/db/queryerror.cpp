#include "queryerror.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>

QString QueryError::text(const QSqlError &error)
{
    return error.text().simplified();
}

QString QueryError::text(const QSqlQuery &query)
{
    return text(query.lastError());
}

QString QueryError::text(const QSqlDatabase &db)
{
    return text(db.lastError());
}

bool QueryError::exec(QSqlQuery &query, const QString &sql, QString *error)
{
    if (query.exec(sql))
        return true;
    *error = text(query);
    return false;
}

bool QueryError::exec(const QSqlDatabase &db, const QString &sql, QString *error)
{
    QSqlQuery query(db);
    return exec(query, sql, error);
}
