// outbox-policylab-bench [--events N] [--outage-s T] [--budget N] [--runs R]: what the Policy
// lab's outage what-if costs (PolicyLabWorker::runStorms, the real relay logic on a scratch
// in-memory SQLite database), for docs/benchmarks/policylab.md's figure. Not a test: CTest never runs it. Prints
// a line per policy with the median and minimum of R runs, and what the storm did.
#include "policylabworker.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QTextStream>
#include <algorithm>

namespace {

int number(const QCommandLineParser &parser, const QString &name)
{
    return parser.value(name).toInt();
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addOptions({{u"events"_qs, u"Events in the storm."_qs, u"N"_qs, u"10000"_qs},
        {u"outage-s"_qs, u"Seconds of outage."_qs, u"T"_qs, u"60"_qs},
        {u"budget"_qs, u"Attempt budget."_qs, u"N"_qs, u"20"_qs},
        {u"runs"_qs, u"Runs per policy."_qs, u"R"_qs, u"3"_qs}});
    parser.addHelpOption();
    parser.process(app);

    auto newest = std::make_shared<std::atomic<quint64>>(0);
    PolicyLabWorker worker(newest);
    QTextStream out(stdout);
    for (const QString &spec :
        {u"exponential"_qs, u"exponential-random"_qs, u"full-jitter:base=100,max=30000"_qs}) {
        PolicyLabInput input;
        RetryPolicy policy;
        RetryPolicy::parse(spec, &policy, nullptr);
        input.policies = {policy};
        input.events = number(parser, u"events"_qs);
        input.outageSeconds = number(parser, u"outage-s"_qs);
        input.budget = number(parser, u"budget"_qs);
        QList<qint64> costs;
        StormRun last;
        for (int run = 0; run < std::max(1, number(parser, u"runs"_qs)); ++run) {
            const quint64 id = newest->fetch_add(1) + 1;
            QObject::connect(
                &worker, &PolicyLabWorker::stormsReady, &worker,
                [&](quint64, const QList<StormRun> &runs, qint64 elapsedMs, const QString &error) {
                    if (!error.isEmpty())
                        qFatal("storm failed: %s", qPrintable(error));
                    costs << elapsedMs;
                    last = runs.constFirst();
                },
                Qt::SingleShotConnection);
            worker.runStorms(id, input);
        }
        std::sort(costs.begin(), costs.end());
        out << QStringLiteral("%1: %2 events, outage %3 s, budget %4: median %5 ms, min %6 ms; "
                              "%7 attempts, peak %8 retries/s after recovery, %9 delivered, "
                              "%10 dead, last at %11 ms")
                   .arg(spec)
                   .arg(input.events)
                   .arg(input.outageSeconds)
                   .arg(input.budget)
                   .arg(costs.at(costs.size() / 2))
                   .arg(costs.constFirst())
                   .arg(last.attempts)
                   .arg(last.peakAfterRecovery())
                   .arg(last.delivered)
                   .arg(last.dead)
                   .arg(last.finishedAt)
            << Qt::endl;
    }
    return 0;
}
