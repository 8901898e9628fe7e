// A transaction that cannot write, whatever the connection's session defaults say: every read
// through a profile (the health snapshot, the event window, the export, the profile's
// validation probes and detection) runs its statements inside one, begun and ended by the
// engine's dialect (SqlDialect::beginReadOnly()). PostgreSQL starts it with
// START TRANSACTION READ ONLY, so neither the server's default_transaction_read_only nor a
// session switched to READ WRITE can make it writable; SQLite sets PRAGMA query_only for its
// lifetime. It always ends in ROLLBACK, since a read has nothing to commit, so start it on a
// connection with no transaction open (every read path does; PostgreSQL would only warn about
// a nested START TRANSACTION, and the ROLLBACK would end the outer one).
// prepare() refuses a text holding more than one statement before the database sees it (Qt's
// PostgreSQL driver prepares through the simple query protocol, which would run every
// statement of such a text): first by SqlText's reading, then by the server's own parser
// (SqlDialect::prepareOne()).
#pragma once

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QString>
#include <list>

class SqlDialect;

class ReadOnlyTransaction
{
public:
    explicit ReadOnlyTransaction(const QSqlDatabase &db);
    ~ReadOnlyTransaction();
    ReadOnlyTransaction(const ReadOnlyTransaction &) = delete;
    ReadOnlyTransaction &operator=(const ReadOnlyTransaction &) = delete;

    bool isActive() const { return m_active; }
    QString errorText() const { return m_error; }

    // A forward-only query prepared with `sql`, owned by the transaction and valid until it
    // ends (the queries are finished before the ROLLBACK and freed after it, so that freeing a
    // PostgreSQL statement never meets an aborted transaction). Null, with errorText() saying
    // why, when the transaction is not active, when `sql` holds more than one statement
    // (SqlText), or when the database refuses it, also as more than one statement
    // (SqlDialect::checkOneStatement(); then also lastError()).
    QSqlQuery *prepare(const QString &sql);
    QSqlError lastError() const { return m_lastError; }

private:
    QSqlDatabase m_db;
    const SqlDialect *m_dialect = nullptr;
    bool m_active = false;
    bool m_restore = false; // the dialect changed a session setting to undo at the end
    QString m_error;
    QSqlError m_lastError;
    std::list<QSqlQuery> m_queries; // stable addresses
};
