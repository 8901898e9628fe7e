#include "relayoptions.h"

#include "cli.h"
#include "durationtext.h"

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

    // --NAME DURATION, or its old spelling --NAME-ms N (Cli::readDuration).
    bool duration(const char *name, qint64 low, qint64 high, qint64 *out) const
    {
        return Cli::readDuration(parser, QString::fromLatin1(name), low, high, out, error);
    }

    // --NAME A..B, each a duration (500ms, 2s; plain numbers are ms), or its old spelling
    // --NAME-ms A..B in whole milliseconds; A <= B.
    bool range(const char *name, qint64 *from, qint64 *to) const
    {
        const QString option = QString::fromLatin1(name);
        const QString old = option + QStringLiteral("-ms");
        if (parser.isSet(option) && parser.isSet(old)) {
            *error = QStringLiteral("--%1 and --%2 are the same option; give one").arg(option, old);
            return false;
        }
        const bool units = parser.isSet(option);
        if (!units && !parser.isSet(old))
            return true;
        const QStringList parts = parser.value(units ? option : old).split(QStringLiteral(".."));
        std::optional<qint64> a, b;
        if (parts.size() == 2) {
            a = units ? DurationText::parseMs(parts.at(0)) : wholeMs(parts.at(0));
            b = units ? DurationText::parseMs(parts.at(1)) : wholeMs(parts.at(1));
        }
        if (!a || !b || *b < *a) {
            *error = units
                ? QStringLiteral("--%1 must be a range A..B of durations (500ms, 2s; "
                                 "plain numbers are ms) with A <= B")
                      .arg(option)
                : QStringLiteral("--%1 must be a range A..B of milliseconds with A <= B").arg(old);
            return false;
        }
        *from = *a;
        *to = *b;
        return true;
    }

    static std::optional<qint64> wholeMs(const QString &text)
    {
        bool ok = false;
        const qint64 ms = text.toLongLong(&ok);
        return ok && ms >= 0 ? std::optional<qint64>(ms) : std::nullopt;
    }
};

// --NAME A..B (durations) and its old spelling --NAME-ms A..B, hidden from --help.
void addRange(QCommandLineParser &parser, const char *name, const char *help, const char *value)
{
    const QString option = QString::fromLatin1(name);
    parser.addOption({option, QString::fromLatin1(help), QString::fromLatin1(value)});
    QCommandLineOption old(option + QStringLiteral("-ms"),
        QStringLiteral("The old spelling of --%1, in whole milliseconds.").arg(option),
        QString::fromLatin1(value));
    old.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOption(old);
}

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
    add("rate", "Events produced per second while --duration lasts.", "R");
    Cli::addDurationOption(
        parser, u"duration"_qs, u"How long to run (and to produce, with --rate)."_qs);
    add("until-drained", "Run until no event is PENDING (the default without --duration).");
    add("fail-rate", "Probability that a call fails transiently before the consumer.", "P");
    add("permanent-rate", "Probability that the consumer rejects an event for good (poison).", "P");
    add("lost-ack-rate", "Probability that the consumer commits but the response is lost.", "P");
    add("stall-rate", "Probability that a worker stalls past its lease before acknowledging.", "P");
    addRange(parser, "latency", "Transport latency range, e.g. 1ms..20ms.", "A..B");
    addRange(parser, "outage", "Every call fails in this window after the start, e.g. 1s..3s.",
        "FROM..TO");
    add("policy", "Retry policy spec (default seed).", "SPEC");
    add("budget", "Attempts before an event is parked DEAD (default 3).", "N");
    Cli::addDurationOption(
        parser, u"max-elapsed"_qs, u"Elapsed budget from an event's creation (default none)."_qs);
    Cli::addDurationOption(parser, u"lease"_qs, u"Lease of a claim (default 5s)."_qs);
    add("seed", "Seed for the fault draws; worker i uses S + i.", "S");
    Cli::addDurationOption(parser, u"give-up-after"_qs,
        u"End with exit 2 when the database stays unreachable this long (default 1m; 0 = keep "
        "reconnecting forever)."_qs);
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
        || !read.duration("duration", 1, 86400000, &durationMs)
        || !read.integer("budget", 1, 1000, &budget)
        || !read.duration("max-elapsed", 1, 1LL << 40, &config.budget.maxElapsed)
        || !read.duration("lease", 1, 86400000, &config.leaseMs)
        || !read.integer("seed", 0, 0xffffffffLL, &seed)
        || !read.duration("give-up-after", 0, 86400000, &giveUpAfterMs)
        || !read.probability("fail-rate", &config.faults.transientRate)
        || !read.probability("permanent-rate", &config.faults.permanentRate)
        || !read.probability("lost-ack-rate", &config.faults.lostAckRate)
        || !read.probability("stall-rate", &config.stallRate)
        || !read.range("latency", &latencyFrom, &latencyTo)
        || !read.range("outage", &outageFrom, &outageTo))
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
            *error = QStringLiteral("--rate needs --duration");
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
