// One relay worker: lives on its own thread with its own connection. When its timer fires it
// claims a batch of due events, delivers each through the fake transport and acks or fails it
// with its own token. It never sleeps: latency and stalls are single-shot timers, and due
// times live in the rows, so the thread is free between steps (seed 001).
// When the database goes away (server restart, network), the worker finishes the batch in
// hand (its acks fail and those events stay claimed until their lease expires), drops the
// dead connection, reopens it with capped exponential backoff and resumes claiming.
#pragma once

#include "clock.h"
#include "dbconnection.h"
#include "relayconfig.h"
#include "traceevent.h"

#include <QObject>
#include <QRandomGenerator>
#include <memory>

class OutboxStore;
class QTimer;

class RelayWorker : public QObject
{
    Q_OBJECT
public:
    // The phases single-step mode stops after; a test inspects the tables at each cut.
    enum class Phase { Idle, Claimed, Delivered, Settled };
    Q_ENUM(Phase)

    RelayWorker(const DatabaseUrl &url, const RelayConfig &config, int index, const Clock *clock,
        QObject *parent = nullptr);
    ~RelayWorker() override;

    RelayStats stats() const { return m_stats; } // read after the thread has finished
    QString errorText() const { return m_error; }

public slots:
    bool start(); // opens the connection in the worker's thread and begins polling
    void stop();
    void setPaused(bool paused);
    void stepOnce(); // step mode: advance exactly one phase
    void setTracing(bool on) { m_tracing = on; }
    void setFaultProfile(const FaultProfile &faults);

signals:
    void failed(const QString &error); // a database error on a connection that still works
    // The connection died (cause has passwords masked); the worker is reconnecting.
    void connectionLost(int worker, const QString &cause);
    void reconnectFailed(int worker, const QString &error); // still unreachable; retrying
    void reconnected(int worker);
    void statsChanged(int worker, const RelayStats &stats);
    void traced(const TraceEvent &event);
    void stepped(RelayWorker::Phase phase);

private:
    struct InFlight
    {
        Claim claim;
        Delivery delivery;
    };

    bool openConnection(QString *error);
    void dropConnection();
    bool connectionDead() const;
    void noteDatabaseError(const QString &error);
    bool connectionUsable();
    void beginOutage(const QString &cause);
    void tryReconnect();
    void poll();
    void scheduleNextPoll(qint64 delayMs);
    void noteClaim(const Claim &claim);
    void beginDelivery(const Claim &claim);
    InFlight deliver(const Claim &claim);
    void settle(const InFlight &work);
    void reportFailure(const InFlight &work);
    void flushAcks();
    void finishOne();
    void trace(const TraceEvent &event);
    void publishStats();
    qint64 scaled(qint64 clockMs) const;

    DatabaseUrl m_url;
    RelayConfig m_config;
    int m_index = 0;
    QString m_name;
    const Clock *m_clock = nullptr;
    qint64 m_startedAt = 0;
    std::unique_ptr<DbConnection> m_connection;
    std::unique_ptr<OutboxStore> m_store;
    std::unique_ptr<FakeTransport> m_transport;
    QTimer *m_pollTimer = nullptr;
    QTimer *m_reconnectTimer = nullptr;
    qint64 m_reconnectDelayMs = 0;
    QString m_suspectError; // the last database error since the connection was last checked
    QRandomGenerator m_random;
    RelayStats m_stats;
    int m_inFlight = 0; // claimed in the current batch and not yet settled
    int m_stalled = 0; // of those, stalled past their lease
    QList<InFlight> m_pendingAcks;
    bool m_lastBatchFull = false;
    bool m_statsDirty = false;
    QString m_error;
    bool m_paused = false;
    bool m_stopped = false;
    bool m_tracing = false;
    QList<Claim> m_stepClaimed;
    QList<InFlight> m_stepDelivered;
};
