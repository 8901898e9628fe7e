#include "healthworker.h"

#include "healthquery.h"
#include "profileconnection.h"

#include <QThread>

OpenOptions HealthWorker::defaultOpenOptions()
{
    OpenOptions options;
    options.readOnly = true;
    options.statementTimeoutMs = 5000;
    options.connectTimeoutS = WindowConnectTimeoutS;
    options.deadPeerTimeoutS = WindowConnectTimeoutS;
    return options;
}

HealthWorker::HealthWorker(const DatabaseUrl &url, const OpenOptions &options, QObject *parent)
    : QObject(parent)
    , m_url(url)
    , m_options(options)
{ }

// Runs on the worker thread (deleted after the thread's event loop ends), where the
// connection was opened.
HealthWorker::~HealthWorker() = default;

bool HealthWorker::ensureConnection(QString *error)
{
    if (m_connection)
        return true;
    if (!m_detectProfile) {
        m_connection = DbConnection::open(m_url, m_options, error);
        return m_connection != nullptr;
    }
    std::optional<OutboxProfile> found;
    m_connection = ProfileConnection::open(m_url, m_options, std::nullopt, &found, error);
    if (!m_connection)
        return false;
    const QString name = found ? found->name() : QString();
    if (name != (m_profile ? m_profile->name() : QString()))
        m_throughput.clear();
    m_profile = found;
    emit profileDetected(name);
    return true;
}

void HealthWorker::request(quint64 requestId, qint64 now)
{
    Q_ASSERT(QThread::currentThread() == thread());
    QString error;
    if (!ensureConnection(&error)) {
        emit failed(requestId, error);
        return;
    }
    HealthQuery::Options options = HealthQuery::Options::fromEnvironment();
    options.profile = m_profile ? &*m_profile : nullptr;
    options.throughputCache = &m_throughput;
    options.summaryOnly = m_summaryOnly;
    options.cdcSlot = m_cdcSlot;
    options.cdcTracker = &m_cdcTracker;
    const std::optional<HealthSnapshot> snapshot
        = HealthQuery::compute(m_connection->database(), now, &error, options);
    if (!snapshot) {
        m_connection.reset(); // reconnect on the next request: the server may have gone away
        m_throughput.clear(); // and read the whole hour again then
        emit failed(requestId, error);
        return;
    }
    emit snapshotReady(requestId, *snapshot);
}
