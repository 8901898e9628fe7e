// The GUI side of the event table's reads: owns the query worker's thread and, on PostgreSQL,
// the canceller's thread, numbers the requests and passes on the answer to the newest one only.
// A request that supersedes the one running makes the worker skip everything queued before it
// and, on PostgreSQL, cancels the running statement on the server.
#pragma once

#include "dbconnection.h"
#include "eventpage.h"
#include "eventquerystate.h"
#include "requestids.h"
#include "workerthread.h"

#include <QObject>
#include <memory>

class EventQueryCanceller;
class EventQueryWorker;

class EventQueryClient : public QObject
{
    Q_OBJECT
public:
    EventQueryClient(const DatabaseUrl &url, const OpenOptions &options, QObject *parent = nullptr);
    ~EventQueryClient() override;

    // Sends the request (its id is set here and returned).
    quint64 submit(EventPageRequest request);
    const EventQueryState &state() const { return *m_state; }

signals:
    void answered(const EventPageAnswer &answer);

private:
    void accept(const EventPageAnswer &answer);

    void startCanceller(const DatabaseUrl &url);

    std::shared_ptr<EventQueryState> m_state = std::make_shared<EventQueryState>();
    WorkerThread<EventQueryWorker> m_worker;
    std::unique_ptr<WorkerThread<EventQueryCanceller>> m_canceller; // PostgreSQL only
    RequestIds m_requests; // only the newest request's answer is passed on
};
