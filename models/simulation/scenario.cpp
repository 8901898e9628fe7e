#include "scenario.h"

#include "simulation.h"

namespace {

const QString Sku = QStringLiteral("SKU-1");
const QString WorkerA = QStringLiteral("A");
const QString WorkerB = QStringLiteral("B");

ScenarioStep at(qint64 t, std::function<void(Simulation &)> run)
{
    return {[t](Simulation &) { return t; }, {std::move(run)}};
}

// An attempt in three phases, each a transition of its own: the claim, the transport call, and
// its outcome (ack or failure). A refused claim leaves the other two with nothing to do.
ScenarioStep attempt(std::function<qint64(Simulation &)> when, const QString &worker,
    const QString &eventId)
{
    return {std::move(when),
        {[worker, eventId](Simulation &s) { s.claim(worker, eventId); },
            [worker](Simulation &s) { s.deliver(worker); },
            [worker](Simulation &s) { s.settle(worker); }}};
}

ScenarioStep attemptAt(qint64 t, const QString &worker, const QString &eventId)
{
    return attempt([t](Simulation &) { return t; }, worker, eventId);
}

ScenarioStep attemptWhenDue(const QString &eventId)
{
    return attempt(
        [eventId](Simulation &s) { return s.nextAttemptAt(eventId); }, WorkerA, eventId);
}

// Two steps: a claim one unit before the event is due (refused), then an attempt at the due time.
QList<ScenarioStep> probeThenAttempt(const QString &eventId)
{
    return {
        {[eventId](Simulation &s) { return s.nextAttemptAt(eventId) - 1; },
            {[eventId](Simulation &s) { s.claim(WorkerA, eventId); }}},
        attemptWhenDue(eventId),
    };
}

std::function<void(Simulation &)> reserve(const QString &eventId)
{
    return [eventId](Simulation &s) {
        s.setStock(Sku, 10);
        s.addStockReservation(eventId, Sku, 2);
    };
}

Scenario retrySchedule()
{
    Scenario s {QStringLiteral("retry-schedule"),
        QStringLiteral("EVENT-1 always fails transiently: retries wait 10, 20, then 40 units; "
                       "a claim one unit early is refused; the fourth failure parks it DEAD."),
        {}, {4, 0}, 30, {}, {}, {}};
    s.setup = [](Simulation &sim) {
        reserve(QStringLiteral("EVENT-1"))(sim);
        sim.transport().setAlwaysFail(FakeTransport::Fault::Transient);
    };
    s.steps << attemptAt(0, WorkerA, QStringLiteral("EVENT-1"));
    for (int i = 0; i < 3; ++i)
        s.steps << probeThenAttempt(QStringLiteral("EVENT-1"));
    s.title = QStringLiteral("Retries wait longer each time, then the budget parks it DEAD");
    return s;
}

Scenario scheduledRetry()
{
    Scenario s {QStringLiteral("scheduled-retry"),
        QStringLiteral("EVENT-42's first call fails before reaching the consumer; the failure is "
                       "persisted with a due time 80 units later, and the retry delivers once."),
        {}, {3, 0}, 30, {}, {}, {}};
    RetryPolicy::parse(QStringLiteral("fixed:80"), &s.policy, nullptr);
    s.setup = [](Simulation &sim) {
        reserve(QStringLiteral("EVENT-42"))(sim);
        sim.transport().setScript({FakeTransport::Fault::Transient});
    };
    s.steps << attemptAt(0, WorkerA, QStringLiteral("EVENT-42"))
            << attemptWhenDue(QStringLiteral("EVENT-42"));
    s.title = QStringLiteral("A failed call is retried later and delivers once");
    return s;
}

Scenario poisonDead()
{
    Scenario s {QStringLiteral("poison-dead"),
        QStringLiteral("EVENT-9 fails every time: after three failures it is parked DEAD for an "
                       "operator, and a later claim is refused; stock never changes."),
        {}, {3, 0}, 30, {}, {}, {}};
    s.setup = [](Simulation &sim) {
        reserve(QStringLiteral("EVENT-9"))(sim);
        sim.transport().setAlwaysFail(FakeTransport::Fault::Transient);
    };
    const QString id = QStringLiteral("EVENT-9");
    s.steps << attemptAt(0, WorkerA, id) << attemptWhenDue(id) << attemptWhenDue(id);
    s.steps << at(70, [id](Simulation &sim) { sim.claim(WorkerA, id); });
    s.title = QStringLiteral("An event that always fails is parked DEAD for an operator");
    return s;
}

Scenario lostAck()
{
    Scenario s {QStringLiteral("lost-ack"),
        QStringLiteral("EVENT-42 reaches the consumer, which commits, but the response is lost: "
                       "the retry carries the same event ID and the consumer answers DUPLICATE."),
        {}, {3, 0}, 30, {}, {}, {}};
    s.setup = [](Simulation &sim) {
        reserve(QStringLiteral("EVENT-42"))(sim);
        sim.transport().setScript({FakeTransport::Fault::LostAck});
    };
    s.steps << attemptAt(0, WorkerA, QStringLiteral("EVENT-42"))
            << attemptWhenDue(QStringLiteral("EVENT-42"));
    s.title = QStringLiteral("A lost acknowledgement: the retry is answered DUPLICATE");
    return s;
}

Scenario leaseExpiry()
{
    Scenario s {QStringLiteral("lease-expiry"),
        QStringLiteral("Worker A claims EVENT-42 and stalls; B may take over only when the lease "
                       "expires; A's late acknowledgement is fenced off by its stale token."),
        {}, {3, 0}, 30, {}, {}, {}};
    s.setup = reserve(QStringLiteral("EVENT-42"));
    const QString id = QStringLiteral("EVENT-42");
    s.steps << at(0, [id](Simulation &sim) { sim.claim(WorkerA, id); });
    s.steps << at(29, [id](Simulation &sim) { sim.claim(WorkerB, id); });
    s.steps << attemptAt(30, WorkerB, id);
    s.steps << ScenarioStep {[](Simulation &) { return 40; },
        {[](Simulation &sim) { sim.deliver(WorkerA); },
            [](Simulation &sim) { sim.settle(WorkerA); }}};
    s.title = QStringLiteral("A stalled worker's lease expires and another takes over");
    return s;
}

Scenario permanentRejection()
{
    Scenario s {QStringLiteral("permanent-rejection"),
        QStringLiteral(
            "EVENT-13 is rejected permanently: it is parked DEAD at once with no retry."),
        {}, {3, 0}, 30, {}, {}, {}};
    s.setup = [](Simulation &sim) {
        reserve(QStringLiteral("EVENT-13"))(sim);
        sim.transport().setScript({FakeTransport::Fault::Permanent});
    };
    s.steps << attemptAt(0, WorkerA, QStringLiteral("EVENT-13"));
    s.title = QStringLiteral("A permanent rejection parks the event DEAD at once");
    return s;
}

// What an edit cannot do: the consumer applied EVENT-77 but its acknowledgement was lost, the
// retry never reached the consumer and the budget parked it DEAD; an operator edits the
// payload (quantity 2 -> 5) and replays it under the same event ID, and the consumer, which
// deduplicates by event ID, answers DUPLICATE and keeps the first payload.
Scenario editAfterLostAck()
{
    Scenario s {QStringLiteral("edit-after-lost-ack"),
        QStringLiteral("EVENT-77 is applied but its acknowledgement is lost, and it is parked "
                       "DEAD; an operator edits its payload and replays it: the consumer answers "
                       "DUPLICATE and keeps the first payload."),
        {}, {2, 0}, 30, {}, {}, {}};
    const QString id = QStringLiteral("EVENT-77");
    s.setup = [id](Simulation &sim) {
        reserve(id)(sim);
        sim.transport().setScript({FakeTransport::Fault::LostAck, FakeTransport::Fault::Transient});
    };
    s.steps << attemptAt(0, WorkerA, id) << attemptWhenDue(id);
    s.steps << at(50, [id](Simulation &sim) {
        sim.editAndReplay(QStringLiteral("alice"), id,
            QStringLiteral("{\"sku\":\"%1\",\"quantity\":5}").arg(Sku),
            QStringLiteral("the order was for 5"));
    });
    s.steps << attemptAt(50, WorkerA, id);
    s.title = QStringLiteral("Editing a payload cannot undo what the consumer applied");
    return s;
}

} // namespace

