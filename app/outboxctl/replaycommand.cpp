// outboxctl replay --db URL (--event ID ... | --all-dead | --error-group SIGNATURE)
// [--older-than-ms N] [--error-category C] --operator NAME --reason TEXT [--reset-budget]
// [--spread-ms N] [--now MS] [--dry-run] [--json]: releases parked (DEAD) events for another
// delivery under the same event ID, each in its own transaction with a replay_log row.
// --error-group takes the DEAD events whose last error has that signature (outboxctl errors).
// --dry-run changes nothing and prints what would happen (ReplayPreview); it needs no
// operator or reason. Exit 0 even when some were skipped (someone else replayed them first,
// or they are not DEAD); 2 on any error.
// --profile NAME|PATH (default: detected) replays another schema's rows with the profile's
// fenced statement (no replay_log, no --reset-budget or --spread-ms), or refuses with what to
// run instead when the profile is read-only.
#include "cli.h"
#include "errorgroups.h"
#include "replayer.h"
#include "replaypreview.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

namespace {

constexpr qint64 MaxSpreadMs = 7LL * 24 * 3600 * 1000; // a week

struct ReplayOptions
{
    QString db;
    bool allDead = false;
    QString errorGroup; // --error-group: the signature
    bool narrowed = false; // --older-than-ms or --error-category given
    bool dryRun = false;
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
    parser.addOption({u"error-group"_qs,
        u"Replay the DEAD events whose last error has this signature (see outboxctl errors)."_qs,
        u"SIGNATURE"_qs});
    parser.addOption({u"older-than-ms"_qs,
        u"With --all-dead or --error-group: only events created at least N ms before --now."_qs,
        u"N"_qs});
    parser.addOption({u"error-category"_qs,
        u"With --all-dead or --error-group: only events whose last error has this category."_qs,
        u"C"_qs});
    parser.addOption(
        {u"operator"_qs, u"Who releases the events (recorded in replay_log)."_qs, u"NAME"_qs});
    parser.addOption({u"reason"_qs, u"Why (recorded in replay_log)."_qs, u"TEXT"_qs});
    parser.addOption(
        {u"reset-budget"_qs, u"Reset failures to 0 (default: keep them, one more attempt)."_qs});
    parser.addOption({u"spread-ms"_qs,
        u"Spread the due times evenly over this window (default 0: all due now)."_qs, u"N"_qs});
    parser.addOption(
        {u"now"_qs, u"The replay time, ms since the epoch (default: now)."_qs, u"MS"_qs});
    parser.addOption({u"dry-run"_qs,
        u"Change nothing: show how many events, by type and error group, which would be "
        "skipped and why, and when they would become due."_qs});
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

// Which events: --event, or --all-dead and/or --error-group; the narrowing options need
// one of the latter.
bool readSelection(const QCommandLineParser &parser, ReplayOptions *options, QString *error)
{
    const bool byId = parser.isSet(u"event"_qs);
    options->allDead = parser.isSet(u"all-dead"_qs);
    options->errorGroup = parser.value(u"error-group"_qs).trimmed();
    if (parser.isSet(u"error-group"_qs) && options->errorGroup.isEmpty()) {
        *error = u"--error-group needs a signature (see outboxctl errors)"_qs;
        return false;
    }
    const bool bulk = options->allDead || !options->errorGroup.isEmpty();
    if (byId == bulk) {
        *error = byId
            ? u"give either --event or --all-dead / --error-group, not both"_qs
            : u"say which events: --event ID (repeatable), --all-dead or --error-group SIGNATURE"_qs;
        return false;
    }
    options->narrowed = parser.isSet(u"older-than-ms"_qs) || parser.isSet(u"error-category"_qs);
    if (!bulk && options->narrowed) {
        *error = u"--older-than-ms and --error-category narrow --all-dead or --error-group; they "
                 "cannot be used with --event"_qs;
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
    options->dryRun = parser.isSet(u"dry-run"_qs);
    if (!Cli::requireValue(parser, u"db"_qs, error) || !readSelection(parser, options, error))
        return false;
    // A dry run records nothing, so it needs no operator or reason.
    if (!options->dryRun
        && (!requireText(parser, u"operator"_qs, u"replay_log records who released the events"_qs,
                &options->request.operatorName, error)
            || !requireText(parser, u"reason"_qs,
                u"replay_log records why the events were released"_qs, &options->request.reason,
                error)))
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

// --all-dead / --error-group: the DEAD events they name, into the request.
bool selectBulk(const QSqlDatabase &db, const OutboxProfile &profile, Replayer &replayer,
    ReplayOptions *options, QString *error)
{
    if (!options->allDead && options->errorGroup.isEmpty())
        return true;
    QStringList ids;
    if (options->allDead || options->narrowed) {
        error->clear();
        ids = replayer.matchingDeadEvents(options->filter, options->request.now, error);
        if (!error->isEmpty())
            return false;
    }
    if (!options->errorGroup.isEmpty()) {
        const auto group = ErrorGroups::deadEventIds(db, &profile, options->errorGroup, error);
        if (!group)
            return false;
        if (group->isEmpty()) {
            *error = QStringLiteral("no DEAD event has the error signature '%1' (outboxctl "
                                    "errors lists them)")
                         .arg(options->errorGroup);
            return false;
        }
        if (options->allDead || options->narrowed) {
            const QSet<QString> narrowed(ids.cbegin(), ids.cend());
            ids.clear();
            for (const QString &id : *group) {
                if (narrowed.contains(id))
                    ids << id;
            }
        } else {
            ids = *group;
        }
    }
    options->request.eventIds = ids;
    return true;
}

QString countsText(const QMap<QString, qint64> &counts)
{
    QStringList parts;
    for (auto it = counts.cbegin(); it != counts.cend(); ++it)
        parts << QStringLiteral("%1 %2").arg(Cli::printable(it.key())).arg(it.value());
    return parts.isEmpty() ? u"none"_qs : parts.join(u", "_qs);
}

QString previewText(const ReplayPreview &preview)
{
    QString text = QStringLiteral("dry run, nothing changed: would replay %1 event%2%3\n")
                       .arg(preview.events)
                       .arg(preview.events == 1 ? QString() : u"s"_qs)
                       .arg(preview.resetBudget ? u" with a fresh budget"_qs
                                                : u" with one more attempt each"_qs);
    text += u"  by type: "_qs + countsText(preview.byType) + u"\n"_qs;
    text += u"  by error group: "_qs + countsText(preview.byErrorGroup) + u"\n"_qs;
    if (preview.firstDue && preview.spreadMs > 0)
        text += QStringLiteral("  due: from %1 to %2 (spread over %3 ms)\n")
                    .arg(*preview.firstDue)
                    .arg(*preview.lastDue)
                    .arg(preview.spreadMs);
    else if (preview.firstDue)
        text += QStringLiteral("  due: all at %1 (no spread)\n").arg(*preview.firstDue);
    QStringList skips;
    for (const ReplaySkip &skip : preview.skipped)
        skips << QStringLiteral("%1 (%2)").arg(Cli::printable(skip.eventId), skip.reason);
    if (!skips.isEmpty())
        text += QStringLiteral("  would skip %1: %2\n").arg(skips.size()).arg(skips.join(u", "_qs));
    if (!preview.warning.isEmpty())
        text += u"  warning: "_qs + Cli::printable(preview.warning) + u"\n"_qs;
    return text.trimmed();
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
    open.readOnly = options.dryRun;
    open.statementTimeoutMs = 60000;
    std::optional<OutboxProfile> profile;
    const auto connection = Cli::openWithProfile(url, open, parser, &profile, &error);
    if (!connection)
        return Cli::fail(error);
    Replayer replayer(connection->database(), *profile);
    const QString refusal = replayer.refusal(options.request);
    if (!refusal.isEmpty())
        return Cli::fail(u"replay: "_qs + refusal);
    if (!selectBulk(connection->database(), *profile, replayer, &options, &error))
        return Cli::fail(u"replay: "_qs + error);
    if (options.dryRun) {
        const auto preview
            = ReplayPreview::compute(connection->database(), &*profile, options.request, &error);
        if (!preview)
            return Cli::fail(
                QStringLiteral("replay: reading %1: %2").arg(url.toDisplayString(), error));
        Cli::printLine(options.json
                ? QString::fromUtf8(QJsonDocument(preview->toJson()).toJson(QJsonDocument::Compact))
                : previewText(*preview));
        return Cli::Ok;
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
