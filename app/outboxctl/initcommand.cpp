// outboxctl init --db URL [--for-simulation]: creates the native schema where absent, at the
// current version; an older schema keeps its version and is told to run `outboxctl migrate`.
#include "cli.h"
#include "schema.h"

#include <QCoreApplication>

int runInit(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption(
        {QStringLiteral("db"), QStringLiteral("Database URL."), QStringLiteral("URL")});
    parser.addOption({QStringLiteral("for-simulation"),
        QStringLiteral("Mark the database as a simulation target (outbox_meta purpose).")});
    int exitCode = Cli::Ok;
    if (!Cli::parse(parser, QStringLiteral("init"), arguments, &exitCode))
        return exitCode;
    QString error;
    if (!Cli::requireValue(parser, QStringLiteral("db"), &error))
        return Cli::fail(QStringLiteral("init: ") + error);
    const DatabaseUrl url = DatabaseUrl::parse(parser.value(QStringLiteral("db")), &error);
    if (!url.isValid())
        return Cli::fail(error);

    OpenOptions options;
    options.allowCreate = true; // init is the one command that may create a SQLite file
    options.validateSchema = false;
    const auto connection = DbConnection::open(url, options, &error);
    if (!connection)
        return Cli::fail(error);
    Cli::warnOfPasswordInArguments(QCoreApplication::arguments());
    if (!Schema::create(connection->database(), &error))
        return Cli::fail(
            QStringLiteral("creating the schema in %1: %2").arg(url.toDisplayString(), error));
    const QString problem = Schema::validate(connection->database());
    if (!problem.isEmpty()) // an older, different table of the same name
        return Cli::fail(problem);
    if (parser.isSet(QStringLiteral("for-simulation"))
        && !Schema::markForSimulation(connection->database(), &error))
        return Cli::fail(error);
    Cli::printLine(
        QStringLiteral("initialised %1%2")
            .arg(Cli::printable(url.toDisplayString()),
                parser.isSet(QStringLiteral("for-simulation")) ? QStringLiteral(" for simulation")
                                                               : QString()));
    const QString outdated = Schema::outdated(connection->database());
    if (!outdated.isEmpty())
        Cli::printLine(QStringLiteral("note: ") + Cli::printable(outdated));
    return Cli::Ok;
}
