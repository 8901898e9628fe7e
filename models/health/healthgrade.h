// How bad a snapshot is by the tiles' limits (TileThresholds): each judged figure takes the
// level of the highest limit it reaches, as its tile does, and the worst figure is named in
// words ("3 DEAD events") for a fleet row or a desktop alert.
#pragma once

#include "tilethresholds.h"

#include <QString>

struct HealthSnapshot;

struct HealthGrade
{
    enum class Level { Normal, Amber, Red };

    Level level = Level::Normal;
    QString figure; // the worst figure in words; empty when normal

    // Red from limits.red, amber from limits.amber, else normal.
    static Level levelOf(qint64 value, const TileLimits &limits);
    // DEAD, expired leases, the oldest pending age and due, judged in that order: the first of
    // the highest level is the one named. A figure the schema cannot tell is not judged; PENDING
    // rows with no plausible created_at make the grade at least amber, as on the tile. With a
    // replication slot (HealthSnapshot::cdc) the worse of the outbox's and the slot's grade
    // (CdcSlotGrade): the one rule the fleet rows and the desktop alerts take.
    static HealthGrade of(const HealthSnapshot &snapshot, const TileThresholds &thresholds = {});
};
