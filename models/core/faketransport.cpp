#include "faketransport.h"

FakeTransport::FakeTransport(const QSqlDatabase &db, quint32 seed)
    : m_consumer(db)
    , m_random(seed)
{ }

namespace {

// A fraction in [0, 1) fixed by `text` (and `salt`), the same on every worker and every run.
double drawFor(const QString &text, quint32 salt)
{
    return double(qHash(text, 0x5eed0000u + salt) % 100000u) / 100000.0;
}

} // namespace

FakeTransport::Fault FakeTransport::eventFault(
    const FaultProfile &profile, const QString &eventId, int attemptNo)
{
    const double draw = drawFor(eventId, 0);
    if (draw < profile.permanentRate)
        return Fault::Permanent;
    if (draw < profile.permanentRate + profile.transientRate)
        return attemptNo <= 1 + int(drawFor(eventId, 1) * 3) ? Fault::Transient : Fault::None;
    if (draw < profile.permanentRate + profile.transientRate + profile.lostAckRate)
        return attemptNo <= 1 ? Fault::LostAck : Fault::None;
    return Fault::None;
}

QString FakeTransport::rejection(const QString &eventId)
{
    static const char *const reasons[] = {"schema violation: quantity is not a number",
        "unknown SKU", "order already cancelled", "payload over the consumer's size limit"};
    const int which = int(drawFor(eventId, 2) * std::size(reasons));
    return QStringLiteral("consumer rejected the event permanently (%1)")
        .arg(QLatin1String(reasons[which]));
}

FakeTransport::Fault FakeTransport::nextFault(const Claim &claim, qint64 now)
{
    if (!m_script.isEmpty())
        return m_script.takeFirst();
    if (m_always != Fault::None)
        return m_always;
    if (now >= m_profile.outageFrom && now < m_profile.outageUntil)
        return Fault::Transient;
    if (m_profile.perEvent)
        return eventFault(m_profile, claim.eventId, claim.attemptNo);
    const double draw = m_random.generateDouble();
    if (draw < m_profile.permanentRate)
        return Fault::Permanent;
    if (draw < m_profile.permanentRate + m_profile.transientRate)
        return Fault::Transient;
    if (draw < m_profile.permanentRate + m_profile.transientRate + m_profile.lostAckRate)
        return Fault::LostAck;
    return Fault::None;
}

Delivery FakeTransport::deliver(const Claim &claim, qint64 now)
{
    ++m_calls;
    Delivery delivery;
    const Fault fault = nextFault(claim, now);
    switch (fault) {
    case Fault::Transient:
        delivery.outcome = Delivery::Outcome::TransientFailure;
        delivery.error = QStringLiteral("transport unavailable before reaching the consumer");
        return delivery;
    case Fault::Permanent:
        delivery.outcome = Delivery::Outcome::PermanentRejection;
        delivery.error = m_profile.perEvent
            ? rejection(claim.eventId)
            : QStringLiteral("consumer rejected the event permanently (schema violation)");
        return delivery;
    case Fault::LostAck:
    case Fault::None:
        break;
    }
    const Consumer::Result result = m_consumer.apply(claim.eventId, claim.payload, now);
    if (result == Consumer::Result::Error) {
        delivery.outcome = Delivery::Outcome::TransientFailure;
        delivery.error = QStringLiteral("consumer error: ") + m_consumer.lastError();
        return delivery;
    }
    if (fault == Fault::LostAck) {
        delivery.outcome = Delivery::Outcome::ResponseLost;
        delivery.error = QStringLiteral("response lost after the consumer committed (timeout)");
        return delivery;
    }
    delivery.outcome = result == Consumer::Result::Applied ? Delivery::Outcome::Applied
                                                           : Delivery::Outcome::Duplicate;
    return delivery;
}
