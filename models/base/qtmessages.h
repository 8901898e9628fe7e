// Qt's own warnings kept off a program's stderr. Qt's SQL module and drivers print lines such
// as the MySQL driver's "…Result::cleanup: unable to free statement handle", "QSqlQuery::exec:
// database not open" or "QSqlDatabasePrivate::removeDatabase: connection '…' is still in use" when a
// connection dies or is closed under a query. The programs report such a failure themselves, in
// one line of their own ("outboxctl: …"); the raw lines beside it break that rule and name Qt's
// internals, not the cause. With OUTBOX_DEBUG=1 in the environment they are printed again.
#pragma once

#include <QString>
#include <QtGlobal>

namespace QtMessages {

// A debug, info or warning message of Qt's SQL module or one of its drivers (by category
// "qt.sql…" or by the prefix Qt 6.4 gives them: "QSql…:" or a driver's class name and "::", and the drivers' "Unable to free statement:"). Critical and fatal ones never are.
bool isSqlNoise(QtMsgType type, const char *category, const QString &message);

// Installs the handler that drops isSqlNoise() messages (unless OUTBOX_DEBUG=1) and passes every
// other one on to Qt's. Call once, first thing in main().
void install();

} // namespace QtMessages
