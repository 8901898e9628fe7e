// Computes health snapshots on its own thread with its own read-only connection, so that no
// aggregate query runs on the GUI thread. Lives on the QThread that HealthMonitor owns: the
// connection is opened there on the first request and closed there when the worker is deleted.
#pragma once

#include "cdcslot.h"
#include "dbconnection.h"
#include "healthsnapshot.h"
#include "outboxprofile.h"
#include "throughputcache.h"

#include <QObject>
#include <memory>
#include <optional>

class HealthWorker : public QObject
{
    Q_OBJECT
public:
    // A window's worker gives up opening a connection after this long, so a retry is never
    // stuck behind an unreachable server for longer.
    static constexpr int WindowConnectTimeoutS = 3;
    // Read-only, schema validated and, on PostgreSQL, a 5 s statement timeout, a 3 s connect
    // timeout and a dropped network noticed within about 3 s.
    static OpenOptions defaultOpenOptions();

    explicit HealthWorker(const DatabaseUrl &url, const OpenOptions &options = defaultOpenOptions(),
        QObject *parent = nullptr);
    ~HealthWorker() override;

public slots:
    // Answers with snapshotReady or failed, carrying the same id.
    void request(quint64 requestId, qint64 now);
    // The schema to read from now on (HealthQuery::Options::profile); native by default.
    void setProfile(const OutboxProfile &profile)
    {
        m_profile = profile;
        m_throughput.clear();
    }
    // Chooses the profile as `outboxctl --db URL` without --profile does, each time the
    // connection opens (ProfileRegistry::detect), and says which with profileDetected.
    void setDetectProfile()
    {
        m_detectProfile = true;
        m_profile.reset();
        m_throughput.clear();
    }

    // The replication slot to read with every snapshot from now on (HealthQuery::Options::
    // cdcSlot); empty: none.
    void setCdcSlot(const QString &slot)
    {
        m_cdcSlot = slot;
        m_cdcTracker.reset();
    }

    // Only the grade's figures from now on (HealthQuery::Options::summaryOnly): the fleet view.
    void setSummaryOnly(bool summaryOnly) { m_summaryOnly = summaryOnly; }

signals:
    void snapshotReady(quint64 requestId, const HealthSnapshot &snapshot);
    void failed(quint64 requestId, const QString &error);
    void profileDetected(const QString &name); // empty: the native schema

private:
    bool ensureConnection(QString *error);

    DatabaseUrl m_url;
    OpenOptions m_options;
    std::unique_ptr<DbConnection> m_connection;
    std::optional<OutboxProfile> m_profile;
    bool m_detectProfile = false;
    bool m_summaryOnly = false;
    ThroughputCache m_throughput; // the settled minutes of this connection's throughput
    QString m_cdcSlot;
    CdcSlotTracker m_cdcTracker; // the slot's WAL rate and idle time between snapshots
};
