#include "workerconnection.h"

WorkerConnection::WorkerConnection(const DatabaseUrl &url, const OpenOptions &options)
    : m_url(url)
    , m_options(options)
{ }

WorkerConnection::~WorkerConnection() = default;

DbConnection *WorkerConnection::get(QString *error)
{
    if (!m_connection)
        m_connection = DbConnection::open(m_url, m_options, error);
    return m_connection.get();
}
