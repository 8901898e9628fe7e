// What a seed scenario demonstrates, in one sentence, and the numbers from its run that prove
// it: read from the run's trace and from the summaries (stock, ledger, transport calls) taken
// after the setup and at the end. Nothing here is written in advance: a scenario run with
// another policy or budget shows other numbers, and `holds` says whether they still prove it.
#pragma once

#include "traceevent.h"

#include <QList>
#include <QString>

struct ScenarioClaim
{
    QString statement; // the claim, one sentence without its numbers
    QString evidence; // the numbers from this run
    bool holds = false; // the numbers prove the statement

    QString text() const { return statement + QStringLiteral(": ") + evidence + u'.'; }

    // `before` and `after` are Simulation::summary() after the setup and at the end; an unknown
    // scenario gives an empty claim.
    static ScenarioClaim of(const QString &scenario, const TraceEvent &before,
        const TraceEvent &after, const QList<TraceEvent> &trace);
};
