// outboxctl check --db URL [--now MS] [--json] [--max-oldest-pending-ms N] [--max-dead N]
// [--max-lease-expired N]: the health snapshot, read-only. Exit 0 healthy, 1 a threshold is
// violated, 2 any error.
#include "cli.h"
#include "healthquery.h"

#include <QDateTime>

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
    std::optional<qint64> at;
    if (!parseCount(parser, u"now"_qs, &at, error)
        || !parseCount(parser, u"max-oldest-pending-ms"_qs, &thresholds->maxOldestPendingMs, error)
        || !parseCount(parser, u"max-dead"_qs, &thresholds->maxDead, error)
        || !parseCount(parser, u"max-lease-expired"_qs, &thresholds->maxLeaseExpired, error))
        return false;
    *now = at ? *at : QDateTime::currentMSecsSinceEpoch();
    return true;
}

QString countsLine(const HealthSnapshot &snapshot)
{
    const HealthCounts &counts = snapshot.counts;
    const QString delivered = (snapshot.isEstimated(u"delivered"_qs) ? u"~"_qs : QString())
        + QString::number(counts.delivered);
    return QStringLiteral("pending:  %1 due, %2 scheduled, %3 in flight, %4 lease expired; "
                          "%5 delivered, %6 dead")
        .arg(counts.due)
        .arg(counts.scheduled)
        .arg(counts.inFlight)
        .arg(counts.leaseExpired)
        .arg(delivered)
        .arg(counts.dead);
}

QString histogramLines(const HealthSnapshot &snapshot)
{
    QStringList ages;
    for (const AgeBucket &bucket : snapshot.ageHistogram)
        ages << ageBucketLabel(bucket) + u": "_qs + QString::number(bucket.count);
    QStringList failures;
    for (const FailuresBucket &bucket : snapshot.attemptsHistogram)
        failures << QStringLiteral("%1: %2 (%3 dead)")
                        .arg(bucket.failures)
                        .arg(bucket.total())
                        .arg(bucket.dead);
    QStringList categories;
    for (const CategoryCount &category : snapshot.errorCategories)
        categories << category.category + u": "_qs + QString::number(category.count);
    return u"ages:     "_qs + ages.join(u", "_qs) + u"\nfailures: "_qs
        + (failures.isEmpty() ? u"none"_qs : failures.join(u", "_qs)) + u"\nerrors:   "_qs
        + categories.join(u", "_qs);
}

QString verdictLine(const QList<HealthViolation> &violations)
{
    if (violations.isEmpty())
        return u"healthy"_qs;
    QStringList parts;
    for (const HealthViolation &violation : violations)
        parts << QStringLiteral("%1 is %2, above the limit %3")
                     .arg(violation.threshold)
                     .arg(violation.value)
                     .arg(violation.limit);
    return u"UNHEALTHY: "_qs + parts.join(u"; "_qs);
}

QString report(const HealthSnapshot &snapshot, const QString &database,
    const QList<HealthViolation> &violations)
{
    const QString oldest = snapshot.oldestPendingAgeMs
        ? QStringLiteral("%1 ms").arg(*snapshot.oldestPendingAgeMs)
        : u"none pending"_qs;
    return QStringLiteral("outbox health of %1 at %2\n").arg(database).arg(snapshot.now)
        + countsLine(snapshot) + u"\noldest:   "_qs + oldest + u"\n"_qs + histogramLines(snapshot)
        + QStringLiteral("\nlast hour: %1 delivered, %2 failed attempts\n")
              .arg(snapshot.deliveredLastHour())
              .arg(snapshot.failedLastHour())
        + verdictLine(violations);
}

} // namespace

int runCheck(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption({u"db"_qs, u"Database URL."_qs, u"URL"_qs});
    parser.addOption(
        {u"now"_qs, u"The time to judge at, ms since the epoch (default: now)."_qs, u"MS"_qs});
    parser.addOption({u"json"_qs, u"Print the snapshot as one JSON object."_qs});
    parser.addOption({u"max-oldest-pending-ms"_qs,
        u"Unhealthy when the oldest PENDING event is older."_qs, u"N"_qs});
    parser.addOption({u"max-dead"_qs, u"Unhealthy when more events are DEAD."_qs, u"N"_qs});
    parser.addOption(
        {u"max-lease-expired"_qs, u"Unhealthy when more leases have expired."_qs, u"N"_qs});
    int exitCode = Cli::Ok;
    if (!Cli::parse(parser, u"check"_qs, arguments, &exitCode))
        return exitCode;

    QString error;
    qint64 now = 0;
    HealthThresholds thresholds;
    if (!Cli::requireValue(parser, u"db"_qs, &error)
        || !parseOptions(parser, &now, &thresholds, &error))
        return Cli::fail(u"check: "_qs + error);
    const DatabaseUrl url = DatabaseUrl::parse(parser.value(u"db"_qs), &error);
    if (!url.isValid())
        return Cli::fail(error);
    OpenOptions options;
    options.readOnly = true; // check never writes
    options.statementTimeoutMs = 60000;
    const auto connection = DbConnection::open(url, options, &error);
    if (!connection)
        return Cli::fail(error);

    const std::optional<HealthSnapshot> snapshot
        = HealthQuery::compute(connection->database(), now, &error);
    if (!snapshot)
        return Cli::fail(QStringLiteral("check: reading %1: %2").arg(url.toDisplayString(), error));
    const QList<HealthViolation> violations = thresholds.evaluate(*snapshot);
    Cli::printLine(parser.isSet(u"json"_qs) ? snapshot->toJson(thresholds)
                                            : report(*snapshot, url.toDisplayString(), violations));
    return violations.isEmpty() ? Cli::Ok : Cli::CheckFailed;
}
