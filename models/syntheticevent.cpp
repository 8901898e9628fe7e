#include "syntheticevent.h"

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

// Settled events: attempt k is claimed after the delays 10 s, 20 s, 40 s of the retries before.
qint64 settledClaim(qint64 createdAt, qint64 rTime, int k)
{
    return createdAt + 50 + (rTime / 1000) % 400 + (k - 1) * 1000 + 10000 * ((1LL << (k - 1)) - 1);
}

qint64 settledFinish(qint64 claimedAt, qint64 rTime, int k)
{
    return claimedAt + 5 + (rTime / 1000000 + 7 * k) % 300;
}

QString payloadOf(qint64 n, qint64 rText)
{
    return QStringLiteral(
        "{\"orderId\":\"ORDER-%1\",\"customerId\":\"C-%2\",\"sku\":\"SKU-%3\",\"quantity\":%4,"
        "\"priceCents\":%5,\"currency\":\"EUR\",\"warehouse\":\"WH-%6\","
        "\"email\":\"customer%2@example.com\",\"shippingAddress\":{\"street\":\"%7 Harbour Road\","
        "\"city\":\"Rotterdam\",\"postcode\":\"3011 AB\",\"country\":\"NL\"},"
        "\"note\":\"synthetic event from outboxctl generate\"}")
        .arg(n)
        .arg(rText % 100000)
        .arg(1 + rText / 100000 % 5)
        .arg(1 + rText / 1000000 % 3)
        .arg(100 + rText / 10000000 % 99900)
        .arg(1 + rText / 7 % 4)
        .arg(1 + rText / 13 % 200);
}

void setTimes(SyntheticEvent *event, qint64 n, qint64 count, qint64 now, qint64 rTime)
{
    if (isSettled(event->kind)) {
        // Spread evenly over the window in creation order, like a real outbox.
        const qint64 span = SyntheticEvent::WindowMs - SyntheticEvent::SettleMarginMs;
        event->createdAt = now - SyntheticEvent::WindowMs + (n - 1) * span / count + rTime % 1000;
        return;
    }
    // PENDING ages skew young (7 days times u^3): most are recent, some stuck for days.
    const double u = double(rTime % 1000000) / 1000000.0;
    event->createdAt = now - qint64(std::floor(double(SyntheticEvent::WindowMs) * u * u * u));
}

} // namespace

const QStringList &SyntheticEvent::transientErrors()
{
    static const QStringList errors = {QStringLiteral("connection reset by peer"),
        QStringLiteral("timeout after 5000 ms"), QStringLiteral("HTTP 503 Service Unavailable"),
        QStringLiteral("broker unavailable: leader election in progress")};
    return errors;
}

const QStringList &SyntheticEvent::permanentErrors()
{
    static const QStringList errors = {
        QStringLiteral("HTTP 400 Bad Request: payload failed schema validation"),
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
    setTimes(&e, n, count, now, rTime);

    const bool settled = isSettled(e.kind);
    const bool claimed = e.kind == Kind::InFlight || e.kind == Kind::LeaseExpired;
    const int attemptCount = e.failures + (e.kind == Kind::Delivered || claimed ? 1 : 0);
    const qint64 step = (now - e.createdAt) / (e.failures + 2); // PENDING: attempts fit before now
    auto claimOf = [&](int k) { return settled ? settledClaim(e.createdAt, rTime, k) : e.createdAt + step * k; };

    // The due time the last claim (or the next one) was made at; a DEAD row keeps its last.
    if (e.kind == Kind::Scheduled)
        e.nextAttemptAt = now + 1000 + (rTime / 1000000) % 600000;
    else if (settled)
        e.nextAttemptAt = attemptCount <= 1 ? e.createdAt : claimOf(attemptCount);
    else
        e.nextAttemptAt = e.failures == 0 ? e.createdAt : claimOf(e.failures + 1);

    const QString transient = transientErrors().at(int((rText + e.failures) % transientErrors().size()));
    if (e.kind == Kind::DeadPermanent) {
        e.lastErrorCategory = QStringLiteral("PERMANENT");
        e.lastError = permanentErrors().at(int(rText % permanentErrors().size()));
    } else if (e.failures > 0) {
        e.lastErrorCategory = QStringLiteral("TRANSIENT");
        e.lastError = transient;
    }

    for (int k = 1; k <= attemptCount; ++k) {
        SyntheticAttempt a;
        a.attemptNo = k;
        a.worker = QStringLiteral("relay-%1").arg(1 + (rText / 7 + k) % 4);
        a.claimToken = tokenOf(seed, n, k);
        a.claimedAt = claimOf(k);
        if (k <= e.failures) { // a failed attempt: RETRY, or DEAD for the last of a DEAD event
            a.finishedAt = settled ? settledFinish(a.claimedAt, rTime, k) : a.claimedAt + step / 4;
            const bool last = k == e.failures && e.status == QLatin1String("DEAD");
            a.outcome = last ? QStringLiteral("DEAD") : QStringLiteral("RETRY");
            a.errorCategory = last ? e.lastErrorCategory : QStringLiteral("TRANSIENT");
            a.errorMessage = last ? e.lastError
                                  : transientErrors().at(int((rText + k) % transientErrors().size()));
            if (!last)
                a.nextAttemptAt = e.kind == Kind::Scheduled && k == e.failures ? e.nextAttemptAt : claimOf(k + 1);
        } else if (e.kind == Kind::Delivered) {
            a.finishedAt = settledFinish(a.claimedAt, rTime, k);
            a.outcome = QStringLiteral("DELIVERED");
            a.consumerResult = e.failures > 0 && rText % 10 == 0 ? QStringLiteral("DUPLICATE")
                                                                : QStringLiteral("APPLIED");
            e.deliveredAt = a.finishedAt;
        } else { // the claim of an in-flight or lease-expired row: unfinished, holding its token
            a.claimedAt = e.kind == Kind::InFlight
                ? now - std::min<qint64>((rTime / 1000000) % 30000, step)
                : e.createdAt + step * k;
            e.claimToken = a.claimToken;
            e.leaseUntil = e.kind == Kind::InFlight ? a.claimedAt + LeaseMs
                                                    : std::min(a.claimedAt + LeaseMs, now);
        }
        e.attempts << a;
    }
    return e;
}
