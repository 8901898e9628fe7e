#include "sqlrows.h"

#include "queryerror.h"

#include <QSqlError>
#include <QSqlQuery>

std::optional<SqlRows> readSqlRows(QSqlQuery &query, int columns, QString *error)
{
    const auto failed = [&query, error] {
        if (error)
            *error = QueryError::text(query);
        return std::nullopt;
    };
    if (!query.exec())
        return failed();
    SqlRows rows;
    while (query.next()) {
        QVariantList row;
        for (int column = 0; column < columns; ++column)
            row << query.value(column);
        rows << row;
    }
    if (query.lastError().isValid())
        return failed();
    return rows;
}
