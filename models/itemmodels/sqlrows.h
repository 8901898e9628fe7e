// Rows read by a worker and handed to an item model as values: one QVariantList per row, the
// columns in the order of the model's Column enum. Nothing here refers to a connection.
#pragma once

#include <QList>
#include <QMetaType>
#include <QVariantList>
#include <optional>

using SqlRows = QList<QVariantList>;

class QSqlQuery;
class QString;

// Runs a prepared query and reads its first `columns` columns of every row; none, with the
// driver's error in `error` (if given), when the statement or the reading fails.
std::optional<SqlRows> readSqlRows(QSqlQuery &query, int columns, QString *error);
