// A schema profile: how to read another library's outbox table (pg-boss, Spring Modulith,
// gruelbox, namastack, a custom table) as if it were the native `delivery_outbox`. Each logical
// column of DESIGN.md is an SQL expression per engine over the profile's table; source() wraps
// them in a derived table aliased `delivery_outbox`, so every read query written against the
// native columns runs unchanged on the other schema. A column the schema lacks is declared
// unavailable (the view shows "not available", never zero). Replay is one fenced statement,
// Outbox Health's own replay (native), or unavailable with what to run instead.
// Profiles are parsed from profile files (ProfileParser) and found by ProfileRegistry.
#pragma once

#include "attemptmapping.h"
#include "engine.h"
#include "profiletimezone.h"

#include <QHash>
#include <QList>
#include <QSqlDatabase>
#include <QString>
#include <QStringList>
#include <array>
#include <optional>

class QSqlError;
class ReadOnlyTransaction;

class OutboxProfile
{
public:
    using Engine = ::Engine; // engine.h
    static constexpr int EngineCount = ::EngineCount;

    // The logical columns of delivery_outbox, in DESIGN.md's order.
    enum class Column {
        EventId,
        AggregateType,
        AggregateId,
        EventType,
        Payload,
        Status, // 'PENDING' | 'DELIVERED' | 'DEAD'
        Failures, // integer
        NextAttemptAt, // ms since the epoch
        ClaimToken, // not NULL while the row is claimed (in progress)
        LeaseUntil, // ms, or NULL
        CreatedAt, // ms
        DeliveredAt, // ms, or NULL
        LastErrorCategory,
        LastError,
    };
    static constexpr int ColumnCount = 14;

    // The actions a profile may map to one fenced statement each (docs/profiles.md): replay
    // (DEAD -> PENDING), resolve (DEAD -> RESOLVED) and reopen (RESOLVED -> DEAD).
    enum class Action { Replay, Resolve, Reopen };
    static constexpr int ActionCount = 3;
    static QString actionName(Action action); // "replay", "resolve", "reopen": the field
    static std::optional<Action> actionFromName(const QString &name);

    enum class ReplayKind {
        Native, // Outbox Health's Replayer: DEAD -> PENDING with a replay_log row
        Statement, // the profile's fenced statement
        Unavailable, // read-only: replayUnavailableReason() says what to run instead
    };

    static Engine engineOf(const QSqlDatabase &db);
    // What a read of the outbox names FROM on `db`: delivery_outbox without a profile (or for
    // the native one), the profile's derived table otherwise.
    static QString sourceOf(const OutboxProfile *profile, const QSqlDatabase &db);
    static QString sourceOf(const std::optional<OutboxProfile> &profile, const QSqlDatabase &db)
    {
        return sourceOf(profile ? &*profile : nullptr, db);
    }
    static QString engineName(Engine engine); // "postgresql", "sqlite": the file's key prefix
    static QString engineTitle(Engine engine); // "PostgreSQL", "SQLite"
    static QString columnName(Column column); // the native column name, e.g. "next_attempt_at"
    static std::optional<Column> columnFromName(const QString &name);
    static bool isRequired(Column column);

    QString name() const { return m_name; }
    QString description() const { return m_description; }
    QString origin() const { return m_origin; } // the file it was read from
    bool supports(Engine engine) const { return m_engines.at(int(engine)); }
    // The native schema itself: delivery_outbox with every column mapped to itself. Only there
    // do the attempt history (delivery_attempt) and the replay log (replay_log) exist.
    bool isNative() const { return m_native; }

    bool isAvailable(Column column) const { return !m_unavailable.at(int(column)); }
    QString expression(Column column, Engine engine) const;
    QString from(Engine engine) const { return m_from.at(int(engine)); }
    QString where(Engine engine) const { return m_where.at(int(engine)); }
    // Which of PENDING, DELIVERED, DEAD and RESOLVED the status expression yields.
    QStringList statuses() const { return m_statuses; }
    bool hasResolved() const { return m_statuses.contains(QLatin1String("RESOLVED")); }
    // The zone the schema's zone-less times are written in (`time_zone`, UTC by default):
    // source() converts the time columns from it, replay() writes `:now` in it.
    const ProfileTimeZone &timeZone() const { return m_timeZone; }

