// Failures grouped by the signature of their last error (ErrorSignature): the PENDING events
// that failed at least once and the DEAD ones, with how many, their commonest error category,
// event types, and when the group was first and last seen (the earliest and latest last failure
// of its events, from the attempt history; unknown through a profile). Reads only the PENDING
// and DEAD rows, grouped by the database by message (at most `limit` messages, commonest first).
// Call it on the thread that owns the connection; it returns values.
#pragma once

#include "outboxprofile.h"

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QMetaType>
#include <QSet>
#include <QSqlDatabase>
#include <QStringList>
#include <optional>

struct ErrorGroup
{
    QString signature;
    qint64 count = 0; // events
    qint64 dead = 0; // of them DEAD
    QString category; // the commonest last_error_category ("" when none is recorded)
    QMap<QString, qint64> eventTypes; // type -> events
    std::optional<qint64> firstSeen; // ms; none without attempt history
    std::optional<qint64> lastSeen;
    QString example; // one message of the group as stored (its first ReadLength characters)
    // The group's uncleared operator notes, as the Errors tab shows them (filled by the reader
    // that has them, not by read()): the strongest marker ("on-hold" over "investigating"),
    // the newest note's text and who wrote it.
    QString marker;
    QString note;
    QString noteBy;

    qint64 retrying() const { return count - dead; } // PENDING after a failure
    // The marker as the Errors page and outboxctl errors show it: "ON-HOLD", "INVESTIGATING".
    QString markerText() const { return marker.toUpper(); }
    QStringList typesByCount() const; // commonest first
    // Also "error_group" (the signature, as --error-group takes it) and "retrying"; "marker",
    // "note" and "note_by" when a note was added.
    QJsonObject toJson() const;
};
Q_DECLARE_METATYPE(ErrorGroup)

namespace ErrorGroups {

constexpr int DefaultLimit = 10000;

// The groups, largest first. Nothing with *error set when a statement fails or the schema
// has no last_error.
std::optional<QList<ErrorGroup>> read(
    const QSqlDatabase &db, const OutboxProfile *profile, QString *error, int limit = DefaultLimit);

// The DEAD events whose last error has this signature (`signature` may also be a message: it
// is normalised first), ordered by event ID.
// Each group's uncleared operator notes (newest note, strongest marker), where notes exist (the
// native schema from version 3); the groups stand without them elsewhere or when the read fails.
void addNotes(const QSqlDatabase &db, const OutboxProfile *profile, QList<ErrorGroup> *groups);

std::optional<QStringList> deadEventIds(
    const QSqlDatabase &db, const OutboxProfile *profile, const QString &signature, QString *error);
// The same for several signatures (already normalised) in one pass over the DEAD rows: each
// signature that some DEAD event has, with those events ordered by event ID.
std::optional<QHash<QString, QStringList>> deadEventsBySignature(const QSqlDatabase &db,
    const OutboxProfile *profile, const QSet<QString> &signatures, QString *error);

} // namespace ErrorGroups
