#include "teachingsession.h"

#include "dbconnection.h"
#include "narration.h"
#include "producer.h"
#include "relay.h"
#include "scenario.h"
#include "schema.h"
#include "simulation.h"

namespace {

const int MaxLinesPerFlush = 40;

} // namespace

RelayConfig TeachingSession::demoRelayConfig()
{
    RelayConfig config;
    config.workers = 2;
    config.batch = 5;
    config.leaseMs = 4000;
    config.pollIntervalMs = 250;
    RetryPolicy::parse(
        QStringLiteral("exponential:initial=2000,multiplier=2,max=30000"), &config.policy, nullptr);
    config.budget.maxAttempts = 4;
    config.faults.transientRate = 0.15;
    config.faults.permanentRate = 0.03;
    config.faults.lostAckRate = 0.05;
    config.stallRate = 0.02;
    config.latencyMinMs = 50;
    config.latencyMaxMs = 400;
    return config;
}

TeachingSession::TeachingSession(const DatabaseUrl &url, QObject *parent)
    : QObject(parent)
    , m_url(url)
{
    connect(&m_playTimer, &QTimer::timeout, this, &TeachingSession::stepScenario);
    connect(&m_produceTimer, &QTimer::timeout, this, &TeachingSession::produceDue);
    m_flushTimer.setSingleShot(true);
    m_flushTimer.setInterval(200);
    connect(&m_flushTimer, &QTimer::timeout, this, &TeachingSession::flushNarration);
}

TeachingSession::~TeachingSession()
{
    stop();
}

qint64 TeachingSession::now() const
{
    return m_mode == Mode::Scenario ? m_logicalClock.now() : m_scaledClock.now();
}

void TeachingSession::stop()
{
    m_playTimer.stop();
    m_produceTimer.stop();
    m_relay.reset();
    m_producer.reset();
    m_runner.reset();
    m_simulation.reset();
    m_connection.reset();
    m_playing = false;
    m_mode = Mode::Idle;
}

bool TeachingSession::startScenario(const QString &name, QString *error)
{
    const std::optional<Scenario> scenario = Scenario::byName(name);
    if (!scenario) {
        *error = tr("unknown scenario '%1'").arg(name);
        return false;
    }
    stop();
    m_connection = DbConnection::open(m_url, {}, error);
    if (!m_connection)
        return false;
    if (!Schema::isMarkedForSimulation(m_connection->database())) {
        *error = tr("%1 is not a simulation database").arg(m_url.toDisplayString());
        return false;
    }
    if (!Schema::clearSimulationData(m_connection->database(), error))
        return false;
    m_simulation = std::make_unique<Simulation>(m_connection->database());
    connect(m_simulation.get(), &Simulation::traced, this, &TeachingSession::onTrace);
    m_runner = std::make_unique<ScenarioRunner>(*m_simulation, *scenario);
    m_mode = Mode::Scenario;
    m_scenarioName = name;
    m_scenarioBudget = scenario->budget.maxAttempts;
    m_logicalClock.set(0);
    m_pendingLines << name + QStringLiteral(": ") + scenario->summary;
    if (!m_runner->start()) {
        *error = m_simulation->errorText();
        return false;
    }
    noteChange();
    emit stateChanged();
    return true;
}

bool TeachingSession::startLiveRelay(
    const RelayConfig &config, double eventsPerSecond, QString *error)
{
    stop();
    m_connection = DbConnection::open(m_url, {}, error);
    if (!m_connection)
        return false;
    m_producer = std::make_unique<Producer>(m_connection->database(), &m_scaledClock);
    if (!m_producer->seedStock(error))
        return false;
    m_relayConfig = config;
    m_relay = std::make_unique<Relay>(m_url, config, &m_scaledClock);
    connect(m_relay.get(), &Relay::traced, this, &TeachingSession::onTrace);
    connect(m_relay.get(), &Relay::statsChanged, this, &TeachingSession::noteChange);
    connect(m_relay.get(), &Relay::workerError, this, &TeachingSession::errorOccurred);
    connect(m_relay.get(), &Relay::outageStarted, this, &TeachingSession::onRelayOutage);
    connect(m_relay.get(), &Relay::outageEnded, this, &TeachingSession::onRelayBack);
    if (!m_relay->start(error, /*paused=*/true))
        return false;
    m_relay->setTracing(true);
    m_mode = Mode::LiveRelay;
    m_origin = m_scaledClock.now();
    m_scenarioName.clear();
    m_eventsPerSecond = eventsPerSecond;
    m_pendingLines << tr("Live relay: %1 workers, batch %2, policy %3, budget %4; a producer adds "
                         "%5 events per second.")
                          .arg(config.workers)
                          .arg(config.batch)
                          .arg(config.policy.spec())
                          .arg(config.budget.maxAttempts)
                          .arg(eventsPerSecond);
    noteChange();
    emit stateChanged();
    return true;
}

