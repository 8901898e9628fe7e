// A worker's own connection (the other half of WorkerThread): opened on the first request, on
// the worker's thread, because a connection belongs to the thread that opened it; dropped after a
// failed read, because the server may have gone away, so that the next request opens a new one
// and the worker heals when the server returns. Closed with the worker, on its thread.
#pragma once

#include "dbconnection.h"

#include <memory>

class WorkerConnection
{
public:
    WorkerConnection(const DatabaseUrl &url, const OpenOptions &options);
    ~WorkerConnection();

    // The connection, opened first if need be; null with *error when it cannot be opened.
    DbConnection *get(QString *error);
    // Call with no QSqlDatabase handle of it alive any more.
    void drop() { m_connection.reset(); }
    bool isOpen() const { return m_connection != nullptr; }

private:
    DatabaseUrl m_url;
    OpenOptions m_options;
    std::unique_ptr<DbConnection> m_connection;
};
