// `outboxctl serve --api`: the operator API under /api/v1 (docs/outboxctl.md, "The operator
// API"). On the serving thread it answers what needs no database: who is asking (the web
// config's basic_auth_users, already checked by WebGate: the user is the operator of every
// audit row, never a name the client sends), the route, the rights (ApiRights: 403 and nothing
// read or written), the input (400, one line), writes over plain HTTP (403 unless allowed), the
// outboxes with their last health (from serve's own polls) and the OpenAPI document. The rest
// runs on a pool of PoolThreads threads, each request with a connection of its own opened and
// closed around it (ApiReads, ApiActions); at most MaxWaiting requests wait for it (503 beyond).
#pragma once

#include "apiinput.h"
#include "apirights.h"
#include "fleetconfig.h"
#include "httpserver.h"

#include <QJsonArray>
#include <QObject>
#include <QThreadPool>
#include <functional>

namespace Cli {
struct Outbox;
}

class OperatorApi : public QObject
{
    Q_OBJECT
public:
    static constexpr qsizetype MaxBodyBytes = 64 * 1024;
    static constexpr int PoolThreads = 4;
    static constexpr int MaxWaiting = 64;

    struct Options
    {
        QList<FleetEntry> entries;
        ApiRights rights;
        bool allowPlainHttpWrites = false;
        // The names of the users who may sign in now (the web config's, reloaded with it).
        std::function<bool(const QByteArray &user)> isUser;
        // {"name","up","error","health"} of the named outboxes, from serve's last polls.
        std::function<QJsonArray(const QStringList &names)> health;
    };

    explicit OperatorApi(Options options, QObject *parent = nullptr);
    ~OperatorApi() override;

    void handle(const HttpRequest &request, const HttpServer::Respond &respond);

private:
    using Work = std::function<HttpResponse(const Cli::Outbox &outbox)>;

    QString user(const HttpRequest &request) const;
    std::optional<HttpResponse> refusal(
        const HttpRequest &request, const ApiRoute &route, const QString &user) const;
    HttpResponse outboxes(const QString &user) const;
    const FleetEntry *entry(const QString &name) const;
    void dispatch(const HttpRequest &request, const ApiRoute &route, const QString &user,
        const HttpServer::Respond &respond);
    void run(const FleetEntry &entry, bool write, Work work, const HttpServer::Respond &respond);

    Options m_options;
    int m_waiting = 0;
    QThreadPool m_pool; // last: its threads are joined before the rest goes
};
