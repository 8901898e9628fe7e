#include "outagestorm.h"

#include "schema.h"
#include "simulation.h"

#include <QSqlQuery>

namespace {

QStringList dueEvents(const QSqlDatabase &db, qint64 now)
{
    QSqlQuery query(db);
    // clang-format off
    query.prepare(QStringLiteral(
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
    return ids;
}

qint64 nextDue(const QSqlDatabase &db)
{
    QSqlQuery query(db);
    query.exec(QStringLiteral(
        "SELECT MIN(next_attempt_at) FROM delivery_outbox WHERE status = 'PENDING'"));
    return query.next() && !query.isNull(0) ? query.value(0).toLongLong() : -1;
}

} // namespace

int StormRun::peak() const
{
    int peak = 0;
    for (int retries : retriesPerBucket)
        peak = std::max(peak, retries);
    return peak;
}

QStringList OutageStorm::policies()
{
    return {QStringLiteral("exponential:initial=100,multiplier=2,max=30000"),
        QStringLiteral("exponential-random:initial=100,multiplier=2,max=30000")};
}

bool OutageStorm::run(const QSqlDatabase &db, const RetryPolicy &policy, quint32 seed,
    StormRun *result, QString *error)
{
    if (!Schema::clearSimulationData(db, error))
        return false;
    Simulation simulation(db);
    simulation.store().setRetryPolicy(policy);
    simulation.store().setBudget({20, 0});
    simulation.store().setRandomSeed(seed);
    FaultProfile outage;
    outage.outageFrom = 0;
    outage.outageUntil = OutageUntil;
    simulation.transport().setProfile(outage);
    simulation.setStock(QStringLiteral("SKU-1"), 1000);
    for (int i = 1; i <= Events; ++i)
        simulation.addStockReservation(
            QStringLiteral("STORM-%1").arg(i, 3, 10, QLatin1Char('0')), QStringLiteral("SKU-1"), 1);

    *result = StormRun {policy.spec(), {}, 0, 0, 0};
    for (qint64 now = 0; now >= 0 && !simulation.hasError(); now = nextDue(db)) {
        simulation.setNow(now);
        for (const QString &id : dueEvents(db, now))
            simulation.attempt(QStringLiteral("relay"), id);
        result->finishedAt = now;
    }
    if (simulation.hasError()) {
        *error = simulation.errorText();
        return false;
    }
    QMap<qint64, int> perInstant;
    for (const TraceEvent &event : simulation.trace()) {
        if (event.kind() == QLatin1String("claim")
            && event.value(QStringLiteral("attempt")).toInt() > 1) {
            ++result->retriesPerBucket[event.time() / BucketWidth * BucketWidth];
            result->peakSameInstant = std::max(result->peakSameInstant, ++perInstant[event.time()]);
        }
        if (event.kind() == QLatin1String("ack"))
            ++result->delivered;
        if (event.kind() == QLatin1String("park"))
            ++result->dead;
    }
    return true;
}

QList<TraceEvent> OutageStorm::toTrace(const StormRun &run)
{
    QList<TraceEvent> lines;
    for (auto it = run.retriesPerBucket.cbegin(); it != run.retriesPerBucket.cend(); ++it) {
        TraceEvent line(QStringLiteral("storm_bucket"), -1);
        line.set(QStringLiteral("policy"), run.policy).set(QStringLiteral("from"), it.key());
        line.set(QStringLiteral("to"), it.key() + BucketWidth - 1)
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
                           .arg(BucketWidth)
                           .arg(OutageUntil)};
    const int peak = std::max(run.peak(), 1);
    for (auto it = run.retriesPerBucket.cbegin(); it != run.retriesPerBucket.cend(); ++it) {
        const int width = std::max(1, it.value() * 50 / peak);
        lines << QStringLiteral("  t=%1..%2 %3 %4")
                     .arg(it.key(), 5)
                     .arg(it.key() + BucketWidth - 1, -5)
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
