// One event explained: where it is in its lifecycle, why, and what happens next, in plain
// words, e.g. "Scheduled: transient failure 2 of budget 4 at 09:02:55 (broker unavailable);
// due again at 09:03:15, in 12 s, under capped:10,20,40". The detail pane shows the text above
// the attempts; `outboxctl explain` prints it. The retry policy and the budget live in the
// relay's configuration, not in the database: pass them when known, the text leaves them out
// otherwise. Clock times are UTC (HH:mm:ss, with the date when not today's).
// Call it on the thread that owns the connection (a worker thread); it returns a value.
#pragma once

#include "advice.h"
#include "outboxprofile.h"
#include "retrypolicy.h"

#include <QJsonObject>
#include <QMetaType>
#include <QSqlDatabase>
#include <QVariantMap>
#include <optional>

struct ExplainOptions
{
    std::optional<RetryPolicy> policy; // the relay's retry policy, when known
    std::optional<int> budget; // attempts before an event is parked DEAD, when known
    // A lease that ended longer ago than this, or an event due longer than this, points at a
    // stalled relay (DiagnosisThresholds' stalledDueMs and leaseExpiredMs).
    qint64 stalledMs = 60000;
};

// One attempt as `explain` lists it (read through the schema's attempt history).
struct ExplainedAttempt
{
    qint64 number = 0;
    std::optional<qint64> finishedAt;
    QString outcome;
    QString error;
    QString worker;
};

struct EventExplanation
{
    QString eventId;
    QString state; // DUE, SCHEDULED, IN_FLIGHT, LEASE_EXPIRED, DELIVERED, DEAD, RESOLVED
    QString explanation; // one paragraph, without the advice
    QVariantMap facts; // the values it was built from (times in ms)
    Advice advice; // what to do (a DEAD event: replay it), worded by each surface
    // Its attempts, oldest first (empty without an attempt history), at most
    // AttemptMapping::ReadLimit of them, the newest; attemptsCut when it has more.
    QList<ExplainedAttempt> attempts;
    bool attemptsCut = false;

    // One line per attempt: "attempt 2 at 06:58:20 by web-1: RETRY (** (RuntimeError) boom)",
    // the error's first line only (never a stack trace).
    QStringList attemptLines(qint64 now) const;

    // The paragraph and its advice in the words of `surface`.
    QString text(Advice::Surface surface) const;
    // {"event_id", "state", "explanation" (outboxctl's words), "facts":{...}} and
    // "advice":{"action","subject"} when there is advice
    QJsonObject toJson() const;
};
Q_DECLARE_METATYPE(EventExplanation)

namespace EventExplainer {

// The event at `now`; nothing with *error set when it does not exist or a statement fails.
// `profile` null or native: the native schema (only it has the attempt history).
std::optional<EventExplanation> explain(const QSqlDatabase &db, const QString &eventId, qint64 now,
    QString *error, const OutboxProfile *profile = nullptr, const ExplainOptions &options = {});

// Clock time as the explanation writes it: "09:02:55" (UTC), the date too when not the day of
// `now`, "t=30" for a simulator's logical time.
QString clockTime(qint64 time, qint64 now);

} // namespace EventExplainer
