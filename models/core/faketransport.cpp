#include "faketransport.h"

FakeTransport::FakeTransport(const QSqlDatabase &db, quint32 seed)
    : m_consumer(db)
    , m_random(seed)
{ }

FakeTransport::Fault FakeTransport::nextFault(qint64 now)
{
    if (!m_script.isEmpty())
        return m_script.takeFirst();
    if (m_always != Fault::None)
        return m_always;
    if (now >= m_profile.outageFrom && now < m_profile.outageUntil)
        return Fault::Transient;
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
    const Fault fault = nextFault(now);
    switch (fault) {
    case Fault::Transient:
        delivery.outcome = Delivery::Outcome::TransientFailure;
        delivery.error = QStringLiteral("transport unavailable before reaching the consumer");
        return delivery;
    case Fault::Permanent:
        delivery.outcome = Delivery::Outcome::PermanentRejection;
        delivery.error
            = QStringLiteral("consumer rejected the event permanently (schema violation)");
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
