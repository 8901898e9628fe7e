#include "diagnosisworker.h"

#include "diagnosisquery.h"

#include <QThread>

DiagnosisWorker::DiagnosisWorker(
    const DatabaseUrl &url, const OpenOptions &options, QObject *parent)
    : QObject(parent)
    , m_connection(url, options)
{ }

// Runs on the worker thread (deleted after its event loop ends), where the connection was
// opened.
DiagnosisWorker::~DiagnosisWorker() = default;

void DiagnosisWorker::setProfile(const OutboxProfile &profile)
{
    m_blocked = {};
    if (profile.isNative())
        m_profile.reset();
    else
        m_profile = profile;
}

// The QSqlDatabase handle is gone when this returns, so the connection can then be dropped.
std::optional<DiagnosisResult> DiagnosisWorker::run(qint64 now, QString *error)
{
    DbConnection *connection = m_connection.get(error);
    if (!connection)
        return std::nullopt;
    return DiagnosisQuery::run(connection->database(), now, error,
        m_profile ? &*m_profile : nullptr, m_thresholds, nullptr, &m_blocked);
}

void DiagnosisWorker::request(quint64 requestId, qint64 now)
{
    Q_ASSERT(QThread::currentThread() == thread());
    QString error;
    const std::optional<DiagnosisResult> result = run(now, &error);
    if (!result) {
        m_connection.drop(); // reopen on the next request
        m_blocked = {};
        emit failed(requestId, error.isEmpty() ? tr("the database did not answer") : error);
        return;
    }
    emit diagnosed(requestId, *result);
}
