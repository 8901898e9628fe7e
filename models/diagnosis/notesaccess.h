// Where the operator notes of an outbox connection live. On the native schema they are in the
// outbox's own database (table operator_note); through a profile they are not available, unless
// the operator points the tool at a native database of its own for them (`--notes-db URL`, set
// once at start-up with setNotesDatabase). A native outbox keeps its notes in its own table
// whatever the notes database: purge and replay read them there.
// Every caller that reads or writes notes (the CLI, diagnosis, the window's workers) gets its
// OperatorNotes here, on the thread that owns `outboxDb`. The notes database is reached over a
// connection of that thread named after the outbox connection (NAME/notes), opened on first use,
// opened again after it failed, and removed with the outbox connection (DbConnection).
#pragma once

#include "databaseurl.h"
#include "operatornotes.h"

#include <optional>

namespace NotesAccess {

// The notes database of every profile outbox of this process (call before any worker starts).
void setNotesDatabase(const DatabaseUrl &url);
std::optional<DatabaseUrl> notesDatabase();

OperatorNotes open(const QSqlDatabase &outboxDb, const OutboxProfile *profile = nullptr);

} // namespace NotesAccess
