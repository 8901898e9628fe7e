// Knobs of the live relay and its fake transport, shared by `outboxctl relay` and the
// dashboard's Teach page, and the counters the relay reports back.
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
    // A worker whose connection died reopens it after a delay that starts here and doubles
    // up to the cap, until the database answers again.
    qint64 reconnectMinMs = 100;
    qint64 reconnectMaxMs = 5000;
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
    // Acks and failure reports whose statement failed (database unreachable): the outcome is
    // unknown to the database, the event stays claimed and is delivered again after its lease.
    qint64 ackErrors = 0;
    qint64 leaseTakeovers = 0;
    qint64 reconnects = 0; // connections reopened after the database went away

    RelayStats &operator+=(const RelayStats &other)
    {
        claims += other.claims;
        transportCalls += other.transportCalls;
        acked += other.acked;
        retried += other.retried;
        parked += other.parked;
        duplicatesSuppressed += other.duplicatesSuppressed;
        fencedAcks += other.fencedAcks;
        ackErrors += other.ackErrors;
        leaseTakeovers += other.leaseTakeovers;
        reconnects += other.reconnects;
        return *this;
    }
};
Q_DECLARE_METATYPE(RelayStats)
