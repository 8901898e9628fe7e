#include "narration.h"

#include "timeformat.h"

namespace {

// Simulator times read "t=30"; wall-clock times read as seconds since the session began.
thread_local qint64 g_origin = 0;

QString at(qint64 t)
{
    if (TimeFormat::isLogical(t))
        return QStringLiteral("t=%1").arg(t);
    return QStringLiteral("+%1 s").arg(double(t - g_origin) / 1000.0, 0, 'f', 1);
}

QString atOf(const TraceEvent &e, const char *key)
{
    return at(qint64(e.value(QString::fromLatin1(key)).toDouble()));
}

QString str(const TraceEvent &e, const char *key)
{
    return e.value(QString::fromLatin1(key)).toVariant().toString();
}

// "worker A" for the scenarios' workers, "worker-2" for the relay's.
QString who(const TraceEvent &e)
{
    const QString name = str(e, "worker");
    return name.startsWith(QLatin1String("worker")) ? name : QStringLiteral("worker ") + name;
}

QString claim(const TraceEvent &e)
{
    const QString worker = who(e);
    if (e.value(QStringLiteral("ok")).toBool()) {
        const QString takeover = e.value(QStringLiteral("took_over_expired_lease")).toBool()
            ? QStringLiteral(
                " after the previous lease expired (that attempt is now LEASE_EXPIRED)")
            : QString();
        return QStringLiteral("%1 claims %2 for attempt %3, lease until %4%5.")
            .arg(worker, str(e, "event_id"), str(e, "attempt"), atOf(e, "lease_until"), takeover);
    }
    const QString reason = str(e, "reason");
    QString why = reason;
    if (reason == QLatin1String("NOT_DUE"))
        why = QStringLiteral("it is not due yet");
    else if (reason == QLatin1String("IN_FLIGHT"))
        why = QStringLiteral("another worker holds a live lease");
    else if (reason == QLatin1String("DEAD"))
        why = QStringLiteral("it is parked DEAD and waits for an operator");
    else if (reason == QLatin1String("DELIVERED"))
        why = QStringLiteral("it is already delivered");
    return QStringLiteral("%1 tries to claim %2: refused, %3.")
        .arg(worker, str(e, "event_id"), why);
}

QString deliver(const TraceEvent &e)
{
    const QString result = str(e, "result");
    QString what;
    if (result == QLatin1String("APPLIED"))
        what = QStringLiteral("the consumer applies it");
    else if (result == QLatin1String("DUPLICATE") && e.value(QStringLiteral("edited")).toBool())
        what = QStringLiteral("the consumer has seen this event ID already and answers DUPLICATE: "
                              "it keeps the first payload it applied and ignores the edited one");
    else if (result == QLatin1String("DUPLICATE"))
        what = QStringLiteral(
            "the consumer has seen this event ID already and answers DUPLICATE, changing nothing");
    else if (result == QLatin1String("RESPONSE_LOST"))
        what = QStringLiteral("the consumer commits, but the response is lost");
    else if (result == QLatin1String("PERMANENT_REJECTION"))
        what = QStringLiteral("the consumer rejects it permanently");
    else
        what = QStringLiteral("the call fails before reaching the consumer");
    return QStringLiteral("%1: transport call %2 by %3; %4.")
        .arg(str(e, "event_id"), str(e, "transport_call"), who(e), what);
}

QString fail(const TraceEvent &e)
{
    if (!e.value(QStringLiteral("ok")).toBool())
        return QStringLiteral("%1: %2's failure report is refused (%3).")
            .arg(str(e, "event_id"), who(e), str(e, "reason"));
    const QString cause
        = QStringLiteral("%1 failure %2 (%3)")
              .arg(str(e, "category").toLower(), str(e, "failures"), str(e, "error"));
    if (str(e, "status") == QLatin1String("DEAD"))
        return QStringLiteral("%1: %2; parked DEAD.").arg(str(e, "event_id"), cause);
    return QStringLiteral("%1: %2; retry at %3 with the same event ID.")
        .arg(str(e, "event_id"), cause, atOf(e, "next_attempt_at"));
}

// An edit says what it cannot do: a consumer that already applied the event ID ignores it.
QString edit(const TraceEvent &e)
{
    if (!e.value(QStringLiteral("ok")).toBool())
        return QStringLiteral("%1 tries to edit %2's payload: refused (%3).")
            .arg(str(e, "operator"), str(e, "event_id"), str(e, "error"));
    return QStringLiteral("%1 edits %2's payload (revision %3: %4) and replays it under the same "
                          "event ID; the original payload is kept. If the consumer already "
                          "applied this event ID, it will answer DUPLICATE and ignore the new "
                          "payload.")
        .arg(str(e, "operator"), str(e, "event_id"), str(e, "revision"), str(e, "diff"));
}

} // namespace

namespace Narration {

QString describe(const TraceEvent &e, qint64 origin)
{
    g_origin = origin;
    const QString kind = e.kind();
    QString text;
    if (kind == QLatin1String("claim"))
        text = claim(e);
    else if (kind == QLatin1String("deliver"))
        text = deliver(e);
    else if (kind == QLatin1String("fail"))
        text = fail(e);
    else if (kind == QLatin1String("ack"))
        text = e.value(QStringLiteral("ok")).toBool()
            ? QStringLiteral("%1: %2 acknowledges; DELIVERED.").arg(str(e, "event_id"), who(e))
            : QStringLiteral("%1: %2's acknowledgement is rejected (%3): its claim token is stale, "
                             "nothing changes.")
                  .arg(str(e, "event_id"), who(e), str(e, "reason"));
    else if (kind == QLatin1String("edit"))
        text = edit(e);
    else if (kind == QLatin1String("park"))
        text = QStringLiteral("%1 stays DEAD for inspection after %2 failures (%3).")
                   .arg(str(e, "event_id"), str(e, "failures"), str(e, "why"));
    else if (kind == QLatin1String("summary"))
        return QStringLiteral("Summary: ") + e.toJsonLine();
    else
        text = e.toJsonLine();
    return at(e.time()) + QStringLiteral("  ") + text;
}

} // namespace Narration
