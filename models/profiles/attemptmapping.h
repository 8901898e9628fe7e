// Where a profile finds an event's attempt history (docs/profiles.md, "Attempt history"): a
// related table with a row per attempt (`attempts = table`), or a JSON array column of the
// event's own row with an element per failed attempt (`attempts = json_array`, Oban's
// `errors`). Each per-attempt field is an SQL expression per engine: over the table's rows, or
// over `attempt` (the element as the engine's JSON) and `ordinal` (its 0-based position).
// source() reads it as the native delivery_attempt, so the detail pane, `explain` and the
// error groups read one shape whatever the library keeps.
#pragma once

#include "engine.h"

#include <QString>
#include <array>

struct AttemptMapping
{
    enum class Kind { None, Table, JsonArray };
    using PerEngine = std::array<QString, EngineCount>;

    // At most this many attempts of one event are read (the newest); a longer history is
    // said to be cut (a hostile 1M-element array costs no more than this).
    static constexpr int ReadLimit = 100;

    Kind kind = Kind::None;
    PerEngine from; // the table (Table), or the array expression over the event's row
    PerEngine eventId; // Table: the event's event_id in the table's rows (text)
    PerEngine number; // the attempt's number (1 = first); JsonArray default: ordinal + 1
    PerEngine finishedAt; // when it ended, ms since the epoch
    PerEngine outcome; // RETRY, DEAD or DELIVERED; default RETRY (a recorded failure)
    PerEngine error; // the error message
    PerEngine worker; // who ran it

    // The per-attempt fields as a profile file names them, with the member each fills.
    static const std::array<std::pair<const char *, PerEngine AttemptMapping::*>, 7> &fields();
    static Kind kindFromName(const QString &name, bool *ok);
    // Without an `attempt_outcome` on `engine` every attempt reads RETRY: then the newest
    // attempt of a DEAD event is the one that parked it (SourceReader::newestOutcome).
    bool infersParkingAttempt(Engine engine) const
    {
        return kind != Kind::None && outcome.at(int(engine)).isEmpty();
    }

    // `(SELECT <the native delivery_attempt columns> FROM ...) AS delivery_attempt` on `engine`.
    // JsonArray reads the event's row from `eventFrom`/`eventWhere` with `eventIdExpression`;
    // with `oneEvent` (a placeholder the caller binds to an event ID) only that event's row, so
    // that the array is expanded for it alone, before the caller's own `WHERE event_id = ...`
    // (MariaDB did not push that condition down, and expanded every event's array).
    QString source(Engine engine, const QString &eventIdExpression, const QString &eventFrom,
        const QString &eventWhere, const QString &oneEvent = {}) const;
};
