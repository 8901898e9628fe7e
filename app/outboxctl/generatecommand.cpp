// outboxctl generate --db URL --events N [--seed S] [--now MS]: fills a simulation database
// (or a new SQLite file) with a realistic synthetic outbox, printing progress after every
// chunk and a JSON summary line at the end.
#include "cli.h"
#include "outboxgenerator.h"

#include <QDateTime>

namespace {

bool parseNumber(const QCommandLineParser &parser, const QString &name, qint64 minimum,
    qint64 *value, QString *error)
{
    if (!parser.isSet(name))
        return true;
    bool ok = false;
    const qint64 number = parser.value(name).trimmed().toLongLong(&ok);
    if (!ok || number < minimum) {
        *error = QStringLiteral("--%1 must be a whole number of at least %2, not '%3'")
                     .arg(name)
                     .arg(minimum)
                     .arg(parser.value(name));
        return false;
    }
    *value = number;
    return true;
}

bool parseSpec(const QCommandLineParser &parser, GenerateSpec *spec, QString *error)
{
    qint64 seed = 1;
    spec->now = QDateTime::currentMSecsSinceEpoch();
    if (!Cli::requireDatabase(parser, error) || !Cli::requireValue(parser, u"events"_qs, error)
        || !parseNumber(parser, u"events"_qs, 1, &spec->events, error)
        || !parseNumber(parser, u"seed"_qs, 0, &seed, error)
        || !parseNumber(parser, u"now"_qs, 0, &spec->now, error))
        return false;
    spec->seed = quint64(seed);
    return true;
}

} // namespace

int runGenerate(const QStringList &arguments)
{
    QCommandLineParser parser;
    Cli::addDatabaseOption(
        parser, u"Database URL (a new sqlite: file or a simulation database)."_qs);
    parser.addOption({u"events"_qs, u"How many events to generate."_qs, u"N"_qs});
    parser.addOption({u"seed"_qs, u"The same seed gives the same rows (default 1)."_qs, u"S"_qs});
    parser.addOption({u"now"_qs,
        u"created_at falls in the 7 days before this time, ms since the epoch (default: now)."_qs,
        u"MS"_qs});
    int exitCode = Cli::Ok;
    if (!Cli::parse(parser, u"generate"_qs, arguments, &exitCode))
        return exitCode;

    QString error;
    GenerateSpec spec;
    if (!parseSpec(parser, &spec, &error))
        return Cli::fail(u"generate: "_qs + error);
    const auto connection = Cli::openForSimulation(*Cli::databaseText(parser, &error), &error);
    if (!connection)
        return Cli::fail(error);

    OutboxGenerator generator(connection->database());
    generator.setProgress([](qint64 done, qint64 total) {
        Cli::printLine(QStringLiteral("generated %1 of %2 events").arg(done).arg(total));
    });
    const std::optional<GenerateResult> result = generator.generate(spec, &error);
    if (!result)
        return Cli::fail(QStringLiteral("generate: %1").arg(error));
    Cli::printLine(QStringLiteral("{\"events\":%1,\"attempts\":%2,\"elapsed_ms\":%3}")
                       .arg(result->events)
                       .arg(result->attempts)
                       .arg(result->elapsedMs));
    return Cli::Ok;
}
