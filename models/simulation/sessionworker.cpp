#include "sessionworker.h"

#include "dbconnection.h"
#include "outagestorm.h"
#include "producer.h"
#include "scenario.h"
#include "scenarioclaim.h"
#include "schema.h"
#include "simulation.h"
#include "sqldialect.h"

#include <QSqlQuery>
#include <QThread>

SessionWorker::SessionWorker(const DatabaseUrl &url, const Clock *producerClock, QObject *parent)
    : QObject(parent)
    , m_url(url)
    , m_producerClock(producerClock)
{ }

SessionWorker::~SessionWorker()
{
    stopRun();
}

bool SessionWorker::openConnection(QString *error)
{
    Q_ASSERT(QThread::currentThread() == thread());
    m_connection = DbConnection::open(m_url, {}, error);
    return m_connection != nullptr;
}

void SessionWorker::stopRun()
{
    Q_ASSERT(QThread::currentThread() == thread());
    m_producer.reset();
    m_runner.reset();
    m_simulation.reset();
    m_connection.reset();
    m_reopen = false;
}

bool SessionWorker::prepareScenario(const QString &name, QString *error)
{
    const std::optional<Scenario> scenario = Scenario::byName(name);
    if (!scenario) {
        *error = tr("unknown scenario '%1'").arg(name);
        return false;
    }
    if (!openSimulation(error))
        return false;
    const QSqlDatabase db = m_connection->database();
    if (!Schema::clearSimulationData(db, error))
        return false;
    m_simulation = std::make_unique<Simulation>(db);
    const quint64 run = m_run;
    connect(m_simulation.get(), &Simulation::traced, this,
        [this, run](const TraceEvent &event) { emit traced(run, event); });
    m_runner = std::make_unique<ScenarioRunner>(*m_simulation, *scenario);
    if (!m_runner->start()) {
        *error = m_simulation->errorText();
        return false;
    }
    m_scenarioName = name;
    m_setupSummary = m_simulation->summary();
    return true;
}

bool SessionWorker::openSimulation(QString *error)
{
    if (!openConnection(error))
        return false;
    if (!Schema::isMarkedForSimulation(m_connection->database())) {
        *error = tr("%1 is not a simulation database").arg(m_url.toDisplayString());
        return false;
    }
    return true;
}

void SessionWorker::startScenario(quint64 run, const QString &name)
{
    stopRun();
    m_run = run;
    QString error;
    if (!prepareScenario(name, &error) && error.isEmpty())
        error = tr("the scenario could not start");
    emit scenarioStarted(run, error);
}

void SessionWorker::stepScenario(quint64 run)
{
    if (!isCurrent(run) || !m_runner)
        return;
    if (m_runner->atEnd()) {
        const ScenarioClaim claim = ScenarioClaim::of(
            m_scenarioName, m_setupSummary, m_simulation->summary(), m_simulation->trace());
        emit scenarioClaimed(run, claim.text(), claim.holds);
        emit scenarioStepped(run, m_simulation->now(), /*ended=*/true, true, {});
        return;
    }
    const bool ok = m_runner->stepTransition(); // one transition a Step shows
    emit scenarioStepped(
        run, m_simulation->now(), false, ok, ok ? QString() : m_simulation->errorText());
}

void SessionWorker::startStorm(quint64 run, const QString &policy, const QString &comparison)
{
    stopRun();
    m_run = run;
    StormLesson lesson;
    QString error;
    if (!runStorm(policy, comparison, &lesson, &error) && error.isEmpty())
        error = tr("the outage storm could not run");
    m_connection.reset(); // nothing more to do until the next start
    emit stormReady(run, lesson, error);
}

// Seed 1, as `outboxctl simulate --scenario outage-storm`: the same numbers as it prints.
bool SessionWorker::runStorm(
    const QString &policy, const QString &comparison, StormLesson *lesson, QString *error)
{
    RetryPolicy mine, theirs;
    if (!RetryPolicy::parse(policy, &mine, error) || !RetryPolicy::parse(comparison, &theirs, error)
        || !openSimulation(error))
        return false;
    const QSqlDatabase db = m_connection->database();
    // Some 2,400 short transactions: on SQLite (WAL) without a sync each, on this connection
    // only, which closes with the storm; a simulation's rows need no power-loss durability.
    for (const QString &statement : m_connection->dialect().simulationSessionStatements())
        QSqlQuery(db).exec(statement);
    StormRun other, run;
    StormLesson compared; // the other policy's attempts, read before its rows are replaced
    if (!OutageStorm::run(db, theirs, 1, &other, error) || !StormLesson::read(db, &compared, error)
        || !OutageStorm::run(db, mine, 1, &run, error) || !StormLesson::read(db, lesson, error))
        return false;
    lesson->comparisonAttempts = compared.attempts;
    lesson->policy = mine.spec();
    lesson->comparisonPolicy = theirs.spec();
    lesson->comparisonPeak = other.peakSameInstant;
    lesson->outageUntil = OutageStorm::OutageUntil;
    return true;
}

void SessionWorker::startProducer(quint64 run)
{
    stopRun();
    m_run = run;
    QString error;
    if (openConnection(&error)) {
        m_producer = std::make_unique<Producer>(m_connection->database(), m_producerClock);
        if (!m_producer->seedStock(&error))
            m_producer.reset();
    }
    emit producerStarted(run, error);
}

void SessionWorker::startProducing(quint64 run, qint64 from)
{
    if (!isCurrent(run) || !m_producer)
        return;
    m_produceFrom = from;
    m_producedAtStart = m_producer->produced();
}

void SessionWorker::reconnect()
{
    Q_ASSERT(QThread::currentThread() == thread());
    m_reopen = false;
    if (!m_connection)
        return;
    QSqlDatabase db = m_connection->database(); // the producer keeps using this handle
    // The server may not be back yet: try again before the next insert.
    m_reopen = !DbConnection::reopen(db);
}

void SessionWorker::produceDue(quint64 run, double eventsPerSecond)
{
    if (!isCurrent(run) || !m_producer) {
        emit produced(run, 0, {});
        return;
    }
    if (m_reopen)
        reconnect();
    const double seconds = double(m_producerClock->now() - m_produceFrom) / 1000.0;
    const int due = int(seconds * eventsPerSecond) - (m_producer->produced() - m_producedAtStart);
    QString error;
    if (due > 0 && !m_producer->produce(due, &error))
        m_reopen = true;
    emit produced(run, std::max(due, 0), error);
}

void SessionWorker::stepLive(quint64 run)
{
    if (!isCurrent(run) || !m_producer)
        return;
    if (m_reopen)
        reconnect();
    QString error;
    if (m_producer->produced() == 0 && !m_producer->produce(1, &error))
        m_reopen = true;
    emit liveStepReady(run, error);
}
