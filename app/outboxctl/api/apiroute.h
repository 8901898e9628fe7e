// Which endpoint of the operator API a request path names (docs/outboxctl.md, "The operator
// API"; the OpenAPI document is resources/api/openapi.json). Outbox names and event IDs are
// percent-decoded after the path is split at '/', so an ID may hold an encoded slash.
#pragma once

#include <QByteArray>
#include <QString>

struct ApiRoute
{
    enum class Kind {
        NotFound,
        OpenApi, // GET /api/v1/openapi.json
        Outboxes, // GET /api/v1/outboxes
        Events, // GET /api/v1/outboxes/NAME/events?state=&after=&limit=
        Event, // GET /api/v1/outboxes/NAME/events/ID
        Errors, // GET /api/v1/outboxes/NAME/errors
        EventAction, // POST /api/v1/outboxes/NAME/events/ID/{replay,resolve,reopen}
        BulkReplay // POST /api/v1/outboxes/NAME/replay (an error group or a filter)
    };

    Kind kind = Kind::NotFound;
    QString outbox;
    QString eventId;
    QString action; // "replay", "resolve", "reopen"

    bool isWrite() const { return kind == Kind::EventAction || kind == Kind::BulkReplay; }
    QByteArray method() const { return isWrite() ? "POST" : "GET"; }

    static bool isApiPath(const QByteArray &path) { return path.startsWith("/api/"); }
    static ApiRoute of(const QByteArray &path);
};
