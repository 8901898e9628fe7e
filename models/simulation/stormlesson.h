// The outage storm as the Teach page tells it: the attempts OutageStorm::run made, read back
// from delivery_attempt as the relay persisted them (per instant and attempt number), the peak
// of retries in one instant, and the few plain sentences a learner reads as the clock passes
// each moment (the outage, each round of retries, the recovery, the peak against another
// policy). A value: built on the session's worker, read on the GUI thread.
#pragma once

#include <QList>
#include <QMap>
#include <QMetaType>
#include <QSqlDatabase>
#include <QStringList>

struct StormInstant
{
    qint64 at = 0;
    int attemptNo = 0;
    int retried = 0; // failed and scheduled again
    int delivered = 0;
    int dead = 0;
    int count() const { return retried + delivered + dead; }
};

// The storm's events by state at one instant of its clock, as the narration tells them.
struct StormCounts
{
    qint64 due = 0; // not attempted yet
    qint64 scheduled = 0; // failed, waiting for their retry
    qint64 delivered = 0;
    qint64 dead = 0;
};

class StormLesson
{
public:
    QString policy;
    QString comparisonPolicy; // the policy the peak is compared with
    int comparisonPeak = 0; // its most retries in one instant, from its own run
    qint64 outageUntil = 0;
    QList<StormInstant> attempts; // by instant, then attempt number
    // The comparison policy's run, read back the same way before this one: shown beside it.
    QList<StormInstant> comparisonAttempts;

    // Reads what OutageStorm::run left in the simulation tables.
    static bool read(const QSqlDatabase &db, StormLesson *lesson, QString *error);

    int events() const; // first attempts
    QMap<qint64, int> retriesPerInstant() const; // attempts after the first, by instant
    static QMap<qint64, int> retriesPerInstant(const QList<StormInstant> &attempts);
    QMap<qint64, int> retriesPerBucket(qint64 width) const;
    int peakRetriesSameInstant() const;
    int delivered() const;
    int dead() const;
    qint64 finishedAt() const;
    // The last instant of either run: the storm is told, and both charted, up to here.
    qint64 endsAt() const;
    // Where the events stand once the instants up to `now` are told (before t=0: all due).
    StormCounts countsAt(qint64 now) const;

    // The sentences for the moments in (after, upTo], each "t=…  sentence".
    QStringList narrationBetween(qint64 after, qint64 upTo) const;
    QString conclusion() const;

private:
    QList<std::pair<qint64, QString>> moments() const;
    QString round(int attemptNo) const;
};

Q_DECLARE_METATYPE(StormLesson)
