// Runs the diagnosis engine (DiagnosisQuery) for the window, with its own read-only connection,
// on the health snapshot's thread (DiagnosisMonitor puts it there): the connection is opened
// there on the first request, dropped when a diagnosis fails (the server may have gone away)
// and reopened on the next request, so it heals like the snapshot.
#pragma once

#include "dbconnection.h"
#include "diagnosisquery.h"
#include "diagnosisresult.h"
#include "diagnosisthresholds.h"
#include "outboxprofile.h"
#include "workerconnection.h"

#include <QObject>
#include <memory>
#include <optional>

class DiagnosisWorker : public QObject
{
    Q_OBJECT
public:
    DiagnosisWorker(const DatabaseUrl &url, const OpenOptions &options, QObject *parent = nullptr);
    ~DiagnosisWorker() override;

public slots:
    // Answers with diagnosed or failed, carrying the same id.
    void request(quint64 requestId, qint64 now);
    void setProfile(const OutboxProfile &profile);
    // The DEAD tile's limits dead_events judges by (the window's Thresholds…).
    void setDeadTile(const TileLimits &limits) { m_thresholds.deadTile = limits; }

signals:
    void diagnosed(quint64 requestId, const DiagnosisResult &result);
    void failed(quint64 requestId, const QString &error);

private:
    std::optional<DiagnosisResult> run(qint64 now, QString *error);

    WorkerConnection m_connection;
    std::optional<OutboxProfile> m_profile; // none: the native schema
    DiagnosisThresholds m_thresholds;
    // blocked_aggregate's last reading, reused while it is young (DiagnosisQuery::BlockedMemo);
    // forgotten with the profile and with the connection.
    DiagnosisQuery::BlockedMemo m_blocked;
};
