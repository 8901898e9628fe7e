#include "profileparser.h"

#include "readhazards.h"
#include "sqltext.h"

#include <QRegularExpression>

#include <algorithm>

namespace {

using Column = OutboxProfile::Column;
using Engine = OutboxProfile::Engine;

constexpr QLatin1String Unavailable("unavailable");

constexpr const auto &Engines = AllEngines;

// Fields that may differ per engine; the columns are per engine too.
const QStringList &perEngineFields()
{
    static const QStringList fields = [] {
        QStringList all = {QStringLiteral("from"), QStringLiteral("where"),
            QStringLiteral("detect"), QStringLiteral("replay"), QStringLiteral("resolve"),
            QStringLiteral("reopen"), QStringLiteral("attempt_limit")};
        for (const auto &field : AttemptMapping::fields())
            all << QString::fromLatin1(field.first);
        return all;
    }();
    return fields;
}

const QStringList &metaFields()
{
    static const QStringList fields = {QStringLiteral("name"), QStringLiteral("description"),
        QStringLiteral("engines"), QStringLiteral("statuses"), QStringLiteral("replay_unavailable"),
        QStringLiteral("resolve_unavailable"), QStringLiteral("newer"), QStringLiteral("time_zone"),
        QStringLiteral("attempts"), QStringLiteral("cdc_slot")};
    return fields;
}

QStringList listOf(const QString &value)
{
    static const QRegularExpression separators(QStringLiteral("[,\\s]+"));
    return value.split(separators, Qt::SkipEmptyParts);
}

// "postgresql or sqlite" (`separator` " or "), "postgresql, sqlite": every engine's key prefix.
QString engineNames(const QString &separator)
{
    QStringList names;
    for (const Engine engine : Engines)
        names << OutboxProfile::engineName(engine);
    return names.join(separator);
}

std::optional<Engine> engineFromName(const QString &name)
{
    for (const Engine engine : Engines) {
        if (name == OutboxProfile::engineName(engine))
            return engine;
    }
    return std::nullopt;
}

QString requiredList()
{
    return QStringLiteral("required: name, from, event_id, status, next_attempt_at, and replay or "
                          "replay_unavailable");
}

// Outbox Health prepares its queries with named placeholders, and Qt reads `?` and `:name`
// outside single-quoted strings as parameters, also inside a profile's expressions. Returns
// what is wrong, or nothing.
QString placeholderTrouble(const QString &sql, const QStringList &allowed)
{
    const auto isNameChar = [](QChar c) { return c.isLetterOrNumber() || c == u'_'; };
    bool quoted = false;
    for (qsizetype i = 0; i < sql.size(); ++i) {
        const QChar c = sql.at(i);
        if (c == u'\'')
            quoted = !quoted;
        if (quoted)
            continue;
        if (c == u'?') {
            return QStringLiteral("'?' would be read as a query parameter (use jsonb_exists() and"
                                  " the like instead of the ? operators)");
        }
        if (c == u':' && (i == 0 || sql.at(i - 1) != u':') && i + 1 < sql.size()
            && isNameChar(sql.at(i + 1))) {
            qsizetype end = i + 1;
            while (end < sql.size() && isNameChar(sql.at(end)))
                ++end;
            const QString name = sql.mid(i, end - i);
            if (!allowed.contains(name)) {
                return allowed.isEmpty()
                    ? QStringLiteral("'%1' would be read as a query parameter").arg(name)
                    : QStringLiteral("'%1' would be read as a query parameter (only %2)")
                          .arg(name, allowed.join(QLatin1String(" and ")));
            }
        }
    }
    return {};
}

// The first control character other than tab and line feed (C0, DEL, C1), or -1. Engines
// disagree on them (a carriage return ends a "--" comment on PostgreSQL only), and none belongs
// in an expression.
qsizetype controlCharacterAt(const QString &sql)
{
    for (qsizetype i = 0; i < sql.size(); ++i) {
        const QChar c = sql.at(i);
        if (c.category() == QChar::Other_Control && c != u'\t' && c != u'\n')
            return i;
    }
    return -1;
}

} // namespace

ProfileParser::ProfileParser(const QString &origin)
{
    m_profile.m_origin = origin;
}

std::optional<OutboxProfile> ProfileParser::parse(
    const QString &text, const QString &origin, QString *error)
{
    ProfileParser parser(origin);
    bool ok = parser.split(text);
    for (qsizetype i = 0; ok && i < parser.m_entries.size(); ++i)
        ok = parser.accept(parser.m_entries.at(i));
    if (ok && parser.complete())
        return parser.m_profile;
    if (error)
        *error = parser.m_error;
    return std::nullopt;
}

