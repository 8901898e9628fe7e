// outboxctl check --db URL [--profile NAME|PATH] [--now MS] [--json] [--max-oldest-pending D]
// [--max-dead N] [--max-lease-expired N] [--max-due N] [--no-default-thresholds]
// [--cdc-slot NAME [--max-cdc-lag BYTES] [--max-cdc-inactive D]]: the health snapshot,
// read-only, with the replication slot that relays the outbox when one is named (docs/cdc.md;
// a slot that does not exist: exit 2, naming the slots that do). Without limits it judges the
// window's red tiles (TileThresholds), each overridden by its flag; --no-default-thresholds judges
// only the flags given. Exit 0 healthy, 1 a threshold is violated, 2 any error (also a threshold on
// a value the profile's schema cannot tell). What the schema cannot tell is null in the JSON and
// "n/a" in the report; a native schema older than the program is named in the report with the
// command to run.
#include "cdcreport.h"
#include "cli.h"
#include "healthquery.h"
#include "numbertext.h"
#include "schema.h"
#include "thresholdwords.h"
#include "timeformat.h"

namespace {

// A whole number of at least 0 for option `name`, when it is set.
bool parseCount(const QCommandLineParser &parser, const QString &name, std::optional<qint64> *value,
    QString *error)
{
    if (!parser.isSet(name))
        return true;
    bool ok = false;
    const qint64 number = parser.value(name).trimmed().toLongLong(&ok);
    if (!ok || number < 0) {
        *error = QStringLiteral("--%1 must be a whole number of at least 0, not '%2'")
                     .arg(name, parser.value(name));
        return false;
    }
    *value = number;
    return true;
}

bool parseOptions(
    const QCommandLineParser &parser, qint64 *now, HealthThresholds *thresholds, QString *error)
{
    if (!parser.isSet(u"no-default-thresholds"_qs))
        *thresholds = HealthThresholds::fromTiles();
    qint64 oldest = -1;
    if (!Cli::readNow(parser, now, error)
        || !Cli::readDuration(parser, u"max-oldest-pending"_qs, 0, Cli::MaxTimeMs, &oldest, error)
        || !parseCount(parser, u"max-dead"_qs, &thresholds->maxDead, error)
        || !parseCount(parser, u"max-lease-expired"_qs, &thresholds->maxLeaseExpired, error)
        || !parseCount(parser, u"max-due"_qs, &thresholds->maxDue, error)
        || !CdcReport::readLimits(parser, thresholds, error))
        return false;
    QString slot;
    if (!CdcReport::readSlot(parser, nullptr, &slot, error))
        return false;
    if (oldest >= 0)
        thresholds->maxOldestPendingMs = oldest;
    return true;
}

// The threshold options and the snapshot keys they judge.
const QList<std::pair<QString, QString>> &thresholdKeys()
{
    static const QList<std::pair<QString, QString>> keys = {
        {u"max-oldest-pending"_qs, u"oldest_pending_age_ms"_qs}, {u"max-dead"_qs, u"dead"_qs},
        {u"max-lease-expired"_qs, u"lease_expired"_qs}, {u"max-due"_qs, u"due"_qs},
        {u"max-cdc-lag"_qs, u"cdc_lag_bytes"_qs}, {u"max-cdc-inactive"_qs, u"cdc_inactive_ms"_qs}};
    return keys;
}

// The option that sets a violation's limit: "max_cdc_lag_bytes" -> "max-cdc-lag".
QString optionOf(const QString &threshold)
{
    for (const auto &[option, key] : thresholdKeys()) {
        if (u"max_"_qs + key == threshold)
            return option;
    }
    return threshold == u"max_oldest_pending_ms"_qs ? u"max-oldest-pending"_qs : threshold;
}

QString countsLine(const HealthSnapshot &snapshot)
{
    const HealthCounts &counts = snapshot.counts;
    const auto count = [&snapshot](const QString &key, qint64 value) -> QString {
        if (!snapshot.isAvailable(key))
            return u"n/a"_qs;
        return (snapshot.isEstimated(key) ? u"~"_qs : QString()) + NumberText::count(value);
    };
    // RESOLVED exists from schema version 2 (or a profile's mapping); never counted as DEAD.
    const QString resolved = snapshot.hasResolved()
        ? QStringLiteral(", %1 resolved").arg(NumberText::count(counts.resolved))
        : QString();
    return QStringLiteral("pending:  %1 due, %2 scheduled, %3 in flight, %4 lease expired; "
                          "%5 delivered, %6 dead%7")
        .arg(count(u"due"_qs, counts.due), count(u"scheduled"_qs, counts.scheduled),
            count(u"in_flight"_qs, counts.inFlight),
            count(u"lease_expired"_qs, counts.leaseExpired),
            count(u"delivered"_qs, counts.delivered), count(u"dead"_qs, counts.dead), resolved);
}

QString histogramLines(const HealthSnapshot &snapshot)
{
    QStringList ages;
    for (const AgeBucket &bucket : snapshot.ageHistogram)
        ages << ageBucketLabel(bucket) + u": "_qs + NumberText::count(bucket.count);
    QStringList failures;
    for (const FailuresBucket &bucket : snapshot.attemptsHistogram)
        failures << QStringLiteral("%1: %2 (%3 dead)")
                        .arg(bucket.failures)
                        .arg(NumberText::count(bucket.total()), NumberText::count(bucket.dead));
    QStringList categories;
    for (const CategoryCount &category : snapshot.errorCategories)
        categories << Cli::printable(category.category) + u": "_qs
                + NumberText::count(category.count);
    const QString notAvailable = u"n/a"_qs;
    return u"ages:     "_qs
        + (snapshot.isAvailable(u"age_histogram"_qs) ? ages.join(u", "_qs) : notAvailable)
        + u"\nfailures: "_qs
        + (!snapshot.isAvailable(u"attempts_histogram"_qs) ? notAvailable
                : failures.isEmpty()                       ? u"none"_qs
                                                           : failures.join(u", "_qs))
        + u"\nerrors:   "_qs
        + (snapshot.isAvailable(u"error_categories"_qs) ? categories.join(u", "_qs) : notAvailable);
}

// "DEAD is 12, red from 10": a limit nobody gave on the command line is the window's red tile,
// said as the tile says it (ThresholdWords); a limit an option gave is said with that option.
QString verdictLine(const QList<HealthViolation> &violations, const QCommandLineParser &parser)
{
    if (violations.isEmpty())
        return u"healthy"_qs;
    const TileThresholds tiles;
    QStringList parts;
    for (const HealthViolation &violation : violations) {
        // The option, or the old spelling of a duration option (--max-oldest-pending-ms).
        const QString option = optionOf(violation.threshold);
        const bool given = Cli::isDurationSet(parser, option);
        parts << ThresholdWords::violation(
            violation, tiles, !given, Cli::durationSpelling(parser, option).mid(2));
    }
    return u"UNHEALTHY: "_qs + parts.join(u"; "_qs);
}

// "latency:  p50 420 ms, p95 1800 ms, p99 2950 ms over 120 deliveries in the last hour", or
// why there is none.
QString latencyLine(const HealthSnapshot &snapshot, const OutboxProfile &profile)
{
    const DeliveryLatency &latency = snapshot.latency;
    QString text;
    if (!snapshot.isAvailable(u"delivery_latency_ms"_qs))
        text = profile.isNative()
            ? u"n/a (no index delivery_outbox_delivered: outboxctl init adds it)"_qs
            : u"n/a (the schema has no created_at or delivered_at)"_qs;
    else if (latency.count == 0 || !latency.p50Ms || !latency.p95Ms || !latency.p99Ms)
        text = u"nothing delivered in the last hour"_qs;
    else
        text = QStringLiteral("p50 %1, p95 %2, p99 %3 over %4 %5 in the last hour")
                   .arg(TimeFormat::ageInTwoUnits(*latency.p50Ms),
                       TimeFormat::ageInTwoUnits(*latency.p95Ms),
                       TimeFormat::ageInTwoUnits(*latency.p99Ms), NumberText::count(latency.count),
                       latency.count == 1 ? u"delivery"_qs : u"deliveries"_qs);
    return u"latency:  "_qs + text + u"\n"_qs;
}

QString report(const HealthSnapshot &snapshot, const QString &database,
    const OutboxProfile &profile, const QList<HealthViolation> &violations,
    const QCommandLineParser &parser)
{
    const QString oldest = !snapshot.isAvailable(u"oldest_pending_age_ms"_qs) ? u"n/a"_qs
        : snapshot.oldestPendingAgeMs ? TimeFormat::ageInTwoUnits(*snapshot.oldestPendingAgeMs)
                                      : u"none pending"_qs;
    const QString lastHour = snapshot.isAvailable(u"throughput_per_minute"_qs)
        ? QStringLiteral("%1 delivered, %2 failed attempts")
              .arg(NumberText::count(snapshot.deliveredLastHour()),
                  NumberText::count(snapshot.failedLastHour()))
        : profile.hasAttemptList()
        // The profile's attempts (OutboxProfile::attempts) are failures only, per event.
        ? u"n/a (the profile's attempt history has no deliveries per minute)"_qs
        : u"n/a (no attempt history)"_qs;
    const QString through
        = profile.isNative() ? QString() : QStringLiteral(" (profile %1)").arg(profile.name());
    // Times that are none are reported, never turned into ages.
    const QString implausible = snapshot.implausible.any()
        ? u"warning:  "_qs + snapshot.implausible.sentence() + u"\n"_qs
        : QString();
    const QString outdated = Schema::outdatedMessage(snapshot.schemaVersion);
    const QString schema = profile.isNative() && !outdated.isEmpty()
        ? u"schema:   "_qs + outdated + u"\n"_qs
        : QString();
    return QStringLiteral("outbox health of %1%2 at %3\n")
               .arg(Cli::printable(database), Cli::printable(through), Cli::timeText(snapshot.now))
        + countsLine(snapshot) + u"\noldest:   "_qs + oldest + u"\n"_qs + histogramLines(snapshot)
        + u"\nlast hour: "_qs + lastHour + u"\n"_qs + latencyLine(snapshot, profile) + implausible
        + schema + (snapshot.cdc ? CdcReport::lines(*snapshot.cdc) : QString())
        + verdictLine(violations, parser);
}

// A limit on a value the schema cannot tell would always pass: refused, naming it.
bool judgeable(const QCommandLineParser &parser, const HealthSnapshot &snapshot,
    const OutboxProfile &profile, QString *error)
{
    for (const auto &[option, key] : thresholdKeys()) {
        if (Cli::isDurationSet(parser, option) && !snapshot.isAvailable(key)) {
            *error = QStringLiteral("%1 cannot be judged: %2 is not available with profile %3")
                         .arg(Cli::durationSpelling(parser, option), key, profile.name());
            return false;
        }
    }
    // A row with no plausible created_at could be the oldest: the age limit cannot be met
    // honestly, and passing it would call an outbox healthy that may not be.
    const QString oldest = u"max-oldest-pending"_qs;
    if (Cli::isDurationSet(parser, oldest) && snapshot.implausible.any()) {
        *error = QStringLiteral("%1 cannot be judged: %2")
                     .arg(Cli::durationSpelling(parser, oldest), snapshot.implausible.sentence());
        return false;
    }
    return true;
}

// What --help says check judges without flags: the limits the flags take, as applied and as the
// verdict prints them ("above the default limit 9"), each one below its tile's red limit.
QString defaultLimitsText()
{
    const HealthThresholds applied = HealthThresholds::fromTiles();
    const TileThresholds tiles;
    return QStringLiteral("--max-dead %1, --max-lease-expired %2, --max-due %3 and "
                          "--max-oldest-pending-ms %4: the window's tiles are red from %5 DEAD, "
                          "%6 expired leases, %7 due and an oldest PENDING of %8")
        .arg(*applied.maxDead)
        .arg(*applied.maxLeaseExpired)
        .arg(*applied.maxDue)
        .arg(*applied.maxOldestPendingMs)
        .arg(tiles.dead.red)
        .arg(tiles.leaseExpired.red)
        .arg(tiles.due.red)
        .arg(TimeFormat::age(tiles.oldestPendingMs.red));
}

void addCheckOptions(QCommandLineParser &parser)
{
    Cli::addReportOptions(
        parser, u"The time to judge at"_qs, u"Print the snapshot as one JSON object."_qs);
    Cli::addDurationOption(
        parser, u"max-oldest-pending"_qs, u"Unhealthy when the oldest PENDING event is older."_qs);
    parser.addOption({u"max-dead"_qs, u"Unhealthy when more events are DEAD."_qs, u"N"_qs});
    parser.addOption(
        {u"max-lease-expired"_qs, u"Unhealthy when more leases have expired."_qs, u"N"_qs});
    parser.addOption({u"max-due"_qs, u"Unhealthy when more events are due."_qs, u"N"_qs});
    CdcReport::addSlotOption(parser);
    CdcReport::addLimitOptions(parser);
    parser.addOption({u"no-default-thresholds"_qs,
        u"Judge only the limits given (default: every figure without a flag by its red tile, "
        "the limits "_qs
            + defaultLimitsText() + u")."_qs});
}

} // namespace

