#include "reopener.h"

Reopener::Reopener(const QSqlDatabase &db, bool readOnly)
    : StateChange(spec(), db, std::nullopt, readOnly)
{ }

Reopener::Reopener(const QSqlDatabase &db, const OutboxProfile &profile, bool readOnly)
    : StateChange(spec(), db, profile, readOnly)
{ }

QString Reopener::profileRefusal(const OutboxProfile &profile)
{
    return QStringLiteral("%1: reopen is not available: the profile maps no reopen statement (it "
                          "undoes a resolve: docs/profiles.md, \"Resolve and reopen through a "
                          "profile\")")
        .arg(profile.name());
}

const StateChange::Spec &Reopener::spec()
{
    static const Spec spec {QStringLiteral("RESOLVED"), QStringLiteral("DEAD"),
        // clang-format off
        QStringLiteral(
            "INSERT INTO reopen_log (event_id, reopened_at, operator, reason, failures_before)"
            " VALUES (:id, :at, :operator, :reason, :before)"),
        // clang-format on
        {QStringLiteral("reopen_log"), QStringLiteral("who reopened the events"),
            QStringLiteral("why the events need an operator again"), QStringLiteral("reopening")},
        QStringLiteral("reopen"), QStringLiteral("reopened"), &Reopener::profileRefusal,
        OutboxProfile::Action::Reopen};
    return spec;
}
