// The user and password the `mysql` client would take from ~/.my.cnf's [client] section, so
// that a URL without a password works as `mysql -h HOST DB` does. Read through BoundedFile (a
// regular file, at most 64 KiB); like the client, a file that others may write is ignored, and
// one with a password that group or others may read is refused with the reason.
#pragma once

#include <QString>

namespace MySqlOptionFile {

struct Credentials
{
    QString user; // empty: none given
    QString password; // empty: none given
    QString error; // why the file must not be used; empty when it was fine or absent
};

// $MYSQL_HOME/.my.cnf is not read; $HOME/.my.cnf is, unless OUTBOX_HEALTH_MY_CNF names another.
Credentials credentials();
// The [client] section of `text`: `user` and `password` (quotes removed, as the client does).
Credentials parse(const QString &text);

} // namespace MySqlOptionFile
