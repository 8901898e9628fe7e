#include "cli.h"

#include "boundedfile.h"
#include "durationtext.h"
#include "notesaccess.h"
#include "payloadsearch.h"
#include "plaintext.h"
#include "profileconnection.h"
#include "redaction.h"
#include "schema.h"
#include "timeformat.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

#include <termios.h>
#include <unistd.h>

namespace Cli {

QString printable(const QString &text)
{
    return PlainText::escaped(DatabaseUrl::maskPasswords(text));
}

int fail(const QString &message)
{
    QTextStream(stderr) << "outboxctl: " << printable(message) << Qt::endl;
    return Error;
}

void printLine(const QString &line)
{
    static QTextStream out(stdout);
    out << line << Qt::endl;
}

QString timeText(qint64 time)
{
    return TimeFormat::isLogical(time) ? QStringLiteral("t=%1").arg(time)
                                       : TimeFormat::isoLocal(time);
}

int failUnknownEvents(
    const QString &command, const QStringList &ids, bool json, const QString &then)
{
    QStringList quoted;
    for (const QString &id : ids)
        quoted << QLatin1Char('\'') + id + QLatin1Char('\'');
    const QString message = ids.size() == 1
        ? QStringLiteral("no event with ID %1").arg(quoted.constFirst())
        : QStringLiteral("no events with IDs %1").arg(quoted.join(QStringLiteral(", ")));
    if (json) {
        QJsonArray unknown;
        for (const QString &id : ids)
            unknown.append(QJsonObject {{QStringLiteral("event_id"), id},
                {QStringLiteral("reason"), QStringLiteral("not found")}});
        printLine(QString::fromUtf8(QJsonDocument(QJsonObject {{QStringLiteral("error"), message},
                                                      {QStringLiteral("unknown_events"), unknown}})
                                        .toJson(QJsonDocument::Compact)));
    }
    return fail(command + QStringLiteral(": ") + message + then);
}

namespace {

// A few examples, printed at the end of `outboxctl COMMAND --help`: the commands that make,
// fill or change an outbox, then those that only read one.
const QHash<QString, QString> &writingExamples()
{
    static const QHash<QString, QString> examples = {
        {u"init"_qs,
            u"  outboxctl init --db postgresql://admin@db.internal/shop\n"
            "  outboxctl init --db sqlite:/tmp/sim.sqlite --for-simulation\n"_qs},
        {u"simulate"_qs,
            u"  outboxctl simulate --db sqlite:/tmp/sim.sqlite --scenario lost-ack\n"
            "  outboxctl simulate --db sqlite:/tmp/sim.sqlite --scenario retry-schedule --json\n"
            "  outboxctl simulate --db sqlite:/tmp/storm.sqlite --scenario outage-storm\n"_qs},
        {u"relay"_qs,
            u"  outboxctl relay --db sqlite:/tmp/relay.sqlite --produce 2000 --workers 2\n"
            "  outboxctl relay --db sqlite:/tmp/relay.sqlite --produce 500 --fail-rate 0.2 "
            "--lost-ack-rate 0.1 --budget 5\n"
            "  outboxctl relay --db postgresql://sim@localhost/relay --produce 10000 --workers 4 "
            "--give-up-after 2m\n"_qs},
        {u"note"_qs,
            u"  outboxctl note add --db postgresql://ops@db.internal/shop --event ORDER-17 "
            "--operator alice --text \"fix deploys at 14:00, do not replay\" --marker on-hold\n"
            "  outboxctl note list --db postgresql://ops@db.internal/shop --json\n"
            "  outboxctl note clear --db postgresql://ops@db.internal/shop --event ORDER-17 "
            "--operator bob\n"_qs},
        {u"replay"_qs,
            u"  outboxctl replay --db sqlite:/tmp/sim.sqlite --event EVENT-9 --operator alice "
            "--reason \"consumer fixed\"\n"
            "  outboxctl replay --db postgresql://ops@db.internal/shop --all-dead "
            "--error-category TRANSIENT --operator bob --reason \"broker back\" --spread 1m\n"
            "  outboxctl replay --db postgresql://ops@db.internal/shop --event ORDER-17 --operator "
            "carol --reason \"schema fixed\" --reset-budget --json\n"
            "  outboxctl replay --db postgresql://ops@db.internal/shop --error-group \"HTTP <n> "
            "from inventory\" --dry-run --spread 1m\n"_qs},
        {u"generate"_qs,
            u"  outboxctl generate --db sqlite:/tmp/big.sqlite --events 25000\n"
            "  outboxctl generate --db postgresql://db.internal/scratch --events 2000000 --seed 7\n"_qs},
        {u"resolve"_qs,
            u"  outboxctl resolve --db sqlite:/tmp/sim.sqlite --event EVENT-9 --operator alice "
            "--reason \"order cancelled\"\n"
            "  outboxctl resolve --db postgresql://ops@db.internal/shop --all-dead "
            "--error-category PERMANENT --operator bob --reason \"obsolete v1 events\" --dry-run\n"_qs},
        {u"reopen"_qs,
            u"  outboxctl reopen --db sqlite:/tmp/sim.sqlite --event EVENT-9 --operator alice "
            "--reason \"resolved by mistake\"\n"
            "  outboxctl reopen --db postgresql://ops@db.internal/shop --event ORDER-17 --event "
            "ORDER-18 --operator bob --reason \"customer re-ordered\" --dry-run --json\n"_qs},
        {u"migrate"_qs,
            u"  outboxctl migrate --db postgresql://admin@db.internal/shop --dry-run\n"
            "  outboxctl migrate --db sqlite:/var/lib/shop/outbox.sqlite\n"_qs},
        {u"purge"_qs,
            u"  outboxctl purge --db postgresql://ops@db.internal/shop --delivered-older-than 7d\n"
            "  outboxctl purge --db postgresql://ops@db.internal/shop --delivered-older-than 7d "
            "--resolved-older-than 30d --dry-run\n"
            "  outboxctl purge --db sqlite:/var/lib/shop/outbox.sqlite --delivered-older-than 2h "
            "--batch 500\n"_qs},
    };
    return examples;
}

const QHash<QString, QString> &readingExamples()
{
    static const QHash<QString, QString> examples = {
        {u"check"_qs,
            u"  outboxctl check --db postgresql://monitor@db.internal/shop\n"
            "  outboxctl check --db sqlite:/var/lib/shop/outbox.sqlite --json --max-dead 0\n"
            "  outboxctl check --db postgresql://db.internal/jobs --profile pg-boss "
            "--max-oldest-pending 1m\n"_qs},
        {u"export"_qs,
            u"  outboxctl export --db sqlite:/var/lib/shop/outbox.sqlite --state dead --output "
            u"dead.csv\n"
            "  outboxctl export --db postgresql://ops@db.internal/shop --audit > replays.csv\n"_qs},
        {u"diagnose"_qs,
            u"  outboxctl diagnose --db postgresql://monitor@db.internal/shop\n"
            "  outboxctl diagnose --db sqlite:/var/lib/shop/outbox.sqlite --json\n"
            "  outboxctl diagnose --db postgresql://db.internal/jobs --profile pg-boss\n"_qs},
        {u"explain"_qs,
            u"  outboxctl explain --db postgresql://monitor@db.internal/shop --event ORDER-17\n"
            "  outboxctl explain --db sqlite:/tmp/sim.sqlite --event EVENT-9 --policy "
            "capped:10,20,40 --budget 4 --json\n"_qs},
        {u"errors"_qs,
            u"  outboxctl errors --db postgresql://monitor@db.internal/shop\n"
            "  outboxctl errors --db sqlite:/var/lib/shop/outbox.sqlite --json\n"
            "  outboxctl errors --db sqlite:/tmp/sim.sqlite --now 100\n"_qs},
        {u"metrics"_qs,
            u"  outboxctl metrics --db postgresql://monitor@db.internal/shop --outbox shop\n"
            "  outboxctl metrics --db sqlite:/var/lib/shop/outbox.sqlite --textfile "
            "/var/lib/prometheus/node-exporter/outbox.prom\n"_qs},
        {u"policy"_qs,
            u"  outboxctl policy --policy capped:10,20,40 --budget 5\n"
            "  outboxctl policy --policy exponential --budget 12 --json\n"
            "  outboxctl policy --policy exponential-random:initial=500,max=10000 --budget 6 "
            "--seed 7\n"_qs},
        {u"serve"_qs,
            u"  outboxctl serve --outbox \"shop=postgresql://monitor@db.internal/shop\" --outbox "
            "\"jobs=postgresql://monitor@db.internal/jobs;profile=pg-boss\"\n"
            "  outboxctl serve --listen 0.0.0.0:9640 --config /etc/outbox-health/fleet.conf "
            "--interval 30\n"_qs},
    };
    return examples;
}

QString examples(const QString &command)
{
    return writingExamples().value(command, readingExamples().value(command));
}

// One line under the usage line of `outboxctl COMMAND --help`, as in `outboxctl --help`.
QString description(const QString &command)
{
    static const QHash<QString, QString> descriptions = {
        {u"init"_qs, u"Create the native schema where it is absent."_qs},
        {u"simulate"_qs, u"Run a seed scenario on the logical clock and narrate or trace it."_qs},
        {u"check"_qs, u"Print the health snapshot; exit 1 when a limit is exceeded."_qs},
        {u"relay"_qs, u"Run the live simulated relay with injected faults."_qs},
        {u"replay"_qs, u"Release DEAD events for another delivery, recording who and why."_qs},
        {u"generate"_qs, u"Fill a simulation database with a realistic synthetic outbox."_qs},
        {u"export"_qs, u"Write the events, or the replay log, as spreadsheet-safe CSV."_qs},
        {u"resolve"_qs, u"Close DEAD events without delivering them, recording who and why."_qs},
        {u"reopen"_qs, u"Put RESOLVED events back to DEAD, recording who and why."_qs},
        {u"migrate"_qs, u"Bring a database's native schema to this program's version."_qs},
        {u"note"_qs,
            u"Add, list or clear operator notes and markers: outboxctl note add|list|clear."_qs},
        {u"purge"_qs, u"Delete old DELIVERED (and RESOLVED) events in short batches."_qs},
        {u"diagnose"_qs,
            u"Say why the outbox is stuck and what to do; exit 1 on a warning or critical finding."_qs},
        {u"explain"_qs, u"Explain one event: where it is, why, and what happens next."_qs},
        {u"errors"_qs, u"List the failed events grouped by error signature."_qs},
        {u"metrics"_qs,
            u"Print the health snapshot as Prometheus metrics, or write it for node_exporter."_qs},
        {u"policy"_qs,
            u"Print the schedule a retry policy gives, and when it parks an event DEAD."_qs},
        {u"serve"_qs,
            u"Serve /metrics for many outboxes to Prometheus, each read once per interval on its "
            "own thread."_qs},
    };
    return descriptions.value(command, QStringLiteral("outboxctl ") + command);
}

// Qt's parser errors ("Unknown option 'x'.", "Missing value after '--db'.") in the program's own
// style: a lower-case first letter (not of an acronym) and no full stop at the end.
QString ownStyle(QString text)
{
    text = text.trimmed();
    while (text.endsWith(QLatin1Char('.')))
        text.chop(1);
    if (text.size() > 1 && text.at(0).isUpper() && !text.at(1).isUpper())
        text[0] = text.at(0).toLower();
    return text;
}

} // namespace

QString helpText(const QCommandLineParser &parser, const QString &command)
{
    // Qt names the program by the path it was started with; name the command instead.
    QString help = parser.helpText();
    help.replace(0, help.indexOf(QLatin1Char('\n')),
        QStringLiteral("Usage: outboxctl %1 [options]").arg(command));
    const QString example = examples(command);
    if (!example.isEmpty())
        help += QStringLiteral("\nExamples:\n") + example;
    return help;
}

bool parse(
    QCommandLineParser &parser, const QString &command, const QStringList &arguments, int *exitCode)
{
    if (parser.applicationDescription().isEmpty())
        parser.setApplicationDescription(description(command));
    const QCommandLineOption help(
        {QStringLiteral("h"), QStringLiteral("help")}, QStringLiteral("Show this help."));
    parser.addOption(help);
    if (!parser.parse(QStringList {QStringLiteral("outboxctl ") + command} + arguments)) {
        *exitCode = fail(command + QStringLiteral(": ") + ownStyle(parser.errorText()));
        return false;
    }
    if (parser.isSet(help)) {
        QTextStream(stdout) << helpText(parser, command);
        *exitCode = Ok;
        return false;
    }
    if (!parser.positionalArguments().isEmpty()) {
        *exitCode = fail(command + QStringLiteral(": unexpected argument '")
            + parser.positionalArguments().constFirst() + QLatin1Char('\''));
        return false;
    }
    return true;
}

bool requireValue(const QCommandLineParser &parser, const QString &option, QString *error)
{
    if (parser.isSet(option) && !parser.value(option).trimmed().isEmpty())
        return true;
    *error = QStringLiteral("--%1 is required").arg(option);
    return false;
}

bool requireText(const QCommandLineParser &parser, const QString &name, const QString &why,
    QString *value, QString *error)
{
    *value = parser.value(name).trimmed();
    if (!value->isEmpty())
        return true;
    *error = QStringLiteral("--%1 is required and must not be blank: %2").arg(name, why);
    return false;
}

bool readNumber(const QCommandLineParser &parser, const QString &name, qint64 low, qint64 high,
    qint64 *value, QString *error)
{
    if (!parser.isSet(name))
        return true;
    bool ok = false;
    const qint64 number = parser.value(name).trimmed().toLongLong(&ok);
    if (!ok || number < low || number > high) {
        *error = QStringLiteral("--%1 must be a whole number from %2 to %3, not '%4'")
                     .arg(name)
                     .arg(low)
                     .arg(high)
                     .arg(parser.value(name));
        return false;
    }
    *value = number;
    return true;
}

bool readNow(const QCommandLineParser &parser, qint64 *now, QString *error)
{
    *now = QDateTime::currentMSecsSinceEpoch();
    return readNumber(parser, QStringLiteral("now"), 0, MaxTimeMs, now, error);
}

void addDurationOption(QCommandLineParser &parser, const QString &name, const QString &description)
{
    parser.addOption(
        {name, description + QStringLiteral(" As 500ms, 30s, 10m, 2h or 7d (a plain number: ms)."),
            QStringLiteral("DURATION")});
    QCommandLineOption old(name + QStringLiteral("-ms"),
        QStringLiteral("The old spelling of --%1, in whole milliseconds.").arg(name),
        QStringLiteral("N"));
    old.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOption(old);
}

// The names given on the command line: isSet() warns about a name the command does not have.
bool isDurationSet(const QCommandLineParser &parser, const QString &name)
{
    const QStringList given = parser.optionNames();
    return given.contains(name) || given.contains(name + QStringLiteral("-ms"));
}

QString durationSpelling(const QCommandLineParser &parser, const QString &name)
{
    const bool old = parser.optionNames().contains(name + QStringLiteral("-ms"));
    return QStringLiteral("--") + name + (old ? QStringLiteral("-ms") : QString());
}

bool readDuration(const QCommandLineParser &parser, const QString &name, qint64 low, qint64 high,
    qint64 *ms, QString *error)
{
    const QString old = name + QStringLiteral("-ms");
    if (parser.isSet(name) && parser.isSet(old)) {
        *error = QStringLiteral("--%1 and --%2 are the same option; give one").arg(name, old);
        return false;
    }
    if (parser.isSet(old)) // whole milliseconds, with the message it always had
        return readNumber(parser, old, low, high, ms, error);
    if (!parser.isSet(name))
        return true;
    const std::optional<qint64> value = DurationText::parseMs(parser.value(name));
    if (!value) {
        *error = QStringLiteral("--%1 must be a duration such as 500ms, 30s, 10m, 2h or 7d "
                                "(plain numbers are milliseconds), not '%2'")
                     .arg(name, parser.value(name));
        return false;
    }
    if (*value < low || *value > high) {
        *error = QStringLiteral("--%1 must be from %2 to %3, not '%4'")
                     .arg(name, DurationText::format(low), DurationText::format(high),
                         parser.value(name));
        return false;
    }
    *ms = *value;
    return true;
}

bool readErrorCategory(const QCommandLineParser &parser, QString *category, QString *error)
{
    category->clear();
    const QString option = QStringLiteral("error-category");
    if (!parser.isSet(option))
        return true;
    const QString value = parser.value(option).trimmed();
    for (const QString &known : {QStringLiteral("TRANSIENT"), QStringLiteral("PERMANENT")}) {
        if (value.compare(known, Qt::CaseInsensitive) == 0) {
            *category = known;
            return true;
        }
    }
    *error = QStringLiteral("--error-category must be TRANSIENT or PERMANENT, not '%1'")
                 .arg(parser.value(option));
    return false;
}

void addPayloadContainsOption(QCommandLineParser &parser, const QString &prefix)
{
    parser.addOption({u"payload-contains"_qs,
        (prefix.isEmpty() ? u"Only"_qs : prefix + u": only"_qs)
            + u" events whose payload contains this JSON fragment ({\"orderId\": 4711}: "
              "that key with that value) or, when it does not start with { or [, this text "
              "(case-insensitive; refused while payload values are redacted)."_qs,
        u"TEXT"_qs});
}

bool readPayloadContains(const QCommandLineParser &parser, QString *search, QString *error)
{
    search->clear();
    const QString option = QStringLiteral("payload-contains");
    if (!parser.isSet(option))
        return true;
    QString why;
    const PayloadSearch parsed
        = PayloadSearch::parse(parser.value(option), Redaction::dashboardSensitiveKeys(), &why);
    if (!why.isEmpty()) {
        *error = u"--payload-contains: "_qs + why;
        return false;
    }
    if (parsed.kind == PayloadSearch::Kind::None) {
        *error = u"--payload-contains needs a JSON fragment or a text"_qs;
        return false;
    }
    *search = parser.value(option).trimmed();
    return true;
}

QString payloadSearchRefusal(const OutboxProfile &profile)
{
    if (profile.isAvailable(OutboxProfile::Column::Payload))
        return {};
    return u"--payload-contains: "_qs + PayloadSearch::notAvailableReason(profile.name());
}

std::unique_ptr<DbConnection> openForSimulation(const QString &urlText, QString *error)
{
    const DatabaseUrl url = DatabaseUrl::parse(urlText, error);
    if (!url.isValid())
        return nullptr;
    const bool newSqliteFile = url.isFile() && !QFileInfo::exists(url.path());
    OpenOptions options;
    options.allowCreate = newSqliteFile;
    options.validateSchema = !newSqliteFile;
    std::unique_ptr<DbConnection> connection = DbConnection::open(url, options, error);
    if (!connection)
        return nullptr;
    if (newSqliteFile) {
        if (!Schema::create(connection->database(), error)
            || !Schema::markForSimulation(connection->database(), error))
            return nullptr;
        return connection;
    }
    if (!Schema::isMarkedForSimulation(connection->database())) {
        *error = QStringLiteral(
            "refusing to write simulated events into %1: it is not initialised for "
            "simulation (use a new sqlite: file, or run `outboxctl init --db URL "
            "--for-simulation` on a scratch database)")
                     .arg(url.toDisplayString());
        return nullptr;
    }
    warnOfPasswordInArguments(QCoreApplication::arguments());
    return connection;
}

void addProfileOption(QCommandLineParser &parser, const QString &more)
{
    const QString common
        = QStringLiteral("The outbox schema: a built-in profile (native, graphile-worker, oban, "
                         "pg-boss, solid-queue, spring-modulith, spring-modulith-2, gruelbox, "
                         "namastack) or a profile file (default: detected).");
    parser.addOption({QStringLiteral("profile"),
        more.isEmpty() ? common : common + QLatin1Char(' ') + more, QStringLiteral("NAME|PATH")});
}

void addDatabaseOption(QCommandLineParser &parser, const QString &description)
{
    parser.addOption({QStringLiteral("db"), description, QStringLiteral("URL")});
    addDatabaseFileOption(parser);
}

void addDatabaseFileOption(QCommandLineParser &parser)
{
    parser.addOption({QStringLiteral("db-file"),
        QStringLiteral("Read the database URL from the first line of FILE instead of --db (kept "
                       "out of ps; refused when it holds a password and others may read it). "
                       "Without either, the URL in OUTBOX_DB_URL."),
        QStringLiteral("FILE")});
}

namespace {

// The first line of a --db-file: a regular file of at most 64 KiB (BoundedFile), refused when it
// holds a password and group or others have access to it.
std::optional<QString> readDatabaseFile(const QString &path, QString *error)
{
    BoundedFile::Status status;
    const std::optional<QByteArray> bytes
        = BoundedFile::read(path, 64 * 1024, QStringLiteral("database URL file"), error, &status);
    if (!bytes)
        return std::nullopt;
    const QString line = QString::fromUtf8(*bytes).section(QLatin1Char('\n'), 0, 0).trimmed();
    *error = DatabaseUrl::exposedPasswordReason(path, status, line, QStringLiteral("--db-file"));
    if (!error->isEmpty())
        return std::nullopt;
    if (line.isEmpty()) {
        *error = QStringLiteral("--db-file %1 holds no URL on its first line").arg(path);
        return std::nullopt;
    }
    return line;
}

} // namespace

std::optional<QString> databaseText(const QCommandLineParser &parser, QString *error)
{
    const QString db = QStringLiteral("db");
    const QString file = QStringLiteral("db-file");
    if (parser.optionNames().contains(file)) { // set, so the command has it
        if (parser.isSet(db)) {
            *error = QStringLiteral("--db and --db-file exclude each other");
            return std::nullopt;
        }
        return readDatabaseFile(parser.value(file), error);
    }
    if (parser.isSet(db) && !parser.value(db).trimmed().isEmpty())
        return parser.value(db);
    const QString fromEnvironment = qEnvironmentVariable("OUTBOX_DB_URL").trimmed();
    if (!parser.isSet(db) && !fromEnvironment.isEmpty())
        return fromEnvironment;
    *error = QStringLiteral("--db is required");
    return std::nullopt;
}

void warnOfPasswordInArguments(const QStringList &arguments)
{
    for (const QString &argument : arguments) {
        if (DatabaseUrl::maskPasswords(argument) == argument)
            continue;
        QTextStream(stderr) << "outboxctl: warning: a password on the command line is visible "
                               "to every user in ps and /proc/PID/cmdline while this runs; use "
                               "~/.pgpass, PGPASSWORD, --db-file or OUTBOX_DB_URL instead"
                            << Qt::endl;
        return;
    }
}

void addDatabaseOptions(QCommandLineParser &parser, const QString &profileMore)
{
    addDatabaseOption(parser);
    addProfileOption(parser, profileMore);
}

void addNotesDbOption(QCommandLineParser &parser)
{
    parser.addOption({QStringLiteral("notes-db"),
        QStringLiteral("Through a profile: the team's audit store and operator notes, a native "
                       "database of Outbox Health's own at schema version 3 (outboxctl init --db "
                       "URL makes one); a replay through a profile is refused without it. A "
                       "native outbox keeps its own."),
        QStringLiteral("URL")});
}

bool applyNotesDb(const QCommandLineParser &parser, QString *error)
{
    if (!parser.isSet(QStringLiteral("notes-db")))
        return true;
    const QString text = parser.value(QStringLiteral("notes-db")).trimmed();
    const DatabaseUrl url = DatabaseUrl::parse(text, error);
    if (!url.isValid()) {
        *error = QStringLiteral("--notes-db %1: %2").arg(text, *error);
        return false;
    }
    NotesAccess::setNotesDatabase(url);
    return true;
}

QString unusableNotesDb(
    const QCommandLineParser &parser, const Outbox &outbox, const QString &command)
{
    if (!parser.isSet(QStringLiteral("notes-db")) || outbox.profile.isNative())
        return {};
    const QString why = NotesAccess::open(outbox.database(), &outbox.profile).unavailable();
    return why.isEmpty() ? QString() : command + u": "_qs + why;
}

int refuseUnusableNotesDb(
    const QCommandLineParser &parser, const Outbox &outbox, const QString &command)
{
    const QString why = unusableNotesDb(parser, outbox, command);
    return why.isEmpty() ? Ok : fail(why);
}

void addNowOption(QCommandLineParser &parser, const QString &when)
{
    parser.addOption({QStringLiteral("now"),
        when + QStringLiteral(", ms since the epoch (default: now)."), QStringLiteral("MS")});
}

void addJsonOption(QCommandLineParser &parser, const QString &prints)
{
    parser.addOption({QStringLiteral("json"), prints});
}

void addReportOptions(QCommandLineParser &parser, const QString &when, const QString &prints)
{
    addDatabaseOptions(parser);
    addNowOption(parser, when);
    addJsonOption(parser, prints);
}

bool requireDatabase(const QCommandLineParser &parser, QString *error)
{
    return databaseText(parser, error).has_value();
}

DatabaseUrl databaseUrl(const QCommandLineParser &parser, QString *error)
{
    const std::optional<QString> text = databaseText(parser, error);
    return text ? DatabaseUrl::parse(*text, error) : DatabaseUrl();
}

OpenOptions outboxOptions(bool readOnly)
{
    OpenOptions options;
    options.readOnly = readOnly;
    options.statementTimeoutMs = 60000;
    return options;
}

namespace {

// Restores the terminal's echo on every path out of askPassword().
class EchoOff
{
public:
    explicit EchoOff(int fd)
        : m_fd(fd)
        , m_on(::tcgetattr(fd, &m_saved) == 0)
    {
        termios quiet = m_saved;
        quiet.c_lflag &= ~tcflag_t(ECHO);
        m_on = m_on && ::tcsetattr(fd, TCSANOW, &quiet) == 0;
    }
    ~EchoOff()
    {
        if (m_on)
            ::tcsetattr(m_fd, TCSANOW, &m_saved);
    }
    EchoOff(const EchoOff &) = delete;
    EchoOff &operator=(const EchoOff &) = delete;
    bool isOn() const { return m_on; }

private:
    int m_fd;
    termios m_saved {};
    bool m_on;
};

// As psql asks when the server wants a password that neither the URL, PGPASSWORD nor ~/.pgpass
// gave: on the terminal, echo off. None when standard input is no terminal (a script, cron).
std::optional<QString> askPassword(const DatabaseUrl &url)
{
    if (!::isatty(STDIN_FILENO))
        return std::nullopt;
    const EchoOff quiet(STDIN_FILENO);
    if (!quiet.isOn())
        return std::nullopt;
    QTextStream err(stderr);
    err << "Password for user " << url.user() << ": " << Qt::flush;
    QTextStream in(stdin);
    const QString typed = in.readLine();
    err << Qt::endl; // the Enter typed was not echoed
    return typed;
}

} // namespace

QString grantsRefusal(
    const Outbox &outbox, TableGrants::Operation operation, const QString &command)
{
    if (!outbox.profile.isNative())
        return {};
    const TableGrants grants = TableGrants::read(outbox.database(), TableGrants::needs(operation));
    const QString refusal = grants.refusal(operation);
    return refusal.isEmpty() ? QString() : command + u": "_qs + refusal;
}

int refuseByGrants(const Outbox &outbox, TableGrants::Operation operation, const QString &command)
{
    const QString refusal = grantsRefusal(outbox, operation, command);
    return refusal.isEmpty() ? Ok : fail(refusal);
}

std::optional<Outbox> openOutbox(
    const QCommandLineParser &parser, const OpenOptions &options, QString *error)
{
    Outbox outbox;
    outbox.url = databaseUrl(parser, error);
    if (!outbox.url.isValid())
        return std::nullopt;
    std::optional<OutboxProfile> profile;
    outbox.connection = openWithProfile(outbox.url, options, parser, &profile, error);
    if (!outbox.connection && outbox.url.password().isEmpty()
        && error->contains(QLatin1String("no password supplied"))) {
        if (const std::optional<QString> typed = askPassword(outbox.url)) {
            outbox.url.setPassword(*typed);
            outbox.connection = openWithProfile(outbox.url, options, parser, &profile, error);
        }
    }
    if (!outbox.connection)
        return std::nullopt;
    warnOfPasswordInArguments(QCoreApplication::arguments());
    outbox.profile = *profile;
    return outbox;
}

std::optional<Outbox> openReport(QCommandLineParser &parser, const QString &command,
    const QStringList &arguments, const std::function<bool(QString *error)> &read, int *exitCode)
{
    *exitCode = Ok;
    if (!parse(parser, command, arguments, exitCode))
        return std::nullopt;
    QString error;
    if (!requireDatabase(parser, &error) || (read && !read(&error))) {
        *exitCode = fail(command + QStringLiteral(": ") + error);
        return std::nullopt;
    }
    std::optional<Outbox> outbox = openOutbox(parser, outboxOptions(true), &error);
    if (!outbox)
        *exitCode = fail(error);
    return outbox;
}

std::unique_ptr<DbConnection> openWithProfile(const DatabaseUrl &url, OpenOptions options,
    const QCommandLineParser &parser, std::optional<OutboxProfile> *profile, QString *error)
{
    const QString option = QStringLiteral("profile");
    const std::optional<QString> argument
        = parser.isSet(option) ? std::optional<QString>(parser.value(option)) : std::nullopt;
    return ProfileConnection::open(url, options, argument, profile, error);
}

} // namespace Cli
