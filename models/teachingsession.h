// Drives the dashboard's teaching mode on a simulation database: either a seed scenario on the
// logical clock, stepped by hand or played at a pace, or the live relay with a producer on a
// scaled wall clock. Narration arrives in coalesced batches so a busy relay never floods the GUI.
#pragma once

#include "clock.h"
#include "databaseurl.h"
#include "relayconfig.h"
#include "traceevent.h"

#include <QObject>
#include <QStringList>
#include <QTimer>
#include <memory>

class DbConnection;
class Producer;
class Relay;
class ScenarioRunner;
class Simulation;

class TeachingSession : public QObject
{
    Q_OBJECT
public:
    enum class Mode { Idle, Scenario, LiveRelay };

    static RelayConfig demoRelayConfig(); // a lively mix of every fault, readable at speed 1
    static constexpr double DemoEventsPerSecond = 3.0;

    explicit TeachingSession(const DatabaseUrl &url, QObject *parent = nullptr);
    ~TeachingSession() override;

    // Empties the simulation tables and prepares the scenario at t=0, paused.
    bool startScenario(const QString &name, QString *error);
    // Starts the live relay and a producer of `eventsPerSecond` (in clock time); keeps the rows.
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

private:
    void stepScenario();
    void produceDue();
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
    std::unique_ptr<DbConnection> m_connection;
    LogicalClock m_logicalClock;
    ScaledClock m_scaledClock;
    std::unique_ptr<Simulation> m_simulation;
    std::unique_ptr<ScenarioRunner> m_runner;
    std::unique_ptr<Relay> m_relay;
    std::unique_ptr<Producer> m_producer;
    RelayConfig m_relayConfig;
    double m_eventsPerSecond = 0;
    qint64 m_produceFrom = 0; // clock time the producer counts from
    int m_producedAtStart = 0;
    QTimer m_playTimer;
    QTimer m_produceTimer;
    QTimer m_flushTimer;
    QStringList m_pendingLines;
    int m_droppedLines = 0;
    qint64 m_origin = 0; // wall-clock start of the live relay, shown as +0 s
    bool m_changed = false;
};
