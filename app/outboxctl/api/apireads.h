// The operator API's reads, on a thread of its pool with a connection of their own: a keyset
// page of events, one event explained (what `outboxctl explain --json` prints), the error
// groups (what `outboxctl errors --json` prints). Each answers an HttpResponse.
#pragma once

#include "apiinput.h"
#include "cli.h"
#include "httpserver.h"

namespace ApiReads {

// {"events":[...],"next":"ID"|null}: `next` is the `after` of the following page.
HttpResponse events(const Cli::Outbox &outbox, const ApiEventsQuery &query, qint64 now);
// explain --json's object; 404 for an unknown event.
HttpResponse event(const Cli::Outbox &outbox, const QString &eventId, qint64 now);
// {"groups":[...]} as errors --json.
HttpResponse errors(const Cli::Outbox &outbox);

// 404 naming the event when it does not exist; nothing when it does; 500 when reading failed.
std::optional<HttpResponse> unknownEvent(const Cli::Outbox &outbox, const QString &eventId);

} // namespace ApiReads