QStringList Scenario::names()
{
    return {QStringLiteral("retry-schedule"), QStringLiteral("scheduled-retry"),
        QStringLiteral("poison-dead"), QStringLiteral("lost-ack"), QStringLiteral("lease-expiry"),
        QStringLiteral("permanent-rejection"), QStringLiteral("edit-after-lost-ack")};
}

std::optional<Scenario> Scenario::byName(const QString &name)
{
    const QList<std::function<Scenario()>> all = {retrySchedule, scheduledRetry, poisonDead,
        lostAck, leaseExpiry, permanentRejection, editAfterLostAck};
    for (const auto &make : all) {
        Scenario scenario = make();
        if (scenario.name == name)
            return scenario;
    }
    return std::nullopt;
}

ScenarioRunner::ScenarioRunner(Simulation &simulation, const Scenario &scenario)
    : m_simulation(simulation)
    , m_scenario(scenario)
{ }

bool ScenarioRunner::start()
{
    m_simulation.store().setRetryPolicy(m_scenario.policy);
    m_simulation.store().setBudget(m_scenario.budget);
    m_simulation.store().setLeaseDuration(m_scenario.lease);
    m_simulation.setNow(0);
    if (m_scenario.setup)
        m_scenario.setup(m_simulation);
    m_next = 0;
    return !m_simulation.hasError();
}

void ScenarioRunner::runPhase()
{
    const ScenarioStep &next = m_scenario.steps.at(m_next);
    if (m_phase == 0)
        m_simulation.setNow(next.when(m_simulation));
    next.phases.at(m_phase++)(m_simulation);
    if (m_phase >= next.phases.size()) {
        ++m_next;
        m_phase = 0;
    }
}

bool ScenarioRunner::step()
{
    if (atEnd() || m_simulation.hasError())
        return false;
    const qsizetype step = m_next;
    while (m_next == step && !m_simulation.hasError())
        runPhase();
    return !m_simulation.hasError();
}

// A phase with nothing to do (the call after a refused claim) is passed over: each Step tells.
bool ScenarioRunner::stepTransition()
{
    if (atEnd() || m_simulation.hasError())
        return false;
    const int told = m_simulation.told();
    while (!atEnd() && !m_simulation.hasError() && m_simulation.told() == told)
        runPhase();
    return !m_simulation.hasError();
}

bool ScenarioRunner::runToEnd()
{
    while (!atEnd()) {
        if (!step())
            return false;
    }
    return !m_simulation.hasError();
}