bool ProfileParser::fail(int line, const QString &message)
{
    m_error = QStringLiteral("%1:%2: %3").arg(m_profile.m_origin).arg(line).arg(message);
    return false;
}

bool ProfileParser::failFile(const QString &message)
{
    m_error = QStringLiteral("%1: %2").arg(m_profile.m_origin, message);
    return false;
}

// Lines into entries: comments and blank lines skipped, indented lines appended to the value
// above them (with a line break, so that an SQL expression keeps its shape). A line ends at LF
// or CR LF (a file written on Windows): the CR of a CR LF goes with the line break, so a value
// holds LF alone; any other CR stays, and an SQL field refuses it (checkStatements()).
bool ProfileParser::split(const QString &text)
{
    const QStringList lines = QString(text)
                                  .replace(QLatin1String("\r\n"), QLatin1String("\n"))
                                  .split(QLatin1Char('\n'));
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const int number = int(i) + 1;
        const QString &line = lines.at(i);
        const QString trimmed = line.trimmed();
        if (trimmed.isEmpty() || trimmed.startsWith(QLatin1Char('#')))
            continue;
        if (line.at(0).isSpace()) {
            if (m_entries.isEmpty())
                return fail(number, QStringLiteral("continuation line without a field above it"));
            m_entries.last().value += QLatin1Char('\n') + trimmed;
            continue;
        }
        const qsizetype equals = line.indexOf(QLatin1Char('='));
        if (equals < 0)
            return fail(number, QStringLiteral("missing '=' (write 'field = value')"));
        const Entry entry {line.left(equals).trimmed(), line.mid(equals + 1).trimmed(), number};
        if (entry.key.isEmpty())
            return fail(number, QStringLiteral("missing field name before '='"));
        m_entries.append(entry);
    }
    for (Entry &entry : m_entries)
        entry.value = entry.value.trimmed();
    return true;
}

// Checks one key: a known field, a known engine prefix where one is allowed, given once.
bool ProfileParser::accept(const Entry &entry)
{
    QString field = entry.key;
    bool prefixed = false;
    const qsizetype dot = field.indexOf(QLatin1Char('.'));
    if (dot >= 0) {
        const QString prefix = field.left(dot);
        field = field.mid(dot + 1);
        prefixed = true;
        if (!engineFromName(prefix)) {
            return fail(entry.line,
                QStringLiteral("unknown engine '%1' in '%2' (%3)")
                    .arg(prefix, entry.key, engineNames(QStringLiteral(" or "))));
        }
    }
    const bool column = OutboxProfile::columnFromName(field).has_value();
    if (!column && !perEngineFields().contains(field) && !metaFields().contains(field))
        return fail(entry.line, QStringLiteral("unknown field '%1'").arg(field));
    if (prefixed && metaFields().contains(field)) {
        return fail(entry.line,
            QStringLiteral("field '%1' is the same for every engine: write '%1 = ...'").arg(field));
    }
    if (const auto first = m_byKey.constFind(entry.key); first != m_byKey.cend()) {
        return fail(entry.line,
            QStringLiteral("field '%1' given twice (first at line %2)")
                .arg(entry.key)
                .arg(first->line));
    }
    if (entry.value.isEmpty())
        return fail(entry.line, QStringLiteral("field '%1' has no value").arg(entry.key));
    if (entry.value == Unavailable && !column) {
        return fail(entry.line,
            QStringLiteral("field '%1' cannot be unavailable (only the logical columns can)")
                .arg(field));
    }
    if (entry.value == Unavailable && prefixed) {
        return fail(entry.line,
            QStringLiteral("a column is unavailable on every engine: write '%1 = unavailable'")
                .arg(field));
    }
    m_byKey.insert(entry.key, entry);
    m_profile.m_lines.insert(entry.key, entry.line);
    return true;
}

const ProfileParser::Entry *ProfileParser::find(const QString &field, Engine engine) const
{
    auto it = m_byKey.constFind(OutboxProfile::engineName(engine) + QLatin1Char('.') + field);
    if (it == m_byKey.cend())
        it = m_byKey.constFind(field);
    return it == m_byKey.cend() ? nullptr : &*it;
}

// The first entry for a field, generic or for either engine.
const ProfileParser::Entry *ProfileParser::anyOf(const QString &field) const
{
    if (const auto it = m_byKey.constFind(field); it != m_byKey.cend())
        return &*it;
    for (const Engine engine : Engines) {
        if (const auto it
            = m_byKey.constFind(OutboxProfile::engineName(engine) + QLatin1Char('.') + field);
            it != m_byKey.cend())
            return &*it;
    }
    return nullptr;
}

