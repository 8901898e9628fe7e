// What the event table shows: a derived state, a text search over event ID and type, a minimum
// of failures, an age range and an error category. It becomes a WHERE clause with bound values
// (never pasted user text), shared by the event list and by bulk replay.
#pragma once

#include <QSqlQuery>
#include <QString>
#include <optional>

struct EventFilter
{
    enum class State { Any, Pending, Due, Scheduled, InFlight, LeaseExpired, Delivered, Dead };

    State state = State::Any;
    QString search; // substring of event_id or event_type, case-insensitive
    int minFailures = 0;
    std::optional<qint64> minAgeMs;
    std::optional<qint64> maxAgeMs;
    QString errorCategory; // empty = any

    static QString stateName(State state);
    static std::optional<State> stateFromName(const QString &name);

    // "1 = 1" when nothing is filtered. Placeholders are prefixed :f_ so a caller's own
    // placeholders never collide.
    QString whereClause() const;
    void bindValues(QSqlQuery &query, qint64 now) const;

    bool operator==(const EventFilter &other) const = default;
};
