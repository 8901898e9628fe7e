#include "detailreader.h"

#include "detailworker.h"

#include <QDateTime>

OpenOptions DetailReader::defaultOpenOptions()
{
    OpenOptions options;
    options.readOnly = true;
    options.validateSchema = false;
    options.statementTimeoutMs = 10000;
    return options;
}

DetailReader::DetailReader(const DatabaseUrl &url, QObject *parent)
    : DetailReader(url, defaultOpenOptions(), parent)
{ }

DetailReader::DetailReader(const DatabaseUrl &url, const OpenOptions &options, QObject *parent)
    : QObject(parent)
    , m_worker(QStringLiteral("outbox-detail"), new DetailWorker(url, options))
{
    qRegisterMetaType<EventDetail>();
    qRegisterMetaType<EventPayload>();
    qRegisterMetaType<SqlRows>();
    qRegisterMetaType<EventLocation>();
    connectWorker();
    m_worker.start();
}

DetailReader::~DetailReader()
{
    m_worker.stop();
}

void DetailReader::connectWorker()
{
    DetailWorker *worker = m_worker.worker();
    connect(worker, &DetailWorker::detailReady, this, &DetailReader::acceptDetail);
    connect(worker, &DetailWorker::payloadReady, this, &DetailReader::acceptPayload);
    connect(worker, &DetailWorker::replayLogReady, this, &DetailReader::acceptReplayLog);
    connect(worker, &DetailWorker::locationReady, this,
        [this](quint64 requestId, const EventLocation &location) {
            if (m_location.acceptNewest(requestId))
                emit locationLoaded(location);
        });
}

void DetailReader::setProfile(const OutboxProfile &profile)
{
    m_worker.post([profile](DetailWorker *worker) { worker->setProfile(profile); });
}

void DetailReader::setExplainOptions(const ExplainOptions &options)
{
    m_worker.post([options](DetailWorker *worker) { worker->setExplainOptions(options); });
}

void DetailReader::requestDetail(const QString &eventId, std::optional<qint64> now)
{
    Q_ASSERT(QThread::currentThread() == thread());
    const quint64 id = m_detail.next();
    const qint64 at = now.value_or(QDateTime::currentMSecsSinceEpoch());
    m_worker.post([id, eventId, at](DetailWorker *worker) { worker->readDetail(id, eventId, at); });
}

void DetailReader::requestPayload(const QString &eventId, const QStringList &sensitiveKeys)
{
    Q_ASSERT(QThread::currentThread() == thread());
    const quint64 id = m_payload.next();
    m_worker.post([id, eventId, sensitiveKeys](
                      DetailWorker *worker) { worker->readPayload(id, eventId, sensitiveKeys); });
}

void DetailReader::requestReplayLog()
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (m_replayLog.isBusy()) {
        m_replayLogAgain = true; // one more read after this one, not a queue of them
        return;
    }
    const quint64 id = m_replayLog.next();
    m_worker.post([id](DetailWorker *worker) { worker->readReplayLog(id); });
}

void DetailReader::requestLocation(const QString &eventId, const EventFilter &filter, qint64 now)
{
    Q_ASSERT(QThread::currentThread() == thread());
    const quint64 id = m_location.next();
    m_worker.post([id, eventId, filter, now](
                      DetailWorker *worker) { worker->readLocation(id, eventId, filter, now); });
}

void DetailReader::acceptDetail(quint64 requestId, const EventDetail &detail)
{
    if (m_detail.acceptNewest(requestId))
        emit detailLoaded(detail);
}

void DetailReader::acceptPayload(quint64 requestId, const EventPayload &payload)
{
    if (m_payload.acceptNewest(requestId))
        emit payloadLoaded(payload);
}

void DetailReader::acceptReplayLog(quint64 requestId, const SqlRows &rows, const QString &error)
{
    if (!m_replayLog.acceptNewest(requestId))
        return;
    if (std::exchange(m_replayLogAgain, false))
        requestReplayLog();
    if (error.isEmpty())
        emit replayLogLoaded(rows);
    else
        emit replayLogFailed(error);
}
