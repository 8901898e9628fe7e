// Opening a database with a profile, the one way both programs do it (`outboxctl check|replay|
// export --profile`, `outbox-dashboard --db URL --profile`, the connect dialog).
#pragma once

#include "dbconnection.h"
#include "outboxprofile.h"

#include <memory>
#include <optional>

namespace ProfileConnection {

// Opens `url` and chooses its profile: `profileArgument` (a built-in's name or a profile file,
// trimmed; given but empty is refused; a bad file is named with its line and field) or, when
// there is none, the one ProfileRegistry::detect finds (native whenever its tables exist; no
// known schema at all names what the native one misses). The profile then validates its schema
// (options.validateSchema is ignored). The argument is resolved before the database is touched.
// On failure returns nothing, leaves *profile empty and sets *error to one line.
std::unique_ptr<DbConnection> open(const DatabaseUrl &url, OpenOptions options,
    const std::optional<QString> &profileArgument, std::optional<OutboxProfile> *profile,
    QString *error);

} // namespace ProfileConnection
