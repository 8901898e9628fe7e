// The teaching session's database work, on its own thread with its own connection: the seed
// scenario (clearing the simulation tables, its setup and each step) and the live relay's
// producer. Lives on the QThread that TeachingSession owns; the connection is opened there at
// the start of a run. Every request carries the run it belongs to and every answer names it, so
// the session drops answers from a run it has stopped. Results and errors come back as values.
#pragma once

#include "clock.h"
#include "databaseurl.h"
#include "stormlesson.h"
#include "traceevent.h"

#include <QObject>
#include <memory>

class DbConnection;
class Producer;
class ScenarioRunner;
class Simulation;

class SessionWorker : public QObject
{
    Q_OBJECT
public:
    SessionWorker(const DatabaseUrl &url, const Clock *producerClock, QObject *parent = nullptr);
    ~SessionWorker() override; // on the worker thread: the run's objects, then the connection

public slots:
    // Empties the simulation tables and runs the scenario's setup at t=0.
    void startScenario(quint64 run, const QString &name);
    void stepScenario(quint64 run); // the next step, or "ended" (after its claim) when none
    // Empties the simulation tables and runs the outage storm under `comparison`, then under
    // `policy` (whose rows stay for the window to show); answers with the lesson.
    void startStorm(quint64 run, const QString &policy, const QString &comparison);
    // Seeds the producer's stock; production then counts from `from` (producer clock time).
    void startProducer(quint64 run);
    void startProducing(quint64 run, qint64 from);
    void produceDue(quint64 run, double eventsPerSecond);
    void stepLive(quint64 run); // one event first when none was produced yet
    void reconnect(); // the producer's handle died with the server: open it again
    void stopRun();

signals:
    void traced(quint64 run, const TraceEvent &event);
    void scenarioStarted(quint64 run, const QString &error); // empty error: started
    void scenarioStepped(quint64 run, qint64 now, bool ended, bool ok, const QString &error);
    void scenarioClaimed(quint64 run, const QString &claim, bool holds); // at the scenario's end
    void stormReady(quint64 run, const StormLesson &lesson, const QString &error);
    void producerStarted(quint64 run, const QString &error);
    void produced(quint64 run, int count, const QString &error);
    void liveStepReady(quint64 run, const QString &error);

private:
    bool openConnection(QString *error);
    bool prepareScenario(const QString &name, QString *error);
    bool openSimulation(QString *error); // a connection to a database marked for simulation
    bool runStorm(
        const QString &policy, const QString &comparison, StormLesson *lesson, QString *error);
    bool isCurrent(quint64 run) const { return run == m_run; }

    DatabaseUrl m_url;
    const Clock *m_producerClock = nullptr;
    quint64 m_run = 0;
    // Declared before the objects holding its QSqlDatabase handle, so it is removed after them.
    std::unique_ptr<DbConnection> m_connection;
    std::unique_ptr<Simulation> m_simulation;
    std::unique_ptr<ScenarioRunner> m_runner;
    QString m_scenarioName;
    TraceEvent m_setupSummary; // the scenario's world after its setup, for its claim
    std::unique_ptr<Producer> m_producer;
    qint64 m_produceFrom = 0; // producer clock time production counts from
    int m_producedAtStart = 0;
    bool m_reopen = false; // a statement failed: reopen the handle before the next one
};
