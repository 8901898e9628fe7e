// A statement of the native schema that must name the index it reads (SqlDialect::indexHint:
// InnoDB's optimizer picked a shorter index and read every row from the table, 9 to 54 s at 10M
// events, where the covering index answers in well under a second). Naming an index the table
// lacks is an error on MySQL (an index dropped by hand, a view in the table's place), so the
// hint is written only where the connection's table has the index: asked once per connection
// and database, and asked again after a statement of the caller failed (forget()).
#pragma once

#include <QSqlDatabase>
#include <QString>

namespace IndexHint {

// `table` followed by the dialect's hint for `index` where the engine needs one and the table
// has that index; `table` alone otherwise.
QString source(const QSqlDatabase &db, const QString &table, const QString &index);
// Forgets what was asked over `db`: after a failure, the next statement asks again.
void forget(const QSqlDatabase &db);

} // namespace IndexHint
