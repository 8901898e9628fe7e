// What the event table shows: a derived state, a search (an event ID prefix answered from the
// primary key, or a substring of ID, type, aggregate or last error), a minimum of failures, an
// age range and an error category. It becomes a WHERE clause with bound values (never pasted
// user text), shared by the event list, bulk replay and the CSV export.
#pragma once

#include <QSqlQuery>
#include <QString>
#include <QStringList>
#include <optional>

class SqlDialect;

struct EventFilter
{
    enum class State {
        Any,
        Pending,
        Due,
        Scheduled,
        InFlight,
        LeaseExpired,
        Delivered,
        Dead,
        Resolved
    };

    // IdPrefix: event IDs starting with `search` exactly (case included), a range of the primary
    // key: instant at any size. Contains: `search` anywhere in the event ID, type, aggregate or
    // last error, case-insensitive: reads every row of the table (the slow path).
    enum class SearchMode { IdPrefix, Contains };

    State state = State::Any;
    QString search;
    SearchMode searchMode = SearchMode::IdPrefix;
    // Where the ID column does not sort by code point (a linguistic collation on PostgreSQL, a
    // utf8mb4_*_ci one on MySQL): the prefix range compares by code point
    // (SqlDialect::codePointOrder), correct but no longer served by the primary key.
    bool idsInCCollation = false;
    int minFailures = 0;
    std::optional<qint64> minAgeMs;
    std::optional<qint64> maxAgeMs;
    QString errorCategory; // empty = any
    // What a diagnosis finding is about (Finding::subject): one event type, exactly. Empty = any.
    QString eventType;
    // One error group (the Errors tab, a diagnosis finding's subject): an error signature
    // (ErrorSignature: placeholders such as <n>, <uuid>, '<str>'), matched as a LIKE pattern
    // with each placeholder a wildcard among the PENDING and DEAD events, the ones error groups
    // are made of, so the table shows the group's events (and, rarely, one whose message merely
    // fits the pattern). Empty = any.
    QString errorSignature;
    // "Payload contains" (PayloadSearch: a JSON fragment or a plain text), checked by
    // PayloadSearch::parse before it is set; one that no longer reads matches nothing. Empty = any.
    QString payloadContains;

    // One criterion of a filter, as the chips above the event table show it ("State: DEAD",
    // "Error: timeout after <n> ms"), and what removes it (without()).
    enum class Field {
        State,
        Search,
        MinFailures,
        MinAge,
        MaxAge,
        ErrorCategory,
        EventType,
        ErrorSignature,
        Payload
    };
    struct Criterion
    {
        Field field;
        QString name; // "State", "Error", "Payload contains"
        QString value; // "DEAD", the signature, the payload search
        QString text() const { return name + u": "_qs + value; }
    };
    // The active criteria, in the order the filter bar shows its fields; empty = no filter.
    QList<Criterion> criteria() const;
    EventFilter without(Field field) const; // this filter with one criterion removed
    EventFilter only(Field field) const; // that criterion alone

    static QString stateName(State state);
    static std::optional<State> stateFromName(const QString &name);
    static QStringList stateNames(); // "any", "pending", ..., as stateFromName() reads them
    // The first string above every string that starts with `prefix` (code point order): the
    // prefix with its last character raised by one; empty when there is none (all U+10FFFF).
    static QString prefixUpperBound(const QString &prefix);
    // The case-insensitive LIKE pattern (escape character '\') of an error signature: its
    // placeholders and white space become %, everything else is matched literally.
    static QString signaturePattern(const QString &signature);
    // In plain words, e.g. `state dead, ID starting with "E-12"`; empty when nothing is filtered.
    QString summary() const;

    // "1 = 1" when nothing is filtered. Placeholders are prefixed :f_ so a caller's own
    // placeholders never collide. The LIKE escape clause is the engine's.
    QString whereClause(const SqlDialect &dialect) const;
    void bindValues(QSqlQuery &query, qint64 now, const SqlDialect &dialect) const;

    bool operator==(const EventFilter &other) const = default;
};
