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

struct ScenarioStep
{
    std::function<qint64(Simulation &)> when;
    std::function<void(Simulation &)> run;
};

struct Scenario
{
    QString name;
    QString summary; // one sentence a learner reads in the scenario picker
    RetryPolicy policy;
    RetryBudget budget;
    qint64 lease = 30;
    std::function<void(Simulation &)> setup;
    QList<ScenarioStep> steps;

    static QStringList names();
    static std::optional<Scenario> byName(const QString &name);
};

// Runs a scenario one step at a time (the GUI's step button) or to the end (outboxctl).
class ScenarioRunner
{
public:
    ScenarioRunner(Simulation &simulation, const Scenario &scenario);

    bool start(); // applies policy, budget and lease, runs the setup at t=0
    bool step(); // runs the next step; false at the end or on a database error
    bool runToEnd();
    bool atEnd() const { return m_next >= m_scenario.steps.size(); }

private:
    Simulation &m_simulation;
    Scenario m_scenario;
    qsizetype m_next = 0;
};
