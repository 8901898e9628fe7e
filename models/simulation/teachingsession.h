// Drives the dashboard's teaching mode on a simulation database: either a seed scenario on the
// logical clock, stepped by hand or played at a pace, or the live relay with a producer on a
// scaled wall clock. Narration arrives in coalesced batches so a busy relay never floods the GUI.
// No SQL runs here: the scenario and the producer run on the session worker's thread (with its
// own connection), the relay on its workers' threads; this object sends requests and receives
// values. A start is checked here (a known scenario) and finishes on the worker: startFinished.
#pragma once

#include "clock.h"
#include "databaseurl.h"
#include "relayconfig.h"
#include "traceevent.h"

#include <QObject>
#include <QStringList>
#include <QThread>
#include <QTimer>
#include <memory>

class Relay;
class SessionWorker;

class TeachingSession : public QObject
{
    Q_OBJECT
public:
    enum class Mode { Idle, Scenario, LiveRelay };

    static RelayConfig demoRelayConfig(); // a lively mix of every fault, readable at speed 1
    static constexpr double DemoEventsPerSecond = 3.0;

    explicit TeachingSession(const DatabaseUrl &url, QObject *parent = nullptr);
    ~TeachingSession() override; // stops the relay, then the session worker's thread

    // Empties the simulation tables and prepares the scenario at t=0, paused. False with *error
    // for an unknown scenario; otherwise the worker starts it (steps asked for meanwhile run
    // after it) and startFinished reports the outcome.
    bool startScenario(const QString &name, QString *error);
    // Starts the live relay and a producer of `eventsPerSecond` (in clock time); keeps the rows.
    // The relay's workers connect on their threads, the producer's stock is seeded on the
    // session worker; startFinished reports the outcome (true here; *error is kept for callers).
    bool startLiveRelay(const RelayConfig &config, double eventsPerSecond, QString *error);
    void stop();

    Mode mode() const { return m_mode; }
    QString scenarioName() const { return m_scenarioName; }
    int scenarioBudget() const { return m_scenarioBudget; }
    bool isPlaying() const { return m_playing; }
    bool isLogicalClock() const { return m_mode == Mode::Scenario; }
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
    void databaseChanged(); // coalesced: at most a few times a second
    void stateChanged(); // mode, playing, speed or scenario end changed
    void errorOccurred(const QString &message);
    void startFinished(bool ok, const QString &error); // a start's work on the worker is done

private:
    void startWorker();
    void requestStep(bool fromTimer);
    void produceDue();
    void onStarted(quint64 run, const QString &error);
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
    bool m_playing = false;
    double m_speed = 1.0;
    LogicalClock m_logicalClock;
    ScaledClock m_scaledClock; // read by the worker's producer too (thread-safe)
    QThread m_thread;
    SessionWorker *m_worker = nullptr; // lives on m_thread, deleted there when it finishes
    quint64 m_run = 0; // the current start; answers from earlier ones are dropped
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
    int m_droppedLines = 0;
    qint64 m_origin = 0; // wall-clock start of the live relay, shown as +0 s
    bool m_changed = false;
};
