// A role that may only SELECT, made with the servers' own grants (a PostgreSQL role, a MariaDB
// user), or on SQLite a database file no one may write (chattr +i, which holds even for root;
// chmod 0444 where chattr is not allowed and the tests do not run as root): what tst_grants
// uses, shared so that every writer's test (notes too) is refused by a real role.
#pragma once

#include "dbconnection.h"

#include <QSqlDatabase>
#include <QString>
#include <QStringList>
#include <memory>

class ReaderRole
{
public:
    ReaderRole(
        const QString &engine, const QString &url, const QSqlDatabase &root, const QString &name);
    ~ReaderRole();
    ReaderRole(const ReaderRole &) = delete;
    ReaderRole &operator=(const ReaderRole &) = delete;

    bool isReady() const { return m_ready; }
    QString url() const { return m_url; }

    // `privilege` on each of `tables` ("UPDATE", {"delivery_outbox"}); on SQLite the file
    // writable again, whatever is asked.
    bool grant(const QString &privilege, const QStringList &tables);
    // Ends every session of the role, as a server restart would.
    void disconnect();
    // "replay: the role 'reader' may not UPDATE delivery_outbox", as outboxctl says it.
    QString refusal(const QString &privilege, const QString &table) const;

private:
    QString account() const;
    bool makeUnwritable();

    QString m_engine;
    QSqlDatabase m_root;
    QString m_name;
    QString m_url;
    QString m_database;
    QString m_path;
    bool m_ready = false;
};

// A name for the role, unique per test database (roles are the server's, not the database's).
QString roleName(const QString &url, const QString &prefix);
// A connection as the role (nothing, with a warning, when it cannot be opened).
std::unique_ptr<DbConnection> openAs(const QString &url);
