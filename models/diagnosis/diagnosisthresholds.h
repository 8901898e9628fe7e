// The configurable limits of the diagnosis engine's rules, with the documented defaults
// (docs/user-guide.md, Diagnosis). Times in ms, shares as fractions.
#pragma once

#include "tilethresholds.h"

#include <QtGlobal>

struct DiagnosisThresholds
{
    // relay_stalled: an event due for longer than this ...
    qint64 stalledDueMs = 60000;
    // ... and no attempt finished within this window (without attempt history: the oldest due
    // event has been due for longer than this window).
    qint64 stalledNoAttemptMs = 5 * 60000;
    // lease_expired_unclaimed: the lease ended longer ago than this.
    qint64 leaseExpiredMs = 60000;
    // dominant_error: one error signature holds at least this share of the DEAD events, and
    // at least this many of them.
    double dominantErrorShare = 0.5;
    qint64 dominantErrorMin = 10;
    // poison_type: one event type holds at least this share of the DEAD events, and at least
    // this many.
    double poisonTypeShare = 0.8;
    qint64 poisonTypeMin = 10;
    // retry_herd: at least this many scheduled events, and at least this share of them due
    // within the same bucket (one second).
    qint64 retryHerdMinScheduled = 20;
    double retryHerdShare = 0.5;
    qint64 retryHerdBucketMs = 1000;
    // dead_rising: events parked DEAD in the last window at `factor` times the rate of the
    // baseline before it, and at least `min` of them (needs the attempt history).
    qint64 deadRisingWindowMs = 10 * 60000;
    qint64 deadRisingBaselineMs = 60 * 60000;
    double deadRisingFactor = 3.0;
    qint64 deadRisingMin = 10;
    // future_schedule: PENDING events due further ahead than this.
    qint64 futureScheduleMs = 30LL * 24 * 3600 * 1000;
    // created_in_future: events created later than now by more than this.
    qint64 createdInFutureMs = 60000;
    // dominant_error and poison_type read the type and error of at most this many DEAD rows,
    // the newest first (by created_at, through the DEAD index): exact up to this many DEAD
    // events, an estimate from the newest ones beyond (the evidence says "sampled").
    qint64 deadSampleRows = 1000;
    // dead_events: the DEAD tile's limits (TileThresholds, the source the window's tiles and
    // `outboxctl check` judge by): as many DEAD events as its amber limit is a warning, as many
    // as its red limit a critical finding, so the Diagnosis page agrees with the tile.
    TileLimits deadTile = TileThresholds().dead;
};
