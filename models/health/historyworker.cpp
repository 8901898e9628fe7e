#include "historyworker.h"

#include <QThread>

HistoryWorker::HistoryWorker(const DatabaseUrl &url, const OpenOptions &options, QObject *parent)
    : QObject(parent)
    , m_connection(url, options)
{ }

// Runs on the worker thread, where the connection was opened.
HistoryWorker::~HistoryWorker() = default;

void HistoryWorker::setProfile(const OutboxProfile &profile)
{
    Q_ASSERT(QThread::currentThread() == thread());
    m_profile = profile;
    m_cache.clear();
}

void HistoryWorker::request(quint64 requestId, HistoryRange range, qint64 now)
{
    Q_ASSERT(QThread::currentThread() == thread());
    QString error;
    DbConnection *connection = m_connection.get(&error);
    if (!connection) {
        emit failed(requestId, error);
        return;
    }
    const std::optional<DeliveryHistory> history = HistoryQuery::read(
        connection->database(), range, now, m_profile ? &*m_profile : nullptr, &m_cache, &error);
    if (!history) {
        m_connection.drop(); // reconnect on the next request
        m_cache.clear();
        emit failed(requestId, error);
        return;
    }
    emit historyReady(requestId, *history);
}
