#include "apioptions.h"

#include "webgate.h"

namespace ApiOptions {

void add(QCommandLineParser &parser)
{
    parser.addOption({u"api"_qs,
        u"Serve the operator API under /api/v1 (needs basic_auth_users in --web.config.file and "
        "--api.rights)."_qs});
    parser.addOption({u"api.rights"_qs,
        u"With --api: who may do what, YAML: user -> outbox name or \"*\" -> list of read, "
        "replay, edit, resolve, note."_qs,
        u"FILE"_qs});
    parser.addOption({u"api.allow-plain-http-writes"_qs,
        u"With --api: take replays, resolves and reopens over plain HTTP too (default: HTTPS "
        "only)."_qs});
}

std::unique_ptr<OperatorApi> open(const QCommandLineParser &parser, const WebGate *gate,
    const QList<FleetEntry> &entries, std::function<QJsonArray(const QStringList &names)> health,
    QString *error)
{
    const bool rightsGiven = parser.isSet(u"api.rights"_qs);
    if (!parser.isSet(u"api"_qs)) {
        if (rightsGiven || parser.isSet(u"api.allow-plain-http-writes"_qs))
            *error = u"--api.rights and --api.allow-plain-http-writes need --api"_qs;
        return nullptr;
    }
    if (!gate || gate->config().users.isEmpty()) {
        *error = u"--api needs --web.config.file with basic_auth_users: they are the API's "
                 "operators"_qs;
        return nullptr;
    }
    if (!rightsGiven) {
        *error = u"--api needs --api.rights FILE: who may do what on which outbox"_qs;
        return nullptr;
    }
    auto rights = ApiRights::read(parser.value(u"api.rights"_qs), error);
    if (!rights)
        return nullptr;
    OperatorApi::Options options;
    options.entries = entries;
    options.rights = std::move(*rights);
    options.allowPlainHttpWrites = parser.isSet(u"api.allow-plain-http-writes"_qs);
    options.isUser = [gate](const QByteArray &user) { return gate->config().users.contains(user); };
    options.health = std::move(health);
    return std::make_unique<OperatorApi>(std::move(options));
}

} // namespace ApiOptions
