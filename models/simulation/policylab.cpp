#include "policylab.h"

#include <limits>

PolicyLab::PolicyLab(QObject *parent)
    : QObject(parent)
    , m_newestStorm(std::make_shared<std::atomic<quint64>>(0))
    , m_worker(QStringLiteral("outbox-policy-lab"), new PolicyLabWorker(m_newestStorm))
{
    qRegisterMetaType<PolicyLabInput>();
    qRegisterMetaType<QList<PolicySchedule>>();
    qRegisterMetaType<QList<StormRun>>();
    PolicyLabWorker *worker = m_worker.worker();
    connect(worker, &PolicyLabWorker::schedulesReady, this, &PolicyLab::acceptSchedules);
    connect(worker, &PolicyLabWorker::stormsReady, this, &PolicyLab::acceptStorms);
    m_worker.start();
}

PolicyLab::~PolicyLab()
{
    m_newestStorm->store(std::numeric_limits<quint64>::max()); // stops the storm running now
    m_worker.stop();
}

void PolicyLab::request(const PolicyLabInput &input)
{
    Q_ASSERT(QThread::currentThread() == thread());
    const bool wasBusy = isSimulating();
    const quint64 scheduleId = m_schedules.next();
    const quint64 stormId = m_storms.next();
    m_newestStorm->store(stormId);
    m_worker.post([scheduleId, input](PolicyLabWorker *worker) {
        worker->computeSchedules(scheduleId, input);
    });
    m_worker.post([stormId, input](PolicyLabWorker *worker) { worker->runStorms(stormId, input); });
    if (!wasBusy)
        emit simulatingChanged(true);
}

void PolicyLab::acceptSchedules(quint64 requestId, const QList<PolicySchedule> &schedules)
{
    if (m_schedules.acceptNewest(requestId))
        emit schedulesReady(schedules);
}

void PolicyLab::acceptStorms(
    quint64 requestId, const QList<StormRun> &runs, qint64 elapsedMs, const QString &error)
{
    if (!m_storms.acceptNewest(requestId))
        return;
    emit simulatingChanged(false);
    if (error.isEmpty())
        emit stormsReady(runs, elapsedMs);
    else
        emit stormsFailed(error);
}
