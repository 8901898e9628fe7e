// One event explained with its current operator notes: what `outboxctl explain` prints and what
// the operator API's event detail answers (GET /api/v1/outboxes/NAME/events/ID), read once here.
#pragma once

#include "cli.h"
#include "eventexplainer.h"
#include "operatornotes.h"

#include <QJsonObject>
#include <optional>

struct ExplainReport
{
    EventExplanation explanation;
    QList<OperatorNote> notes; // empty where the outbox keeps no notes

    // The explanation's keys, then "notes":[...] when it has some (explain --json).
    QJsonObject toJson() const;

    // The event at `now` (EventExplainer) and its notes (NotesAccess); nothing with *error set
    // (no prefix) when a statement fails.
    static std::optional<ExplainReport> read(const Cli::Outbox &outbox, const QString &eventId,
        qint64 now, const ExplainOptions &options, QString *error);
};
