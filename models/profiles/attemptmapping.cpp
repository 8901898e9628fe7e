#include "attemptmapping.h"

#include "sqldialect.h"

#include <QStringList>

namespace {

QString cast(const QString &expression, const QString &fallback, const QString &type)
{
    return QStringLiteral("CAST((%1) AS %2)")
        .arg(expression.isEmpty() ? fallback : expression, type);
}

} // namespace

const std::array<std::pair<const char *, AttemptMapping::PerEngine AttemptMapping::*>, 7> &
AttemptMapping::fields()
{
    static const std::array<std::pair<const char *, PerEngine AttemptMapping::*>, 7> all = {{
        {"attempts_from", &AttemptMapping::from},
        {"attempts_event_id", &AttemptMapping::eventId},
        {"attempt_number", &AttemptMapping::number},
        {"attempt_finished_at", &AttemptMapping::finishedAt},
        {"attempt_outcome", &AttemptMapping::outcome},
        {"attempt_error", &AttemptMapping::error},
        {"attempt_worker", &AttemptMapping::worker},
    }};
    return all;
}

AttemptMapping::Kind AttemptMapping::kindFromName(const QString &name, bool *ok)
{
    *ok = true;
    if (name == QLatin1String("table"))
        return Kind::Table;
    if (name == QLatin1String("json_array"))
        return Kind::JsonArray;
    *ok = false;
    return Kind::None;
}

QString AttemptMapping::source(Engine engine, const QString &eventIdExpression,
    const QString &eventFrom, const QString &eventWhere, const QString &oneEvent) const
{
    const SqlDialect &dialect = SqlDialect::of(engine);
    const int e = int(engine);
    const QString text = dialect.textType();
    const QString time = dialect.integerType();
    const bool json = kind == Kind::JsonArray;
    const QStringList columns = {
        cast(json ? QStringLiteral("event_id") : eventId.at(e), {}, text) + u" AS event_id"_qs,
        cast(number.at(e), json ? u"ordinal + 1"_qs : u"NULL"_qs, dialect.countType())
            + u" AS attempt_no"_qs,
        cast(worker.at(e), u"NULL"_qs, text) + u" AS worker"_qs,
        cast({}, u"NULL"_qs, time) + u" AS claimed_at"_qs,
        cast(finishedAt.at(e), u"NULL"_qs, time) + u" AS finished_at"_qs,
        cast(outcome.at(e), u"'RETRY'"_qs, text) + u" AS outcome"_qs,
        cast({}, u"NULL"_qs, text) + u" AS error_category"_qs,
        cast(error.at(e), u"NULL"_qs, text) + u" AS error_message"_qs,
        cast({}, u"NULL"_qs, text) + u" AS consumer_result"_qs,
        cast({}, u"NULL"_qs, time) + u" AS next_attempt_at"_qs,
    };
    QString where = eventWhere;
    if (json && !oneEvent.isEmpty())
        where = (where.isEmpty() ? QString() : u"("_qs + where + u") AND "_qs)
            + cast(eventIdExpression, {}, text) + u" = "_qs + oneEvent;
    const QString rows = json ? u"("_qs
            + dialect.jsonArrayElementsSql(
                eventIdExpression, eventFrom, where, from.at(e), ReadLimit + 1)
            + u") AS attempt_elements"_qs
                              : from.at(e);
    return u"(SELECT "_qs + columns.join(u", "_qs) + u" FROM "_qs + rows
        + u") AS delivery_attempt"_qs;
}
