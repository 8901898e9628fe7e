#include "cli.h"

#include "plaintext.h"
#include "profileregistry.h"
#include "schema.h"

#include <QDateTime>
#include <QFileInfo>
#include <QTextStream>
#include <algorithm>

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

bool parse(
    QCommandLineParser &parser, const QString &command, const QStringList &arguments, int *exitCode)
{
    parser.setApplicationDescription(QStringLiteral("outboxctl ") + command);
    const QCommandLineOption help(
        {QStringLiteral("h"), QStringLiteral("help")}, QStringLiteral("Show this help."));
    parser.addOption(help);
    if (!parser.parse(QStringList {QStringLiteral("outboxctl ") + command} + arguments)) {
        *exitCode = fail(command + QStringLiteral(": ") + parser.errorText());
        return false;
    }
    if (parser.isSet(help)) {
        QTextStream(stdout) << parser.helpText();
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

std::unique_ptr<DbConnection> openForSimulation(const QString &urlText, QString *error)
{
    const DatabaseUrl url = DatabaseUrl::parse(urlText, error);
    if (!url.isValid())
        return nullptr;
    const bool newSqliteFile = url.isSqlite() && !QFileInfo::exists(url.path());
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
    return connection;
}

void addProfileOption(QCommandLineParser &parser)
{
    parser.addOption({QStringLiteral("profile"),
        QStringLiteral("The outbox schema: a built-in profile (native, pg-boss, spring-modulith, "
                       "spring-modulith-2, gruelbox, namastack) or a profile file (default: "
                       "detected)."),
        QStringLiteral("NAME|PATH")});
}

std::unique_ptr<DbConnection> openWithProfile(const DatabaseUrl &url, OpenOptions options,
    const QCommandLineParser &parser, std::optional<OutboxProfile> *profile, QString *error)
{
    const bool given = parser.isSet(QStringLiteral("profile"));
    if (given) {
        const QString argument = parser.value(QStringLiteral("profile")).trimmed();
        if (argument.isEmpty()) {
            *error = QStringLiteral("--profile needs a built-in name or a profile file");
            return nullptr;
        }
        *profile = ProfileRegistry::resolve(argument, error);
        if (!*profile)
            return nullptr;
    }
    options.validateSchema = false; // the profile validates its own schema
    auto connection = DbConnection::open(url, options, error);
    if (!connection)
        return nullptr;
    if (!given) {
        *profile = ProfileRegistry::detect(connection->database(), error);
        if (!*profile) {
            // No known schema at all: name what the native one misses, as before profiles.
            const QList<OutboxProfile> builtIns = ProfileRegistry::builtIns();
            const bool none = std::none_of(
                builtIns.cbegin(), builtIns.cend(), [&connection](const OutboxProfile &p) {
                    return p.isPresent(connection->database());
                });
            if (none && !builtIns.isEmpty()) {
                const QString native = builtIns.constFirst().validate(connection->database());
                if (!native.isEmpty())
                    *error = native
                        + QStringLiteral("; no other known outbox schema found either (pass "
                                         "--profile NAME|FILE for another library's table)");
            }
            return nullptr;
        }
    }
    const QString problem = (*profile)->validate(connection->database());
    if (!problem.isEmpty()) {
        *error = problem;
        return nullptr;
    }
    return connection;
}

} // namespace Cli
