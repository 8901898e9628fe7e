// Reads what the connected role may write (TableGrants) off the GUI thread, on a worker of
// its own with its own short-lived read-only connection: the window asks on connect and again
// after each reconnect (the grants may have changed while the server was away), and its
// actions follow grantsChanged. A failed read keeps the last grants (nothing refused at first).
#pragma once

#include "dbconnection.h"
#include "requestids.h"
#include "tablegrants.h"
#include "workerthread.h"

#include <QObject>

class GrantsWorker : public QObject
{
    Q_OBJECT
public:
    GrantsWorker(const DatabaseUrl &url, const OpenOptions &options);

    void read(quint64 requestId);

signals:
    void grantsRead(quint64 requestId, const TableGrants &grants);

private:
    DatabaseUrl m_url;
    OpenOptions m_options;
};

class GrantsMonitor : public QObject
{
    Q_OBJECT
public:
    GrantsMonitor(const DatabaseUrl &url, const OpenOptions &options, QObject *parent = nullptr);
    ~GrantsMonitor() override;

    // Reads the grants again (the newest answer wins).
    void refresh();
    const TableGrants &grants() const { return m_grants; }

signals:
    void grantsChanged(const TableGrants &grants);

private:
    WorkerThread<GrantsWorker> m_worker;
    RequestIds m_requests;
    TableGrants m_grants;
};