void TeachingSession::play()
{
    if (m_mode == Mode::Idle || m_playing)
        return;
    m_playing = true;
    if (m_mode == Mode::Scenario) {
        m_playTimer.start(int(1000.0 / std::max(m_speed, 0.05)));
    } else {
        m_produceFrom = m_scaledClock.now();
        m_producedAtStart = m_producer->produced();
        m_produceTimer.start(100);
        m_relay->setPaused(false);
    }
    emit stateChanged();
}

void TeachingSession::pause()
{
    if (!m_playing)
        return;
    m_playing = false;
    m_playTimer.stop();
    m_produceTimer.stop();
    if (m_relay)
        m_relay->setPaused(true);
    emit stateChanged();
}

void TeachingSession::step()
{
    if (m_playing)
        pause();
    if (m_mode == Mode::Scenario) {
        stepScenario();
    } else if (m_mode == Mode::LiveRelay) {
        // A step on a quiet outbox first produces one event, so there is something to claim.
        QString error;
        if (m_producer->produced() == 0 && !m_producer->produce(1, &error))
            emit errorOccurred(error);
        m_relay->step();
    }
}

void TeachingSession::stepScenario()
{
    if (!m_runner)
        return;
    if (m_runner->atEnd()) {
        pause();
        m_pendingLines << tr(
            "End of the scenario. Pick another, or press Step to replay it from t=0.");
        flushNarration();
        emit stateChanged();
        return;
    }
    if (!m_runner->step())
        emit errorOccurred(m_simulation->errorText());
    m_logicalClock.set(m_simulation->now());
    noteChange();
}

// The window's relay never gives up: its workers keep reconnecting, the producer waits.
void TeachingSession::onRelayOutage(const QString &cause)
{
    emit errorOccurred(tr("The relay lost the database (%1); it keeps reconnecting.").arg(cause));
}

void TeachingSession::onRelayBack(qint64 downMs)
{
    QSqlDatabase db = m_connection->database(); // the producer's handle died with the server
    db.close();
    db.open();
    m_pendingLines << tr("The relay reconnected after %1 s and resumes.")
                          .arg(double(downMs) / 1000.0, 0, 'f', 1);
    noteChange();
}

void TeachingSession::produceDue()
{
    if (m_relay && m_relay->isInOutage())
        return;
    const double seconds = double(m_scaledClock.now() - m_produceFrom) / 1000.0;
    const int due = int(seconds * m_eventsPerSecond) - (m_producer->produced() - m_producedAtStart);
    QString error;
    if (due > 0 && !m_producer->produce(due, &error))
        emit errorOccurred(error);
    if (due > 0)
        noteChange();
}

void TeachingSession::setSpeed(double speed)
{
    m_speed = std::clamp(speed, 0.05, 100.0);
    m_scaledClock.setSpeed(m_speed);
    if (m_playTimer.isActive())
        m_playTimer.start(int(1000.0 / m_speed));
    emit stateChanged();
}

void TeachingSession::setFaults(const FaultProfile &faults)
{
    m_relayConfig.faults = faults;
    if (m_relay)
        m_relay->setFaultProfile(faults);
}

void TeachingSession::onTrace(const TraceEvent &event)
{
    if (m_pendingLines.size() < MaxLinesPerFlush)
        m_pendingLines << Narration::describe(event, m_origin);
    else
        ++m_droppedLines;
    noteChange();
}

void TeachingSession::noteChange()
{
    m_changed = true;
    if (!m_flushTimer.isActive())
        m_flushTimer.start();
}

void TeachingSession::flushNarration()
{
    if (m_droppedLines > 0)
        m_pendingLines << tr("… and %n more step(s)", nullptr, m_droppedLines);
    m_droppedLines = 0;
    if (!m_pendingLines.isEmpty())
        emit narrated(std::exchange(m_pendingLines, {}));
    if (std::exchange(m_changed, false))
        emit databaseChanged();
}
