// What a PostgreSQL server says besides results: a NOTICE or WARNING, from the server itself or
// from an application's trigger or function (RAISE NOTICE). libpq's default prints it to stderr
// as it came, control characters and all, so a trigger could clear the operator's line and
// forge another ("\x1b[2K\routboxctl: replayed 0 events"). Every connection the tool opens
// (DbConnection, and the places that reopen one) prints it instead as one escaped line, named:
//   outboxctl: server NOTICE: \x1b[2K\routboxctl: replayed 0 events
// with PlainText's escapes and any password in a URL masked, like every other message.
#pragma once

#include <QSqlDatabase>
#include <QString>

namespace ServerNotices {

// On a PostgreSQL connection that is open, replaces libpq's printer with the escaping one; on
// any other connection, does nothing. Call again after a reopen: a new server connection starts
// with libpq's default.
void escapeOn(const QSqlDatabase &db);

// The line printed for a notice of `severity` saying `message` (without its line feed): escaped,
// passwords masked, and cut after 2,000 characters.
QString line(const QString &severity, const QString &message);

} // namespace ServerNotices
