#include "apiinput.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QUrlQuery>

namespace {

bool readLimit(const QString &text, int *limit, QString *error)
{
    bool ok = false;
    const int value = text.toInt(&ok);
    if (!ok || value < 1 || value > ApiEventsQuery::MaxLimit) {
        *error = QStringLiteral("limit must be a number from 1 to %1, not '%2'")
                     .arg(ApiEventsQuery::MaxLimit)
                     .arg(text);
        return false;
    }
    *limit = value;
    return true;
}

bool readState(const QString &text, EventFilter::State *state, QString *error)
{
    const auto found = EventFilter::stateFromName(text.toLower());
    if (!found) {
        *error = QStringLiteral("unknown state '%1' (known: %2)")
                     .arg(text, EventFilter::stateNames().join(u", "_qs));
        return false;
    }
    *state = *found;
    return true;
}

// The keys a body may hold for this route.
QStringList keysFor(const ApiRoute &route)
{
    QStringList keys {u"reason"_qs, u"dry_run"_qs};
    if (route.action == u"replay"_qs || route.kind == ApiRoute::Kind::BulkReplay)
        keys << u"reset_budget"_qs;
    if (route.kind == ApiRoute::Kind::BulkReplay)
        keys << u"error_group"_qs << u"filter"_qs << u"include_on_hold"_qs;
    return keys;
}

bool checkTypes(const QJsonObject &json, const QStringList &keys, QString *error)
{
    for (auto it = json.begin(); it != json.end(); ++it) {
        if (!keys.contains(it.key())) {
            *error = QStringLiteral("unknown key \"%1\" (this action takes: %2)")
                         .arg(it.key(), keys.join(u", "_qs));
            return false;
        }
        const bool text = it.key() == u"reason"_qs || it.key() == u"error_group"_qs;
        const bool object = it.key() == u"filter"_qs;
        const bool ok = text ? it->isString() : object ? it->isObject() : it->isBool();
        if (!ok) {
            *error = QStringLiteral("\"%1\" must be %2")
                         .arg(it.key(),
                             text         ? u"a string"_qs
                                 : object ? u"an object"_qs
                                          : u"true or false"_qs);
            return false;
        }
    }
    return true;
}

// {"older_than_ms": N, "error_category": "TRANSIENT"|"PERMANENT"}: which DEAD events.
std::optional<EventFilter> filterOf(const QJsonObject &json, QString *error)
{
    EventFilter filter;
    filter.state = EventFilter::State::Dead;
    for (auto it = json.begin(); it != json.end(); ++it) {
        if (it.key() == u"older_than_ms"_qs && it->isDouble() && it->toDouble() >= 0) {
            filter.minAgeMs = qint64(it->toDouble());
        } else if (it.key() == u"error_category"_qs
            && (it->toString() == u"TRANSIENT"_qs || it->toString() == u"PERMANENT"_qs)) {
            filter.errorCategory = it->toString();
        } else {
            *error = u"filter takes \"older_than_ms\" (a number of milliseconds, 0 or more) and "
                     "\"error_category\" (\"TRANSIENT\" or \"PERMANENT\")"_qs;
            return std::nullopt;
        }
    }
    return filter;
}

bool readBulk(const QJsonObject &json, ApiActionBody *body, QString *error)
{
    body->errorGroup = json.value(u"error_group"_qs).toString().trimmed();
    body->includeOnHold = json.value(u"include_on_hold"_qs).toBool();
    if (json.contains(u"filter"_qs)) {
        body->filter = filterOf(json.value(u"filter"_qs).toObject(), error);
        if (!body->filter)
            return false;
    }
    if (body->errorGroup.isEmpty() && !body->filter) {
        *error = u"say which events: \"error_group\" (a signature, see GET .../errors) or "
                 "\"filter\" ({} for every DEAD event), or both"_qs;
        return false;
    }
    return true;
}

} // namespace

std::optional<ApiEventsQuery> ApiEventsQuery::parse(const QByteArray &query, QString *error)
{
    ApiEventsQuery parsed;
    const QUrlQuery items(QString::fromUtf8(query));
    for (const auto &[key, value] : items.queryItems(QUrl::FullyDecoded)) {
        const bool ok = key == u"state"_qs ? readState(value, &parsed.state, error)
            : key == u"limit"_qs           ? readLimit(value, &parsed.limit, error)
            : key == u"after"_qs           ? (parsed.after = value, true)
                                           : (*error = QStringLiteral("unknown query parameter "
                                                                                "'%1' (known: state, after, "
                                                                                "limit)")
                                                 .arg(key),
                                     false);
        if (!ok)
            return std::nullopt;
    }
    return parsed;
}

std::optional<ApiActionBody> ApiActionBody::parse(
    const QByteArray &body, const ApiRoute &route, QString *error)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(body, &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject()) {
        *error = parseError.error != QJsonParseError::NoError
            ? QStringLiteral("the body is not JSON: %1 at byte %2")
                  .arg(parseError.errorString())
                  .arg(parseError.offset)
            : u"the body must be a JSON object such as {\"reason\": \"...\"}"_qs;
        return std::nullopt;
    }
    const QJsonObject json = document.object();
    if (!checkTypes(json, keysFor(route), error))
        return std::nullopt;
    ApiActionBody parsed;
    parsed.reason = json.value(u"reason"_qs).toString().trimmed();
    parsed.dryRun = json.value(u"dry_run"_qs).toBool();
    parsed.resetBudget = json.value(u"reset_budget"_qs).toBool();
    if (route.kind == ApiRoute::Kind::BulkReplay && !readBulk(json, &parsed, error))
        return std::nullopt;
    if (!parsed.dryRun && parsed.reason.isEmpty()) {
        *error = u"\"reason\" is required: the audit log records why (a dry run needs none)"_qs;
        return std::nullopt;
    }
    return parsed;
}
