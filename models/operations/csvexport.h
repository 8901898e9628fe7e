// CSV export (RFC 4180: comma-separated, CRLF line ends, fields with a comma, quote, CR or LF
// quoted and inner quotes doubled, a header row) of the events a filter matches, with the
// payload redacted, of the replay log, and of the operator notes. Rows are read a page of 1,000 at a time (keyset
// pages in ID order: Qt's MySQL driver holds a statement's whole result in memory) and
// streamed straight to the device: a large outbox is never held in memory (measured on
// PostgreSQL before paging: peak RSS stays flat exporting 1M rows, see docs/outboxctl.md,
// export). The window's "Export
// events…" and `outboxctl export` both write through here.
//
// Spreadsheet-safe (the OWASP CSV-injection rule): a cell beginning with =, +, -, @, TAB or CR
// gets a leading ' so that a spreadsheet shows it as text instead of running it as a formula
// (an event type `=HYPERLINK("http://…")`, or a replay reason, is stored by whoever wrote it).
#pragma once

#include "eventfilter.h"

#include <QIODevice>
#include <QSqlDatabase>
#include <QStringList>
#include <functional>

namespace CsvExport {

// Called after each row written with the count so far; returning false stops the export
// (it then fails with cancelledError()). Runs on the exporting thread.
using Progress = std::function<bool(qint64 rowsWritten)>;
QString cancelledError();

// One field: neutralised (a leading ') when it could start a formula, then quoted when it
// must be.
QString field(const QString &text);
// `text` with a leading ' when its first character is =, +, -, @, TAB or CR.
QString neutralised(const QString &text);

// event_id, event_type, aggregate_type, aggregate_id, status, failures, created_at,
// next_attempt_at, last_error_category, last_error, payload_redacted; ordered by event ID.
// `source` is the table read: delivery_outbox, or a profile's source() for another schema.
bool exportEvents(const QSqlDatabase &db, const EventFilter &filter, qint64 now,
    const QStringList &sensitiveKeys, QIODevice *out, QString *error, qint64 *rows = nullptr,
    const QString &source = QStringLiteral("delivery_outbox"), const Progress &progress = {});

// replay_id, event_id, replayed_at, operator, reason, reset_failures, failures_before;
// oldest first, all events or only `eventId`'s.
bool exportReplayLog(const QSqlDatabase &db, QIODevice *out, QString *error,
    const QString &eventId = {}, qint64 *rows = nullptr, const Progress &progress = {});

// The audit of `outboxctl export --audit`: the replay log's rows exactly as exportReplayLog
// writes them (same columns, same order), then the operator notes and the payload revisions,
// in columns appended after them, so that a reader by header keeps reading the replays:
// replay_id, event_id, replayed_at, operator, reason, reset_failures, failures_before, kind
// ("replay", "note" or "revision"), at (when: replayed_at, a note's created_at or a
// revision's), note_id, error_group, text, marker, cleared_at, cleared_by, revision_no. A
// note row fills event_id (or error_group), operator, at and the note's columns; a revision row
// event_id, operator, reason, at and revision_no (never the payloads). `notesDb` holds
// operator_note (the outbox's own database, or a notes database); `withNotes` false leaves the
// notes out (a schema without them), `withRevisions` false the revisions.
bool exportAudit(const QSqlDatabase &db, const QSqlDatabase &notesDb, bool withNotes,
    bool withRevisions, QIODevice *out, QString *error, qint64 *rows = nullptr);

// The operator notes (operator_note, schema version 3), cleared ones too: note_id, event_id,
// error_group, operator, created_at, text, marker, cleared_at, cleared_by; oldest first. The
// caller checks that the table exists (OperatorNotes::unavailable).
bool exportNotes(const QSqlDatabase &db, QIODevice *out, QString *error, qint64 *rows = nullptr);

// The audit of actions through a profile (ProfileAudit) on the outbox `outbox`, from the audit
// store: audit_id, event_id, action, acted_at, operator, reason, state_before, state_after,
// outcome ("intended", "done", "skipped", "failed"), settled_at; oldest first.
bool exportProfileAudit(const QSqlDatabase &store, const QString &outbox, QIODevice *out,
    QString *error, qint64 *rows = nullptr);

} // namespace CsvExport
