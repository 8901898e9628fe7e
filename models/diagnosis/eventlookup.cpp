#include "eventlookup.h"

#include "queryerror.h"
#include "sourcereader.h"

#include <QSqlQuery>

std::optional<QStringList> EventLookup::unknown(
    const QSqlDatabase &db, const OutboxProfile *profile, const QStringList &ids, QString *error)
{
    QStringList missing;
    if (ids.isEmpty())
        return missing;
    SourceReader reader(db, profile);
    QSqlQuery *query
        = reader.prepare(u"SELECT 1 FROM "_qs + reader.source() + u" WHERE event_id = :id"_qs);
    if (!query) {
        *error = reader.errorText();
        return std::nullopt;
    }
    for (const QString &id : ids) {
        if (missing.contains(id))
            continue;
        query->bindValue(u":id"_qs, id);
        if (!query->exec()) {
            *error = QueryError::text(*query);
            return std::nullopt;
        }
        if (!query->next())
            missing << id;
        query->finish();
    }
    return missing;
}

namespace {

// Whether the row `eventId` passes `filter`; nothing with *error set when the statement fails.
std::optional<bool> passes(SourceReader &reader, const QString &eventId, const EventFilter &filter,
    qint64 now, QString *error)
{
    QSqlQuery *query = reader.prepare(u"SELECT 1 FROM "_qs + reader.source()
        + u" WHERE event_id = :id AND "_qs + filter.whereClause(reader.dialect()));
    if (!query) {
        *error = reader.errorText();
        return std::nullopt;
    }
    query->bindValue(u":id"_qs, eventId);
    filter.bindValues(*query, now, reader.dialect());
    if (!query->exec()) {
        *error = QueryError::text(*query);
        return std::nullopt;
    }
    const bool found = query->next();
    query->finish();
    return found;
}

} // namespace

EventLocation EventLookup::locate(const QSqlDatabase &db, const OutboxProfile *profile,
    const QString &eventId, const EventFilter &filter, qint64 now)
{
    EventLocation location;
    location.eventId = eventId;
    SourceReader reader(db, profile);
    EventFilter any;
    // Compared by code point: right under any collation, and one row needs no index.
    any.idsInCCollation = true;
    const std::optional<bool> exists = passes(reader, eventId, any, now, &location.error);
    if (!exists || !*exists)
        return location;
    location.found = true;
    for (const EventFilter::Criterion &criterion : filter.criteria()) {
        EventFilter alone = filter.only(criterion.field);
        alone.idsInCCollation = true;
        const std::optional<bool> shown = passes(reader, eventId, alone, now, &location.error);
        if (!shown)
            return location;
        if (!*shown)
            location.hiddenBy << criterion;
    }
    return location;
}
