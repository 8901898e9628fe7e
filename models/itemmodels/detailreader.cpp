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
{
    qRegisterMetaType<EventDetail>();
    qRegisterMetaType<EventPayload>();
    qRegisterMetaType<SqlRows>();
    startWorker(url, options);
}

DetailReader::~DetailReader()
{
    m_thread.quit();
    m_thread.wait();
}

void DetailReader::startWorker(const DatabaseUrl &url, const OpenOptions &options)
{
    m_worker = new DetailWorker(url, options);
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &DetailWorker::detailReady, this, &DetailReader::acceptDetail);
    connect(m_worker, &DetailWorker::payloadReady, this, &DetailReader::acceptPayload);
    connect(m_worker, &DetailWorker::replayLogReady, this, &DetailReader::acceptReplayLog);
    m_thread.setObjectName(QStringLiteral("outbox-detail"));
    m_thread.start();
}

void DetailReader::setProfile(const OutboxProfile &profile)
{
    DetailWorker *worker = m_worker;
    QMetaObject::invokeMethod(
        worker, [worker, profile] { worker->setProfile(profile); }, Qt::QueuedConnection);
}

void DetailReader::setExplainOptions(const ExplainOptions &options)
{
    DetailWorker *worker = m_worker;
    QMetaObject::invokeMethod(
        worker, [worker, options] { worker->setExplainOptions(options); }, Qt::QueuedConnection);
}

void DetailReader::requestDetail(const QString &eventId, std::optional<qint64> now)
{
    Q_ASSERT(QThread::currentThread() == thread());
    const quint64 id = m_detail.next();
    const qint64 at = now.value_or(QDateTime::currentMSecsSinceEpoch());
    DetailWorker *worker = m_worker;
    QMetaObject::invokeMethod(
        worker, [worker, id, eventId, at] { worker->readDetail(id, eventId, at); },
        Qt::QueuedConnection);
}

void DetailReader::requestPayload(const QString &eventId, const QStringList &sensitiveKeys)
{
    Q_ASSERT(QThread::currentThread() == thread());
    const quint64 id = m_payload.next();
    DetailWorker *worker = m_worker;
    QMetaObject::invokeMethod(
        worker,
        [worker, id, eventId, sensitiveKeys] { worker->readPayload(id, eventId, sensitiveKeys); },
        Qt::QueuedConnection);
}

void DetailReader::requestReplayLog()
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (m_replayLog.isBusy()) {
        m_replayLogAgain = true; // one more read after this one, not a queue of them
        return;
    }
    const quint64 id = m_replayLog.next();
    DetailWorker *worker = m_worker;
    QMetaObject::invokeMethod(
        worker, [worker, id] { worker->readReplayLog(id); }, Qt::QueuedConnection);
}

void DetailReader::acceptDetail(quint64 requestId, const EventDetail &detail)
{
    if (m_detail.accept(requestId))
        emit detailLoaded(detail);
}

void DetailReader::acceptPayload(quint64 requestId, const EventPayload &payload)
{
    if (m_payload.accept(requestId))
        emit payloadLoaded(payload);
}

void DetailReader::acceptReplayLog(quint64 requestId, const SqlRows &rows, const QString &error)
{
    if (!m_replayLog.accept(requestId))
        return;
    if (std::exchange(m_replayLogAgain, false))
        requestReplayLog();
    if (error.isEmpty())
        emit replayLogLoaded(rows);
    else
        emit replayLogFailed(error);
}
