// The GUI side of the window's diagnosis: after each health snapshot it asks a DiagnosisWorker,
// which lives on the snapshot's own thread (HealthMonitor::workerThread()), for the findings at
// the snapshot's `now` — never more often than the snapshot, and not again while one still
// runs — and re-emits the newest answer. What a diagnosis cost the database is counted into the
// snapshot's adaptive interval (HealthMonitor::noteRefreshCost), so the window's database time
// stays within its budget. Nothing here touches a database.
#pragma once

#include "dbconnection.h"
#include "diagnosisresult.h"

#include <QDateTime>
#include <QObject>
#include <QPointer>

class DiagnosisWorker;
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

    bool hasResult() const { return m_hasResult; }
    const DiagnosisResult &result() const { return m_result; }
    QDateTime resultAt() const { return m_resultAt; } // when the newest result arrived
    // Why the newest diagnosis failed (the findings shown are then older); empty when it did not.
    QString lastError() const { return m_lastError; }
    bool isRunning() const { return m_answered < m_issued; }

public slots:
    // Diagnoses at `now` (ms), unless a diagnosis still runs: the next snapshot asks again.
    void request(qint64 now);

signals:
    void resultChanged(const DiagnosisResult &result);
    void failed(const QString &error);

private:
    bool accept(quint64 requestId);
    void acceptResult(quint64 requestId, const DiagnosisResult &result);
    void acceptFailure(quint64 requestId, const QString &error);

    HealthMonitor *m_health = nullptr;
    // Lives on the health thread and is deleted there when it ends; gone with the monitor.
    QPointer<DiagnosisWorker> m_worker;
    quint64 m_issued = 0;
    quint64 m_answered = 0;
    bool m_hasResult = false;
    DiagnosisResult m_result;
    QDateTime m_resultAt;
    QString m_lastError;
};
