// The GUI side of the Policy lab: owns the worker's thread, sends each new input as a request
// for the schedules (fast) and for the outage storms (seconds for thousands of events), and
// re-emits only the newest answer of each kind. A new input stops the storm still running for
// an older one, so the worker is soon free for it. Nothing here touches a database.
#pragma once

#include "policylabworker.h"

#include <QObject>
#include <QThread>

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
    // Request ids of one kind: answers older than the newest issued one are dropped.
    struct Requests
    {
        quint64 issued = 0;
        quint64 answered = 0;
        quint64 next() { return ++issued; }
        bool isBusy() const { return answered < issued; }
        bool accept(quint64 id)
        {
            answered = qMax(answered, id);
            return id == issued;
        }
    };

    void acceptSchedules(quint64 requestId, const QList<PolicySchedule> &schedules);
    void acceptStorms(
        quint64 requestId, const QList<StormRun> &runs, qint64 elapsedMs, const QString &error);

    QThread m_thread;
    PolicyLabWorker *m_worker = nullptr; // lives on m_thread, deleted there when it finishes
    std::shared_ptr<std::atomic<quint64>> m_newestStorm;
    Requests m_schedules;
    Requests m_storms;
};
