// outboxctl migrate --db URL [--dry-run]: brings a native schema from the version it records
// (1 when none) to the program's version, in one transaction (SchemaMigration). Idempotent:
// a current database is left alone and said to be current. --dry-run names the steps and
// changes nothing. The only command that alters an existing schema; nothing runs it implicitly.
#include "cli.h"
#include "schema.h"
#include "schemamigration.h"

#include <QCoreApplication>
#include <QElapsedTimer>

int runMigrate(const QStringList &arguments)
{
    QCommandLineParser parser;
    Cli::addDatabaseOption(parser);
    parser.addOption({u"dry-run"_qs, u"Print the steps; change nothing."_qs});
    int exitCode = Cli::Ok;
    if (!Cli::parse(parser, u"migrate"_qs, arguments, &exitCode))
        return exitCode;
    QString error;
    if (!Cli::requireDatabase(parser, &error))
        return Cli::fail(u"migrate: "_qs + error);
    const DatabaseUrl url = Cli::databaseUrl(parser, &error);
    if (!url.isValid())
        return Cli::fail(error);
    OpenOptions options; // the native tables must be there (validated); no statement timeout:
    // a SQLite rebuild or PostgreSQL's check of every row takes as long as the table is big
    const auto connection = DbConnection::open(url, options, &error);
    if (!connection)
        return Cli::fail(error);
    Cli::warnOfPasswordInArguments(QCoreApplication::arguments());

    SchemaMigration migration(connection->database());
    const int from = migration.fromVersion(&error);
    if (from < 0)
        return Cli::fail(QStringLiteral("migrate: %1: %2").arg(url.toDisplayString(), error));
    const QString database = Cli::printable(url.toDisplayString());
    if (from >= Schema::CurrentVersion) {
        Cli::printLine(QStringLiteral("%1 is at schema version %2 already; nothing to do")
                           .arg(database)
                           .arg(from));
        return Cli::Ok;
    }
    const bool dryRun = parser.isSet(u"dry-run"_qs);
    Cli::printLine(QStringLiteral("%1%2: schema version %3 -> %4, %5:")
                       .arg(dryRun ? u"dry run: "_qs : QString(), database)
                       .arg(from)
                       .arg(Schema::CurrentVersion)
                       .arg(migration.atomicity()));
    for (const QString &step : migration.steps(from))
        Cli::printLine(u"  - "_qs + step);
    if (dryRun) {
        Cli::printLine(u"nothing changed"_qs);
        return Cli::Ok;
    }
    QElapsedTimer timer;
    timer.start();
    if (!migration.migrate(connection->isReadOnly(), &error))
        return Cli::fail(
            QStringLiteral("migrate: %1: %2; nothing changed").arg(url.toDisplayString(), error));
    Cli::printLine(QStringLiteral("migrated %1 to schema version %2 in %3 ms")
                       .arg(database)
                       .arg(Schema::CurrentVersion)
                       .arg(timer.elapsed()));
    return Cli::Ok;
}
