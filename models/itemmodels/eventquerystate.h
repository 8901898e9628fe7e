// What the event table's query threads share without a lock: the newest request id (so the
// worker skips requests that were superseded while they waited), the request whose statement
// runs now and the PostgreSQL backend running it (so the canceller can stop exactly that one),
// and counters a test or a benchmark can read.
#pragma once

#include <QtGlobal>
#include <atomic>

struct EventQueryState
{
    std::atomic<quint64> newest {0}; // the newest request issued
    std::atomic<quint64> running {0}; // the request whose statement runs now; 0 = none
    std::atomic<int> backendPid {0}; // pg_backend_pid() of the worker's connection; 0 = none
    std::atomic<int> skipped {0}; // requests superseded before they started
    std::atomic<int> cancelled {0}; // running statements the server stopped because superseded
    std::atomic<int> cancelsSent {0}; // pg_cancel_backend() calls that found the backend
    std::atomic<int> statements {0}; // page and count statements executed

    bool isSuperseded(quint64 id) const { return id < newest.load(); }
};
