// Where the operator notes of an outbox connection live. On the native schema they are in the
// outbox's own database (table operator_note); through a profile they are not available, unless
// the operator points the tool at a native database of its own for them (`--notes-db`).
// Every caller that reads or writes notes (the CLI, diagnosis, the window's workers) gets its
// OperatorNotes here, on the thread that owns `outboxDb`.
#pragma once

#include "operatornotes.h"

namespace NotesAccess {

OperatorNotes open(const QSqlDatabase &outboxDb, const OutboxProfile *profile = nullptr);

} // namespace NotesAccess
