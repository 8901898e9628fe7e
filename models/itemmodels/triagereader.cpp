#include "triagereader.h"

#include "healthworker.h"

OpenOptions TriageReader::defaultOpenOptions()
{
    OpenOptions options = HealthWorker::defaultOpenOptions(); // read-only, short connect
    options.validateSchema = false;
    options.statementTimeoutMs = 60000;
    return options;
}

TriageReader::TriageReader(const DatabaseUrl &url, QObject *parent)
    : TriageReader(url, defaultOpenOptions(), parent)
{ }

TriageReader::TriageReader(const DatabaseUrl &url, const OpenOptions &options, QObject *parent)
    : QObject(parent)
{
    qRegisterMetaType<ErrorGroup>();
    qRegisterMetaType<QList<ErrorGroup>>();
    qRegisterMetaType<ReplayPreview>();
    startWorker(url, options);
}

TriageReader::~TriageReader()
{
    m_thread.quit();
    m_thread.wait();
}

void TriageReader::startWorker(const DatabaseUrl &url, const OpenOptions &options)
{
    m_worker = new TriageWorker(url, options);
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &TriageWorker::errorGroupsReady, this, &TriageReader::acceptErrorGroups);
    connect(m_worker, &TriageWorker::deadEventIdsReady, this, &TriageReader::acceptDeadEventIds);
    connect(m_worker, &TriageWorker::previewReady, this, &TriageReader::acceptPreview);
    m_thread.setObjectName(QStringLiteral("outbox-triage"));
    m_thread.start();
}

void TriageReader::setProfile(const OutboxProfile &profile)
{
    TriageWorker *worker = m_worker;
    QMetaObject::invokeMethod(
        worker, [worker, profile] { worker->setProfile(profile); }, Qt::QueuedConnection);
}

void TriageReader::requestErrorGroups()
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (m_groups.isBusy()) {
        m_groupsAgain = true;
        return;
    }
    const quint64 id = m_groups.next();
    TriageWorker *worker = m_worker;
    QMetaObject::invokeMethod(
        worker, [worker, id] { worker->readErrorGroups(id); }, Qt::QueuedConnection);
}

void TriageReader::requestDeadEventIds(const QString &signature)
{
    Q_ASSERT(QThread::currentThread() == thread());
    const quint64 id = m_deadIds.next();
    m_deadIdsSignature = signature;
    TriageWorker *worker = m_worker;
    QMetaObject::invokeMethod(
        worker, [worker, id, signature] { worker->readDeadEventIds(id, signature); },
        Qt::QueuedConnection);
}

quint64 TriageReader::requestPreview(
    const ReplaySelection &selection, const ReplayRequest &request)
{
    Q_ASSERT(QThread::currentThread() == thread());
    const quint64 id = m_preview.next();
    TriageWorker *worker = m_worker;
    QMetaObject::invokeMethod(
        worker,
        [worker, id, selection, request] { worker->computePreview(id, selection, request); },
        Qt::QueuedConnection);
    return id;
}

void TriageReader::acceptErrorGroups(
    quint64 requestId, const QList<ErrorGroup> &groups, const QString &error)
{
    if (!m_groups.accept(requestId))
        return;
    if (std::exchange(m_groupsAgain, false))
        requestErrorGroups();
    if (error.isEmpty())
        emit errorGroupsLoaded(groups);
    else
        emit errorGroupsFailed(error);
}

void TriageReader::acceptDeadEventIds(
    quint64 requestId, const QStringList &ids, const QString &error)
{
    if (!m_deadIds.accept(requestId))
        return;
    if (error.isEmpty())
        emit deadEventIdsLoaded(m_deadIdsSignature, ids);
    else
        emit deadEventIdsFailed(m_deadIdsSignature, error);
}

void TriageReader::acceptPreview(
    quint64 requestId, const ReplayPreview &preview, const QString &error)
{
    if (!m_preview.accept(requestId))
        return;
    if (error.isEmpty())
        emit previewLoaded(requestId, preview);
    else
        emit previewFailed(requestId, error);
}
