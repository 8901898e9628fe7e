// Edit and replay: a parked (DEAD) event's payload changed by an operator and the event released
// again under the same event ID, with its lineage kept. A variant of replay on OperatorJob's one
// path (who and why required, the refusals, then the event in a transaction of its own): with the
// row locked (FOR UPDATE where the engine has it, SQLite's BEGIN IMMEDIATE), the event must still
// be DEAD and still hold the payload the editor started from (otherwise another operator won:
// nothing is written and the caller is told); then the payload before the edit is kept,
// immutable, as a payload_revision row (with the new payload, who, why, when and whether redacted
// values were revealed), and replay's own change (Replayer::nativeChange, with the new payload
// set in the same UPDATE) makes the event PENDING, due now, claim cleared, with its replay_log
// row. The new payload must be JSON of at most MaxPayloadBytes; a redacted key whose value is
// still Redaction::Mask keeps its stored value, and a redacted value may change only when the
// operator revealed the values (recorded). Refused on a profile for another schema, a read-only
// connection and a schema older than version 3 (which has no payload_revision), each saying what
// to do instead.
#pragma once

#include "statementcache.h"

#include "operatorjob.h"
#include "outboxprofile.h"
#include "payloadedittypes.h"
#include "replaytypes.h"

#include <QSqlDatabase>
#include <optional>

class PayloadEditor
{
public:
    // A payload larger than this (UTF-8) is refused before it is parsed.
    static constexpr qint64 MaxPayloadBytes = 1024 * 1024;
    // The schema version that has payload_revision.
    static constexpr int NeededVersion = 3;

    explicit PayloadEditor(const QSqlDatabase &db, const std::optional<OutboxProfile> &profile = {},
        bool readOnly = false);

    // Why no payload can be edited here (empty when it can).
    QString refusal();
    // Empty when `payload` may be saved: JSON (an object or an array) of at most
    // MaxPayloadBytes; otherwise one sentence, with the line and column of a parse error.
    static QString invalidity(const QString &payload);
    // What the editor compares: a payload changed since it was read is another operator's edit.
    static QByteArray digest(const QString &payload);
    // The payload as the editor shows it: indented JSON, redacted values masked unless revealed.
    static QString editableText(
        const QString &payload, const QStringList &sensitiveKeys, bool revealed);
    // `edited` with every masked redacted value put back from `stored`, as compact JSON; null
    // with *error set when, not revealed, it changes or removes a redacted value.
    static std::optional<QString> merged(const QString &stored, const QString &edited,
        const QStringList &sensitiveKeys, bool revealed, QString *error);

    // What edit() would do, read in a read-only transaction, nothing written: Replayed (would
    // replay) with the diff and the revision number, or why not (no operator or reason needed).
    PayloadEditResult preview(const PayloadEditRequest &request);
    // OperatorJob's path, as every operator action: a variant of replay's native change that
    // also sets the payload, with the revision written in the event's transaction.
    PayloadEditResult edit(const PayloadEditRequest &request);
    // What payload_revision records and how the edit's errors name it.
    static const OperatorWords &words();

    // What an editor starts from: the event's status and payload as stored (status empty when
    // there is no such event), read in a read-only transaction. Null with *error set.
    struct Current
    {
        QString status;
        QString payload;
    };
    std::optional<Current> current(const QString &eventId, QString *error);

    // The event's revisions, oldest first; empty on a schema without payload_revision.
    std::optional<QList<PayloadRevision>> revisions(const QString &eventId, QString *error);
    // The event's revisions and which payload each attempt carried, as lines for the detail
    // pane: "Revision 1 by alice at TIME: REASON (1 changed: ~ quantity: "2" → 2)", then
    // "Attempts 1–3 carried the original payload; attempt 4 carried revision 1". An attempt
    // claimed before a revision was made carried the payload before it. Empty without
    // revisions; sensitive values masked unless the revision revealed them.
    std::optional<QStringList> lineage(
        const QString &eventId, const QStringList &sensitiveKeys, QString *error);

private:
    struct Stored
    {
        bool found = false;
        QString status;
        QString payload;
        int revisions = 0;
    };

    QString requestRefusal(const PayloadEditRequest &request);
    static ReplayRequest replayOf(const PayloadEditRequest &request);
    OperatorJob::Outcome editStep(const PayloadEditRequest &request, const ReplayRequest &replay,
        PayloadEditResult *result, QString *error);
    PayloadEditResult compare(const PayloadEditRequest &request, const Stored &stored) const;
    bool readStored(
        QSqlQuery &row, QSqlQuery &count, const QString &eventId, Stored *stored, QString *error);
    bool writeRevision(const PayloadEditRequest &request, const Stored &stored,
        const PayloadEditResult &change, QString *error);
    QSqlQuery &prepared(const QString &sql) { return m_statements.prepared(sql); }

    QSqlDatabase m_db;
    std::optional<OutboxProfile> m_profile; // only for another schema than the native one
    bool m_readOnly = false;
    StatementCache m_statements;
    OperatorJob m_job;
};
