// Reads one outbox's health snapshot once per interval on the thread it lives on (move it to a
// QThread of its own), with its own read-only connection and the window's limits
// (HealthWorker::defaultOpenOptions: statement timeout, read-only transaction, connect
// timeout). The connection is opened on the first poll and dropped when a poll fails, so the
// poller heals when the server returns. The next poll starts one interval after the last one
// ended: never two at once and never more than one per interval, however many scrapes read
// the result. With a `;cdc-slot=` it reads the replication slot in the same snapshot
// (HealthSnapshot::cdc). After an authentication failure the next poll waits twice as long as
// the last one, up to five minutes (FailureCause::authRetryDelayMs), and the error says so.
// `outboxctl serve` runs one per outbox and serves their last results.
#pragma once

#include "cdcslot.h"
#include "dbconnection.h"
#include "fleetconfig.h"
#include "metricstext.h"
#include "outboxprofile.h"
#include "throughputcache.h"

#include <QObject>
#include <memory>

class QTimer;

class OutboxPoller : public QObject
{
    Q_OBJECT
public:
    OutboxPoller(const FleetEntry &entry, qint64 intervalMs, QObject *parent = nullptr);
    ~OutboxPoller() override;

public slots:
    void start(); // the first poll now, then one every interval

signals:
    // The poll's figures (no snapshot when it failed) and, on failure, why (one line, the
    // URL without its password).
    void polled(const OutboxMetrics &metrics, const QString &error);

private:
    void poll();
    std::optional<HealthSnapshot> read(QString *error);
    QString describe(const QString &error) const;
    qint64 nextWaitMs(const QString &error);

    FleetEntry m_entry;
    qint64 m_intervalMs;
    QTimer *m_timer = nullptr;
    std::unique_ptr<DbConnection> m_connection;
    std::optional<OutboxProfile> m_profile;
    ThroughputCache m_throughput; // the settled minutes of this connection's throughput
    CdcSlotTracker m_cdcTracker; // the slot's WAL rate and idle time between polls
    qint64 m_polls = 0;
    int m_authFailures = 0; // in a row
};
