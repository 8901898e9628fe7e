#include "resolver.h"

Resolver::Resolver(const QSqlDatabase &db, bool readOnly)
    : StateChange(spec(), db, std::nullopt, readOnly)
{ }

Resolver::Resolver(const QSqlDatabase &db, const OutboxProfile &profile, bool readOnly)
    : StateChange(spec(), db, profile, readOnly)
{ }

QString Resolver::profileRefusal(const OutboxProfile &profile)
{
    const QString instead = profile.resolveUnavailableReason();
    return instead.isEmpty()
        ? QStringLiteral("%1: the profile maps no resolve statement; close the event with the "
                         "tools of the library that owns it")
              .arg(profile.name())
        : QStringLiteral("%1: resolve is not possible from the database: %2")
              .arg(profile.name(), instead);
}

const StateChange::Spec &Resolver::spec()
{
    static const Spec spec {QStringLiteral("DEAD"), QStringLiteral("RESOLVED"),
        // clang-format off
        QStringLiteral(
            "INSERT INTO resolve_log (event_id, resolved_at, operator, reason, failures_before)"
            " VALUES (:id, :at, :operator, :reason, :before)"),
        // clang-format on
        {QStringLiteral("resolve_log"), QStringLiteral("who resolved the events"),
            QStringLiteral("why the events need no delivery"), QStringLiteral("resolving")},
        QStringLiteral("resolve"), QStringLiteral("resolved"), &Resolver::profileRefusal};
    return spec;
}
