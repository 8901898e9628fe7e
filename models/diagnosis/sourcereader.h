// Runs the read-only statements of one diagnosis, error-group listing, explanation or replay
// preview: all inside one ReadOnlyTransaction, FROM the outbox as a profile reads it
// (delivery_outbox itself for the native schema or no profile). Every value is bound.
// Use it on the thread that owns the connection (a worker thread, or outboxctl's main thread).
#pragma once

#include "outboxprofile.h"
#include "readonlytransaction.h"

#include <QList>
#include <QSqlDatabase>
#include <QStringList>
#include <QVariant>
#include <utility>

class SourceReader
{
public:
    using Bindings = QList<std::pair<QString, QVariant>>;

    // `profile` null or native: the native schema.
    SourceReader(const QSqlDatabase &db, const OutboxProfile *profile);

    bool isActive() const { return m_transaction.isActive(); }
    QString errorText() const { return m_error; }
    bool isNative() const { return !m_profile || m_profile->isNative(); }
    const SqlDialect &dialect() const { return *m_dialect; }
    // What the statements read FROM: delivery_outbox, or the profile's derived table.
    const QString &source() const { return m_source; }
    // The same, reading the native schema's `index` where the dialect has to name it
    // (IndexHint); a profile's source as it is.
    QString sourceUsing(const QString &index) const;
    // Whether the schema holds the logical column (always for the native schema).
    bool has(OutboxProfile::Column column) const;
    bool hasAttemptHistory() const { return isNative(); }
    // An event's attempts can be listed (the native schema, or the profile's attempt mapping),
    // read FROM attemptSource() with delivery_attempt's columns.
    bool hasAttemptList() const { return isNative() || m_profile->hasAttemptList(); }
    // `oneEvent`: the placeholder of the one event read (its array alone is expanded).
    QString attemptSource(const QString &oneEvent = {}) const;
    // A profile's attempt mapping without `attempt_outcome`: every attempt reads RETRY, and the
    // newest attempt of a DEAD event is inferred to be the one that parked it.
    bool infersParkingAttempt() const;
    // The outcome of an event's newest attempt as read, DEAD where infersParkingAttempt() and
    // the event is DEAD: the one rule explain and the detail pane follow.
    QString newestOutcome(const QString &read, const QString &eventStatus) const;
    // The source has the event's own attempt limit as `attempt_limit`.
    bool hasAttemptLimit() const { return !isNative() && m_profile->hasAttemptLimit(); }
    bool hasLeases() const { return isNative() || m_profile->hasLeases(); }
    bool hasStatus(const QString &status) const;
    // The profile's name, "native" without one.
    QString profileName() const;
    // The profile read through; null for the native schema without one.
    const OutboxProfile *profile() const { return m_profile; }

    // The statement prepared and run in the transaction (owned by it); null with errorText()
    // set on failure.
    QSqlQuery *run(const QString &sql, const Bindings &values = {});
    // When set, every statement run is appended with its bound values written in (tests read
    // the plans of the same SQL).
    void setTrace(QStringList *trace) { m_trace = trace; }
    // Prepared only, for a statement run many times with other values; null on failure.
    QSqlQuery *prepare(const QString &sql);
    // `select` giving at most `rows` rows, as the engine writes it (EngineStatements::limitedSql).
    QString limited(const QString &select, const QString &rows) const;

private:
    QSqlDatabase m_db;
    const OutboxProfile *m_profile = nullptr;
    const SqlDialect *m_dialect = nullptr;
    QString m_source;
    ReadOnlyTransaction m_transaction;
    QString m_error;
    QStringList *m_trace = nullptr;
};