bool ProfileParser::complete()
{
    if (!readRequired() || !checkPlaceholders() || !readMeta() || !readEngines() || !readStatuses()
        || !checkStatements())
        return false;
    if (!readPerEngine(QStringLiteral("from"), &m_profile.m_from, true)
        || !readPerEngine(QStringLiteral("where"), &m_profile.m_where, false)
        || !readPerEngine(QStringLiteral("detect"), &m_profile.m_detect, false))
        return false;
    for (int i = 0; i < OutboxProfile::ColumnCount; ++i) {
        if (!readColumn(Column(i)))
            return false;
    }
    recognizeNative();
    return readReplay() && readActions() && readAttempts();
}

// Every SQL field is one expression or one statement: a `;` followed by more SQL would let a
// read run a second statement (a DELETE, or a COMMIT that leaves the read-only transaction).
// No control character but tab and line feed; nothing ReadHazards lists (what a read-only
// transaction does not stop).
// Trailing semicolons are dropped. An action statement (replay, resolve, reopen) is one
// UPDATE: a WITH could hide a data-modifying statement in front of it.
bool ProfileParser::checkStatements()
{
    for (Entry &entry : m_entries) {
        const QString field = entry.key.section(QLatin1Char('.'), -1);
        if (!isSqlField(field) || entry.value == Unavailable
            || (field == QLatin1String("replay") && entry.value == QLatin1String("native")))
            continue;
        if (const qsizetype at = controlCharacterAt(entry.value); at >= 0) {
            return fail(entry.line,
                QStringLiteral("field '%1' holds the control character U+%2: an SQL field may"
                               " hold tabs and line breaks, no other control character")
                    .arg(field)
                    .arg(QString::number(entry.value.at(at).unicode(), 16)
                             .toUpper()
                             .rightJustified(4, QLatin1Char('0'))));
        }
        entry.value = SqlText::withoutTrailingSemicolons(entry.value);
        m_byKey[entry.key].value = entry.value;
        if (SqlText::hasSeveralStatements(entry.value, readingFor(entry.key))) {
            return fail(entry.line,
                QStringLiteral("field '%1' holds more than one statement (a ';' followed by more"
                               " SQL): each field is one expression or statement")
                    .arg(field));
        }
        if (const QString hazard = ReadHazards::found(entry.value, readingFor(entry.key));
            !hazard.isEmpty()) {
            return fail(entry.line,
                QStringLiteral("field '%1' uses %2: no profile field may (docs/profiles.md,"
                               " \"A profile is code\")")
                    .arg(field, hazard));
        }
        if (SqlText::endsInsideQuoteOrComment(entry.value, readingFor(entry.key))) {
            return fail(entry.line,
                QStringLiteral("field '%1' ends inside a comment or a quote: it would swallow the"
                               " SQL the tool adds after it (end a -- or # comment with a line"
                               " break, or close the quote)")
                    .arg(field));
        }
        if (!OutboxProfile::actionFromName(field))
            continue;
        const QString keyword = SqlText::firstKeyword(entry.value);
        if (keyword == QLatin1String("WITH")) {
            return fail(entry.line,
                QStringLiteral("field '%1' starts with WITH: write one plain UPDATE (a WITH"
                               " clause could change other tables first)")
                    .arg(field));
        }
        if (keyword != QLatin1String("UPDATE")) {
            return fail(entry.line,
                QStringLiteral("field '%1' must be one UPDATE statement, not %2")
                    .arg(field, keyword.isEmpty() ? QStringLiteral("this") : keyword));
        }
    }
    return true;
}

// How the engines that will run a field read its quotes: a prefixed key's engine, the one
// engine of a profile for one, or both.
std::optional<Engine> ProfileParser::readingFor(const QString &key) const
{
    const std::optional<Engine> engine = engineFromName(key.section(QLatin1Char('.'), 0, 0));
    if (engine || key.contains(QLatin1Char('.')))
        return engine;
    std::optional<Engine> only;
    for (const Engine supported : Engines) {
        if (!m_profile.supports(supported))
            continue;
        if (only)
            return std::nullopt; // read by several engines
        only = supported;
    }
    return only;
}

bool ProfileParser::isSqlField(const QString &field)
{
    return OutboxProfile::columnFromName(field) || perEngineFields().contains(field);
}

