// The simulator's transport: it carries an event to the local Consumer and injects the
// faults the seed documents name. Faults come from a script (one per call, for the seed
// scenarios) or from probabilities (for the live relay), drawn from a seeded generator.
#pragma once

#include "consumer.h"
#include "transport.h"

#include <QList>
#include <QRandomGenerator>

struct FaultProfile
{
    double transientRate = 0.0; // fails before reaching the consumer
    double permanentRate = 0.0; // poison: rejected for good
    double lostAckRate = 0.0; // the consumer commits, the response is lost
    qint64 outageFrom = -1; // every call in [outageFrom, outageUntil) fails transiently
    qint64 outageUntil = -1;
    // The demo's faults: each event's own, drawn once from its event ID, so that what an
    // operator reads on it holds (a poison event is rejected on every call, a replay included;
    // a transient one fails its first one to three calls, a lost acknowledgement its first, then
    // delivers). Off: each call draws afresh.
    bool perEvent = false;
};

class FakeTransport : public Transport
{
public:
    enum class Fault { None, Transient, Permanent, LostAck };

    explicit FakeTransport(const QSqlDatabase &db, quint32 seed = 1);

    void setProfile(const FaultProfile &profile) { m_profile = profile; }
    // The next calls take these faults in order, before the profile applies again.
    void setScript(const QList<Fault> &faults) { m_script = faults; }
    // Every call fails with this fault (None turns it off).
    void setAlwaysFail(Fault fault) { m_always = fault; }

    Delivery deliver(const Claim &claim, qint64 now) override;
    int calls() const { return m_calls; }

    // The fault `perEvent` gives the `attemptNo`th call of `eventId`.
    static Fault eventFault(const FaultProfile &profile, const QString &eventId, int attemptNo);
    // A poison event's rejection, one of a few per event (the demo's DEAD events do not all
    // share one error).
    static QString rejection(const QString &eventId);

private:
    Fault nextFault(const Claim &claim, qint64 now);

    Consumer m_consumer;
    FaultProfile m_profile;
    QList<Fault> m_script;
    Fault m_always = Fault::None;
    QRandomGenerator m_random;
    int m_calls = 0;
};
