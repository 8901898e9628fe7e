// The reliability invariants of a relay run, checked by SQL over the tables: nothing lost,
// nothing applied twice, failure counters that agree with the attempt history, at most one
// unfinished attempt per event.
#pragma once

#include <QSqlDatabase>
#include <QStringList>

// Empty when every invariant holds; otherwise one line per violated invariant.
QStringList invariantViolations(const QSqlDatabase &db, qint64 expectedEvents, int initialStock);
