// Operator replay of parked events: DEAD → PENDING under the same event ID, each event in a
// short transaction of its own guarded by WHERE status = 'DEAD', with its replay_log row
// written in that same transaction. Two operators replaying one event: one wins, the other
// is told it was skipped. Also finds every DEAD row a filter matches, for bulk replay.
#pragma once

#include "statementcache.h"

#include "eventfilter.h"
#include "replaytypes.h"

#include <QHash>
#include <QSqlDatabase>
#include <QSqlQuery>

class Replayer
{
public:
    explicit Replayer(const QSqlDatabase &db);

    // Refuses a blank operator or reason (error set, nothing changed). Stops at the first
    // database error; events replayed before it stay replayed and are listed.
    ReplayResult replay(const ReplayRequest &request);

    // Every DEAD row the filter matches (its state is forced to DEAD), ordered by event ID:
    // all of them, not a page. Empty with *error set when the query fails.
    QStringList matchingDeadEvents(const EventFilter &filter, qint64 now, QString *error = nullptr);
    // -1 with *error set when the query fails.
    qint64 countMatchingDead(const EventFilter &filter, qint64 now, QString *error = nullptr);

    // The due time of the index-th (from 0) of `count` events replayed at `now`: evenly
    // inside [now, now + spreadMs), or `now` without a spread.
    static qint64 dueTime(qint64 now, qint64 spreadMs, qsizetype index, qsizetype count);

private:
    enum class Outcome { Replayed, Skipped, Failed };

    Outcome replayOne(
        const QString &eventId, const ReplayRequest &request, qint64 due, QString *error);
    QSqlQuery &prepared(const QString &sql) { return m_statements.prepared(sql); }
    QSqlQuery *runFilter(
        const QString &select, const EventFilter &filter, qint64 now, QString *error);

    QSqlDatabase m_db;
    bool m_postgres = false;
    StatementCache m_statements;
};
