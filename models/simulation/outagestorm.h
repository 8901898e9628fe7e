// The outage-storm lesson: 200 events fail during a transport outage; once it is over they
// are retried with plain exponential backoff and again with Spring's randomised variant.
// Retries per time bucket show the thundering herd and how jitter spreads it. The same run
// takes other sizes, outages, budgets and policies (StormSetup): the Policy lab's what-if.
#pragma once

#include "retrypolicy.h"
#include "traceevent.h"

#include <QList>
#include <QMap>
#include <QSqlDatabase>
#include <functional>

// What one storm run simulates; the defaults are `outboxctl simulate --scenario outage-storm`.
struct StormSetup
{
    static constexpr int DefaultEvents = 200;
    static constexpr qint64 DefaultOutageUntil = 2000;
    static constexpr qint64 DefaultBucketWidth = 100;

    int events = DefaultEvents; // created at t=0, each failing its first attempt
    qint64 outageUntil = DefaultOutageUntil; // every transport call in [0, outageUntil) fails
    int budget = 20; // attempts before an event is parked DEAD
    quint32 seed = 1; // of the jittered delays
    qint64 bucketWidth = DefaultBucketWidth; // retries are counted per bucket of this width
    // Asked at every instant; true ends the run early (false, *error "stopped").
    std::function<bool()> stopRequested;
};

struct StormRun
{
    QString policy;
    QMap<qint64, int> retriesPerBucket; // bucket start -> retries claimed in that bucket
    int peakSameInstant = 0; // the most retries claimed at one and the same time
    int delivered = 0;
    int dead = 0;
    qint64 finishedAt = 0;
    int peak() const;
    StormSetup setup; // what was simulated
    int attempts = 0; // transport calls, first attempts included
    // The busiest second from the transport's recovery on (the load a recovering service sees).
    int peakAfterRecovery() const;
    // Retries in each second from the recovery on (second 0 first) to the last retry.
    QList<int> retriesPerSecondAfterRecovery() const;
};

class OutageStorm
{
public:
    static constexpr int Events = StormSetup::DefaultEvents;
    static constexpr qint64 OutageUntil = StormSetup::DefaultOutageUntil; // [0, 2000) fails
    static constexpr qint64 BucketWidth = StormSetup::DefaultBucketWidth;
    static constexpr int MaxEvents = 100000;

    static QStringList policies();

    // Runs the storm with `policy` on an emptied simulation database; false with *error on a
    // database error.
    static bool run(const QSqlDatabase &db, const RetryPolicy &policy, quint32 seed,
        StormRun *result, QString *error);
    // The same with another size, outage, budget or bucket width.
    static bool run(const QSqlDatabase &db, const RetryPolicy &policy, const StormSetup &setup,
        StormRun *result, QString *error);

    static QList<TraceEvent> toTrace(const StormRun &run);
    static QStringList toChart(const StormRun &run); // a text bar chart, a line per bucket
};
