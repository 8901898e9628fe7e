// The Policy lab's work, on the thread PolicyLab owns: the schedules of one or two retry
// policies (PolicySchedule) and the outage what-if, the real relay logic (OutageStorm) on a
// scratch in-memory SQLite database that this thread opens on the first storm and keeps. It
// never touches the database the window shows. A storm asks, at every instant it simulates,
// whether a newer request superseded it, and then stops.
#pragma once

#include "dbconnection.h"
#include "outagestorm.h"
#include "policyschedule.h"

#include <QObject>
#include <atomic>
#include <memory>

// What the lab computes: the policies compared (one or two), the attempt budget, and the
// outage: `events` fail from t=0 until `outageSeconds`, then the transport recovers.
struct PolicyLabInput
{
    static constexpr int MaxEvents = 10000;
    static constexpr int MaxOutageSeconds = 3600;
    static constexpr int MaxBudget = 100;

    QList<RetryPolicy> policies;
    int budget = 20;
    int events = 1000;
    int outageSeconds = 60;
    quint32 seed = 1;

    // The storm of one policy: retries counted per second, the transport back at outageSeconds.
    StormSetup stormSetup() const;
};

class PolicyLabWorker : public QObject
{
    Q_OBJECT
public:
    // `newestStorm` is the id of the newest storm requested; a storm with another id stops.
    explicit PolicyLabWorker(
        std::shared_ptr<const std::atomic<quint64>> newestStorm, QObject *parent = nullptr);
    ~PolicyLabWorker() override;

public slots:
    void computeSchedules(quint64 requestId, const PolicyLabInput &input);
    void runStorms(quint64 requestId, const PolicyLabInput &input);

signals:
    void schedulesReady(quint64 requestId, const QList<PolicySchedule> &schedules);
    // `elapsedMs`: what the storms cost, opening the scratch database included.
    void stormsReady(
        quint64 requestId, const QList<StormRun> &runs, qint64 elapsedMs, const QString &error);

private:
    bool ensureScratch(QString *error);

    std::shared_ptr<const std::atomic<quint64>> m_newestStorm;
    std::unique_ptr<DbConnection> m_scratch;
};
