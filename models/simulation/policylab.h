// The GUI side of the Policy lab: owns the worker's thread, sends each new input as a request
// for the schedules (fast) and for the outage storms (seconds for thousands of events), and
// re-emits only the newest answer of each kind. A new input stops the storm still running for
// an older one, so the worker is soon free for it. Nothing here touches a database.
#pragma once

#include "policylabworker.h"
#include "requestids.h"
#include "workerthread.h"

#include <QObject>

class PolicyLab : public QObject
{
    Q_OBJECT
public:
    explicit PolicyLab(QObject *parent = nullptr);
    ~PolicyLab() override; // stops a storm in progress and waits for the thread

    // Computes the schedules and runs the storms of `input`, superseding earlier requests.
    void request(const PolicyLabInput &input);
    bool isSimulating() const { return m_storms.isBusy(); }

signals:
    void schedulesReady(const QList<PolicySchedule> &schedules);
    // The storms of the newest input, one per policy, and what they cost.
    void stormsReady(const QList<StormRun> &runs, qint64 elapsedMs);
    void stormsFailed(const QString &error);
    void simulatingChanged(bool simulating);

private:
    void acceptSchedules(quint64 requestId, const QList<PolicySchedule> &schedules);
    void acceptStorms(
        quint64 requestId, const QList<StormRun> &runs, qint64 elapsedMs, const QString &error);

    std::shared_ptr<std::atomic<quint64>> m_newestStorm;
    WorkerThread<PolicyLabWorker> m_worker;
    // One kind each: an answer older than the newest request of its kind is dropped.
    RequestIds m_schedules;
    RequestIds m_storms;
};
