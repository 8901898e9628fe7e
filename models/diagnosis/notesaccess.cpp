#include "notesaccess.h"

namespace NotesAccess {

OperatorNotes open(const QSqlDatabase &outboxDb, const OutboxProfile *profile)
{
    return OperatorNotes(outboxDb, profile);
}

} // namespace NotesAccess
