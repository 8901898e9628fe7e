// Parses the database URLs of the design contract: `sqlite:PATH`,
// `postgresql://[USER[:PASSWORD]@]HOST[:PORT]/DBNAME` and `mysql://…` (or `mariadb://…`) with
// `?KEY=VALUE` options where the engine takes them (SqlDialect::urlOptions), each scheme the
// one its dialect names (SqlDialect::urlSchemes; a file or a server by can().fileDatabase). A
// password is kept only in memory for the connection and never appears in toDisplayString().
#pragma once

#include "boundedfile.h"
#include "engine.h"

#include <QList>
#include <QString>
#include <utility>

class SqlDialect;

class DatabaseUrl
{
public:
    static DatabaseUrl parse(const QString &text, QString *error);
    // `text` (a message, an argument echoed back) with the password of anything in it that
    // looks like a URL with credentials (`scheme://user:password@`) replaced by `***`: exactly
    // the password when it is one of a URL this process parsed (in any of its spellings), so
    // that a server's "user 'x'@'localhost'" after it stays whole; otherwise up to the last '@'
    // on the line that a host follows.
    static QString maskPasswords(const QString &text);
    // Why a file at `path` whose text is `text` must not be used: it holds a password (a URL
    // with user:password@) and group or others have access to it, which libpq refuses for a
    // ~/.pgpass too. Empty when it may be used. `status` is what BoundedFile::read saw of the
    // descriptor it read `text` from (the path is not looked at again: it may name another
    // file by now). `what` names the file: "fleet file".
    static QString exposedPasswordReason(const QString &path, const BoundedFile::Status &status,
        const QString &text, const QString &what);

    // Meaningful only when valid; SqlDialect::of(engine()) says what differs.
    Engine engine() const { return m_engine; }
    bool isValid() const { return m_valid; }
    // The URL names a database file (path()), not a server (host() and the rest).
    bool isFile() const { return m_valid && !m_path.isEmpty(); }

    QString path() const { return m_path; } // SQLite file
    QString host() const { return m_host; }
    int port() const { return m_port; }
    QString user() const { return m_user; }
    QString password() const { return m_password; }
    void setPassword(const QString &password); // typed at a prompt (then masked as parsed ones)
    QString databaseName() const { return m_database; }
    // The ?KEY=VALUE options, in the URL's order (each key once, one the dialect lists).
    QList<std::pair<QString, QString>> options() const { return m_options; }
    QString option(const QString &key) const;

    // The URL as it may be shown, logged or stored: a password becomes `***`.
    QString toDisplayString() const;
    // The URL as it may be kept in settings: the password left out (libpq finds it in
    // PGPASSWORD or ~/.pgpass).
    QString toStorableString() const;

private:
    static DatabaseUrl parseFile(const SqlDialect &dialect, const QString &rest, QString *error);
    static DatabaseUrl parseServer(const SqlDialect &dialect, const QString &text, QString *error);

    bool m_valid = false;
    Engine m_engine = Engine::Sqlite;
    QString m_path;
    QString m_host;
    int m_port = 5432;
    QString m_user;
    QString m_password;
    QString m_database;
    QList<std::pair<QString, QString>> m_options;
};
