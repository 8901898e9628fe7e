// What an operator asks for when editing a parked (DEAD) event's payload and replaying it, and
// what happened: the values passed between the edit dialog, `outboxctl replay --edit` and the
// PayloadEditor. The event keeps its event ID; the original payload stays in payload_revision.
#pragma once

#include <QByteArray>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

struct PayloadEditRequest
{
    QString eventId;
    // The payload as the editor was given it, as JSON text: the value of a redacted key may
    // still be Redaction::Mask, which keeps the stored value (unless `revealed`).
    QString newPayload;
    // PayloadEditor::digest() of the payload the editor started from: when the event's payload
    // is no longer that one (another operator's edit won), nothing is written. Empty: the
    // payload read in the edit's own transaction (outboxctl, which reads and writes at once).
    QByteArray baseDigest;
    // The operator was shown the redacted values and may change them: recorded in the revision.
    bool revealed = false;
    QStringList sensitiveKeys; // the redaction list the editor masked with
    QString operatorName; // required: payload_revision and replay_log record who
    QString reason; // required: ... and why
    bool resetBudget = false; // as replay: failures back to 0, otherwise one more attempt
    qint64 now = 0;
};

struct PayloadEditResult
{
    enum class Outcome {
        Replayed, // the revision written, the new payload set, the event PENDING again
        Conflict, // another operator got there first (not DEAD, another payload): nothing written
        Refused, // bad input, a schema or connection that cannot: nothing written
        Failed, // the database failed: rolled back
        // The COMMIT was sent and got no answer (the connection was lost): edited or not,
        // nobody knows yet; a rerun edits it only if this one did not (the event is DEAD).
        Unknown,
    };
    Outcome outcome = Outcome::Refused;
    QString error; // one sentence when not Replayed
    int revisionNo = 0; // the revision written (1 for the first edit of an event)
    QString payload; // the payload as stored (masked values merged back)
    QStringList diff; // PayloadDiff::lines of the change, sensitive values masked unless revealed

    bool ok() const { return outcome == Outcome::Replayed; }
};
Q_DECLARE_METATYPE(PayloadEditResult)

// One row of payload_revision: the payload an event had before revision `number`.
struct PayloadRevision
{
    int number = 0;
    QString payload; // before the edit (immutable)
    QString newPayload; // what the edit set
    QString operatorName;
    QString reason;
    bool revealed = false;
    qint64 createdAt = 0;
};
Q_DECLARE_METATYPE(QList<PayloadRevision>)
