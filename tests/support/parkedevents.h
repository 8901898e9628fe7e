// Test data: events P-0000 … P-<dead>, the first delivered and every other parked DEAD by a
// permanent rejection after one attempt, created a minute ago.
#pragma once

#include <QSqlDatabase>
#include <QString>
#include <functional>

// `payloadOf(i)`: the payload of event i; a fixed stock reservation when not given.
bool parkEvents(
    const QSqlDatabase &db, int dead, const std::function<QString(int)> &payloadOf = nullptr);
// `count` events <prefix>-<first> … parked DEAD by a permanent rejection after one attempt,
// created a minute ago (IDs four digits wide: H-0010).
bool parkDead(const QSqlDatabase &db, const QString &prefix, int first, int count);
