// outboxctl policy --policy SPEC [--budget N] [--seed S] [--json]: the schedule a retry policy
// gives an event whose every attempt fails (PolicySchedule): the delay before each next attempt,
// the time since the first, and when the budget parks it DEAD; for a jittered policy the
// minimum, median and maximum over many seeded draws. Needs no database.
#include "cli.h"
#include "policyschedule.h"

#include <QJsonDocument>

int runPolicy(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption({u"policy"_qs,
        u"The retry policy: seed, capped:D1,...,Dn, fixed:D, exponential[:initial=..,multiplier=.."
        ",max=..], exponential-random[:...] or full-jitter[:base=..,max=..]; delays in ms."_qs,
        u"SPEC"_qs});
    parser.addOption({u"budget"_qs,
        u"Attempts before the event is parked DEAD, 1 to %1 (default 3)."_qs.arg(
            PolicySchedule::MaxBudget),
        u"N"_qs, u"3"_qs});
    parser.addOption({u"seed"_qs,
        u"Seed of the draws of a jittered policy; the same seed gives the same figures "
        "(default 1)."_qs,
        u"S"_qs, u"1"_qs});
    // Keys apart, so that the help's line wrapping never cuts one in two.
    Cli::addJsonOption(parser,
        u"Print the schedule as JSON: policy, budget, attempts (each with attempt, delay_ms and "
        "cumulative_ms) and dead_after_ms; a jittered policy's figures are {min, median, max}."_qs);
    int exitCode = Cli::Ok;
    if (!Cli::parse(parser, u"policy"_qs, arguments, &exitCode))
        return exitCode;

    QString error;
    if (!Cli::requireValue(parser, u"policy"_qs, &error))
        return Cli::fail(u"policy: "_qs + error);
    RetryPolicy policy;
    if (!RetryPolicy::parse(parser.value(u"policy"_qs), &policy, &error))
        return Cli::fail(u"policy: "_qs + error);
    qint64 budget = 3;
    qint64 seed = 1;
    if (!Cli::readNumber(parser, u"budget"_qs, 1, PolicySchedule::MaxBudget, &budget, &error)
        || !Cli::readNumber(parser, u"seed"_qs, 0, 4294967295LL, &seed, &error))
        return Cli::fail(u"policy: "_qs + error);

    const PolicySchedule schedule = PolicySchedule::compute(policy, int(budget), quint32(seed));
    if (parser.isSet(u"json"_qs)) {
        Cli::printLine(
            QString::fromUtf8(QJsonDocument(schedule.toJson()).toJson(QJsonDocument::Compact)));
        return Cli::Ok;
    }
    for (const QString &line : schedule.toText())
        Cli::printLine(Cli::printable(line));
    return Cli::Ok;
}
