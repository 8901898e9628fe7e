// Which of some event IDs name no event in the outbox, as a profile reads it: outboxctl refuses
// an unknown ID (exit 2, nothing changed) before replay, resolve or explain act on the others.
// One indexed lookup by event ID each, in one read-only transaction (SourceReader).
#pragma once

#include "outboxprofile.h"

#include <QSqlDatabase>
#include <QStringList>
#include <optional>

class EventLookup
{
public:
    // The IDs of `ids` (each once, in order) that no row holds; nothing with *error set when a
    // statement fails. `profile` null or native: the native schema.
    static std::optional<QStringList> unknown(const QSqlDatabase &db, const OutboxProfile *profile,
        const QStringList &ids, QString *error);
};
