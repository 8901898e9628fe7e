// Which of some event IDs name no event in the outbox, as a profile reads it: outboxctl refuses
// an unknown ID (exit 2, nothing changed) before replay, resolve or explain act on the others.
// One indexed lookup by event ID each, in one read-only transaction (SourceReader). The
// window's Find event and --select ask locate(): whether the event exists and, when it does,
// which criteria of the table's filter hide it.
#pragma once

#include "eventfilter.h"
#include "outboxprofile.h"

#include <QMetaType>
#include <QSqlDatabase>
#include <QStringList>
#include <optional>

// Where one event stands against a filter: absent, or there and hidden by these criteria
// (none: the filter shows it).
struct EventLocation
{
    QString eventId;
    QString error; // non-empty: the lookup failed; nothing else is meaningful
    bool found = false;
    QList<EventFilter::Criterion> hiddenBy;
};

Q_DECLARE_METATYPE(EventLocation)

class EventLookup
{
public:
    // The event by its ID (the primary key), then each criterion of `filter` alone against that
    // one row, as of `now` (ms; due and scheduled states depend on it).
    static EventLocation locate(const QSqlDatabase &db, const OutboxProfile *profile,
        const QString &eventId, const EventFilter &filter, qint64 now);

    // The IDs of `ids` (each once, in order) that no row holds; nothing with *error set when a
    // statement fails. `profile` null or native: the native schema.
    static std::optional<QStringList> unknown(const QSqlDatabase &db, const OutboxProfile *profile,
        const QStringList &ids, QString *error);
};
