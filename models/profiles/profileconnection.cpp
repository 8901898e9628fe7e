#include "profileconnection.h"

#include "profileregistry.h"

namespace ProfileConnection {

namespace {

std::optional<OutboxProfile> resolveArgument(const QString &argument, QString *error)
{
    const QString trimmed = argument.trimmed();
    if (trimmed.isEmpty()) {
        *error = QStringLiteral("--profile needs a built-in name or a profile file");
        return std::nullopt;
    }
    return ProfileRegistry::resolve(trimmed, error);
}

std::optional<OutboxProfile> detect(const QSqlDatabase &db, QString *error)
{
    bool noneFound = false;
    std::optional<OutboxProfile> profile = ProfileRegistry::detect(db, error, &noneFound);
    const QList<OutboxProfile> builtIns = ProfileRegistry::builtIns();
    if (profile || !noneFound || builtIns.isEmpty())
        return profile;
    // No known schema at all: name what the native one misses, as before profiles.
    const QString missing = builtIns.constFirst().validate(db);
    if (!missing.isEmpty())
        *error = missing
            + QStringLiteral("; no other known outbox schema found either (pass --profile "
                             "NAME|FILE for another library's table)");
    return std::nullopt;
}

} // namespace

std::unique_ptr<DbConnection> open(const DatabaseUrl &url, OpenOptions options,
    const std::optional<QString> &profileArgument, std::optional<OutboxProfile> *profile,
    QString *error)
{
    profile->reset();
    std::optional<OutboxProfile> chosen;
    if (profileArgument) {
        chosen = resolveArgument(*profileArgument, error);
        if (!chosen)
            return nullptr;
    }
    options.validateSchema = false; // the profile validates its own schema
    auto connection = DbConnection::open(url, options, error);
    if (!connection)
        return nullptr;
    if (!chosen)
        chosen = detect(connection->database(), error);
    if (!chosen)
        return nullptr;
    const QString problem = chosen->validate(connection->database());
    if (!problem.isEmpty()) {
        *error = problem;
        return nullptr;
    }
    *profile = chosen;
    return connection;
}

} // namespace ProfileConnection
