// The GUI side of the Charts tab's history: after a health snapshot whose figures changed
// (HealthMonitor::figuresChanged()), and at once when the range changes, it asks a HistoryWorker
// (on a thread of its own, "outbox-history", so a long first reading of 7 d never holds up a
// snapshot) for the chosen range at the snapshot's `now`, and re-emits the newest answer for the
// range still chosen. An answer older than one already taken, or for a range no longer chosen, is
// dropped. A snapshot arriving while a reading runs asks again only when that one has answered. A
// reading is bounded by HistoryWorker::ReadingBudgetMs: an incomplete answer shows the newest
// buckets, and the next snapshot's request reads on into the older ones. Nothing here touches a
// database.
#pragma once

#include "dbconnection.h"
#include "deliveryhistory.h"
#include "requestids.h"
#include "workerthread.h"

#include <QObject>

class HealthMonitor;
class HistoryWorker;
class OutboxProfile;

class HistoryMonitor : public QObject
{
    Q_OBJECT
public:
    HistoryMonitor(HealthMonitor *health, const DatabaseUrl &url, const OpenOptions &options,
        QObject *parent = nullptr);
    ~HistoryMonitor() override;

    void setProfile(const OutboxProfile &profile);
    HistoryRange range() const { return m_range; }
    bool hasHistory() const { return m_hasHistory; }
    const DeliveryHistory &history() const { return m_history; }
    bool isRunning() const { return m_requests.isBusy(); }

public slots:
    // Chooses the range and, when it changed and a snapshot was seen, reads it at once.
    void setRange(HistoryRange range);
    // Reads the chosen range at `now`, unless a reading still runs (then once it answers), or
    // the history is not wanted (then when it is wanted again).
    void request(qint64 now);
    // Reads only while wanted (the window: while its Overview page, which charts the history,
    // shows): what was asked for meanwhile is read, at the latest time asked for, once wanted.
    void setWanted(bool wanted);

signals:
    void historyChanged(const DeliveryHistory &history);
    void failed(const QString &error);

private:
    void issue(qint64 now);
    bool accept(quint64 requestId);
    void acceptHistory(quint64 requestId, const DeliveryHistory &history);
    void acceptFailure(quint64 requestId, const QString &error);

    WorkerThread<HistoryWorker> m_worker;
    HistoryRange m_range = HistoryRange::Hour;
    RequestIds m_requests; // an answer older than one already taken is dropped
    qint64 m_lastNow = 0;
    bool m_seenNow = false;
    bool m_pending = false; // a request came while one ran
    bool m_wanted = true;
    bool m_missed = false; // a request came while not wanted
    bool m_hasHistory = false;
    DeliveryHistory m_history;
};
