// The selected event as the detail worker read it, handed to the GUI thread as values: the
// summary row (or that the event no longer exists), its attempts and its replays, and in plain
// words where it is, why and what happens next (EventExplainer). A read that
// failed carries the reason instead; the pane then keeps what it showed.
#pragma once

#include "operatornotes.h"
#include "sqlrows.h"

#include <QMetaType>
#include <QString>
#include <optional>

struct EventSummary
{
    QString eventType;
    QString aggregateType;
    QString aggregateId;
    QString status;
    int failures = 0;
    QVariant lastErrorCategory; // null when the last attempt did not fail
    QVariant lastError;
};

// Who closed a RESOLVED event without delivery, when and why (its newest resolve_log row).
struct EventResolution
{
    QString operatorName;
    qint64 resolvedAt = 0;
    QString reason;
};

struct EventDetail
{
    QString eventId;
    QString error; // non-empty: the read failed (server down…); nothing below is meaningful
    bool found = false; // false with no error: the event truly left the outbox
    EventSummary summary;
    // The native schema's attempts, or those a profile maps (docs/profiles.md, "Attempt
    // history"): at most AttemptMapping::ReadLimit, the newest, attemptsCut when there were more.
    SqlRows attempts;
    bool attemptsCut = false;
    SqlRows replays; // native schema only
    // The event's current lease (native schema): null when no worker holds a claim. An
    // unfinished attempt is in flight only while this lies ahead of the clock.
    QVariant leaseUntil;
    std::optional<EventResolution> resolution; // RESOLVED on the native schema
    // Its payload revisions and which one each attempt carried (PayloadEditor::lineage);
    // empty when it was never edited (or on a schema without payload_revision).
    QStringList revisions;
    // The uncleared operator notes of the event, then those of its error group (oldest first
    // in each); notesUnavailable says why there are none to read (a profile, a schema older
    // than version 3), notesError why reading them failed (the rest of the detail stands).
    QList<OperatorNote> notes;
    QString notesUnavailable;
    QString notesError;
    // The plain-language account of the event at the time it was read, and its derived state
    // (DUE, SCHEDULED, IN_FLIGHT, LEASE_EXPIRED, DELIVERED, DEAD, RESOLVED); empty with
    // explanationError set when only the explanation could not be worked out.
    QString explanation;
    QString explainedState;
    QString explanationError;

    bool failed() const { return !error.isEmpty(); }
};
Q_DECLARE_METATYPE(EventDetail)

// One event's payload, redacted, read only when the operator asks to reveal it.
struct EventPayload
{
    QString eventId;
    QString error; // non-empty: the read failed
    bool found = false;
    QString text; // redacted, pretty-printed when it is JSON
};
Q_DECLARE_METATYPE(EventPayload)
