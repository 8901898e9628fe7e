// The plain values that travel between the event table (GUI thread) and its query worker: one
// row of the table, a request for a page of rows, and the answer. Nothing here touches a
// database, so the model can hold and copy them freely.
#pragma once

#include "eventfilter.h"
#include "outboxprofile.h"

#include <QList>
#include <QMetaType>
#include <QString>
#include <QVariant>
#include <optional>

struct EventRow
{
    QString eventId;
    QString eventType;
    QString aggregate;
    QString status;
    int failures = 0;
    qint64 createdAt = 0;
    qint64 nextAttemptAt = 0;
    bool claimed = false;
    qint64 leaseUntil = 0;
    QString errorCategory;
    QString lastError;
    // A DEAD row's operator notes (on the event or its error group, uncleared): the strongest
    // marker ("on-hold", "investigating", or "note" for a note without one; "" for none) and
    // the newest note's text and author. Read with the page, one statement for its rows.
    QString noteMarker;
    QString note;
    QString noteBy;
    QVariant sortKey; // the value of the sort expression, the keyset anchor

    friend bool operator==(const EventRow &, const EventRow &) = default;
};

struct EventPageRequest
{
    // Reload: the first page (filter or sort changed). Next / Previous: the page after the last
    // row or before the first. Refresh: the window again, from its first row on.
    enum class Kind { Reload, Next, Previous, Refresh };
    // Where a keyset page starts relative to the anchor row: after it, at it, or before it.
    enum class Anchor { None, After, AtOrAfter, Before };

    quint64 id = 0;
    Kind kind = Kind::Reload;
    QString source = QStringLiteral("delivery_outbox"); // a table, or a profile's derived table
    std::optional<OutboxProfile> profile; // the profile `source` comes from (its notes: --notes-db)
    EventFilter filter;
    qint64 now = 0;
    QString sortExpression = QStringLiteral("event_id");
    bool ascending = true;
    Anchor anchor = Anchor::None;
    QVariant anchorKey;
    QString anchorId;
    int limit = 200;
    bool count = false; // also count the matching rows, up to CountLimit
};

struct EventPageAnswer
{
    // Failed: the statement failed (the connection is reopened next time). TimedOut: the
    // statement ran longer than the statement timeout and the server stopped it.
    enum class Outcome { Ok, Failed, TimedOut };
    static constexpr qint64 CountLimit = 10000;

    quint64 id = 0;
    EventPageRequest::Kind kind = EventPageRequest::Kind::Reload;
    Outcome outcome = Outcome::Ok;
    QString error;
    QList<EventRow> rows;
    // Matching rows: exact up to CountLimit, or CountLimit + 1 meaning "more than CountLimit";
    // -1 when not counted.
    qint64 count = -1;
    // PostgreSQL only: the ID column does not sort by code point, so ID prefixes are compared in
    // the C collation (EventFilter::idsInCCollation).
    bool idsInCCollation = false;
    qint64 queryMs = 0; // how long the page and count statements took, as the worker saw it
};

Q_DECLARE_METATYPE(EventPageRequest)
Q_DECLARE_METATYPE(EventPageAnswer)
