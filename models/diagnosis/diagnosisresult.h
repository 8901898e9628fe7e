// What the diagnosis engine found: findings (code, severity, count, summary, evidence,
// action), worst first, and which codes were checked and which could not be (a profile
// without the columns or the attempt history a rule needs). Plain values: a worker thread
// computes one and hands it to the GUI thread by value.
#pragma once

#include "advice.h"

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QVariantMap>

namespace DiagnosisCode {
inline const QString RelayStalled = QStringLiteral("relay_stalled");
inline const QString LeaseExpiredUnclaimed = QStringLiteral("lease_expired_unclaimed");
inline const QString DominantError = QStringLiteral("dominant_error");
inline const QString PoisonType = QStringLiteral("poison_type");
inline const QString RetryHerd = QStringLiteral("retry_herd");
inline const QString DeadRising = QStringLiteral("dead_rising");
inline const QString FutureSchedule = QStringLiteral("future_schedule");
inline const QString CreatedInFuture = QStringLiteral("created_in_future");
inline const QString CreatedAtOnUpdate = QStringLiteral("created_at_on_update");
inline const QString BlockedAggregate = QStringLiteral("blocked_aggregate");
inline const QString DeadEvents = QStringLiteral("dead_events");
// The replication slot of an outbox relayed by change data capture (CdcFinding): checked only
// when a slot is configured, so not in all(); it sorts after them.
inline const QString CdcSlot = QStringLiteral("cdc_slot");
// Every code the engine always checks, in the contract's order.
QStringList all();
// all() and the codes checked only when configured (CdcSlot): the order findings sort in.
QStringList ordered();
} // namespace DiagnosisCode

struct Finding
{
    enum class Severity { Info, Warning, Critical };

    QString code; // a DiagnosisCode
    Severity severity = Severity::Warning;
    qint64 count = 0; // events affected (aggregates for blocked_aggregate: see docs/user-guide.md,
                      // Diagnosis)
    QString summary; // one plain sentence
    QVariantMap evidence; // the numbers behind it
    QString action; // what to do, one sentence (outboxctl's words where advice is set)
    // What the finding is about, for a filter: the error signature (dominant_error) or the
    // event type (poison_type); empty otherwise. Not part of the JSON contract.
    QString subject;
    // The action as data, for the findings whose words name a surface's controls: each surface
    // phrases it (actionFor). Empty: `action` reads the same everywhere. JSON: "action_id".
    Advice advice = {};

    QString actionFor(Advice::Surface surface) const;
    // The evidence as the window's tooltip and outboxctl diagnose say it, one item each:
    // "oldest due: 12 min" (a key in ms, humane; in units on the logical clock of `now`),
    // "due events: 1,204", "share: 85%". The JSON keeps the keys and exact numbers.
    QStringList evidenceLines(qint64 now) const;
    static QString severityName(Severity severity); // "info", "warning", "critical"
    // A code in a few words, for a status line or a fleet row: "relay stalled".
    static QString shortName(const QString &code);
    QJsonObject toJson() const;
};

struct DiagnosisResult
{
    qint64 now = 0;
    QList<Finding> findings; // worst first, then in the contract's order
    QStringList checked; // codes, in the contract's order
    QStringList notChecked;
    QHash<QString, QString> notCheckedReasons; // code -> why, e.g. "needs the attempt history"
    qint64 queryMs = 0;
    // DEAD events an operator's note marker covers (OperatorNotes::coverage); -1 where notes
    // are not available (a profile, a schema older than version 3).
    qint64 onHold = -1;
    qint64 investigating = -1;

    bool hasAcknowledged() const { return onHold >= 0; }
    qint64 acknowledged() const { return hasAcknowledged() ? onHold + investigating : 0; }

    // Any warning or critical finding (outboxctl diagnose exits 1).
    bool hasProblem() const;
    // "2 findings: relay stalled, one error dominates DEAD", or "No findings".
    QString headline() const;
    // Puts the findings worst first (stable in the contract's order).
    void sortFindings();
    // {"now":..., "findings":[...], "checked":[...], "not_checked":[...]}, and when a note's
    // marker covers DEAD events "acknowledged":{"dead":N,"on_hold":N,"investigating":N}
    QJsonObject toJson() const;
};
Q_DECLARE_METATYPE(DiagnosisResult)