    bool hasAttemptHistory() const { return m_native; }
    // Whether an event's attempts can be listed: the native delivery_attempt, or the profile's
    // attempt mapping (a related table or a JSON array; docs/profiles.md, "Attempt history").
    bool hasAttemptList() const
    {
        return m_native || m_attempts.kind != AttemptMapping::Kind::None;
    }
    const AttemptMapping &attempts() const { return m_attempts; }
    // What the attempts are read FROM on `engine`: delivery_attempt on the native schema, the
    // mapping's derived table (the same columns) otherwise; empty without hasAttemptList().
    // `oneEvent`: the placeholder of the one event the caller reads (AttemptMapping::source).
    QString attemptSource(Engine engine, const QString &oneEvent = {}) const;
    // The event's own attempt limit (`attempt_limit`, e.g. Oban's max_attempts): source() then
    // has an `attempt_limit` column. The native schema keeps none (the relay's setting).
    bool hasAttemptLimit() const;
    bool hasReplayLog() const { return m_native; }
    bool hasClaims() const { return isAvailable(Column::ClaimToken); }
    bool hasLeases() const { return hasClaims() && isAvailable(Column::LeaseUntil); }
    // What the schema does not hold: unavailable logical columns by their native names, then
    // "attempt_history" and "replay_log" unless native. Empty for the native profile.
    QStringList notAvailable() const;
    // The `outboxctl check` counts this schema cannot tell (keys of its "counts" object):
    // in_flight and lease_expired without claims, lease_expired without leases, dead or
    // delivered when the status expression never yields them.
    QStringList notAvailableCounts() const;

    // The table reference for FROM: `delivery_outbox` for the native profile, otherwise
    // `(SELECT <expr> AS event_id, ... FROM <from> [WHERE <where>]) AS delivery_outbox` with
    // every expression cast to its logical type and unavailable columns as typed NULLs. A
    // claimed row of a schema without leases gets the largest BIGINT as lease_until: it
    // counts as in flight, never as lease expired (which notAvailableCounts() then lists).
    // Meaningful only for an engine the profile supports (validate() says so otherwise).
    QString source(Engine engine) const;

    // Empty when the profile works on this database; otherwise one line naming the first
    // field that fails, its file and line, and the database's words, e.g.
    // `pg-boss: field failures (x.profile:12): column "retry_countx" does not exist`, or the
    // built-in profile to use when the table is a newer version of the library (`newer`).
    // The probes run in a read-only transaction. The native profile reports
    // Schema::validate()'s message.
    QString validate(const QSqlDatabase &db) const;

    // Whether the profile's `detect` query, run read-only, finds its schema (false without a
    // detect query).
    bool isPresent(const QSqlDatabase &db, QString *error = nullptr) const;

    ReplayKind replayKind() const { return m_replayKind; }
    // The fenced statement with :event_id (and optionally :now, ms) for ReplayKind::Statement.
    std::optional<QString> replaySql(Engine engine) const
    {
        return statementSql(Action::Replay, engine);
    }
    // Whether the profile maps `action` to a statement of its own (`replay`, `resolve`,
    // `reopen`), and that statement on `engine` (nothing without one or on another engine).
    bool hasStatement(Action action) const;
    std::optional<QString> statementSql(Action action, Engine engine) const;
    QString replayUnavailableReason() const { return m_replayUnavailable; }
    // Resolve (DEAD -> RESOLVED, kept, never delivered) is Outbox Health's own on the native
    // schema; another schema runs its `resolve` statement (hasStatement), or refuses it, naming
    // its library's own action when the profile says (`resolve_unavailable = ...`), empty
    // otherwise.
    QString resolveUnavailableReason() const { return m_resolveUnavailable; }
    // Runs the replay statement for one event at `now` (bound as `:now` in timeZone()): the
    // number of rows it changed (0 when the event is not in its failed state any more), or
    // nothing with *error set.
    std::optional<int> replay(
        const QSqlDatabase &db, const QString &eventId, qint64 now, QString *error) const
    {
        return run(Action::Replay, db, eventId, now, error);
    }
    // The same for any action's statement (profilestatements.cpp).
    std::optional<int> run(Action action, const QSqlDatabase &db, const QString &eventId,
        qint64 now, QString *error) const;

