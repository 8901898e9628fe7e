// What a read-only transaction does not stop, refused by name in a profile's SQL fields: the
// one list (readhazards.cpp), each entry with why. A read-only transaction keeps a statement
// from changing this database's rows inside it; it does not keep a function from opening
// another connection (whose writes commit on their own), from writing or reading files on the
// database host, from taking a lock that outlives the transaction (a session lock: `serve`
// holds its session for days), or from acting on other sessions and the server itself.
// The list is matched against the names a field holds outside string literals and comments,
// as every engine that runs the field reads it (SqlText::names()): bare, quoted or
// schema-qualified. It cannot see a function the profile reaches through another one (a
// view's, a trigger's, a function that runs SQL from a string it builds): docs/profiles.md ("A
// profile is code") says what a database role still has to withhold.
#pragma once

#include "engine.h"

#include <QList>
#include <QString>
#include <optional>

namespace ReadHazards {

struct Entry
{
    QString name; // lower case; a name ending in '*' stands for every name it starts
    QString why; // what it does that the transaction does not stop
};

const QList<Entry> &all();

// The first entry a name of `sql` matches (case-insensitively), as `engine` reads the text
// (every engine when none): "dblink_exec, which runs SQL on another connection ...", or empty.
QString found(const QString &sql, std::optional<Engine> engine = std::nullopt);

} // namespace ReadHazards
