#include "policylab.h"

#include <limits>

PolicyLab::PolicyLab(QObject *parent)
    : QObject(parent)
    , m_newestStorm(std::make_shared<std::atomic<quint64>>(0))
{
    qRegisterMetaType<PolicyLabInput>();
    qRegisterMetaType<QList<PolicySchedule>>();
    qRegisterMetaType<QList<StormRun>>();
    m_worker = new PolicyLabWorker(m_newestStorm);
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &PolicyLabWorker::schedulesReady, this, &PolicyLab::acceptSchedules);
    connect(m_worker, &PolicyLabWorker::stormsReady, this, &PolicyLab::acceptStorms);
    m_thread.setObjectName(QStringLiteral("outbox-policy-lab"));
    m_thread.start();
}

PolicyLab::~PolicyLab()
{
    m_newestStorm->store(std::numeric_limits<quint64>::max()); // stops the storm running now
    m_thread.quit();
    m_thread.wait();
}

void PolicyLab::request(const PolicyLabInput &input)
{
    Q_ASSERT(QThread::currentThread() == thread());
    const bool wasBusy = isSimulating();
    const quint64 scheduleId = m_schedules.next();
    const quint64 stormId = m_storms.next();
    m_newestStorm->store(stormId);
    PolicyLabWorker *worker = m_worker;
    QMetaObject::invokeMethod(
        worker, [worker, scheduleId, input] { worker->computeSchedules(scheduleId, input); },
        Qt::QueuedConnection);
    QMetaObject::invokeMethod(
        worker, [worker, stormId, input] { worker->runStorms(stormId, input); },
        Qt::QueuedConnection);
    if (!wasBusy)
        emit simulatingChanged(true);
}

void PolicyLab::acceptSchedules(quint64 requestId, const QList<PolicySchedule> &schedules)
{
    if (m_schedules.accept(requestId))
        emit schedulesReady(schedules);
}

void PolicyLab::acceptStorms(
    quint64 requestId, const QList<StormRun> &runs, qint64 elapsedMs, const QString &error)
{
    if (!m_storms.accept(requestId))
        return;
    emit simulatingChanged(false);
    if (error.isEmpty())
        emit stormsReady(runs, elapsedMs);
    else
        emit stormsFailed(error);
}
