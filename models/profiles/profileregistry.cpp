#include "profileregistry.h"

#include "boundedfile.h"
#include "profileparser.h"

#include <QDir>
#include <QFile>

namespace {

// A built-in, compiled in (BoundedFile reads the file system only).
std::optional<OutboxProfile> readResource(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) {
        *error = QStringLiteral("cannot read profile %1: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    return ProfileParser::parse(QString::fromUtf8(file.readAll()), path, error);
}

// Parsed once per process; a built-in that does not parse is a defect caught by tst_profiles.
QList<OutboxProfile> loadBuiltIns()
{
    QList<OutboxProfile> profiles;
    const QDir dir(QStringLiteral(":/profiles"));
    const QStringList files = dir.entryList({QStringLiteral("*.profile")}, QDir::Files, QDir::Name);
    for (const QString &file : files) {
        QString error;
        if (const auto profile = readResource(dir.filePath(file), &error))
            profiles.insert(profile->isNative() ? 0 : profiles.size(), *profile);
        else
            qWarning("built-in profile %s: %s", qPrintable(file), qPrintable(error));
    }
    return profiles;
}

} // namespace

namespace ProfileRegistry {

QList<OutboxProfile> builtIns()
{
    static const QList<OutboxProfile> profiles = loadBuiltIns();
    return profiles;
}

QStringList builtInNames()
{
    QStringList names;
    for (const OutboxProfile &profile : builtIns())
        names << profile.name();
    return names;
}

std::optional<OutboxProfile> byName(const QString &name, QString *error)
{
    for (const OutboxProfile &profile : builtIns()) {
        if (profile.name() == name)
            return profile;
    }
    *error = QStringLiteral("unknown profile '%1' (built-in: %2)")
                 .arg(name, builtInNames().join(QLatin1String(", ")));
    return std::nullopt;
}

std::optional<OutboxProfile> fromFile(const QString &path, QString *error)
{
    const std::optional<QByteArray> text
        = BoundedFile::read(path, MaxFileBytes, QStringLiteral("profile"), error);
    if (!text)
        return std::nullopt;
    return ProfileParser::parse(QString::fromUtf8(*text), path, error);
}

std::optional<OutboxProfile> resolve(const QString &nameOrPath, QString *error)
{
    if (builtInNames().contains(nameOrPath))
        return byName(nameOrPath, error);
    if (QFile::exists(nameOrPath))
        return fromFile(nameOrPath, error);
    *error = QStringLiteral("unknown profile '%1': not a built-in (%2) and no such file")
                 .arg(nameOrPath, builtInNames().join(QLatin1String(", ")));
    return std::nullopt;
}

std::optional<OutboxProfile> detect(const QSqlDatabase &db, QString *error, bool *noneFound)
{
    if (noneFound)
        *noneFound = false;
    QList<OutboxProfile> found;
    QStringList candidates;
    for (const OutboxProfile &profile : builtIns()) {
        if (!profile.supports(OutboxProfile::engineOf(db)))
            continue;
        candidates << profile.name();
        QString detectError;
        if (profile.isPresent(db, &detectError)) {
            if (profile.isNative())
                return profile;
            found << profile;
        } else if (!detectError.isEmpty()) {
            *error = detectError;
            return std::nullopt;
        }
    }
    if (found.size() == 1)
        return found.constFirst();
    if (noneFound)
        *noneFound = found.isEmpty();
    QStringList names;
    for (const OutboxProfile &profile : std::as_const(found))
        names << profile.name();
    *error = found.isEmpty() ? QStringLiteral(
                 "no known outbox schema found (looked for %1): run `outboxctl init --db URL`"
                 " for the native schema, or pass --profile NAME|FILE")
                                   .arg(candidates.join(QLatin1String(", ")))
                             : QStringLiteral("several outbox schemas found: %1; pass --profile")
                                   .arg(names.join(QLatin1String(", ")));
    return std::nullopt;
}

} // namespace ProfileRegistry
