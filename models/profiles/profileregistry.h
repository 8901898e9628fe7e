// The profiles Outbox Health knows: the built-ins compiled in from resources/profiles/
// (":/profiles/*.profile": native, graphile-worker, oban, pg-boss, solid-queue,
// spring-modulith, spring-modulith-2, gruelbox, namastack), a profile file given by path, and which
// known schema a database holds.
#pragma once

#include "outboxprofile.h"

#include <QList>
#include <optional>

namespace ProfileRegistry {

// A profile file is a few hundred bytes; one above this is refused unread (BoundedFile).
constexpr qint64 MaxFileBytes = 256 * 1024;

// The built-in profiles, native first, the others by name.
QList<OutboxProfile> builtIns();
QStringList builtInNames();

// A built-in by name; otherwise *error lists the built-ins.
std::optional<OutboxProfile> byName(const QString &name, QString *error);
// A profile file (a regular file of at most MaxFileBytes); *error names the file, line and
// field of the first problem.
std::optional<OutboxProfile> fromFile(const QString &path, QString *error);
// The argument of `--profile NAME|PATH`: a built-in's name, else a profile file.
std::optional<OutboxProfile> resolve(const QString &nameOrPath, QString *error);

// The known schema this database holds: native whenever its tables exist (the default, as
// before profiles); otherwise the one built-in whose detect query finds its tables. None, or
// several ("several outbox schemas found: pg-boss, gruelbox; pass --profile"), is an error.
// *noneFound (when given) tells "no known schema at all" from several or a failed query.
std::optional<OutboxProfile> detect(
    const QSqlDatabase &db, QString *error, bool *noneFound = nullptr);

} // namespace ProfileRegistry
