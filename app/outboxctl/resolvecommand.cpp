// outboxctl resolve --db URL (--event ID ... | --all-dead [--older-than-ms N]
// [--error-category C]) --operator NAME --reason TEXT [--now MS] [--dry-run] [--json]: closes
// parked (DEAD) events without delivering them (DEAD → RESOLVED, kept in the table), each in
// its own transaction with a resolve_log row; the twin of `outboxctl replay`. --dry-run prints
// what would be resolved and changes nothing. Exit 0 even when some were skipped (someone
// else resolved or replayed them first, or they are not DEAD); 2 on any error, also on a
// schema older than version 2 (run `outboxctl migrate`) and on a profile for another schema
// (refused, naming that library's own action).
#include "cli.h"
#include "replayer.h"
#include "resolver.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace {

struct ResolveOptions
{
    QString db;
    bool allDead = false;
    EventFilter filter; // --all-dead: which DEAD rows
    ResolveRequest request;
    bool dryRun = false;
    bool json = false;
};

void addOptions(QCommandLineParser &parser)
{
    parser.addOption({u"db"_qs, u"Database URL."_qs, u"URL"_qs});
    Cli::addProfileOption(parser);
    parser.addOption({u"event"_qs, u"A DEAD event to resolve (repeat for more)."_qs, u"ID"_qs});
    parser.addOption(
        {u"all-dead"_qs, u"Resolve every DEAD event (narrowed by the options below)."_qs});
    parser.addOption({u"older-than-ms"_qs,
        u"With --all-dead: only events created at least N ms before --now."_qs, u"N"_qs});
    parser.addOption({u"error-category"_qs,
        u"With --all-dead: only events whose last error has this category."_qs, u"C"_qs});
    parser.addOption(
        {u"operator"_qs, u"Who resolves the events (recorded in resolve_log)."_qs, u"NAME"_qs});
    parser.addOption(
        {u"reason"_qs, u"Why they need no delivery (recorded in resolve_log)."_qs, u"TEXT"_qs});
    parser.addOption(
        {u"now"_qs, u"The resolve time, ms since the epoch (default: now)."_qs, u"MS"_qs});
    parser.addOption({u"dry-run"_qs, u"Print which events would be resolved; change nothing."_qs});
    parser.addOption({u"json"_qs,
        u"Print {\"resolved\":[...],\"skipped\":[...]} ({\"would_resolve\":[...]} with "
        "--dry-run)."_qs});
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

// Which events: exactly one of --event and --all-dead; the narrowing options need --all-dead.
bool readSelection(const QCommandLineParser &parser, ResolveOptions *options, QString *error)
{
    const bool byId = parser.isSet(u"event"_qs);
    options->allDead = parser.isSet(u"all-dead"_qs);
    if (byId == options->allDead) {
        *error = byId ? u"give either --event or --all-dead, not both"_qs
                      : u"say which events: --event ID (repeatable) or --all-dead"_qs;
        return false;
    }
    if (!options->allDead
        && (parser.isSet(u"older-than-ms"_qs) || parser.isSet(u"error-category"_qs))) {
        *error
            = u"--older-than-ms and --error-category narrow --all-dead; they cannot be used with --event"_qs;
        return false;
    }
    for (const QString &id : parser.values(u"event"_qs)) {
        if (id.trimmed().isEmpty()) {
            *error = u"--event needs an event ID"_qs;
            return false;
        }
        options->request.eventIds << id;
    }
    qint64 olderThan = -1;
    if (!Cli::readNumber(parser, u"older-than-ms"_qs, 0, Cli::MaxTimeMs, &olderThan, error))
        return false;
    if (olderThan >= 0)
        options->filter.minAgeMs = olderThan;
    return Cli::readErrorCategory(parser, &options->filter.errorCategory, error);
}

bool readOptions(const QCommandLineParser &parser, ResolveOptions *options, QString *error)
{
    if (!Cli::requireValue(parser, u"db"_qs, error) || !readSelection(parser, options, error)
        || !requireText(parser, u"operator"_qs, u"resolve_log records who resolved the events"_qs,
            &options->request.operatorName, error)
        || !requireText(parser, u"reason"_qs,
            u"resolve_log records why the events need no delivery"_qs, &options->request.reason,
            error)
        || !Cli::readNow(parser, &options->request.now, error))
        return false;
    options->db = parser.value(u"db"_qs);
    options->dryRun = parser.isSet(u"dry-run"_qs);
    options->json = parser.isSet(u"json"_qs);
    return true;
}

QString jsonArray(const QStringList &ids)
{
    return QString::fromUtf8(
        QJsonDocument(QJsonArray::fromStringList(ids)).toJson(QJsonDocument::Compact));
}

QString plural(qsizetype count)
{
    return count == 1 ? QString() : u"s"_qs;
}

// Event IDs are stored text: escaped, so that one cannot forge a line of its own.
QString sentence(const ResolveResult &result)
{
    QString line = QStringLiteral("resolved %1 event%2")
                       .arg(result.resolved.size())
                       .arg(plural(result.resolved.size()));
    if (!result.resolved.isEmpty())
        line += u": "_qs + Cli::printable(result.resolved.join(u", "_qs));
    if (!result.skipped.isEmpty())
        line += QStringLiteral("; skipped %1 (already resolved or replayed by someone else, or "
                               "not DEAD): %2")
                    .arg(result.skipped.size())
                    .arg(Cli::printable(result.skipped.join(u", "_qs)));
    return line;
}

QString dryRunLine(const QStringList &dead, const ResolveOptions &options)
{
    if (options.json)
        return u"{\"would_resolve\":"_qs + jsonArray(dead) + u"}"_qs;
    QString line = QStringLiteral("dry run: would resolve %1 event%2")
                       .arg(dead.size())
                       .arg(plural(dead.size()));
    if (!dead.isEmpty())
        line += u": "_qs + Cli::printable(dead.join(u", "_qs));
    const qsizetype notDead = options.allDead ? 0 : options.request.eventIds.size() - dead.size();
    if (notDead > 0)
        line += QStringLiteral("; %1 not DEAD or not found").arg(notDead);
    return line + u"; nothing changed"_qs;
}

} // namespace

