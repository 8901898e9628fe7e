// The live simulated relay: N RelayWorkers, each on its own thread with its own connection.
// The GUI drives it (pause, resume, single-step, speed through the clock); outboxctl relay
// runs it until drained. Counters from the workers arrive over queued signals.
#pragma once

#include "clock.h"
#include "databaseurl.h"
#include "relayconfig.h"
#include "relayworker.h"

#include <QList>
#include <QObject>

class QThread;

class Relay : public QObject
{
    Q_OBJECT
public:
    Relay(const DatabaseUrl &url, const RelayConfig &config, const Clock *clock,
        QObject *parent = nullptr);
    ~Relay() override;

    // Opens every worker's connection; false with *error when one cannot start.
    bool start(QString *error, bool paused = false);
    void stop();
    bool isRunning() const { return !m_threads.isEmpty(); }

    void setPaused(bool paused);
    bool isPaused() const { return m_paused; }
    // Advances the first worker by one phase: claim, deliver (consumer commit), ack or fail.
    void step();
    void setTracing(bool on);
    void setFaultProfile(const FaultProfile &faults);

    RelayStats stats() const; // latest published totals; exact after stop()
    const RelayConfig &config() const { return m_config; }

signals:
    void statsChanged(const RelayStats &total);
    void traced(const TraceEvent &event);
    void stepped(RelayWorker::Phase phase);
    void workerError(const QString &error);

private:
    void onWorkerStats(int worker, const RelayStats &stats);

    DatabaseUrl m_url;
    RelayConfig m_config;
    const Clock *m_clock = nullptr;
    QList<QThread *> m_threads;
    QList<RelayWorker *> m_workers;
    QList<RelayStats> m_stats;
    bool m_paused = false;
};
