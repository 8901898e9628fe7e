// Cli's database helpers (cli.h): the URL from --db, --db-file or OUTBOX_DB_URL, opening an outbox
// (asking for a password on a terminal), simulation targets, and the refusals checked before a
// command changes anything.
#include "cli.h"

#include "boundedfile.h"
#include "notesaccess.h"
#include "payloadsearch.h"
#include "profileconnection.h"
#include "schema.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QTextStream>

#include <termios.h>
#include <unistd.h>

namespace Cli {

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
