#include "teachingsession.h"

#include "narration.h"
#include "outagestorm.h"
#include "relay.h"
#include "scenario.h"
#include "sessionworker.h"

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
    config.faults.perEvent = true; // a replayed poison event fails again, as the dialog warns
    config.stallRate = 0.02;
    config.latencyMinMs = 50;
    config.latencyMaxMs = 400;
    return config;
}

TeachingSession::TeachingSession(const DatabaseUrl &url, QObject *parent)
    : QObject(parent)
    , m_url(url)
    , m_worker(QStringLiteral("outbox-session"), new SessionWorker(url, &m_scaledClock))
{
    qRegisterMetaType<TraceEvent>();
    qRegisterMetaType<StormLesson>();
    connect(&m_playTimer, &QTimer::timeout, this, [this] {
        if (m_mode == Mode::Storm)
            advanceStorm();
        else
            requestStep(/*fromTimer=*/true);
    });
    connect(&m_produceTimer, &QTimer::timeout, this, &TeachingSession::produceDue);
    m_flushTimer.setSingleShot(true);
    m_flushTimer.setInterval(200);
    connect(&m_flushTimer, &QTimer::timeout, this, &TeachingSession::flushNarration);
    connectWorker();
    m_worker.start();
}

TeachingSession::~TeachingSession()
{
    stop();
    m_worker.stop(); // the worker ends its statement, then drops its run and its connection
}

void TeachingSession::connectWorker()
{
    SessionWorker *worker = m_worker.worker();
    connect(worker, &SessionWorker::traced, this, [this](quint64 run, const TraceEvent &event) {
        if (m_runs.isNewest(run))
            onTrace(event);
    });
    connect(worker, &SessionWorker::scenarioStarted, this, &TeachingSession::onStarted);
    connect(worker, &SessionWorker::producerStarted, this, &TeachingSession::onStarted);
    connect(worker, &SessionWorker::scenarioStepped, this, &TeachingSession::onScenarioStepped);
    connect(worker, &SessionWorker::scenarioClaimed, this, &TeachingSession::onScenarioClaimed);
    connect(worker, &SessionWorker::stormReady, this, &TeachingSession::onStormReady);
    connect(worker, &SessionWorker::produced, this, &TeachingSession::onProduced);
    connect(worker, &SessionWorker::liveStepReady, this, &TeachingSession::onLiveStepReady);
}

qint64 TeachingSession::now() const
{
    return isLogicalClock() ? m_logicalClock.now() : m_scaledClock.now();
}

void TeachingSession::stop()
{
    Q_ASSERT(QThread::currentThread() == thread());
    m_playTimer.stop();
    m_produceTimer.stop();
    m_relay.reset();
    m_runs.next(); // whatever the worker still answers for the stopped run is dropped
    m_worker.post([](SessionWorker *worker) { worker->stopRun(); });
    m_pendingLines.clear(); // what the stopped run still had to tell is not told
    m_lastTrace.reset();
    m_droppedLines = 0;
    m_stepsInFlight = 0;
    m_startsPending = 0;
    m_producing = false;
    m_playing = false;
    m_ended = false;
    m_mode = Mode::Idle;
    m_storm.reset();
    m_claim.clear();
    m_claimHolds = false;
}

bool TeachingSession::startScenario(const QString &name, QString *error)
{
    const std::optional<Scenario> scenario = Scenario::byName(name);
    if (!scenario) {
        *error = tr("unknown scenario '%1'").arg(name);
        return false;
    }
    stop();
    m_mode = Mode::Scenario;
    m_scenarioName = name;
    m_scenarioBudget = scenario->budget.maxAttempts;
    m_logicalClock.set(0);
    m_pendingLines << name + QStringLiteral(": ") + scenario->summary;
    const quint64 run = m_runs.newest();
    m_startsPending = 1;
    emit starting();
    m_worker.post([run, name](SessionWorker *worker) { worker->startScenario(run, name); });
    emit stateChanged();
    return true;
}

bool TeachingSession::startStorm(const QString &policy, QString *error)
{
    RetryPolicy mine;
    if (!RetryPolicy::parse(policy, &mine, error))
        return false;
    const QStringList known = OutageStorm::policies(); // exponential, exponential-random
    const QString comparison
        = mine.kind() == RetryPolicy::Kind::Exponential ? known.at(1) : known.at(0);
    stop();
    m_mode = Mode::Storm;
    m_scenarioName = QString::fromLatin1(StormName);
    m_logicalClock.set(0);
    m_pendingLines << stormSummary(mine.spec(), comparison);
    const quint64 run = m_runs.newest();
    m_startsPending = 1;
    emit starting();
    m_worker.post([run, spec = mine.spec(), comparison](SessionWorker *worker) {
        worker->startStorm(run, spec, comparison);
    });
    emit stateChanged();
    emit stormChanged();
    return true;
}

