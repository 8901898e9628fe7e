// The seed scenarios: each is a setup and a list of steps on the logical clock. A step
// computes its own time from the database (e.g. "one unit before EVENT-1 is due"), so the
// schedule the trace shows is the one the store persisted, not one written into the script.
#pragma once

#include "retrypolicy.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <functional>
#include <optional>

class Simulation;

// A step at one time, in phases: an attempt is a claim, the transport call and its outcome,
// each one transition the window's Step shows apart (ScenarioRunner::stepTransition).
struct ScenarioStep
{
    std::function<qint64(Simulation &)> when;
    QList<std::function<void(Simulation &)>> phases;
};

struct Scenario
{
    QString name;
    QString summary; // what happens, in a sentence or two: the narration's first line
    RetryPolicy policy;
    RetryBudget budget;
    qint64 lease = 30;
    std::function<void(Simulation &)> setup;
    QList<ScenarioStep> steps;
    QString title; // one line a learner picks it by: what it teaches, not its name

    static QStringList names();
    static std::optional<Scenario> byName(const QString &name);
};

// Runs a scenario one step at a time (the GUI's step button) or to the end (outboxctl).
class ScenarioRunner
{
public:
    ScenarioRunner(Simulation &simulation, const Scenario &scenario);

    bool start(); // applies policy, budget and lease, runs the setup at t=0
    bool step(); // runs the next step (what is left of it); false at the end or on an error
    // Runs the next phase that tells something (a claim, a call, an outcome): one transition.
    bool stepTransition();
    bool runToEnd();
    bool atEnd() const { return m_next >= m_scenario.steps.size(); }

private:
    void runPhase();

    Simulation &m_simulation;
    Scenario m_scenario;
    qsizetype m_next = 0;
    qsizetype m_phase = 0; // within the next step
};
