#include "apireads.h"

#include "apireply.h"
#include "errorgroups.h"
#include "eventlookup.h"
#include "eventpagequery.h"
#include "explainreport.h"

#include <QJsonArray>

namespace {

QJsonObject rowJson(const EventRow &row)
{
    QJsonObject json {{u"event_id"_qs, row.eventId}, {u"event_type"_qs, row.eventType},
        {u"aggregate"_qs, row.aggregate}, {u"status"_qs, row.status},
        {u"failures"_qs, row.failures}, {u"created_at"_qs, row.createdAt},
        {u"next_attempt_at"_qs, row.nextAttemptAt}, {u"error_category"_qs, row.errorCategory},
        {u"last_error"_qs, row.lastError}};
    if (!row.noteMarker.isEmpty())
        json.insert(u"note_marker"_qs, row.noteMarker);
    return json;
}

EventPageRequest pageRequest(const Cli::Outbox &outbox, const ApiEventsQuery &query, qint64 now)
{
    EventPageRequest request;
    request.source = outbox.profile.source(outbox.url.engine());
    request.profile = outbox.profile;
    request.filter.state = query.state;
    request.now = now;
    request.limit = query.limit;
    if (!query.after.isEmpty()) {
        request.kind = EventPageRequest::Kind::Next;
        request.anchor = EventPageRequest::Anchor::After;
        request.anchorKey = query.after;
        request.anchorId = query.after;
    }
    return request;
}

} // namespace

namespace ApiReads {

HttpResponse events(const Cli::Outbox &outbox, const ApiEventsQuery &query, qint64 now)
{
    EventPageQuery reader(outbox.database());
    const auto rows = reader.page(pageRequest(outbox, query, now));
    if (!rows)
        return ApiReply::error(500, u"reading the events: "_qs + reader.errorText());
    QJsonArray list;
    for (const EventRow &row : *rows)
        list.append(rowJson(row));
    const bool more = rows->size() == query.limit;
    return ApiReply::json(200,
        {{u"events"_qs, list},
            {u"next"_qs, more ? QJsonValue(rows->constLast().eventId) : QJsonValue()}});
}

std::optional<HttpResponse> unknownEvent(const Cli::Outbox &outbox, const QString &eventId)
{
    QString error;
    const auto unknown
        = EventLookup::unknown(outbox.database(), &outbox.profile, {eventId}, &error);
    if (!unknown)
        return ApiReply::error(500, u"reading the event: "_qs + error);
    if (unknown->isEmpty())
        return std::nullopt;
    return ApiReply::error(404, QStringLiteral("no event '%1' in this outbox").arg(eventId));
}

HttpResponse event(const Cli::Outbox &outbox, const QString &eventId, qint64 now)
{
    if (auto unknown = unknownEvent(outbox, eventId))
        return *unknown;
    QString error;
    const auto report = ExplainReport::read(outbox, eventId, now, {}, &error);
    if (!report)
        return ApiReply::error(500, error);
    return ApiReply::json(200, report->toJson());
}

HttpResponse errors(const Cli::Outbox &outbox)
{
    QString error;
    auto groups = ErrorGroups::read(outbox.database(), &outbox.profile, &error);
    if (!groups)
        return ApiReply::error(500, u"reading the error groups: "_qs + error);
    ErrorGroups::addNotes(outbox.database(), &outbox.profile, &*groups);
    QJsonArray list;
    for (const ErrorGroup &group : *groups)
        list.append(group.toJson());
    return ApiReply::json(200, {{u"groups"_qs, list}});
}

} // namespace ApiReads
