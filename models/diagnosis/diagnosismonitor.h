// The GUI side of the window's diagnosis: after a health snapshot it asks a DiagnosisWorker,
// which lives on the snapshot's own thread (HealthMonitor::workerThread()), for the findings at
// the snapshot's `now`, and re-emits the newest answer. It never asks more often than the
// snapshot, never while one still runs, and, after snapshots, only once its own budget allows:
// a diagnosis costs several snapshots at scale (407 ms against 116 ms at 10M events), so the
// next one waits CostFactor times what the last one cost the database (0.2 s a minute at most,
// beside the snapshot's 0.8 s). A snapshot whose figures did not change asks nothing
// (HealthMonitor::figuresChanged()). One exception to the budget: a snapshot whose DEAD count
// fell below the one the newest diagnosis was asked at, while that diagnosis counted events on
// hold or investigating, is diagnosed at once: only an operator (a replay, resolve or purge, here
// or elsewhere) makes DEAD fall, and the DEAD tile's "(215 on hold)" must not outlive the events
// it counts by more than one refresh. With a replication slot (HealthSnapshot::cdc) its finding
// (CdcFinding) is added from each snapshot to the newest result. Nothing here touches a database.
#pragma once

#include "dbconnection.h"
#include "diagnosisresult.h"
#include "requestids.h"
#include "tilethresholds.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <optional>

class DiagnosisWorker;
struct HealthSnapshot;
class HealthMonitor;
class OutboxProfile;

class DiagnosisMonitor : public QObject
{
    Q_OBJECT
public:
    // Follows `health`'s snapshots; the worker opens its own connection with `options`.
    DiagnosisMonitor(HealthMonitor *health, const DatabaseUrl &url, const OpenOptions &options,
        QObject *parent = nullptr);
    ~DiagnosisMonitor() override;

    // The schema to diagnose (another library's table through its profile); native by default.
    void setProfile(const OutboxProfile &profile);
    // The tiles' limits (the window's or the fleet's Thresholds…): dead_events follows the DEAD
    // tile's, so the findings agree with the tiles. A change is diagnosed again soon.
    void setTileThresholds(const TileThresholds &tiles);

    bool hasResult() const { return m_hasResult; }
    const DiagnosisResult &result() const { return m_result; }
    QDateTime resultAt() const { return m_resultAt; } // when the newest result arrived
    // Why the newest diagnosis failed (the findings shown are then older); empty when it did not.
    QString lastError() const { return m_lastError; }
    bool isRunning() const { return m_requests.isBusy(); }

    static constexpr int CostFactor = 300;
    // How long after the start of a diagnosis that cost `costMs` the next one may follow a
    // snapshot: costMs × CostFactor (a few milliseconds: at every snapshot; 400 ms: 2 min).
    static qint64 spacingMs(qint64 costMs);
    qint64 lastCostMs() const { return m_lastCostMs; }
    // Never follow a snapshot sooner than this after the last diagnosis, however cheap (0 by
    // default; the fleet view: once a minute per outbox).
    void setMinimumSpacingMs(qint64 ms) { m_minimumSpacingMs = ms; }

public slots:
    // Diagnoses at `now` (ms), unless a diagnosis still runs: the next snapshot asks again.
    void request(qint64 now);
    // request(now), or, while a diagnosis runs, one more as soon as it has answered (at `now`
    // plus the time waited): a change the running one may have missed is never dropped.
    void requestSoon(qint64 now);
    // After a snapshot: request(now) once spacingMs() of the last diagnosis (and the minimum
    // spacing) has passed.
    void requestIfDue(qint64 now);

signals:
    void resultChanged(const DiagnosisResult &result);
    void failed(const QString &error);

private:
    bool acknowledgedMayBeGone(const HealthSnapshot &snapshot) const;
    void applySlot(const HealthSnapshot &snapshot);
    bool accept(quint64 requestId);
    void acceptResult(quint64 requestId, const DiagnosisResult &result);
    void acceptFailure(quint64 requestId, const QString &error);

    HealthMonitor *m_health = nullptr;
    TileThresholds m_tiles; // the slot's finding is graded by them (CdcSlotGrade)
    // Lives on the health thread and is deleted there when it ends; gone with the monitor.
    QPointer<DiagnosisWorker> m_worker;
    QElapsedTimer m_sinceStart; // since the last diagnosis was asked for
    qint64 m_lastCostMs = 0;
    qint64 m_minimumSpacingMs = 0;
    bool m_undiagnosed = false; // figures changed since the last diagnosis was asked for
    qint64 m_askedAtDead = -1; // the DEAD count of the snapshot the newest request followed
    std::optional<qint64> m_queuedNow; // requestSoon() while running
    QElapsedTimer m_queuedSince;
    RequestIds m_requests; // an answer older than one already taken is dropped
    bool m_hasResult = false;
    DiagnosisResult m_result;
    QDateTime m_resultAt;
    QString m_lastError;
};