int runCheck(const QStringList &arguments)
{
    QCommandLineParser parser;
    addCheckOptions(parser);
    qint64 now = 0;
    HealthThresholds thresholds;
    int exitCode = Cli::Ok;
    const auto outbox = Cli::openReport(
        parser, u"check"_qs, arguments,
        [&](QString *error) { return parseOptions(parser, &now, &thresholds, error); }, &exitCode);
    if (!outbox)
        return exitCode;

    QString error;
    HealthQuery::Options query = HealthQuery::Options::fromEnvironment();
    query.profile = &outbox->profile;
    if (!CdcReport::readSlot(parser, &outbox->profile, &query.cdcSlot, &error))
        return Cli::fail(u"check: "_qs + error);
    const std::optional<HealthSnapshot> snapshot
        = HealthQuery::compute(outbox->database(), now, &error, query);
    if (!snapshot)
        return Cli::fail(QStringLiteral("check: reading %1: %2").arg(outbox->name(), error));
    if (snapshot->cdc && !snapshot->cdc->exists)
        return Cli::fail(u"check: "_qs + snapshot->cdc->missingText());
    if (!judgeable(parser, *snapshot, outbox->profile, &error))
        return Cli::fail(u"check: "_qs + error);
    const QList<HealthViolation> violations = thresholds.evaluate(*snapshot);
    Cli::printLine(parser.isSet(u"json"_qs)
            ? snapshot->toJson(thresholds)
            : report(*snapshot, outbox->name(), outbox->profile, violations, parser));
    return violations.isEmpty() ? Cli::Ok : Cli::CheckFailed;
}
