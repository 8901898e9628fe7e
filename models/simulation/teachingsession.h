// Drives the dashboard's teaching mode on a simulation database: either a seed scenario on the
// logical clock, stepped by hand or played at a pace (ending with the claim it proves), the
// outage storm (run on the worker, then told instant by instant on the logical clock), or the
// live relay with a producer on a scaled wall clock. Narration arrives in coalesced batches so a
// busy relay never floods the GUI. No SQL runs here: the scenario and the producer run on the
// session worker's thread (with its own connection), the relay on its workers' threads; this object
// sends requests and receives values. A start is checked here (a known scenario) and finishes on
// the worker: startFinished.
#pragma once

#include "clock.h"
#include "databaseurl.h"
#include "relayconfig.h"
#include "requestids.h"
#include "stormlesson.h"
#include "traceevent.h"
#include "workerthread.h"

#include <QObject>
#include <QStringList>
#include <QTimer>
#include <memory>
#include <optional>

class Relay;
class SessionWorker;

class TeachingSession : public QObject
{
    Q_OBJECT
public:
    enum class Mode { Idle, Scenario, Storm, LiveRelay };

    static RelayConfig demoRelayConfig(); // a lively mix of every fault, readable at speed 1
    static constexpr double DemoEventsPerSecond = 3.0;
    static constexpr const char *StormName = "outage-storm";
    static constexpr qint64 StormTick = 100; // logical units the storm's clock moves per tick
    static constexpr int StormTickMs = 200; // at speed 1

    explicit TeachingSession(const DatabaseUrl &url, QObject *parent = nullptr);
    ~TeachingSession() override; // stops the relay, then the session worker's thread

    // Empties the simulation tables and prepares the scenario at t=0, paused (the panel's Start
    // then plays it). False with *error
    // for an unknown scenario; otherwise the worker starts it (steps asked for meanwhile run
    // after it) and startFinished reports the outcome.
    bool startScenario(const QString &name, QString *error);
    // Runs the outage storm under `policy` (a spec) and under the policy it is compared with
    // (exponential-random for exponential, else exponential) on the worker; false with *error
    // for a malformed spec. startFinished reports the outcome; play then tells it on the clock.
    bool startStorm(const QString &policy, QString *error);
    // Starts the live relay and a producer of `eventsPerSecond` (in clock time); keeps the rows.
    // The relay's workers connect on their threads, the producer's stock is seeded on the
    // session worker; startFinished reports the outcome (true here; *error is kept for callers).
    bool startLiveRelay(const RelayConfig &config, double eventsPerSecond, QString *error);
    void stop();

    Mode mode() const { return m_mode; }
    QString scenarioName() const { return m_scenarioName; }
    int scenarioBudget() const { return m_scenarioBudget; }
    bool isPlaying() const { return m_playing; }
    // The scenario or the storm was told to its end: Play or Step replays it from t=0.
    bool hasEnded() const { return m_ended; }
    bool isLogicalClock() const { return m_mode == Mode::Scenario || m_mode == Mode::Storm; }
    // The storm once the worker ran it (until then, or in another mode, none).
    const std::optional<StormLesson> &storm() const { return m_storm; }
    // The seed scenario's claim with its numbers, once it ended; empty before.
    QString claim() const { return m_claim; }
    bool claimHolds() const { return m_claimHolds; }
    qint64 now() const; // safe from any thread
    double speed() const { return m_speed; }
    const RelayConfig &relayConfig() const { return m_relayConfig; }

public slots:
    void play();
    void pause();
    void step();
    void setSpeed(double speed); // scenario: steps per second; relay: clock speed factor
    void setFaults(const FaultProfile &faults);

signals:
    void narrated(const QStringList &lines);
    // The newest step told with the last batch of narration (a claim, a call, an ack, a
    // failure…): what the lifecycle diagram highlights.
    void transitioned(const TraceEvent &event);
    void databaseChanged(); // coalesced: at most a few times a second
    void stateChanged(); // mode, playing, speed or scenario end changed
    void errorOccurred(const QString &message);
    void startFinished(bool ok, const QString &error); // a start's work on the worker is done
    void stormChanged(); // the storm arrived or its clock moved
    void claimed(const QString &claim, bool holds); // a seed scenario ended
    void replayed(); // Play or Step at the end started the same scenario or storm over at t=0
    // A scenario, the storm or the live relay is being started (or started over): the outbox's
    // figures from now on tell a new story, not a change of the old one.
    void starting();

private:
    void connectWorker();
    void requestStep(bool fromTimer);
    void replay();
    void produceDue();
    void onStarted(quint64 run, const QString &error);
    void advanceStorm();
    static QString stormSummary(const QString &policy, const QString &comparison);
    void onStormReady(quint64 run, const StormLesson &lesson, const QString &error);
    void onScenarioClaimed(quint64 run, const QString &claim, bool holds);
    int playInterval() const;
    void onScenarioStepped(quint64 run, qint64 now, bool ended, bool ok, const QString &error);
    void onProduced(quint64 run, int count, const QString &error);
    void onLiveStepReady(quint64 run, const QString &error);
    void onRelayOutage(const QString &cause);
    void onRelayBack(qint64 downMs);
    void onTrace(const TraceEvent &event);
    void flushNarration();
    void noteChange();

    DatabaseUrl m_url;
    Mode m_mode = Mode::Idle;
    QString m_scenarioName;
    int m_scenarioBudget = 3;
    std::optional<StormLesson> m_storm;
    QString m_claim;
    bool m_claimHolds = false;
    bool m_playing = false;
    bool m_ended = false;
    double m_speed = 1.0;
    LogicalClock m_logicalClock;
    ScaledClock m_scaledClock; // read by the worker's producer too (thread-safe)
    WorkerThread<SessionWorker> m_worker;
    RequestIds m_runs; // one per start; answers for an earlier one are dropped
    int m_startsPending = 0; // parts of the current start not yet done on their threads
    int m_stepsInFlight = 0; // scenario steps sent and not answered: play skips ticks meanwhile
    bool m_producing = false; // a produce request is on the worker: ticks skip meanwhile
    std::unique_ptr<Relay> m_relay;
    RelayConfig m_relayConfig;
    double m_eventsPerSecond = 0;
    QTimer m_playTimer;
    QTimer m_produceTimer;
    QTimer m_flushTimer;
    QStringList m_pendingLines;
    std::optional<TraceEvent> m_lastTrace; // told with the next flush
    int m_droppedLines = 0;
    qint64 m_origin = 0; // wall-clock start of the live relay, shown as +0 s
    bool m_changed = false;
};
