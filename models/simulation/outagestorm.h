// The outage-storm lesson: 200 events fail during a transport outage; once it is over they
// are retried with plain exponential backoff and again with Spring's randomised variant.
// Retries per time bucket show the thundering herd and how jitter spreads it.
#pragma once

#include "retrypolicy.h"
#include "traceevent.h"

#include <QList>
#include <QMap>
#include <QSqlDatabase>

struct StormRun
{
    QString policy;
    QMap<qint64, int> retriesPerBucket; // bucket start -> retries claimed in that bucket
    int peakSameInstant = 0; // the most retries claimed at one and the same time
    int delivered = 0;
    int dead = 0;
    qint64 finishedAt = 0;
    int peak() const;
};

class OutageStorm
{
public:
    static constexpr int Events = 200;
    static constexpr qint64 OutageUntil = 2000; // every call in [0, 2000) fails
    static constexpr qint64 BucketWidth = 100;

    static QStringList policies();

    // Runs the storm with `policy` on an emptied simulation database; false with *error on a
    // database error.
    static bool run(const QSqlDatabase &db, const RetryPolicy &policy, quint32 seed,
        StormRun *result, QString *error);

    static QList<TraceEvent> toTrace(const StormRun &run);
    static QStringList toChart(const StormRun &run); // a text bar chart, a line per bucket
};
