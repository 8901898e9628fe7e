// What a PostgreSQL server says besides results: a NOTICE or WARNING, from the server itself or
// from an application's trigger or function (RAISE NOTICE). libpq's default prints it to stderr
// as it came, control characters and all, so a trigger could clear the operator's line and
// forge another ("\x1b[2K\routboxctl: replayed 0 events"). Every connection the tool opens
// (DbConnection::open and DbConnection::reopen, through the PostgreSQL dialect's session
// set-up) prints it instead as one escaped line, named:
//   outboxctl: server NOTICE: \x1b[2K\routboxctl: replayed 0 events
// with PlainText's escapes and any password in a URL masked, like every other message.
#pragma once

#include <QString>

namespace ServerNotices {

// Prints the line() of a notice to stderr; the dialect of an engine with notices calls it.
void print(const QString &severity, const QString &message);

// The line printed for a notice of `severity` saying `message` (without its line feed): escaped,
// passwords masked, and cut after 2,000 characters.
QString line(const QString &severity, const QString &message);

} // namespace ServerNotices
