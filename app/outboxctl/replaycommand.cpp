// outboxctl replay --db URL (--event ID ... | --all-dead [--older-than-ms N]
// [--error-category C]) --operator NAME --reason TEXT [--reset-budget] [--spread-ms N]
// [--now MS] [--json]: releases parked (DEAD) events for another delivery under the same
// event ID, each in its own transaction with a replay_log row. Exit 0 even when some were
// skipped (someone else replayed them first, or they are not DEAD); 2 on any error.
// --profile NAME|PATH (default: detected) replays another schema's rows with the profile's
// fenced statement (no replay_log, no --reset-budget or --spread-ms), or refuses with what to
// run instead when the profile is read-only.
#include "cli.h"
#include "replayer.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>

namespace {

constexpr qint64 MaxSpreadMs = 7LL * 24 * 3600 * 1000; // a week

struct ReplayOptions
{
    QString db;
    bool allDead = false;
    EventFilter filter; // --all-dead: which DEAD rows
    ReplayRequest request;
    bool json = false;
};

void addOptions(QCommandLineParser &parser)
{
    parser.addOption({u"db"_qs, u"Database URL."_qs, u"URL"_qs});
    Cli::addProfileOption(parser);
    parser.addOption({u"event"_qs, u"A DEAD event to replay (repeat for more)."_qs, u"ID"_qs});
    parser.addOption(
        {u"all-dead"_qs, u"Replay every DEAD event (narrowed by the options below)."_qs});
    parser.addOption({u"older-than-ms"_qs,
        u"With --all-dead: only events created at least N ms before --now."_qs, u"N"_qs});
    parser.addOption({u"error-category"_qs,
        u"With --all-dead: only events whose last error has this category."_qs, u"C"_qs});
    parser.addOption(
        {u"operator"_qs, u"Who releases the events (recorded in replay_log)."_qs, u"NAME"_qs});
    parser.addOption({u"reason"_qs, u"Why (recorded in replay_log)."_qs, u"TEXT"_qs});
    parser.addOption(
        {u"reset-budget"_qs, u"Reset failures to 0 (default: keep them, one more attempt)."_qs});
    parser.addOption({u"spread-ms"_qs,
        u"Spread the due times evenly over this window (default 0: all due now)."_qs, u"N"_qs});
    parser.addOption(
        {u"now"_qs, u"The replay time, ms since the epoch (default: now)."_qs, u"MS"_qs});
    parser.addOption({u"json"_qs, u"Print {\"replayed\":[...],\"skipped\":[...]}."_qs});
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
bool readSelection(const QCommandLineParser &parser, ReplayOptions *options, QString *error)
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

bool readOptions(const QCommandLineParser &parser, ReplayOptions *options, QString *error)
{
    if (!Cli::requireValue(parser, u"db"_qs, error) || !readSelection(parser, options, error)
        || !requireText(parser, u"operator"_qs, u"replay_log records who released the events"_qs,
            &options->request.operatorName, error)
        || !requireText(parser, u"reason"_qs, u"replay_log records why the events were released"_qs,
            &options->request.reason, error))
        return false;
    if (!Cli::readNumber(parser, u"spread-ms"_qs, 0, MaxSpreadMs, &options->request.spreadMs, error)
        || !Cli::readNow(parser, &options->request.now, error))
        return false;
    options->request.resetBudget = parser.isSet(u"reset-budget"_qs);
    options->db = parser.value(u"db"_qs);
    options->json = parser.isSet(u"json"_qs);
    return true;
}

QString jsonLine(const ReplayResult &result)
{
    auto array = [](const QStringList &ids) {
        return QString::fromUtf8(
            QJsonDocument(QJsonArray::fromStringList(ids)).toJson(QJsonDocument::Compact));
    };
    return u"{\"replayed\":"_qs + array(result.replayed) + u",\"skipped\":"_qs
        + array(result.skipped) + u"}"_qs;
}

QString sentence(const ReplayResult &result)
{
    // Event IDs are stored text: escaped, so that one cannot forge a line of its own.
    QString line = QStringLiteral("replayed %1 event%2")
                       .arg(result.replayed.size())
                       .arg(result.replayed.size() == 1 ? QString() : u"s"_qs);
    if (!result.replayed.isEmpty())
        line += u": "_qs + Cli::printable(result.replayed.join(u", "_qs));
    if (!result.skipped.isEmpty())
        line += QStringLiteral("; skipped %1 (already replayed by someone else, or not DEAD): %2")
                    .arg(result.skipped.size())
                    .arg(Cli::printable(result.skipped.join(u", "_qs)));
    return line;
}

} // namespace

int runReplay(const QStringList &arguments)
{
    QCommandLineParser parser;
    addOptions(parser);
    int exitCode = Cli::Ok;
    if (!Cli::parse(parser, u"replay"_qs, arguments, &exitCode))
        return exitCode;
    ReplayOptions options;
    QString error;
    if (!readOptions(parser, &options, &error))
        return Cli::fail(u"replay: "_qs + error);
    const DatabaseUrl url = DatabaseUrl::parse(options.db, &error);
    if (!url.isValid())
        return Cli::fail(error);

    OpenOptions open; // a real outbox: its profile validated, no simulation mark needed
    open.statementTimeoutMs = 60000;
    std::optional<OutboxProfile> profile;
    const auto connection = Cli::openWithProfile(url, open, parser, &profile, &error);
    if (!connection)
        return Cli::fail(error);
    Replayer replayer(connection->database(), *profile);
    const QString refusal = replayer.refusal(options.request);
    if (!refusal.isEmpty())
        return Cli::fail(u"replay: "_qs + refusal);
    if (options.allDead) {
        error.clear();
        options.request.eventIds
            = replayer.matchingDeadEvents(options.filter, options.request.now, &error);
        if (!error.isEmpty())
            return Cli::fail(
                QStringLiteral("replay: reading %1: %2").arg(url.toDisplayString(), error));
    }
    const ReplayResult result = replayer.replay(options.request);
    if (!result.error.isEmpty()) {
        const QString before = result.replayed.isEmpty()
            ? QString()
            : QStringLiteral(" (replayed before the error: %1)")
                  .arg(result.replayed.join(u", "_qs));
        return Cli::fail(
            QStringLiteral("replay: %1: %2%3").arg(url.toDisplayString(), result.error, before));
    }
    Cli::printLine(options.json ? jsonLine(result) : sentence(result));
    return Cli::Ok;
}
