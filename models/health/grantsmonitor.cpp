#include "grantsmonitor.h"

#include <QThread>

GrantsWorker::GrantsWorker(const DatabaseUrl &url, const OpenOptions &options)
    : m_url(url)
    , m_options(options)
{ }

// Opened for the one read and closed again: the grants are read on connect and reconnect
// only, so the window keeps no idle connection for them.
void GrantsWorker::read(quint64 requestId)
{
    Q_ASSERT(QThread::currentThread() == thread());
    QString error;
    const std::unique_ptr<DbConnection> connection = DbConnection::open(m_url, m_options, &error);
    if (!connection)
        return; // the health monitor says the server is away; the next reconnect asks again
    const TableGrants grants = TableGrants::read(connection->database());
    emit grantsRead(requestId, grants);
}

GrantsMonitor::GrantsMonitor(const DatabaseUrl &url, const OpenOptions &options, QObject *parent)
    : QObject(parent)
    , m_worker(QStringLiteral("outbox-grants"), new GrantsWorker(url, options))
{
    qRegisterMetaType<TableGrants>();
    connect(m_worker.worker(), &GrantsWorker::grantsRead, this,
        [this](quint64 requestId, const TableGrants &grants) {
            if (!m_requests.acceptNewest(requestId) || !grants.isKnown() || grants == m_grants)
                return;
            m_grants = grants;
            emit grantsChanged(m_grants);
        });
    m_worker.start();
}

GrantsMonitor::~GrantsMonitor() = default;

void GrantsMonitor::refresh()
{
    const quint64 id = m_requests.next();
    m_worker.post([id](GrantsWorker *worker) { worker->read(id); });
}
