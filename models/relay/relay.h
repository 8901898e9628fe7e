// The live simulated relay: N RelayWorkers, each on its own thread with its own connection.
// The GUI drives it (pause, resume, single-step, speed through the clock); outboxctl relay
// runs it until drained. Counters from the workers arrive over queued signals.
// Workers reconnect by themselves when the database goes away; the relay folds their reports
// into one outage (started when the first worker loses its connection, ended when the last one
// is back), so a restart is announced once, not once per failed statement.
#pragma once

#include "clock.h"
#include "databaseurl.h"
#include "relayconfig.h"
#include "relayworker.h"
#include "workerthread.h"

#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QSet>
#include <memory>
#include <vector>

class Relay : public QObject
{
    Q_OBJECT
public:
    Relay(const DatabaseUrl &url, const RelayConfig &config, const Clock *clock,
        QObject *parent = nullptr);
    ~Relay() override;

    // Opens every worker's connection; false with *error when one cannot start.
    bool start(QString *error, bool paused = false);
    // The same without waiting: each worker opens its connection on its own thread, and
    // started() reports when all have (or the first error, the relay then stopped).
    void startAsync(bool paused = false);
    void stop();
    bool isRunning() const { return !m_workers.empty(); }

    void setPaused(bool paused);
    bool isPaused() const { return m_paused; }
    // Advances the first worker by one phase: claim, deliver (consumer commit), ack or fail.
    void step();
    void setTracing(bool on);
    void setFaultProfile(const FaultProfile &faults);

    RelayStats stats() const; // latest published totals; exact after stop()
    bool isInOutage() const { return !m_down.isEmpty(); }
    qint64 outageMs() const; // how long the current outage has lasted; 0 when none
    // Why the database is unreachable: the error that started the outage, then the latest
    // failed reconnection (passwords masked).
    QString outageCause() const { return m_outageCause; }
    const RelayConfig &config() const { return m_config; }

signals:
    void started(bool ok, const QString &error); // after startAsync()
    void statsChanged(const RelayStats &total);
    void traced(const TraceEvent &event);
    void stepped(RelayWorker::Phase phase);
    void workerError(const QString &error);
    void outageStarted(const QString &cause);
    void outageEnded(qint64 downMs);

private:
    RelayWorker *addWorker(int index);
    void onWorkerStarted(quint64 generation, bool ok, const QString &error);
    void onWorkerStats(int worker, const RelayStats &stats);
    void onConnectionLost(int worker, const QString &cause);
    void onReconnected(int worker);

    DatabaseUrl m_url;
    RelayConfig m_config;
    const Clock *m_clock = nullptr;
    std::vector<std::unique_ptr<WorkerThread<RelayWorker>>> m_workers; // one thread each
    QList<RelayStats> m_stats;
    bool m_paused = false;
    quint64 m_generation = 0; // one per start; answers to an earlier startAsync are dropped
    int m_startsPending = 0;
    QString m_startError;
    QSet<int> m_down; // workers without a connection
    QElapsedTimer m_outage;
    QString m_outageCause;
};