    // The line of the file where `key` (as written, e.g. "postgresql.status") was given; 0 if not.
    int lineOf(const QString &key) const { return m_lines.value(key); }
    // The line of `field` as the engine reads it: its engine's own key, else the plain one.
    int lineOfField(const QString &field, Engine engine) const;
    // The built-in profile for a newer version of the same library, if any (`newer = NAME`).
    QString newer() const { return m_newer; }
    // The replication slot that relays this outbox by change data capture (`cdc_slot = NAME`,
    // docs/cdc.md); empty: none. `--cdc-slot NAME` overrides it.
    QString cdcSlot() const { return m_cdcSlot; }
    // Empty when `name` can be a replication slot's name (PostgreSQL's rule: 1 to 63 lower-case
    // letters, digits and underscores); otherwise why not, e.g. "'Dbz' is not a replication
    // slot name (1-63 of a-z, 0-9, _)". Every surface that takes a slot name asks this.
    static QString cdcSlotProblem(const QString &name);
    // The slot an outbox is relayed through: `given` (--cdc-slot, a fleet or serve line's
    // `;cdc-slot=`, a link's) when it names one, else `profile`'s cdc_slot; empty: neither does.
    static QString cdcSlotFor(const QString &given, const std::optional<OutboxProfile> &profile);

private:
    friend class ProfileParser;
    using PerEngine = std::array<QString, EngineCount>;
    static constexpr std::array<bool, EngineCount> everyEngine()
    {
        std::array<bool, EngineCount> all {};
        all.fill(true);
        return all;
    }

    QString castExpression(Column column, Engine engine) const;
    QString attemptLimitColumn(Engine engine) const; // ", CAST(...) AS attempt_limit", or empty
    QString probeAttempts(ReadOnlyTransaction &transaction, Engine engine) const;
    QString wrongEngine(Engine engine) const;
    QStringList supportedTitles() const;
    QString probe(ReadOnlyTransaction &transaction, const QString &sql, const QString &field,
        Engine engine) const;
    QString probeFields(const QSqlDatabase &db, Engine engine) const;
    // profilestatements.cpp: each statement prepared, never run.
    QString probeStatements(
        ReadOnlyTransaction &transaction, Engine engine, QList<Action> *outside) const;
    QString probeOutside(const QSqlDatabase &db, Engine engine, Action action) const;
    QString statementFailure(Action action, Engine engine, const QString &words) const;
    static QString databaseWords(const QSqlError &error);
    static QString wordsOf(const ReadOnlyTransaction &transaction);
    static bool usesNow(const QString &sql);
    QString newerVersionFound(const QSqlDatabase &db) const;

    QString m_name;
    QString m_description;
    QString m_origin;
    QString m_newer;
    QString m_cdcSlot;
    std::array<bool, EngineCount> m_engines = everyEngine();
    std::array<PerEngine, ColumnCount> m_columns;
    std::array<bool, ColumnCount> m_unavailable = {};
    PerEngine m_from;
    PerEngine m_where;
    PerEngine m_detect;
    PerEngine m_replay;
    PerEngine m_resolve; // empty: no resolve statement
    PerEngine m_reopen;
    AttemptMapping m_attempts;
    PerEngine m_attemptLimit;
    ReplayKind m_replayKind = ReplayKind::Unavailable;
    QString m_replayUnavailable;
    QString m_resolveUnavailable;
    ProfileTimeZone m_timeZone;
    QStringList m_statuses
        = {QStringLiteral("PENDING"), QStringLiteral("DELIVERED"), QStringLiteral("DEAD")};
    bool m_native = false;
    QHash<QString, int> m_lines;
};
