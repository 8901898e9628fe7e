#include "fleetconfig.h"

#include "profileregistry.h"

#include <QFile>
#include <QRegularExpression>

namespace FleetConfig {

std::optional<FleetEntry> parseEntry(const QString &text, QString *error)
{
    const QString trimmed = text.trimmed();
    const qsizetype equals = trimmed.indexOf(QLatin1Char('='));
    if (equals <= 0) {
        *error = u"expected NAME=URL[;profile=P], not '"_qs + DatabaseUrl::maskPasswords(trimmed)
            + u"'"_qs;
        return std::nullopt;
    }
    FleetEntry entry;
    entry.name = trimmed.left(equals).trimmed();
    static const QRegularExpression nameRule(u"^[A-Za-z0-9_.-]{1,64}$"_qs);
    if (!nameRule.match(entry.name).hasMatch()) {
        *error = QStringLiteral("outbox name '%1': use 1 to 64 letters, digits, _ . or -")
                     .arg(entry.name);
        return std::nullopt;
    }
    QString url = trimmed.mid(equals + 1).trimmed();
    const qsizetype option = url.lastIndexOf(u";profile="_qs);
    if (option >= 0) {
        const QString profile = url.mid(option + 9).trimmed();
        url = url.left(option).trimmed();
        QString why;
        if (profile.isEmpty() || !ProfileRegistry::resolve(profile, &why)) {
            *error = QStringLiteral("outbox %1: %2")
                         .arg(entry.name, why.isEmpty() ? u"empty profile"_qs : why);
            return std::nullopt;
        }
        entry.profile = profile;
    }
    QString why;
    entry.url = DatabaseUrl::parse(url, &why);
    if (!entry.url.isValid()) {
        *error = QStringLiteral("outbox %1: %2").arg(entry.name, why);
        return std::nullopt;
    }
    return entry;
}

bool parseLines(
    const QStringList &lines, const QString &source, QList<FleetEntry> *entries, QString *error)
{
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString line = lines.at(i).trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        const QString where
            = source.isEmpty() ? QString() : QStringLiteral("%1:%2: ").arg(source).arg(i + 1);
        QString why;
        const std::optional<FleetEntry> entry = parseEntry(line, &why);
        if (!entry) {
            *error = where + why;
            return false;
        }
        for (const FleetEntry &other : *entries) {
            if (other.name == entry->name) {
                *error = where + QStringLiteral("outbox %1 is named twice").arg(entry->name);
                return false;
            }
        }
        entries->append(*entry);
    }
    return true;
}

bool readFile(const QString &path, QList<FleetEntry> *entries, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) {
        *error = QStringLiteral("cannot read %1: %2").arg(path, file.errorString());
        return false;
    }
    if (file.size() > 1024 * 1024) {
        *error = QStringLiteral("%1 is larger than 1 MiB: not a fleet file").arg(path);
        return false;
    }
    const QString text = QString::fromUtf8(file.readAll());
    return parseLines(text.split(QLatin1Char('\n')), path, entries, error);
}

} // namespace FleetConfig