QString TeachingSession::stormSummary(const QString &policy, const QString &comparison)
{
    return tr("outage-storm: %1 events fail during a transport outage until t=%2, then it "
              "recovers. Retries follow %3; the peak is compared with %4.")
        .arg(OutageStorm::Events)
        .arg(OutageStorm::OutageUntil)
        .arg(policy, comparison);
}

void TeachingSession::onStormReady(quint64 run, const StormLesson &lesson, const QString &error)
{
    if (!m_runs.isNewest(run))
        return;
    if (!error.isEmpty()) {
        onStarted(run, error);
        return;
    }
    m_storm = lesson;
    m_pendingLines << lesson.narrationBetween(-1, 0);
    emit stormChanged();
    onStarted(run, {});
}

// One tick of the storm's clock: the instants it passes appear on the chart, the moments it
// passes are told; at the last instant the storm ends.
void TeachingSession::advanceStorm()
{
    if (!m_storm)
        return; // still running on the worker: play waits for it
    const qint64 from = m_logicalClock.now();
    if (from >= m_storm->endsAt())
        return; // told to the end: Play or Step replays it (replay)
    const qint64 to = std::min(from + StormTick, m_storm->endsAt());
    m_pendingLines << m_storm->narrationBetween(from, to);
    m_logicalClock.set(to);
    emit stormChanged();
    if (to >= m_storm->endsAt()) {
        m_ended = true;
        pause();
        m_pendingLines << tr("End of the storm. Switch the policy to run it again under another.");
        flushNarration();
        emit stateChanged();
        return;
    }
    noteChange();
}

void TeachingSession::onScenarioClaimed(quint64 run, const QString &claim, bool holds)
{
    if (!m_runs.isNewest(run) || m_ended) // a step sent past the end claims it again: once
        return;
    m_claim = claim;
    m_claimHolds = holds;
    m_pendingLines << tr("Claim: %1").arg(claim);
    emit claimed(claim, holds);
}

int TeachingSession::playInterval() const
{
    const int base = m_mode == Mode::Storm ? StormTickMs : 1000;
    return int(base / std::max(m_speed, 0.05));
}

