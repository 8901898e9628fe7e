// Reads the Charts tab's history (HistoryQuery) with its own read-only connection, on the
// health snapshot's thread (HistoryMonitor puts it there, so a reading runs after a snapshot,
// never beside it): the connection is opened there on the first request, dropped when a
// reading fails (the server may have gone away) and reopened on the next, so it heals like the
// snapshot.
#pragma once

#include "dbconnection.h"
#include "deliveryhistory.h"
#include "historyquery.h"
#include "outboxprofile.h"

#include <QObject>
#include <memory>
#include <optional>

class HistoryWorker : public QObject
{
    Q_OBJECT
public:
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
    DatabaseUrl m_url;
    OpenOptions m_options;
    std::unique_ptr<DbConnection> m_connection;
    std::optional<OutboxProfile> m_profile; // none: the native schema
    HistoryCache m_cache;
};
