#include "syntheticevent.h"

#include <algorithm>
#include <cmath>

namespace {

// splitmix64: a fast, well-mixed hash, so that every (seed, n, stream) draws independently.
quint64 mix(quint64 x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

enum Stream { KindStream = 1, FailuresStream, TextStream, TimeStream };

// A non-negative 63-bit draw, like `hashint8extended(n, seed) & max bigint` on the server.
qint64 draw(quint64 seed, qint64 n, Stream stream)
{
    return qint64(mix(mix(seed * 8 + quint64(stream)) ^ quint64(n)) >> 1);
}

using Kind = SyntheticEvent::Kind;

Kind kindOf(qint64 r)
{
    const qint64 bucket = r % 10000;
    if (bucket < 9700)
        return Kind::Delivered;
    if (bucket < 9750)
        return Kind::Due;
    if (bucket < 9800)
        return Kind::Scheduled;
    if (bucket < 9850)
        return Kind::InFlight;
    if (bucket < 9900)
        return Kind::LeaseExpired;
    return bucket < 9970 ? Kind::DeadTransient : Kind::DeadPermanent;
}

int failuresOf(Kind kind, qint64 r)
{
    const qint64 p = r % 100;
    switch (kind) {
    case Kind::Delivered:
        return p < 84 ? 0 : p < 96 ? 1 : 2; // 1 + 0.12 + 2 * 0.04 = 1.2 attempts
    case Kind::Due:
        return p < 50 ? 0 : p < 80 ? 1 : 2;
    case Kind::Scheduled:
        return p < 60 ? 1 : 2; // a retry is scheduled only after a failure
    case Kind::InFlight:
    case Kind::LeaseExpired:
        return p < 70 ? 0 : p < 90 ? 1 : 2;
    case Kind::DeadTransient:
        return 3; // the default budget spent
    case Kind::DeadPermanent:
        return int(p % 3) + 1; // some transient failures, then the permanent rejection
    }
    return 0;
}

bool isSettled(Kind kind)
{
    return kind == Kind::Delivered || kind == Kind::DeadTransient || kind == Kind::DeadPermanent;
}

QString statusOf(Kind kind)
{
    if (kind == Kind::Delivered)
        return QStringLiteral("DELIVERED");
    return isSettled(kind) ? QStringLiteral("DEAD") : QStringLiteral("PENDING");
}

// Fills the %N$s slots of SyntheticEvent::payloadTemplate(), as PostgreSQL's format() does.
QString payloadOf(qint64 n, qint64 rText)
{
    const QList<qint64> values
        = {n, rText % 100000, 1 + rText / 100000 % 5, 1 + rText / 1000000 % 3,
            100 + rText / 10000000 % 99900, 1 + rText / 7 % 4, 1 + rText / 13 % 200};
    QString payload = SyntheticEvent::payloadTemplate();
    for (qsizetype i = 0; i < values.size(); ++i)
        payload.replace(QStringLiteral("%%1$s").arg(i + 1), QString::number(values.at(i)));
    return payload;
}

qint64 createdAtOf(Kind kind, qint64 n, qint64 count, qint64 now, qint64 rTime)
{
    if (isSettled(kind)) {
        // Spread evenly over the window in creation order, like a real outbox.
        const qint64 span = SyntheticEvent::WindowMs - SyntheticEvent::SettleMarginMs;
        return now - SyntheticEvent::WindowMs + (n - 1) * span / count + rTime % 1000;
    }
    // PENDING ages skew young (7 days times u^3): most are recent, some stuck for days.
    const double u = double(rTime % 1000000) / 1000000.0;
    return now - qint64(std::floor(double(SyntheticEvent::WindowMs) * u * u * u));
}

// When an event's attempts were claimed and finished. A settled (DELIVERED or DEAD) event's
// attempt k is claimed after the retry delays before it (10 s, then 20 s); a PENDING event's
// attempts are spread evenly between its creation and now.
struct Timeline
{
    bool settled = false;
    qint64 createdAt = 0;
    qint64 now = 0;
    qint64 rTime = 0;
    qint64 step = 0;

    Timeline(const SyntheticEvent &e, qint64 now, qint64 rTime)
        : settled(isSettled(e.kind))
        , createdAt(e.createdAt)
        , now(now)
        , rTime(rTime)
        , step((now - e.createdAt) / (e.failures + 2))
    { }

    qint64 claim(int k) const
    {
        if (!settled)
            return createdAt + step * k;
        return createdAt + 50 + (rTime / 1000) % 400 + (k - 1) * 1000
            + 10000 * ((1LL << (k - 1)) - 1);
    }
    qint64 finish(qint64 claimedAt, int k) const
    {
        return settled ? claimedAt + 5 + (rTime / 1000000 + 7 * k) % 300 : claimedAt + step / 4;
    }
};

// The due time the last claim (or the next one) was made at; a DEAD row keeps its last.
qint64 nextAttemptOf(const SyntheticEvent &e, const Timeline &t)
{
    if (e.kind == Kind::Scheduled)
        return t.now + 1000 + (t.rTime / 1000000) % 600000;
    if (t.settled)
        return e.attempts.size() <= 1 ? e.createdAt : t.claim(int(e.attempts.size()));
    return e.failures == 0 ? e.createdAt : t.claim(e.failures + 1);
}

void setLastError(SyntheticEvent *e, qint64 rText)
{
    const QStringList &transient = SyntheticEvent::transientErrors();
    const QStringList &permanent = SyntheticEvent::permanentErrors();
    if (e->kind == Kind::DeadPermanent) {
        e->lastErrorCategory = QStringLiteral("PERMANENT");
        e->lastError = permanent.at(int(rText % permanent.size()));
    } else if (e->failures > 0) {
        e->lastErrorCategory = QStringLiteral("TRANSIENT");
        e->lastError = transient.at(int((rText + e->failures) % transient.size()));
    }
}

// Attempt k <= failures: RETRY, or DEAD for the last attempt of a DEAD event.
void fail(SyntheticAttempt *a, const SyntheticEvent &e, const Timeline &t, qint64 rText)
{
    const QStringList &transient = SyntheticEvent::transientErrors();
    const int k = a->attemptNo;
    const bool last = k == e.failures && e.status == QLatin1String("DEAD");
    a->finishedAt = t.finish(a->claimedAt, k);
    a->outcome = last ? QStringLiteral("DEAD") : QStringLiteral("RETRY");
    a->errorCategory = last ? e.lastErrorCategory : QStringLiteral("TRANSIENT");
    a->errorMessage = last ? e.lastError : transient.at(int((rText + k) % transient.size()));
    if (!last)
        a->nextAttemptAt
            = e.kind == Kind::Scheduled && k == e.failures ? e.nextAttemptAt : t.claim(k + 1);
}

void deliver(SyntheticAttempt *a, SyntheticEvent *e, const Timeline &t, qint64 rText)
{
    a->finishedAt = t.finish(a->claimedAt, a->attemptNo);
    a->outcome = QStringLiteral("DELIVERED");
    a->consumerResult = e->failures > 0 && rText % 10 == 0 ? QStringLiteral("DUPLICATE")
                                                           : QStringLiteral("APPLIED");
    e->deliveredAt = a->finishedAt;
}

// The claim of an in-flight or lease-expired row: unfinished, its token held by the row.
void holdClaim(SyntheticAttempt *a, SyntheticEvent *e, const Timeline &t)
{
    const bool inFlight = e->kind == Kind::InFlight;
    a->claimedAt = inFlight ? t.now - std::min<qint64>((t.rTime / 1000000) % 30000, t.step)
                            : t.claim(a->attemptNo);
    e->claimToken = a->claimToken;
    e->leaseUntil = inFlight ? a->claimedAt + SyntheticEvent::LeaseMs
                             : std::min(a->claimedAt + SyntheticEvent::LeaseMs, t.now);
}

} // namespace

QString SyntheticEvent::payloadTemplate()
{
    return QStringLiteral(
        "{\"orderId\":\"ORDER-%1$s\",\"customerId\":\"C-%2$s\",\"sku\":\"SKU-%3$s\","
        "\"quantity\":%4$s,\"priceCents\":%5$s,\"currency\":\"EUR\",\"warehouse\":\"WH-%6$s\","
        "\"email\":\"customer%2$s@example.com\",\"shippingAddress\":{\"street\":\"%7$s Harbour "
        "Road\",\"city\":\"Rotterdam\",\"postcode\":\"3011 AB\",\"country\":\"NL\"},"
        "\"note\":\"synthetic event from outboxctl generate\"}");
}

const QStringList &SyntheticEvent::transientErrors()
{
    static const QStringList errors = {QStringLiteral("connection reset by peer"),
        QStringLiteral("timeout after 5000 ms"), QStringLiteral("HTTP 503 Service Unavailable"),
        QStringLiteral("broker unavailable: leader election in progress")};
    return errors;
}

const QStringList &SyntheticEvent::permanentErrors()
{
    static const QStringList errors
        = {QStringLiteral("HTTP 400 Bad Request: payload failed schema validation"),
            QStringLiteral("HTTP 422 Unprocessable Entity: unknown SKU"),
            QStringLiteral("consumer rejected: event version not supported")};
    return errors;
}

const QStringList &SyntheticEvent::aggregateTypes()
{
    static const QStringList types = {QStringLiteral("Order"), QStringLiteral("Stock"),
        QStringLiteral("Payment"), QStringLiteral("Shipment"), QStringLiteral("Order")};
    return types;
}

const QStringList &SyntheticEvent::eventTypes()
{
    static const QStringList types = {QStringLiteral("OrderPlaced"),
        QStringLiteral("StockReserved"), QStringLiteral("PaymentCaptured"),
        QStringLiteral("ShipmentDispatched"), QStringLiteral("OrderCancelled")};
    return types;
}

QString SyntheticEvent::eventIdOf(qint64 n)
{
    return QStringLiteral("GEN-%1").arg(n, 10, 10, QLatin1Char('0'));
}

QString SyntheticEvent::tokenOf(quint64 seed, qint64 n, int attemptNo)
{
    return QStringLiteral("%1-%2-%3").arg(seed, 0, 16).arg(n, 0, 16).arg(attemptNo);
}

SyntheticEvent SyntheticEvent::make(quint64 seed, qint64 n, qint64 count, qint64 now)
{
    const qint64 rText = draw(seed, n, TextStream);
    const qint64 rTime = draw(seed, n, TimeStream);
    SyntheticEvent e;
    e.kind = kindOf(draw(seed, n, KindStream));
    e.failures = failuresOf(e.kind, draw(seed, n, FailuresStream));
    e.status = statusOf(e.kind);
    e.eventId = eventIdOf(n);
    const int type = int(rText % eventTypes().size());
    e.aggregateType = aggregateTypes().at(type);
    e.eventType = eventTypes().at(type);
    e.aggregateId = e.aggregateType.toUpper() + QLatin1Char('-') + QString::number((n + 2) / 3);
    e.payload = payloadOf(n, rText);
    e.createdAt = createdAtOf(e.kind, n, count, now, rTime);
    setLastError(&e, rText);

    const Timeline timeline(e, now, rTime);
    const bool claimed = e.kind == Kind::InFlight || e.kind == Kind::LeaseExpired;
    const int attempts = e.failures + (e.kind == Kind::Delivered || claimed ? 1 : 0);
    e.attempts.resize(attempts);
    e.nextAttemptAt = nextAttemptOf(e, timeline);
    for (int k = 1; k <= attempts; ++k) {
        SyntheticAttempt &a = e.attempts[k - 1];
        a.attemptNo = k;
        a.worker = QStringLiteral("relay-%1").arg(1 + (rText / 7 + k) % 4);
        a.claimToken = tokenOf(seed, n, k);
        a.claimedAt = timeline.claim(k);
        if (k <= e.failures)
            fail(&a, e, timeline, rText);
        else if (e.kind == Kind::Delivered)
            deliver(&a, &e, timeline, rText);
        else
            holdClaim(&a, &e, timeline);
    }
    return e;
}
