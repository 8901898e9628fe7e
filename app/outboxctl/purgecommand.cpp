// outboxctl purge --db URL --delivered-older-than DURATION [--resolved-older-than DURATION]
// [--batch N] [--now MS] [--dry-run [--json]]: retention for the native schema. Deletes settled
// events older than the given ages with their attempts and audit rows, in short batched
// transactions (Purger), printing progress to stderr and one summary line to stdout. --dry-run
// counts the purge's plan (PurgePlan: by state and cutoff) on a read-only connection; the real run
// executes the same plan. Exit 0 done (also when nothing was old enough), 2 on any error; a purge
// stopped by an error or a kill keeps the batches it committed, and a rerun goes on from there.
#include "cli.h"
#include "durationtext.h"
#include "numbertext.h"
#include "purger.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

namespace {

struct PurgeOptions
{
    PurgeRequest request;
};

void addPurgeOptions(QCommandLineParser &parser)
{
    Cli::addDatabaseOptions(
        parser, u"Any but native is refused: purge deletes only Outbox Health's own rows."_qs);
    parser.addOption({u"delivered-older-than"_qs,
        u"Purge DELIVERED events delivered longer ago than this (90s, 5m, 2h, 7d)."_qs,
        u"DURATION"_qs});
    parser.addOption({u"resolved-older-than"_qs,
        u"Purge RESOLVED events older than this as well."_qs, u"DURATION"_qs});
    parser.addOption({u"batch"_qs, u"Events per transaction (default 1000)."_qs, u"N"_qs});
    Cli::addNowOption(parser, u"The time ages count from"_qs);
    parser.addOption({u"dry-run"_qs, u"Count what would be purged; change nothing."_qs});
    parser.addOption({u"json"_qs,
        u"With --dry-run: the plan as one JSON object (action, count, now, states with cutoff "
        "and count, tables, refusal)."_qs});
}

// An age option into a rule, when it is set.
bool readAge(const QCommandLineParser &parser, const QString &option, const QString &status,
    PurgeRequest *request, QString *error)
{
    if (!parser.isSet(option))
        return true;
    const std::optional<qint64> ms = DurationText::parseMs(parser.value(option));
    if (!ms) {
        *error = QStringLiteral("--%1 must be an age such as 90s, 5m, 2h or 7d (or whole "
                                "milliseconds), not '%2'")
                     .arg(option, parser.value(option));
        return false;
    }
    request->rules.append({status, *ms});
    return true;
}

bool readOptions(const QCommandLineParser &parser, PurgeOptions *options, QString *error)
{
    if (!Cli::requireDatabase(parser, error)
        || !readAge(parser, u"delivered-older-than"_qs, u"DELIVERED"_qs, &options->request, error)
        || !readAge(parser, u"resolved-older-than"_qs, u"RESOLVED"_qs, &options->request, error))
        return false;
    if (options->request.rules.isEmpty()) {
        *error = u"say what to purge: --delivered-older-than DURATION (and/or "
                 "--resolved-older-than DURATION)"_qs;
        return false;
    }
    qint64 batch = options->request.batch;
    if (!Cli::readNumber(parser, u"batch"_qs, 1, Purger::MaxBatch, &batch, error)
        || !Cli::readNow(parser, &options->request.now, error))
        return false;
    options->request.batch = int(batch);
    options->request.dryRun = parser.isSet(u"dry-run"_qs);
    if (parser.isSet(u"json"_qs) && !options->request.dryRun) {
        *error = u"--json prints the plan: it goes with --dry-run"_qs;
        return false;
    }
    return true;
}

// "9900 DELIVERED and 3 RESOLVED events: delivery_outbox 9903, delivery_attempt 14000, ..."
QString figures(const PurgeResult &result)
{
    QStringList states;
    qint64 events = 0;
    for (auto it = result.eventsByStatus.cbegin(); it != result.eventsByStatus.cend(); ++it) {
        states << QStringLiteral("%1 %2").arg(NumberText::count(it.value()), it.key());
        events += it.value();
    }
    // The events first, then the tables that referenced them.
    QStringList tables = {
        QStringLiteral("delivery_outbox %1")
            .arg(NumberText::count(result.rowsByTable.value(QStringLiteral("delivery_outbox"))))};
    for (const QString &table : {QStringLiteral("delivery_attempt"), QStringLiteral("replay_log"),
             QStringLiteral("resolve_log"), QStringLiteral("reopen_log"),
             QStringLiteral("payload_revision")}) {
        if (result.rowsByTable.contains(table))
            tables << QStringLiteral("%1 %2").arg(
                table, NumberText::count(result.rowsByTable.value(table)));
    }
    return QStringLiteral("%1 event%2: %3")
        .arg(states.join(u" and "_qs), events == 1 ? QString() : u"s"_qs, tables.join(u", "_qs));
}

// At most one progress line a second on stderr, so a long purge shows it is alive.
void reportProgress(const PurgeResult &result, const QElapsedTimer &clock, qint64 *lastMs)
{
    const qint64 elapsed = clock.elapsed();
    if (elapsed - *lastMs < 1000)
        return;
    *lastMs = elapsed;
    qint64 events = 0;
    for (const qint64 count : result.eventsByStatus)
        events += count;
    QTextStream(stderr) << QStringLiteral(
        "purge: %1 events deleted in %2 batches, %3 s, %4 events/s")
                               .arg(events)
                               .arg(result.batches)
                               .arg(double(elapsed) / 1000.0, 0, 'f', 1)
                               .arg(qRound64(double(events) * 1000.0 / double(elapsed)))
                        << Qt::endl;
}

} // namespace