// Everything that goes into a prepared query: the columns, from, where and the statements.
bool ProfileParser::checkPlaceholders()
{
    for (const Entry &entry : std::as_const(m_entries)) {
        const QString field = entry.key.section(QLatin1Char('.'), -1);
        QStringList allowed;
        if (OutboxProfile::actionFromName(field))
            allowed = {QStringLiteral(":event_id"), QStringLiteral(":now")};
        else if (!OutboxProfile::columnFromName(field) && field != QLatin1String("from")
            && field != QLatin1String("where")
            && !(perEngineFields().contains(field) && field != QLatin1String("detect")))
            continue;
        const QString trouble = placeholderTrouble(entry.value, allowed);
        if (!trouble.isEmpty())
            return fail(entry.line, QStringLiteral("field '%1': %2").arg(field, trouble));
    }
    return true;
}

bool ProfileParser::readRequired()
{
    QStringList required = {QStringLiteral("name"), QStringLiteral("from")};
    for (int i = 0; i < OutboxProfile::ColumnCount; ++i) {
        if (OutboxProfile::isRequired(Column(i)))
            required << OutboxProfile::columnName(Column(i));
    }
    for (const QString &field : std::as_const(required)) {
        if (!anyOf(field)) {
            return failFile(
                QStringLiteral("missing required field '%1' (%2)").arg(field, requiredList()));
        }
    }
    if (!anyOf(QStringLiteral("replay")) && !anyOf(QStringLiteral("replay_unavailable"))) {
        return failFile(QStringLiteral("missing required field 'replay' or 'replay_unavailable'"
                                       " (a fenced statement, or what to run instead)"));
    }
    return true;
}

bool ProfileParser::readMeta()
{
    const Entry &name = m_byKey.value(QStringLiteral("name"));
    static const QRegularExpression valid(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9_.-]*$"));
    if (!valid.match(name.value).hasMatch()) {
        return fail(name.line,
            QStringLiteral("field 'name': '%1' is not a name (letters, digits, '-', '_', '.')")
                .arg(name.value));
    }
    m_profile.m_name = name.value;
    m_profile.m_description = m_byKey.value(QStringLiteral("description")).value;
    m_profile.m_resolveUnavailable
        = m_byKey.value(QStringLiteral("resolve_unavailable")).value.simplified();
    m_profile.m_newer = m_byKey.value(QStringLiteral("newer")).value;
    return readCdcSlot() && readTimeZone();
}

// `cdc_slot`: the replication slot that relays the outbox (docs/cdc.md), a PostgreSQL slot name.
bool ProfileParser::readCdcSlot()
{
    const auto it = m_byKey.constFind(QStringLiteral("cdc_slot"));
    if (it == m_byKey.cend())
        return true;
    const QString problem = OutboxProfile::cdcSlotProblem(it->value);
    if (!problem.isEmpty())
        return fail(it->line, QStringLiteral("field 'cdc_slot': ") + problem);
    m_profile.m_cdcSlot = it->value;
    return true;
}

// `time_zone`: utc (the default), local, or an IANA name Qt's time-zone data knows.
bool ProfileParser::readTimeZone()
{
    const auto it = m_byKey.constFind(QStringLiteral("time_zone"));
    if (it == m_byKey.cend())
        return true;
    QString why;
    const std::optional<ProfileTimeZone> zone = ProfileTimeZone::fromName(it->value, &why);
    if (!zone)
        return fail(it->line, QStringLiteral("field 'time_zone': ") + why);
    m_profile.m_timeZone = *zone;
    return true;
}

bool ProfileParser::readEngines()
{
    const auto it = m_byKey.constFind(QStringLiteral("engines"));
    if (it == m_byKey.cend())
        return true; // both
    m_profile.m_engines.fill(false);
    for (const QString &name : listOf(it->value)) {
        const std::optional<Engine> engine = engineFromName(name);
        if (!engine) {
            return fail(it->line,
                QStringLiteral("field 'engines': unknown engine '%1' (%2)")
                    .arg(name, engineNames(QStringLiteral(", "))));
        }
        m_profile.m_engines[int(*engine)] = true;
    }
    if (std::none_of(Engines.begin(), Engines.end(),
            [this](Engine engine) { return m_profile.supports(engine); }))
        return fail(it->line, QStringLiteral("field 'engines' lists no engine"));
    return true;
}

bool ProfileParser::readStatuses()
{
    const auto it = m_byKey.constFind(QStringLiteral("statuses"));
    if (it == m_byKey.cend())
        return true; // all three
    static const QStringList known = {QStringLiteral("PENDING"), QStringLiteral("DELIVERED"),
        QStringLiteral("DEAD"), QStringLiteral("RESOLVED")};
    QStringList statuses;
    for (const QString &status : listOf(it->value)) {
        if (!known.contains(status)) {
            return fail(it->line,
                QStringLiteral("field 'statuses': unknown status '%1' (PENDING, DELIVERED, DEAD,"
                               " RESOLVED)")
                    .arg(status));
        }
        statuses << status;
    }
    if (!statuses.contains(QLatin1String("PENDING")))
        return fail(it->line, QStringLiteral("field 'statuses' must list PENDING"));
    m_profile.m_statuses = statuses;
    return true;
}

