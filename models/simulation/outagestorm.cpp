#include "outagestorm.h"

#include "schema.h"
#include "simulation.h"
#include "statementcache.h"

#include <QSqlQuery>
#include <algorithm>

namespace {

// The storm's own two reads, prepared once per run: a storm of thousands of events asks them
// at tens of thousands of instants.
QStringList dueEvents(StatementCache &statements, qint64 now)
{
    // clang-format off
    QSqlQuery &query = statements.prepared(QStringLiteral(
        "SELECT event_id FROM delivery_outbox"
        " WHERE status = 'PENDING' AND next_attempt_at <= :now"
        " ORDER BY next_attempt_at, event_id"));
    // clang-format on
    query.bindValue(QStringLiteral(":now"), now);
    QStringList ids;
    if (query.exec()) {
        while (query.next())
            ids << query.value(0).toString();
    }
    query.finish();
    return ids;
}

qint64 nextDue(StatementCache &statements)
{
    QSqlQuery &query = statements.prepared(QStringLiteral(
        "SELECT MIN(next_attempt_at) FROM delivery_outbox WHERE status = 'PENDING'"));
    const qint64 due
        = query.exec() && query.next() && !query.isNull(0) ? query.value(0).toLongLong() : -1;
    query.finish();
    return due;
}

// Counts one traced step of the run into *result.
void count(const TraceEvent &event, StormRun *result, QMap<qint64, int> *perInstant)
{
    const QString kind = event.kind();
    if (kind == QLatin1String("claim") && event.value(QStringLiteral("ok")).toBool()) {
        ++result->attempts;
        if (event.value(QStringLiteral("attempt")).toInt() > 1) {
            const qint64 width = result->setup.bucketWidth;
            ++result->retriesPerBucket[event.time() / width * width];
            result->peakSameInstant
                = std::max(result->peakSameInstant, ++(*perInstant)[event.time()]);
        }
    }
    if (kind == QLatin1String("ack"))
        ++result->delivered;
    if (kind == QLatin1String("park"))
        ++result->dead;
}

} // namespace

int StormRun::peak() const
{
    int peak = 0;
    for (int retries : retriesPerBucket)
        peak = std::max(peak, retries);
    return peak;
}

int StormRun::peakAfterRecovery() const
{
    const QList<int> perSecond = retriesPerSecondAfterRecovery();
    return perSecond.isEmpty() ? 0 : *std::max_element(perSecond.cbegin(), perSecond.cend());
}

QList<int> StormRun::retriesPerSecondAfterRecovery() const
{
    QList<int> perSecond;
    for (auto it = retriesPerBucket.lowerBound(setup.outageUntil); it != retriesPerBucket.cend();
         ++it) {
        const qsizetype second = qsizetype((it.key() - setup.outageUntil) / 1000);
        if (perSecond.size() <= second)
            perSecond.resize(second + 1, 0);
        perSecond[second] += it.value();
    }
    return perSecond;
}

QStringList OutageStorm::policies()
{
    return {QStringLiteral("exponential:initial=100,multiplier=2,max=30000"),
        QStringLiteral("exponential-random:initial=100,multiplier=2,max=30000")};
}

bool OutageStorm::run(const QSqlDatabase &db, const RetryPolicy &policy, quint32 seed,
    StormRun *result, QString *error)
{
    StormSetup setup;
    setup.seed = seed;
    return run(db, policy, setup, result, error);
}

bool OutageStorm::run(const QSqlDatabase &db, const RetryPolicy &policy, const StormSetup &setup,
    StormRun *result, QString *error)
{
    if (!Schema::clearSimulationData(db, error))
        return false;
    Simulation simulation(db);
    simulation.setKeepsTrace(false);
    simulation.store().setRetryPolicy(policy);
    simulation.store().setBudget({setup.budget, 0});
    simulation.store().setRandomSeed(setup.seed);
    FaultProfile outage;
    outage.outageFrom = 0;
    outage.outageUntil = setup.outageUntil;
    simulation.transport().setProfile(outage);
    simulation.setStock(QStringLiteral("SKU-1"), setup.events * 5);
    const int digits = std::max(3, int(QString::number(setup.events).size()));
    for (int i = 1; i <= setup.events; ++i)
        simulation.addStockReservation(
            QStringLiteral("STORM-%1").arg(i, digits, 10, QLatin1Char('0')),
            QStringLiteral("SKU-1"), 1);

    *result = StormRun {};
    result->policy = policy.spec();
    result->setup = setup;
    QMap<qint64, int> perInstant;
    QObject::connect(&simulation, &Simulation::traced,
        [result, &perInstant](const TraceEvent &event) { count(event, result, &perInstant); });
    StatementCache statements(db);
    for (qint64 now = 0; now >= 0 && !simulation.hasError(); now = nextDue(statements)) {
        if (setup.stopRequested && setup.stopRequested()) {
            *error = QStringLiteral("stopped");
            return false;
        }
        simulation.setNow(now);
        for (const QString &id : dueEvents(statements, now))
            simulation.attempt(QStringLiteral("relay"), id);
        result->finishedAt = now;
    }
    if (simulation.hasError()) {
        *error = simulation.errorText();
        return false;
    }
    return true;
}

QList<TraceEvent> OutageStorm::toTrace(const StormRun &run)
{
    QList<TraceEvent> lines;
    for (auto it = run.retriesPerBucket.cbegin(); it != run.retriesPerBucket.cend(); ++it) {
        TraceEvent line(QStringLiteral("storm_bucket"), -1);
        line.set(QStringLiteral("policy"), run.policy).set(QStringLiteral("from"), it.key());
        line.set(QStringLiteral("to"), it.key() + run.setup.bucketWidth - 1)
            .set(QStringLiteral("retries"), it.value());
        lines << line;
    }
    TraceEvent summary(QStringLiteral("storm_summary"), -1);
    summary.set(QStringLiteral("policy"), run.policy)
        .set(QStringLiteral("peak_retries_per_bucket"), run.peak());
    summary.set(QStringLiteral("peak_retries_same_instant"), run.peakSameInstant);
    summary.set(QStringLiteral("buckets_with_retries"), int(run.retriesPerBucket.size()));
    summary.set(QStringLiteral("delivered"), run.delivered).set(QStringLiteral("dead"), run.dead);
    summary.set(QStringLiteral("finished_at"), run.finishedAt);
    lines << summary;
    return lines;
}

QStringList OutageStorm::toChart(const StormRun &run)
{
    QStringList lines {QStringLiteral("%1: retries per %2 units (outage until t=%3)")
                           .arg(run.policy)
                           .arg(run.setup.bucketWidth)
                           .arg(run.setup.outageUntil)};
    const int peak = std::max(run.peak(), 1);
    for (auto it = run.retriesPerBucket.cbegin(); it != run.retriesPerBucket.cend(); ++it) {
        const int width = std::max(1, it.value() * 50 / peak);
        lines << QStringLiteral("  t=%1..%2 %3 %4")
                     .arg(it.key(), 5)
                     .arg(it.key() + run.setup.bucketWidth - 1, -5)
                     .arg(QString(width, QLatin1Char('#')))
                     .arg(it.value());
    }
    lines << QStringLiteral(
        "  peak %1 retries in one bucket, %2 at the same instant; %3 buckets; %4 delivered by t=%5")
                 .arg(run.peak())
                 .arg(run.peakSameInstant)
                 .arg(run.retriesPerBucket.size())
                 .arg(run.delivered)
                 .arg(run.finishedAt);
    return lines;
}
