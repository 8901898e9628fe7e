#include "apiroute.h"

#include <QList>

namespace {

QString decoded(const QByteArray &part)
{
    return QString::fromUtf8(QByteArray::fromPercentEncoding(part));
}

// The routes under /api/v1/outboxes/NAME: `rest` is what follows NAME.
ApiRoute outboxRoute(const QString &outbox, const QList<QByteArray> &rest)
{
    using Kind = ApiRoute::Kind;
    ApiRoute route;
    route.outbox = outbox;
    const QByteArray first = rest.value(0);
    if (rest.size() == 1 && (first == "errors" || first == "replay")) {
        route.kind = first == "errors" ? Kind::Errors : Kind::BulkReplay;
        return route;
    }
    if (first != "events" || rest.size() > 3)
        return {};
    route.kind = rest.size() == 1 ? Kind::Events : Kind::Event;
    if (rest.size() == 1)
        return route;
    route.eventId = decoded(rest.at(1));
    if (route.eventId.isEmpty())
        return {};
    if (rest.size() == 3) {
        route.action = QString::fromLatin1(rest.at(2));
        if (route.action != u"replay"_qs && route.action != u"resolve"_qs
            && route.action != u"reopen"_qs)
            return {};
        route.kind = Kind::EventAction;
    }
    return route;
}

} // namespace

ApiRoute ApiRoute::of(const QByteArray &path)
{
    if (path == "/api/v1/openapi.json")
        return {Kind::OpenApi, {}, {}, {}};
    if (path == "/api/v1/outboxes" || path == "/api/v1/outboxes/")
        return {Kind::Outboxes, {}, {}, {}};
    const QByteArray prefix = "/api/v1/outboxes/";
    if (!path.startsWith(prefix))
        return {};
    const QList<QByteArray> parts = path.mid(prefix.size()).split('/');
    const QString outbox = decoded(parts.constFirst());
    if (outbox.isEmpty() || parts.size() < 2)
        return {};
    return outboxRoute(outbox, parts.mid(1));
}