bool TeachingSession::startLiveRelay(
    const RelayConfig &config, double eventsPerSecond, QString *error)
{
    if (config.workers < 1 || eventsPerSecond < 0) {
        *error = tr("the live relay needs at least one worker and a producer rate of 0 or more");
        return false;
    }
    stop();
    m_relayConfig = config;
    m_relay = std::make_unique<Relay>(m_url, config, &m_scaledClock);
    connect(m_relay.get(), &Relay::traced, this, &TeachingSession::onTrace);
    connect(m_relay.get(), &Relay::statsChanged, this, &TeachingSession::noteChange);
    connect(m_relay.get(), &Relay::workerError, this, &TeachingSession::errorOccurred);
    connect(m_relay.get(), &Relay::outageStarted, this, &TeachingSession::onRelayOutage);
    connect(m_relay.get(), &Relay::outageEnded, this, &TeachingSession::onRelayBack);
    const quint64 run = m_runs.newest();
    // Queued: a failed start deletes the relay, never from inside its own signal.
    connect(
        m_relay.get(), &Relay::started, this,
        [this, run](bool, const QString &error) { onStarted(run, error); }, Qt::QueuedConnection);
    m_startsPending = 2; // the relay's workers and the producer
    m_relay->startAsync(/*paused=*/true); // each worker connects on its own thread
    m_relay->setTracing(true);
    // The stock is seeded on the worker before any event it produces: one queue, in order.
    m_worker.post([run](SessionWorker *worker) { worker->startProducer(run); });
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

void TeachingSession::onStarted(quint64 run, const QString &error)
{
    if (!m_runs.isNewest(run))
        return;
    if (!error.isEmpty()) {
        stop();
        emit stateChanged();
        emit startFinished(false, error);
        return;
    }
    noteChange();
    if (--m_startsPending == 0)
        emit startFinished(true, {});
}

void TeachingSession::play()
{
    if (m_mode == Mode::Idle || m_playing)
        return;
    if (m_ended)
        replay();
    m_playing = true;
    if (isLogicalClock()) {
        m_playTimer.start(playInterval());
    } else {
        const quint64 run = m_runs.newest();
        const qint64 from = m_scaledClock.now();
        m_worker.post([run, from](SessionWorker *worker) { worker->startProducing(run, from); });
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
    if (m_ended) {
        replay();
        return;
    }
    if (m_mode == Mode::Scenario) {
        requestStep(/*fromTimer=*/false);
    } else if (m_mode == Mode::Storm) {
        advanceStorm();
    } else if (m_mode == Mode::LiveRelay) {
        // A step on a quiet outbox first produces one event, so there is something to claim:
        // the relay steps once the worker has committed it (onLiveStepReady).
        const quint64 run = m_runs.newest();
        m_worker.post([run](SessionWorker *worker) { worker->stepLive(run); });
    }
}

// Play or Step at the end: the same run again from t=0, told from its first sentence. A
// scenario starts afresh on the worker (its own few rows emptied, as Start does); the storm,
// already computed, is told again.
void TeachingSession::replay()
{
    m_ended = false;
    if (m_mode == Mode::Scenario) {
        QString error;
        startScenario(m_scenarioName, &error); // a known name: it started before
    } else if (m_mode == Mode::Storm && m_storm) {
        emit starting();
        m_logicalClock.set(0);
        m_pendingLines << stormSummary(m_storm->policy, m_storm->comparisonPolicy)
                       << m_storm->narrationBetween(-1, 0);
        emit stormChanged();
        noteChange();
    }
    emit replayed();
}

// A step the learner asks for is always sent (they run in order); a tick of play is skipped
// while a step is still on the worker, so a slow database never piles up steps.
void TeachingSession::requestStep(bool fromTimer)
{
    if (m_mode != Mode::Scenario || (fromTimer && m_stepsInFlight > 0))
        return;
    ++m_stepsInFlight;
    const quint64 run = m_runs.newest();
    m_worker.post([run](SessionWorker *worker) { worker->stepScenario(run); });
}

void TeachingSession::onScenarioStepped(
    quint64 run, qint64 now, bool ended, bool ok, const QString &error)
{
    if (!m_runs.isNewest(run))
        return;
    m_stepsInFlight = std::max(0, m_stepsInFlight - 1);
    if (ended) {
        if (std::exchange(m_ended, true))
            return; // a step sent before the end was seen: told once
        pause();
        m_pendingLines << tr(
            "End of the scenario. Pick another, or press Step to replay it from t=0.");
        flushNarration();
        emit stateChanged();
        return;
    }
    if (!ok)
        emit errorOccurred(error);
    m_logicalClock.set(now);
    noteChange();
}

void TeachingSession::onLiveStepReady(quint64 run, const QString &error)
{
    if (!m_runs.isNewest(run))
        return;
    if (!error.isEmpty())
        emit errorOccurred(error);
    if (m_relay)
        m_relay->step();
}

// The window's relay never gives up: its workers keep reconnecting, the producer waits.
void TeachingSession::onRelayOutage(const QString &cause)
{
    emit errorOccurred(tr("The relay lost the database (%1); it keeps reconnecting.").arg(cause));
}

void TeachingSession::onRelayBack(qint64 downMs)
{
    // The producer's handle died with the server.
    m_worker.post([](SessionWorker *worker) { worker->reconnect(); });
    m_pendingLines << tr("The relay reconnected after %1 s and resumes.")
                          .arg(double(downMs) / 1000.0, 0, 'f', 1);
    noteChange();
}

void TeachingSession::produceDue()
{
    if ((m_relay && m_relay->isInOutage()) || m_producing)
        return;
    m_producing = true;
    const quint64 run = m_runs.newest();
    const double eventsPerSecond = m_eventsPerSecond;
    m_worker.post([run, eventsPerSecond](SessionWorker *worker) {
        worker->produceDue(run, eventsPerSecond);
    });
}

void TeachingSession::onProduced(quint64 run, int count, const QString &error)
{
    if (!m_runs.isNewest(run))
        return;
    m_producing = false;
    if (!error.isEmpty())
        emit errorOccurred(error);
    if (count > 0)
        noteChange();
}

void TeachingSession::setSpeed(double speed)
{
    m_speed = std::clamp(speed, 0.05, 100.0);
    m_scaledClock.setSpeed(m_speed);
    if (m_playTimer.isActive())
        m_playTimer.start(playInterval());
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
    m_lastTrace = event;
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
    if (m_lastTrace)
        emit transitioned(*std::exchange(m_lastTrace, std::nullopt));
    if (std::exchange(m_changed, false))
        emit databaseChanged();
}
