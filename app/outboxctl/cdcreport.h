// outboxctl's side of an outbox relayed by change data capture (docs/cdc.md): --cdc-slot and
// the limits on the slot (--max-cdc-lag, --max-cdc-inactive), and the slot's lines in check's
// report.
#pragma once

#include "healthsnapshot.h"

#include <QCommandLineParser>

class OutboxProfile;

namespace CdcReport {

// --cdc-slot NAME: read by every command that reads the slot (check, metrics, diagnose).
void addSlotOption(QCommandLineParser &parser);
// --max-cdc-lag BYTES and --max-cdc-inactive DURATION.
void addLimitOptions(QCommandLineParser &parser);
// The slot to read: --cdc-slot, else the profile's cdc_slot; empty: none. False with *error for
// a name that cannot be a slot's (OutboxProfile::cdcSlotProblem) and, once the profile is known
// (not null), for a limit on the slot without a slot.
bool readSlot(
    const QCommandLineParser &parser, const OutboxProfile *profile, QString *slot, QString *error);
// The limit options into *thresholds; false with *error for a malformed value.
bool readLimits(const QCommandLineParser &parser, HealthThresholds *thresholds, QString *error);
// "cdc:      slot dbz INACTIVE for 14 min, pgoutput" and the WAL line, for check's report.
QString lines(const CdcSlotReading &slot);

} // namespace CdcReport
