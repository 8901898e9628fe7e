#include "fleetconfig.h"

#include "boundedfile.h"
#include "profileregistry.h"
#include "sqldialect.h"

#include <QRegularExpression>

namespace FleetConfig {

namespace {

// PostgreSQL's rule for a replication slot's name. OutboxProfile::cdcSlotProblem (branch
// i46-core) says the same for --cdc-slot and a profile's cdc_slot: use it here once merged.
QString cdcSlotProblem(const QString &name)
{
    static const QRegularExpression valid(u"^[a-z0-9_]{1,63}$"_qs);
    if (valid.match(name).hasMatch())
        return {};
    QString shown = name.size() > 70 ? name.left(64) + u"..."_qs : name;
    for (QChar &c : shown) {
        if (!c.isPrint())
            c = QLatin1Char('?');
    }
    return QStringLiteral("'%1' is not a replication slot name (1-63 of a-z, 0-9, _)").arg(shown);
}

// The options at the end of *url, in any order: `;profile=P` and `;cdc-slot=NAME`, each at
// most once; taken off *url into *entry. False with *error set on a repeated option or a bad
// slot name.
bool splitOptions(QString *url, FleetEntry *entry, QString *error)
{
    static const QString profileKey = u";profile="_qs;
    static const QString slotKey = u";cdc-slot="_qs;
    for (;;) {
        const qsizetype profileAt = url->lastIndexOf(profileKey);
        const qsizetype slotAt = url->lastIndexOf(slotKey);
        if (profileAt < 0 && slotAt < 0)
            return true;
        const bool isSlot = slotAt > profileAt;
        const qsizetype at = isSlot ? slotAt : profileAt;
        const QString value = url->mid(at + (isSlot ? slotKey : profileKey).size()).trimmed();
        *url = url->left(at).trimmed();
        if (isSlot ? entry->cdcSlot.has_value() : entry->profile.has_value()) {
            *error = (isSlot ? slotKey : profileKey) + u" is given twice"_qs;
            return false;
        }
        if (isSlot && !(*error = cdcSlotProblem(value)).isEmpty())
            return false;
        (isSlot ? entry->cdcSlot : entry->profile) = value;
    }
}

// NAME=URL[;profile=P][;cdc-slot=S] split, the name and slot checked; the profile left to the
// caller.
std::optional<FleetEntry> splitEntry(const QString &text, QString *error)
{
    const QString trimmed = text.trimmed();
    const qsizetype equals = trimmed.indexOf(QLatin1Char('='));
    if (equals <= 0) {
        *error = u"expected NAME=URL[;profile=P][;cdc-slot=S], not '"_qs
            + DatabaseUrl::maskPasswords(trimmed) + u"'"_qs;
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
    QString why;
    if (!splitOptions(&url, &entry, &why)) {
        *error = QStringLiteral("outbox %1: %2").arg(entry.name, why);
        return std::nullopt;
    }
    entry.url = DatabaseUrl::parse(url, &why);
    if (!entry.url.isValid()) {
        *error = QStringLiteral("outbox %1: %2").arg(entry.name, why);
        return std::nullopt;
    }
    const SqlDialect &dialect = SqlDialect::of(entry.url.engine());
    if (entry.cdcSlot && dialect.replicationSlotSql().isEmpty()) {
        *error = QStringLiteral("outbox %1: ;cdc-slot=: replication slots are PostgreSQL's; %2 has "
                                "none (a CDC connector keeps its binlog position outside the "
                                "database: docs/cdc.md)")
                     .arg(entry.name, dialect.title());
        return std::nullopt;
    }
    return entry;
}

} // namespace

Parser::Parser(const QList<FleetEntry> &existing)
    : m_count(existing.size())
{
    for (const FleetEntry &entry : existing)
        m_names.insert(entry.name);
}

std::optional<OutboxProfile> Parser::profile(const QString &nameOrPath, QString *error)
{
    const auto known = m_profiles.constFind(nameOrPath);
    if (known != m_profiles.constEnd())
        return *known;
    ++m_resolved;
    std::optional<OutboxProfile> resolved = ProfileRegistry::resolve(nameOrPath, error);
    if (resolved)
        m_profiles.insert(nameOrPath, *resolved);
    return resolved;
}

std::optional<FleetEntry> Parser::parse(const QString &text, QString *error)
{
    if (isFull()) {
        *error = QStringLiteral("more than %1 outboxes: a fleet is at most %1 (each is read by a "
                                "thread and a connection of its own)")
                     .arg(MaxOutboxes);
        return std::nullopt;
    }
    ++m_count;
    std::optional<FleetEntry> entry = splitEntry(text, error);
    if (!entry)
        return std::nullopt;
    if (entry->profile) {
        QString why;
        entry->resolvedProfile
            = entry->profile->isEmpty() ? std::nullopt : profile(*entry->profile, &why);
        if (!entry->resolvedProfile) {
            *error = QStringLiteral("outbox %1: %2")
                         .arg(entry->name, why.isEmpty() ? u"empty profile"_qs : why);
            return std::nullopt;
        }
    }
    if (m_names.contains(entry->name)) {
        *error = QStringLiteral("outbox %1 is named twice").arg(entry->name);
        return std::nullopt;
    }
    m_names.insert(entry->name);
    return entry;
}

std::optional<FleetEntry> parseEntry(const QString &text, QString *error)
{
    return Parser().parse(text, error);
}

std::optional<QString> prometheusUrl(const QString &line)
{
    static const QString key = QStringLiteral("prometheus=");
    const QString text = line.trimmed();
    if (!text.startsWith(key))
        return std::nullopt;
    const QString url = text.mid(key.size()).trimmed();
    if (!url.startsWith(QLatin1String("http://")) && !url.startsWith(QLatin1String("https://")))
        return std::nullopt; // an outbox named "prometheus", whose URL is a database's
    return url;
}

std::optional<QString> prometheusUrl(const QStringList &lines)
{
    for (const QString &line : lines) {
        if (std::optional<QString> url = prometheusUrl(line))
            return url;
    }
    return std::nullopt;
}

bool parseLines(
    const QStringList &lines, const QString &source, QList<FleetEntry> *entries, QString *error)
{
    Parser parser(*entries);
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString line = lines.at(i).trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')) || prometheusUrl(line))
            continue;
        QString why;
        std::optional<FleetEntry> entry = parser.parse(line, &why);
        if (!entry) {
            *error
                = source.isEmpty() ? why : source + u':' + QString::number(i + 1) + u": "_qs + why;
            return false;
        }
        entries->append(std::move(*entry));
    }
    return true;
}

std::optional<QStringList> readLines(const QString &path, QString *error)
{
    BoundedFile::Status status;
    const std::optional<QByteArray> bytes
        = BoundedFile::read(path, MaxFileBytes, QStringLiteral("fleet file"), error, &status);
    if (!bytes)
        return std::nullopt;
    const QString text = QString::fromUtf8(*bytes);
    *error = DatabaseUrl::exposedPasswordReason(path, status, text, QStringLiteral("fleet file"));
    if (!error->isEmpty())
        return std::nullopt;
    return text.split(QLatin1Char('\n'));
}

bool readFile(const QString &path, QList<FleetEntry> *entries, QString *error)
{
    const std::optional<QStringList> lines = readLines(path, error);
    return lines && parseLines(*lines, path, entries, error);
}

} // namespace FleetConfig
