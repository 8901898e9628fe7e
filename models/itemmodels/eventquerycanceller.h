// Stops the event table's superseded statement on the server (PostgreSQL, MySQL): on its own
// thread, with its own small connection, it sends the dialect's cancel (pg_cancel_backend(),
// KILL QUERY) for the query worker's backend while that still runs a request older than the
// newest one. Never on the GUI thread, and never for
// the newest request (a cancel that arrives late anyway is retried by the worker). A cancel
// that reaches the server between two of the read's round trips (START TRANSACTION, PREPARE,
// EXECUTE) finds the backend idle and is dropped, so while the same superseded request still
// runs, the canceller tries again after 20 ms, then 40, 80 ... at most a second apart.
#pragma once

#include "dbconnection.h"
#include "eventquerystate.h"

#include <QObject>
#include <QTimer>
#include <memory>

class EventQueryCanceller : public QObject
{
    Q_OBJECT
public:
    EventQueryCanceller(
        const DatabaseUrl &url, std::shared_ptr<EventQueryState> state, QObject *parent = nullptr);
    ~EventQueryCanceller() override;

public slots:
    void cancelSuperseded();
    // Opens the connection ahead of the first cancel, so that a cancel is one statement away
    // and reaches a search that runs only a few hundred milliseconds.
    void prepare();

private:
    static constexpr int FirstRetryMs = 20;
    static constexpr int LongestRetryMs = 1000;
    bool ensureConnection();
    void retryLater(quint64 running);
    DatabaseUrl m_url;
    std::shared_ptr<EventQueryState> m_state;
    std::unique_ptr<DbConnection> m_connection;
    QTimer m_retry; // single-shot, on the canceller's thread
    quint64 m_retrying = 0; // the superseded request the retries are for
    int m_retryMs = FirstRetryMs;
};
