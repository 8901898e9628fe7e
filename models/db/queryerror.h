// A statement's or a connection's error as one line: the driver's text with its line breaks and
// runs of blanks folded into single spaces, as every error an operator reads or outboxctl prints
// shows it. The one place that says how; a caller that names a URL beside it masks that URL's
// password itself (DatabaseUrl::toDisplayString, maskPasswords).
#pragma once

#include <QString>

class QSqlDatabase;
class QSqlError;
class QSqlQuery;

namespace QueryError {

QString text(const QSqlError &error);
QString text(const QSqlQuery &query);
QString text(const QSqlDatabase &db);

// Runs `sql` on `query` (or on a new query of `db`); when it fails, *error is its error as one
// line.
bool exec(QSqlQuery &query, const QString &sql, QString *error);
bool exec(const QSqlDatabase &db, const QString &sql, QString *error);

} // namespace QueryError