int runResolve(const QStringList &arguments)
{
    QCommandLineParser parser;
    addOptions(parser);
    int exitCode = Cli::Ok;
    if (!Cli::parse(parser, u"resolve"_qs, arguments, &exitCode))
        return exitCode;
    ResolveOptions options;
    QString error;
    if (!readOptions(parser, &options, &error))
        return Cli::fail(u"resolve: "_qs + error);
    const DatabaseUrl url = DatabaseUrl::parse(options.db, &error);
    if (!url.isValid())
        return Cli::fail(error);

    OpenOptions open; // a real outbox: its profile validated, no simulation mark needed
    open.statementTimeoutMs = 60000;
    std::optional<OutboxProfile> profile;
    const auto connection = Cli::openWithProfile(url, open, parser, &profile, &error);
    if (!connection)
        return Cli::fail(error);
    Resolver resolver(connection->database(), *profile);
    const QString refusal = resolver.refusal();
    if (!refusal.isEmpty())
        return Cli::fail(u"resolve: "_qs + refusal);
    if (options.allDead) {
        error.clear();
        options.request.eventIds
            = Replayer(connection->database())
                  .matchingDeadEvents(options.filter, options.request.now, &error);
        if (!error.isEmpty())
            return Cli::fail(
                QStringLiteral("resolve: reading %1: %2").arg(url.toDisplayString(), error));
    }
    if (options.dryRun) {
        error.clear();
        const QStringList dead = resolver.deadAmong(options.request.eventIds, &error);
        if (!error.isEmpty())
            return Cli::fail(
                QStringLiteral("resolve: reading %1: %2").arg(url.toDisplayString(), error));
        Cli::printLine(dryRunLine(dead, options));
        return Cli::Ok;
    }
    const ResolveResult result = resolver.resolve(options.request);
    if (!result.error.isEmpty()) {
        const QString before = result.resolved.isEmpty()
            ? QString()
            : QStringLiteral(" (resolved before the error: %1)")
                  .arg(result.resolved.join(u", "_qs));
        return Cli::fail(
            QStringLiteral("resolve: %1: %2%3").arg(url.toDisplayString(), result.error, before));
    }
    Cli::printLine(options.json ? u"{\"resolved\":"_qs + jsonArray(result.resolved)
                + u",\"skipped\":"_qs + jsonArray(result.skipped) + u"}"_qs
                                : sentence(result));
    return Cli::Ok;
}
