// Test data for the actions that move events between states (resolve, reopen: tst_resolve,
// tst_reopen): five known events, many in one state for two racing operators, the command
// line of such an action, and what the rows and an action's log say now.
#pragma once

#include <QSqlDatabase>
#include <QStringList>

// E-1 DEAD (3 failures, TRANSIENT, created at 100), E-2 DEAD (1, PERMANENT, 200), E-3 DEAD
// (3, TRANSIENT, 9000), E-4 PENDING (300), E-5 DELIVERED (400).
bool insertKnownEvents(const QSqlDatabase &db);
// `count` events, … in `status` with 3 failures; their IDs (empty on a failure).
QStringList insertEventsIn(const QSqlDatabase &db, const QString &status, int count);

// "E-2 RESOLVED 1": each event's ID, status and failures, by ID.
QStringList statusLines(const QSqlDatabase &db);
// "E-2 10000 alice order cancelled 1": each row of the log `table` (its time in `atColumn`),
// by event ID.
QStringList auditLines(const QSqlDatabase &db, const QString &table, const QString &atColumn);

// `command` --db URL MORE --operator WHO --reason WHY --now NOW.
QStringList operatorArgs(const QString &command, const QString &url, const QStringList &more,
    const QString &who, const QString &why, const QString &now);
