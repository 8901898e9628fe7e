// Where the operator notes of an outbox connection live. On the native schema they are in the
// outbox's own database (table operator_note); through a profile they are not available, unless
// the operator points the tool at a native database of its own for them (`--notes-db URL`, set
// once at start-up with setNotesDatabase). That database is also the team's audit store: every
// action through a profile is recorded there (ProfileAudit), or refused. A native outbox keeps
// its notes in its own table whatever the notes database: purge and replay read them there.
// Every caller that reads or writes notes (the CLI, diagnosis, the window's workers) gets its
// OperatorNotes here, on the thread that owns `outboxDb`. The notes database is reached over a
// connection of that thread named after the outbox connection (NAME/notes), opened on first use,
// opened again after it failed, and removed with the outbox connection (DbConnection).
#pragma once

#include "databaseurl.h"
#include "operatornotes.h"
#include "profileaudit.h"

#include <optional>

namespace NotesAccess {

// The notes database of every profile outbox of this process (call before any worker starts).
void setNotesDatabase(const DatabaseUrl &url);
std::optional<DatabaseUrl> notesDatabase();

OperatorNotes open(const QSqlDatabase &outboxDb, const OutboxProfile *profile = nullptr);

// The audit store of actions on `outboxDb` through `profile` (another schema): the notes
// database, on the same connection as the notes; a ProfileAudit that refuses every action when
// none is configured or it cannot be used.
ProfileAudit audit(const QSqlDatabase &outboxDb, const OutboxProfile &profile);
// "profile_audit in sqlite:/srv/ops.db (the notes database)": where actions through a profile
// are audited, read from the setting alone (no database asked: the window's GUI thread may call
// it); empty when no audit store is configured.
QString auditWhere();

} // namespace NotesAccess
