// Reads one outbox's health snapshot every `intervalMs` on the thread it lives on (move it to a
// QThread of its own), with its own read-only connection and the window's limits
// (HealthWorker::defaultOpenOptions: statement timeout, read-only transaction). The connection
// is opened on the first poll and dropped when a poll fails, so the poller heals when the
// server returns. Never more than one snapshot per interval, whoever asks. `outboxctl serve`
// runs one per outbox and serves their last results.
#pragma once

#include "dbconnection.h"
#include "fleetconfig.h"
#include "metricstext.h"
#include "outboxprofile.h"

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
    // The poll's figures (no snapshot when it failed) and, on failure, why (no password).
    void polled(const OutboxMetrics &metrics, const QString &error);

private:
    void poll();

    FleetEntry m_entry;
    qint64 m_intervalMs;
    QTimer *m_timer = nullptr;
    std::unique_ptr<DbConnection> m_connection;
    std::optional<OutboxProfile> m_profile;
    qint64 m_polls = 0;
};
