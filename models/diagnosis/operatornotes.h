// Operator notes and markers (native schema version 3, table operator_note): free text an
// operator leaves on a DEAD event or on an error group (the signature of the Errors tab, so a
// note follows every event that fails the same way), with who and when, and an optional marker:
// `investigating` or `on-hold`. A note is never deleted: clearing it records who cleared it and
// when, and a cleared note no longer covers anything. An on-hold marker keeps its events out of
// bulk replay (unless asked for); any marker counts its DEAD events as acknowledged.
// Lives in the diagnosis layer because a group's events are found by their error signature.
// Text is stored exactly as typed (HTML stays text; a view shows it as plain text); control
// characters other than newline and tab are refused, as is text over MaxTextLength.
// Call it on the thread that owns the connection; it returns values.
#pragma once

#include "outboxprofile.h"

#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QSet>
#include <QSqlDatabase>
#include <QString>
#include <QStringList>
#include <optional>

struct OperatorNote
{
    qint64 id = 0;
    QString eventId; // one of eventId and errorGroup is set
    QString errorGroup;
    QString operatorName;
    qint64 createdAt = 0;
    QString text;
    QString marker; // "", "investigating" or "on-hold"
    std::optional<qint64> clearedAt;
    QString clearedBy;

    bool isCleared() const { return clearedAt.has_value(); }
    // {"note_id","event_id"|null,"error_group"|null,"operator","created_at","text",
    //  "marker"|null,"cleared_at"|null,"cleared_by"|null}
    QJsonObject toJson() const;
};
Q_DECLARE_METATYPE(OperatorNote)

// Which notes a request is about: one event, one error group, or (both empty) every note.
struct NoteTarget
{
    QString eventId;
    QString errorGroup; // a signature (a message is normalised to its signature)

    bool isEvent() const { return !eventId.isEmpty(); }
};

struct NoteRequest
{
    NoteTarget target;
    QString operatorName;
    QString text;
    QString marker; // "", "investigating" or "on-hold"
    qint64 now = 0;
};

// The DEAD events the uncleared markers cover, by marker (an event under both counts as on
// hold: on-hold is the stronger marker).
struct NoteCoverage
{
    QSet<QString> onHold;
    QSet<QString> investigating;

    qsizetype acknowledged() const { return onHold.size() + investigating.size(); }
};

class OperatorNotes
{
public:
    static constexpr int NotesVersion = 3; // the schema version that has operator_note
    static constexpr int MaxTextLength = 4000;
    static constexpr int MaxOperatorLength = 255;
    static inline const QString Investigating = QStringLiteral("investigating");
    static inline const QString OnHold = QStringLiteral("on-hold");

    // Notes in the outbox's own database `db` (native schema); through a profile they are
    // unavailable (unavailable() names --notes-db).
    explicit OperatorNotes(const QSqlDatabase &db, const OutboxProfile *profile = nullptr);
    // Notes in `notesDb`, a native database of the tool's own, for the outbox `db` read through
    // `profile`: events and their states are read in `db` (never written), notes in `notesDb`.
    // `refusal`: why `notesDb` cannot be used (empty when it can). NotesAccess makes these.
    OperatorNotes(const QSqlDatabase &db, const OutboxProfile *profile, const QSqlDatabase &notesDb,
        const QString &refusal);

    // Empty when notes can be read and written here; otherwise why not, in one sentence: a
    // profile's schema without a notes database ("notes need the native schema", naming
    // --notes-db), a notes database that cannot be used, or a schema older than version 3
    // (naming `outboxctl migrate --db URL`).
    QString unavailable() const;
    // Where the notes are read and written: the outbox's database, or the notes database.
    QSqlDatabase notesDatabase() const { return m_notes; }
    // Empty when the request's words are acceptable (nothing asked of the database): operator
    // and text required, bounded, no control characters; exactly one target; a known marker.
    static QString invalid(const NoteRequest &request);

    // Adds a note; its note_id, or nothing with *error set and nothing written: refused words,
    // an event that does not exist or is not DEAD, a signature no DEAD event has.
    std::optional<qint64> add(const NoteRequest &request, QString *error);
    // Notes of `target` (every note when it is empty), oldest first; cleared ones only with
    // `withCleared`.
    std::optional<QList<OperatorNote>> list(
        const NoteTarget &target, bool withCleared, QString *error);
    // The uncleared notes on any of `eventIds` or of any of the error groups `signatures`
    // (already normalised), oldest first, in one statement: the event table's page (at most a
    // few hundred of each). Call only where unavailable() is empty.
    std::optional<QList<OperatorNote>> listFor(
        const QStringList &eventIds, const QStringList &signatures, QString *error);
    // Clears the uncleared notes of `target`, or the one note `noteId` (> 0): how many.
    std::optional<int> clear(const NoteTarget &target, qint64 noteId, const QString &operatorName,
        qint64 now, QString *error);
    // The DEAD events covered by an uncleared marker, on the event or on its error group.
    std::optional<NoteCoverage> coverage(QString *error);

    // "12 DEAD (9 on hold)", or "12 DEAD" when nothing is acknowledged; for tiles and lines.
    static QString deadText(qint64 dead, const NoteCoverage &coverage);
    // A bulk replay's selection without the events an uncleared on-hold marker covers (on the
    // event or on its error group): removes them from `ids` and returns them, in `ids`' order.
    // Nothing is left out where notes are not available here (unavailable() not empty).
    // `outboxctl replay --all-dead` and the window's "Replay all matching…" both use it.
    std::optional<QStringList> leaveOutOnHold(QStringList *ids, QString *error);
    // The same from counts (a diagnosis result's onHold and investigating).
    static QString deadText(qint64 dead, qint64 onHold, qint64 investigating);

private:
    QString checkGroup(const QString &signature);
    QString checkEvent(const QString &eventId, bool lock);
    std::optional<qint64> insert(const NoteRequest &request, const QString &group, QString *error);
    bool deadAmong(const QStringList &ids, QSet<QString> *dead, QString *error);
    void healAfter(const QString &error);

    QSqlDatabase m_db; // the outbox
    QSqlDatabase m_notes; // operator_note: m_db, or a notes database of the tool's own
    bool m_separate = false; // m_notes is not m_db
    QString m_refusal; // why m_notes cannot be used
    const OutboxProfile *m_profile = nullptr;
};
