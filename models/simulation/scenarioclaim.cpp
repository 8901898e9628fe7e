#include "scenarioclaim.h"

#include <QJsonObject>

namespace {

// The facts every claim reads from a run.
struct Run
{
    QList<TraceEvent> trace;
    int stockBefore = 0;
    int stockAfter = 0;
    int ledger = 0;
    int transportCalls = 0;

    QList<TraceEvent> ofKind(const char *kind) const
    {
        QList<TraceEvent> events;
        for (const TraceEvent &event : trace) {
            if (event.kind() == QLatin1String(kind))
                events << event;
        }
        return events;
    }
    QString eventId() const
    {
        const QList<TraceEvent> claims = ofKind("claim");
        return claims.isEmpty() ? QString() : text(claims.first(), "event_id");
    }
    static QString text(const TraceEvent &event, const char *key)
    {
        return event.value(QString::fromLatin1(key)).toVariant().toString();
    }
    static bool flag(const TraceEvent &event, const char *key)
    {
        return event.value(QString::fromLatin1(key)).toBool();
    }
    QString stock() const
    {
        return QStringLiteral("stock %1 → %2, %3").arg(stockBefore).arg(stockAfter).arg(rows());
    }
    QString rows() const
    {
        return ledger == 1 ? QStringLiteral("one ledger row")
                           : QStringLiteral("%1 ledger rows").arg(ledger);
    }
    bool appliedOnce() const { return stockBefore - stockAfter == 2 && ledger == 1; }
    bool untouched() const { return stockBefore == stockAfter && ledger == 0; }
};

int stockOf(const TraceEvent &summary)
{
    return summary.value(QStringLiteral("stock")).toObject().value(QStringLiteral("SKU-1")).toInt();
}

QString times(const QList<TraceEvent> &events)
{
    QStringList out;
    for (const TraceEvent &event : events)
        out << QString::number(event.time());
    return out.join(QStringLiteral(", "));
}

QList<TraceEvent> claimsWhere(const Run &run, bool ok, const char *reason = nullptr)
{
    QList<TraceEvent> out;
    for (const TraceEvent &claim : run.ofKind("claim")) {
        if (Run::flag(claim, "ok") == ok
            && (!reason || Run::text(claim, "reason") == QLatin1String(reason)))
            out << claim;
    }
    return out;
}

ScenarioClaim retrySchedule(const Run &run)
{
    QStringList delays;
    for (const TraceEvent &fail : run.ofKind("fail")) {
        if (Run::text(fail, "status") == QLatin1String("PENDING"))
            delays << QString::number(
                qint64(fail.value(QStringLiteral("next_attempt_at")).toDouble()) - fail.time());
    }
    const QList<TraceEvent> early = claimsWhere(run, false, "NOT_DUE");
    const QList<TraceEvent> granted = claimsWhere(run, true);
    bool oneUnitEarly = !early.isEmpty();
    for (const TraceEvent &refused : early) {
        const auto next = std::find_if(granted.cbegin(), granted.cend(),
            [&](const TraceEvent &claim) { return claim.time() > refused.time(); });
        oneUnitEarly = oneUnitEarly && next != granted.cend() && next->time() == refused.time() + 1;
    }
    const int failures = int(run.ofKind("fail").size());
    const bool dead = run.ofKind("park").size() == 1;
    return {QStringLiteral("%1 waits for its persisted due time after each failure, a claim one "
                           "unit early is refused, and the budget parks it DEAD")
                .arg(run.eventId()),
        QStringLiteral("delays of %1 units; %2 early claims refused (t=%3); %4 after %5 failures")
            .arg(delays.join(QStringLiteral(", ")))
            .arg(early.size())
            .arg(times(early))
            .arg(dead ? QStringLiteral("DEAD") : QStringLiteral("still PENDING"))
            .arg(failures),
        oneUnitEarly && dead && early.size() == delays.size()};
}

ScenarioClaim scheduledRetry(const Run &run)
{
    const QList<TraceEvent> fails = run.ofKind("fail");
    const QList<TraceEvent> granted = claimsWhere(run, true);
    const qint64 due = fails.isEmpty()
        ? -1
        : qint64(fails.first().value(QStringLiteral("next_attempt_at")).toDouble(-1));
    const qint64 retried = granted.size() > 1 ? granted.at(1).time() : -1;
    return {QStringLiteral("A failed call leaves %1 pending until its due time, and the retry "
                           "delivers it once")
                .arg(run.eventId()),
        QStringLiteral("failed at t=%1, due at t=%2, retried at t=%3; %4 transport calls, %5")
            .arg(fails.isEmpty() ? -1 : fails.first().time())
            .arg(due)
            .arg(retried)
            .arg(run.transportCalls)
            .arg(run.stock()),
        fails.size() == 1 && due > 0 && retried == due && run.appliedOnce()};
}

ScenarioClaim poisonDead(const Run &run)
{
    const QList<TraceEvent> fails = run.ofKind("fail");
    const QList<TraceEvent> refused = claimsWhere(run, false, "DEAD");
    const bool dead = run.ofKind("park").size() == 1;
    return {QStringLiteral("A poison event is parked DEAD when its budget is spent and waits for "
                           "an operator; stock never changes"),
        QStringLiteral("%1 failed %2 times (t=%3), is %4, a claim at t=%5 is refused; %6")
            .arg(run.eventId())
            .arg(fails.size())
            .arg(times(fails))
            .arg(dead ? QStringLiteral("DEAD") : QStringLiteral("not DEAD"))
            .arg(refused.isEmpty() ? QStringLiteral("-") : times(refused))
            .arg(run.stock()),
        dead && !refused.isEmpty() && run.untouched()};
}

ScenarioClaim lostAck(const Run &run)
{
    QStringList results;
    for (const TraceEvent &deliver : run.ofKind("deliver"))
        results << Run::text(deliver, "result");
    const int deliveries = int(results.size());
    return {QStringLiteral("%1 was delivered %2 by the transport but applied once")
                .arg(run.eventId(),
                    deliveries == 2 ? QStringLiteral("twice")
                                    : QStringLiteral("%1 times").arg(deliveries)),
        QStringLiteral("%1; %2").arg(results.join(QStringLiteral(" then ")), run.stock()),
        deliveries >= 2 && results.contains(QStringLiteral("DUPLICATE")) && run.appliedOnce()};
}

// The edit came after the consumer had applied the event: the replay of the edited payload is
// answered DUPLICATE, and the stock moved by the first payload's quantity only.
ScenarioClaim editAfterLostAck(const Run &run)
{
    QStringList results;
    bool duplicateOfEdit = false;
    for (const TraceEvent &deliver : run.ofKind("deliver")) {
        const QString result = Run::text(deliver, "result");
        const bool edited = Run::flag(deliver, "edited");
        results << (edited ? result + QStringLiteral(" (edited payload)") : result);
        duplicateOfEdit = duplicateOfEdit || (edited && result == QLatin1String("DUPLICATE"));
    }
    const QList<TraceEvent> edits = run.ofKind("edit");
    const bool edited = !edits.isEmpty() && Run::flag(edits.constFirst(), "ok");
    return {QStringLiteral("An edit cannot change what the consumer already applied: %1's "
                           "edited payload was answered DUPLICATE and the first one stayed")
                .arg(run.eventId()),
        QStringLiteral("%1; %2").arg(results.join(QStringLiteral(" then ")),
            edited ? QStringLiteral("revision 1 by %1, %2")
                         .arg(Run::text(edits.constFirst(), "operator"), run.stock())
                   : QStringLiteral("no edit, %1").arg(run.stock())),
        edited && duplicateOfEdit && run.appliedOnce()};
}

ScenarioClaim leaseExpiry(const Run &run)
{
    const QList<TraceEvent> inFlight = claimsWhere(run, false, "IN_FLIGHT");
    QList<TraceEvent> takeovers;
    for (const TraceEvent &claim : claimsWhere(run, true)) {
        if (Run::flag(claim, "took_over_expired_lease"))
            takeovers << claim;
    }
    QList<TraceEvent> fenced;
    for (const TraceEvent &ack : run.ofKind("ack")) {
        if (!Run::flag(ack, "ok") && Run::text(ack, "reason") == QLatin1String("FENCED"))
            fenced << ack;
    }
    return {QStringLiteral("A second worker takes %1 over only once the first one's lease has "
                           "expired, and the first one's late acknowledgement is fenced off")
                .arg(run.eventId()),
        QStringLiteral("claim at t=%1 refused (IN_FLIGHT), taken over at t=%2, the late "
                       "acknowledgement at t=%3 rejected (FENCED); %4")
            .arg(inFlight.isEmpty() ? QStringLiteral("-") : times(inFlight),
                takeovers.isEmpty() ? QStringLiteral("-") : times(takeovers),
                fenced.isEmpty() ? QStringLiteral("-") : times(fenced), run.stock()),
        !inFlight.isEmpty() && takeovers.size() == 1 && fenced.size() == 1 && run.appliedOnce()};
}

ScenarioClaim permanentRejection(const Run &run)
{
    const int claims = int(claimsWhere(run, true).size());
    const bool dead = run.ofKind("park").size() == 1;
    return {QStringLiteral("A permanent rejection parks %1 DEAD at once, with no retry")
                .arg(run.eventId()),
        QStringLiteral("%1 transport call, %2 failure, %3, %4 retries; %5")
            .arg(run.transportCalls)
            .arg(run.ofKind("fail").size())
            .arg(dead ? QStringLiteral("DEAD") : QStringLiteral("not DEAD"))
            .arg(claims - 1)
            .arg(run.stock()),
        dead && claims == 1 && run.transportCalls == 1 && run.untouched()};
}

} // namespace

ScenarioClaim ScenarioClaim::of(const QString &scenario, const TraceEvent &before,
    const TraceEvent &after, const QList<TraceEvent> &trace)
{
    Run run {trace, stockOf(before), stockOf(after), after.value(QStringLiteral("ledger")).toInt(),
        after.value(QStringLiteral("transport_calls")).toInt()};
    using Make = ScenarioClaim (*)(const Run &);
    const QList<std::pair<const char *, Make>> all {{"retry-schedule", retrySchedule},
        {"scheduled-retry", scheduledRetry}, {"poison-dead", poisonDead}, {"lost-ack", lostAck},
        {"lease-expiry", leaseExpiry}, {"permanent-rejection", permanentRejection},
        {"edit-after-lost-ack", editAfterLostAck}};
    for (const auto &[name, make] : all) {
        if (scenario == QLatin1String(name))
            return make(run);
    }
    return {};
}