int runPurge(const QStringList &arguments)
{
    QCommandLineParser parser;
    addPurgeOptions(parser);
    int exitCode = Cli::Ok;
    if (!Cli::parse(parser, u"purge"_qs, arguments, &exitCode))
        return exitCode;
    PurgeOptions options;
    QString error;
    if (!readOptions(parser, &options, &error))
        return Cli::fail(u"purge: "_qs + error);
    // A dry run cannot change anything, by construction. The statement timeout holds for one
    // batch; a purge as a whole may take hours.
    const auto outbox = Cli::openOutbox(parser, Cli::outboxOptions(options.request.dryRun), &error);
    if (!outbox)
        return Cli::fail(error);
    if (!outbox->profile.isNative())
        return Cli::fail(QStringLiteral(
            "purge: %1 is read through the %2 profile; purge deletes rows of Outbox Health's own "
            "schema only. Use the retention of the library that owns these tables instead.")
                             .arg(outbox->name(), outbox->profile.name()));
    if (const int refused
        = Cli::refuseByGrants(*outbox, TableGrants::Operation::Purge, u"purge"_qs))
        return refused;

    Purger purger(outbox->database());
    QElapsedTimer clock;
    clock.start();
    qint64 lastReportMs = 0;
    purger.setProgress([&clock, &lastReportMs](const PurgeResult &result) {
        reportProgress(result, clock, &lastReportMs);
    });
    // One plan, its cutoffs counted from --now: the dry run prints it, the real run executes it.
    const PurgePlan plan = purger.plan(options.request, options.request.dryRun);
    const PurgeResult result = options.request.dryRun ? plan.counts : purger.execute(plan);
    const QString seconds = QString::number(double(clock.elapsed()) / 1000.0, 'f', 2);
    if (!result.error.isEmpty())
        return Cli::fail(QStringLiteral("purge: %1: %2 (committed before the error: %3; rerun to "
                                        "go on)")
                             .arg(outbox->name(), result.error, figures(result)));
    if (parser.isSet(u"json"_qs)) {
        Cli::printLine(
            QString::fromUtf8(QJsonDocument(plan.toJson()).toJson(QJsonDocument::Compact)));
        return Cli::Ok;
    }
    Cli::printLine(options.request.dryRun
            ? QStringLiteral("would purge %1 (dry run: nothing changed)").arg(figures(result))
            : QStringLiteral("purged %1 in %2 batches, %3 s")
                  .arg(figures(result))
                  .arg(result.batches)
                  .arg(seconds));
    return Cli::Ok;
}
