// Reads the Charts tab's history (HistoryQuery) with its own read-only connection, on the
// thread HistoryMonitor gives it: the connection is opened there on the first request, dropped
// when a reading fails (the server may have gone away) and reopened on the next, so it heals
// like the snapshot. A reading stops after ReadingBudgetMs with the newest buckets read; the
// next request reads on (the settled buckets are kept).
#pragma once

#include "dbconnection.h"
#include "deliveryhistory.h"
#include "historyquery.h"
#include "outboxprofile.h"
#include "workerconnection.h"

#include <QObject>
#include <memory>
#include <optional>

class HistoryWorker : public QObject
{
    Q_OBJECT
public:
    // At 10M events the first reading of 7 d ranks every delivery of the table, some seconds:
    // taken a second per request, so the database is never held for long.
    static constexpr qint64 ReadingBudgetMs = 1000;

    HistoryWorker(const DatabaseUrl &url, const OpenOptions &options, QObject *parent = nullptr);
    ~HistoryWorker() override;

public slots:
    // Answers with historyReady or failed, carrying the same id.
    void request(quint64 requestId, HistoryRange range, qint64 now);
    void setProfile(const OutboxProfile &profile);

signals:
    void historyReady(quint64 requestId, const DeliveryHistory &history);
    void failed(quint64 requestId, const QString &error);

private:
    WorkerConnection m_connection;
    std::optional<OutboxProfile> m_profile; // none: the native schema
    HistoryCache m_cache;
};
