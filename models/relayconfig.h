// Knobs of the live relay and its fake transport, shared by `outboxctl relay` and the
// dashboard's teaching panel, and the counters the relay reports back.
#pragma once

#include "faketransport.h"
#include "retrypolicy.h"

#include <QMetaType>

struct RelayConfig
{
    int workers = 1;
    int batch = 50;
    qint64 leaseMs = 5000;
    qint64 pollIntervalMs = 50; // idle poll; a full batch polls again at once
    RetryPolicy policy;
    RetryBudget budget;
    FaultProfile faults; // outage window relative to the relay's start
    double stallRate = 0.0; // a worker stalls past its lease before acknowledging
    qint64 latencyMinMs = 0;
    qint64 latencyMaxMs = 0;
    quint32 seed = 0; // 0 = random; otherwise worker i draws from seed + i
};

struct RelayStats
{
    qint64 claims = 0;
    qint64 transportCalls = 0;
    qint64 acked = 0;
    qint64 retried = 0;
    qint64 parked = 0;
    qint64 duplicatesSuppressed = 0;
    qint64 fencedAcks = 0; // acks and failure reports refused because the token was stale
    qint64 leaseTakeovers = 0;

    RelayStats &operator+=(const RelayStats &other)
    {
        claims += other.claims;
        transportCalls += other.transportCalls;
        acked += other.acked;
        retried += other.retried;
        parked += other.parked;
        duplicatesSuppressed += other.duplicatesSuppressed;
        fencedAcks += other.fencedAcks;
        leaseTakeovers += other.leaseTakeovers;
        return *this;
    }
};
Q_DECLARE_METATYPE(RelayStats)