// A per-engine field: every engine the profile supports needs a value once any is given.
bool ProfileParser::readPerEngine(
    const QString &field, std::array<QString, OutboxProfile::EngineCount> *target, bool required)
{
    const Entry *some = anyOf(field);
    if (!some)
        return !required
            || failFile(
                QStringLiteral("missing required field '%1' (%2)").arg(field, requiredList()));
    for (const Engine engine : Engines) {
        if (!m_profile.supports(engine))
            continue;
        const Entry *entry = find(field, engine);
        if (!entry && required) {
            const QString name = OutboxProfile::engineName(engine);
            return fail(some->line,
                QStringLiteral(
                    "field '%1' has no %2 value (add '%2.%1', or leave %2 out of 'engines')")
                    .arg(field, name));
        }
        (*target)[int(engine)] = entry ? entry->value : QString();
    }
    return true;
}

// A column: an expression per engine, or unavailable (also when an optional column is left out).
bool ProfileParser::readColumn(Column column)
{
    const QString field = OutboxProfile::columnName(column);
    const Entry *some = anyOf(field);
    if (!some || some->value == Unavailable) {
        if (some && OutboxProfile::isRequired(column)) {
            return fail(some->line,
                QStringLiteral("field '%1' is required and cannot be unavailable").arg(field));
        }
        m_profile.m_unavailable[int(column)] = true;
        return true;
    }
    return readPerEngine(field, &m_profile.m_columns[int(column)], true);
}

// Native when the profile reads delivery_outbox as it is: then the attempt history and the
// replay log exist, and source() is the table itself.
void ProfileParser::recognizeNative()
{
    for (const Engine engine : Engines) {
        if (!m_profile.supports(engine))
            continue;
        if (m_profile.from(engine) != QLatin1String("delivery_outbox")
            || !m_profile.where(engine).isEmpty())
            return;
        for (int i = 0; i < OutboxProfile::ColumnCount; ++i) {
            if (m_profile.m_unavailable.at(i)
                || m_profile.expression(Column(i), engine) != OutboxProfile::columnName(Column(i)))
                return;
        }
    }
    m_profile.m_native = true;
}

bool ProfileParser::readReplay()
{
    const Entry *statement = anyOf(QStringLiteral("replay"));
    const auto unavailable = m_byKey.constFind(QStringLiteral("replay_unavailable"));
    if (statement && unavailable != m_byKey.cend()) {
        return fail(std::max(statement->line, unavailable->line),
            QStringLiteral("'replay' and 'replay_unavailable' exclude each other"));
    }
    if (!statement) {
        m_profile.m_replayKind = OutboxProfile::ReplayKind::Unavailable;
        m_profile.m_replayUnavailable = unavailable->value.simplified();
        return true;
    }
    if (statement->value == QLatin1String("native")) {
        if (!m_profile.isNative()) {
            return fail(statement->line,
                QStringLiteral("'replay = native' works only on the native schema"
                               " (delivery_outbox with every column as itself)"));
        }
        m_profile.m_replayKind = OutboxProfile::ReplayKind::Native;
        return true;
    }
    if (!readPerEngine(QStringLiteral("replay"), &m_profile.m_replay, true))
        return false;
    for (const Engine engine : Engines) {
        if (!m_profile.supports(engine))
            continue;
        if (!checkReplayStatement(
                *find(QStringLiteral("replay"), engine), m_profile.m_replay.at(int(engine))))
            return false;
    }
    m_profile.m_replayKind = OutboxProfile::ReplayKind::Statement;
    return true;
}

bool ProfileParser::checkReplayStatement(const Entry &entry, const QString &statement)
{
    const QString field = entry.key.section(QLatin1Char('.'), -1);
    static const QRegularExpression where(
        QStringLiteral("\\bWHERE\\b"), QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression eventId(QStringLiteral(":event_id\\b"));
    if (!eventId.match(statement).hasMatch())
        return fail(
            entry.line, QStringLiteral("field '%1' must name the event as :event_id").arg(field));
    if (!where.match(statement).hasMatch()) {
        return fail(entry.line,
            QStringLiteral("field '%1' needs a WHERE clause that fences the %2 state")
                .arg(field, field == QLatin1String("reopen") ? u"resolved"_qs : u"failed"_qs));
    }
    return true;
}
