#include "relayoptions.h"

#include "cli.h"

namespace {

struct Reader
{
    const QCommandLineParser &parser;
    QString *error;

    bool integer(const char *name, qint64 low, qint64 high, qint64 *out) const
    {
        const QString option = QString::fromLatin1(name);
        if (!parser.isSet(option))
            return true;
        bool ok = false;
        const qint64 value = parser.value(option).toLongLong(&ok);
        if (!ok || value < low || value > high) {
            *error = QStringLiteral("--%1 must be a whole number from %2 to %3")
                         .arg(option)
                         .arg(low)
                         .arg(high);
            return false;
        }
        *out = value;
        return true;
    }

    bool probability(const char *name, double *out) const
    {
        const QString option = QString::fromLatin1(name);
        if (!parser.isSet(option))
            return true;
        bool ok = false;
        const double value = parser.value(option).toDouble(&ok);
        if (!ok || value < 0.0 || value > 1.0) {
            *error = QStringLiteral("--%1 must be a probability from 0 to 1").arg(option);
            return false;
        }
        *out = value;
        return true;
    }

    // "A..B" in milliseconds, A <= B.
    bool range(const char *name, qint64 *from, qint64 *to) const
    {
        const QString option = QString::fromLatin1(name);
        if (!parser.isSet(option))
            return true;
        const QStringList parts = parser.value(option).split(QStringLiteral(".."));
        bool okFrom = false, okTo = false;
        if (parts.size() == 2) {
            *from = parts.at(0).toLongLong(&okFrom);
            *to = parts.at(1).toLongLong(&okTo);
        }
        if (!okFrom || !okTo || *from < 0 || *to < *from) {
            *error = QStringLiteral("--%1 must be a range A..B of milliseconds with A <= B")
                         .arg(option);
            return false;
        }
        return true;
    }
};

} // namespace

void RelayOptions::addTo(QCommandLineParser &parser)
{
    auto add = [&](const char *name, const char *help, const char *value = nullptr) {
        if (value)
            parser.addOption(
                {QString::fromLatin1(name), QString::fromLatin1(help), QString::fromLatin1(value)});
        else
            parser.addOption({QString::fromLatin1(name), QString::fromLatin1(help)});
    };
    add("db", "Database URL (a new sqlite: file or a simulation database).", "URL");
    Cli::addDatabaseFileOption(parser);
    add("workers", "Worker threads, each with its own connection (default 1).", "N");
    add("batch", "Events claimed per poll (default 50).", "N");
    add("produce", "Events to produce before the relay starts.", "N");
    add("rate", "Events produced per second while --duration-ms lasts.", "R");
    add("duration-ms", "How long to run (and to produce, with --rate).", "T");
    add("until-drained", "Run until no event is PENDING (the default without --duration-ms).");
    add("fail-rate", "Probability that a call fails transiently before the consumer.", "P");
    add("permanent-rate", "Probability that the consumer rejects an event for good (poison).", "P");
    add("lost-ack-rate", "Probability that the consumer commits but the response is lost.", "P");
    add("stall-rate", "Probability that a worker stalls past its lease before acknowledging.", "P");
    add("latency-ms", "Transport latency range, e.g. 1..20.", "A..B");
    add("outage-ms", "Every call fails in this window after the start, e.g. 1000..3000.",
        "FROM..TO");
    add("policy", "Retry policy spec (default seed).", "SPEC");
    add("budget", "Attempts before an event is parked DEAD (default 3).", "N");
    add("max-elapsed-ms", "Elapsed budget from an event's creation (default none).", "T");
    add("lease-ms", "Lease of a claim (default 5000).", "L");
    add("seed", "Seed for the fault draws; worker i uses S + i.", "S");
    add("give-up-after-ms",
        "End with exit 2 when the database stays unreachable this long (default 60000; 0 = "
        "keep reconnecting forever).",
        "T");
}

bool RelayOptions::read(const QCommandLineParser &parser, QString *error)
{
    const std::optional<QString> url = Cli::databaseText(parser, error);
    if (!url)
        return false;
    db = *url;
    const Reader read {parser, error};
    qint64 workers = config.workers, batch = config.batch, produced = 0,
           budget = config.budget.maxAttempts;
    qint64 seed = 0;
    qint64 latencyFrom = 0, latencyTo = 0, outageFrom = -1, outageTo = -1;
    if (!read.integer("workers", 1, 64, &workers) || !read.integer("batch", 1, 10000, &batch)
        || !read.integer("produce", 0, 100000000, &produced)
        || !read.integer("duration-ms", 1, 86400000, &durationMs)
        || !read.integer("budget", 1, 1000, &budget)
        || !read.integer("max-elapsed-ms", 1, 1LL << 40, &config.budget.maxElapsed)
        || !read.integer("lease-ms", 1, 86400000, &config.leaseMs)
        || !read.integer("seed", 0, 0xffffffffLL, &seed)
        || !read.integer("give-up-after-ms", 0, 86400000, &giveUpAfterMs)
        || !read.probability("fail-rate", &config.faults.transientRate)
        || !read.probability("permanent-rate", &config.faults.permanentRate)
        || !read.probability("lost-ack-rate", &config.faults.lostAckRate)
        || !read.probability("stall-rate", &config.stallRate)
        || !read.range("latency-ms", &latencyFrom, &latencyTo)
        || !read.range("outage-ms", &outageFrom, &outageTo))
        return false;
    if (config.faults.transientRate + config.faults.permanentRate + config.faults.lostAckRate
        > 1.0) {
        *error = QStringLiteral(
            "--fail-rate, --permanent-rate and --lost-ack-rate add up to more than 1");
        return false;
    }
    if (parser.isSet(QStringLiteral("rate"))) {
        bool ok = false;
        rate = parser.value(QStringLiteral("rate")).toDouble(&ok);
        if (!ok || rate <= 0) {
            *error = QStringLiteral("--rate must be a positive number of events per second");
            return false;
        }
        if (durationMs == 0) {
            *error = QStringLiteral("--rate needs --duration-ms");
            return false;
        }
    }
    if (parser.isSet(QStringLiteral("policy"))
        && !RetryPolicy::parse(parser.value(QStringLiteral("policy")), &config.policy, error))
        return false;
    config.workers = int(workers);
    config.batch = int(batch);
    config.budget.maxAttempts = int(budget);
    config.seed = quint32(seed);
    config.latencyMinMs = latencyFrom;
    config.latencyMaxMs = latencyTo;
    config.faults.outageFrom = outageFrom;
    config.faults.outageUntil = outageTo;
    produce = int(produced);
    untilDrained = parser.isSet(QStringLiteral("until-drained")) || durationMs == 0;
    return true;
}
