// One named QSqlDatabase connection opened from a DatabaseUrl, removed again when the
// object dies. A connection belongs to the thread that opened it: each worker opens its own.
// Companion connections named after it (NAME/WHAT, opened on its thread: NotesAccess's notes
// connection) are removed with it.
#pragma once

#include "databaseurl.h"

#include <QSqlDatabase>
#include <memory>

class QThread;
class SqlDialect;

struct OpenOptions
{
    bool readOnly = false;
    bool allowCreate = false; // SQLite: create the file when it does not exist
    bool validateSchema = true; // name any missing native table or column
    int statementTimeoutMs = 0; // PostgreSQL: 0 = server default
    // PostgreSQL: how long opening may wait for the server (libpq connect_timeout; 2 at least).
    int connectTimeoutS = 5;
    // PostgreSQL: > 0 declares the server gone after this long without an acknowledgement
    // (tcp_user_timeout, keepalives), so a dropped network ends a statement instead of hanging
    // it for the operating system's default of many minutes. 0 keeps those defaults.
    int deadPeerTimeoutS = 0;
};

class DbConnection
{
public:
    static std::unique_ptr<DbConnection> open(
        const DatabaseUrl &url, const OpenOptions &options, QString *error);
    // Closes `db` and opens it again on the same handle, so that whatever holds the handle
    // works on, with the session set-up of a first open (SqlDialect::startSession) applied
    // again. False with *error (the driver's words) when the server does not answer yet.
    static bool reopen(QSqlDatabase &db, QString *error = nullptr);
    ~DbConnection();
    DbConnection(const DbConnection &) = delete;
    DbConnection &operator=(const DbConnection &) = delete;

    QSqlDatabase database() const;
    const DatabaseUrl &url() const { return m_url; }
    const SqlDialect &dialect() const; // what differs on this connection's engine
    bool isReadOnly() const { return m_readOnly; }
    QThread *thread() const { return m_thread; } // the thread it was opened on, and belongs to

    // A process-wide, thread-safe account of connections per thread, so a test can prove that
    // no statement runs on the GUI thread (no connection there, no statement there).
    static int openCountOn(const QThread *thread); // connections alive now
    static int everOpenedOn(const QThread *thread); // connections ever made, closed ones too

private:
    DbConnection(const DatabaseUrl &url, const QString &name, bool readOnly);

    DatabaseUrl m_url;
    QString m_name;
    bool m_readOnly = false;
    QThread *m_thread = nullptr;
};
