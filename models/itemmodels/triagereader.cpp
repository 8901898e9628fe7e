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
    , m_worker(QStringLiteral("outbox-triage"), new TriageWorker(url, options))
{
    qRegisterMetaType<ErrorGroup>();
    qRegisterMetaType<QList<ErrorGroup>>();
    qRegisterMetaType<ActionPlan>();
    connectWorker();
    m_worker.start();
}

TriageReader::~TriageReader()
{
    m_worker.stop();
}

void TriageReader::connectWorker()
{
    TriageWorker *worker = m_worker.worker();
    connect(worker, &TriageWorker::errorGroupsReady, this, &TriageReader::acceptErrorGroups);
    connect(worker, &TriageWorker::deadEventIdsReady, this, &TriageReader::acceptDeadEventIds);
    connect(worker, &TriageWorker::previewReady, this, &TriageReader::acceptPreview);
}

void TriageReader::setProfile(const OutboxProfile &profile)
{
    m_worker.post([profile](TriageWorker *worker) { worker->setProfile(profile); });
}

void TriageReader::requestErrorGroups()
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (m_groups.isBusy()) {
        m_groupsAgain = true;
        return;
    }
    const quint64 id = m_groups.next();
    m_worker.post([id](TriageWorker *worker) { worker->readErrorGroups(id); });
}

void TriageReader::requestDeadEventIds(const QString &signature)
{
    Q_ASSERT(QThread::currentThread() == thread());
    const quint64 id = m_deadIds.next();
    m_deadIdsSignature = signature;
    m_worker.post(
        [id, signature](TriageWorker *worker) { worker->readDeadEventIds(id, signature); });
}

quint64 TriageReader::requestPreview(const ReplaySelection &selection, const ReplayRequest &request)
{
    Q_ASSERT(QThread::currentThread() == thread());
    const quint64 id = m_preview.next();
    m_worker.post([id, selection, request](
                      TriageWorker *worker) { worker->computePreview(id, selection, request); });
    return id;
}

void TriageReader::acceptErrorGroups(
    quint64 requestId, const QList<ErrorGroup> &groups, const QString &error)
{
    if (!m_groups.acceptNewest(requestId))
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
    if (!m_deadIds.acceptNewest(requestId))
        return;
    if (error.isEmpty())
        emit deadEventIdsLoaded(m_deadIdsSignature, ids);
    else
        emit deadEventIdsFailed(m_deadIdsSignature, error);
}

void TriageReader::acceptPreview(quint64 requestId, const ActionPlan &plan, const QString &error)
{
    if (!m_preview.acceptNewest(requestId))
        return;
    if (error.isEmpty())
        emit previewLoaded(requestId, plan);
    else
        emit previewFailed(requestId, error);
}
