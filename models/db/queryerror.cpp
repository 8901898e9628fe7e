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
