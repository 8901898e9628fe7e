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

// The operator notes (operator_note, schema version 3), cleared ones too: note_id, event_id,
// error_group, operator, created_at, text, marker, cleared_at, cleared_by; oldest first. The
// caller checks that the table exists (OperatorNotes::unavailable).
bool exportNotes(const QSqlDatabase &db, QIODevice *out, QString *error, qint64 *rows = nullptr);

} // namespace CsvExport
