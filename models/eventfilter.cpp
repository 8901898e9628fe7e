#include "eventfilter.h"

#include <QStringList>

namespace {

const QList<std::pair<EventFilter::State, const char *>> &stateNames()
{
    using S = EventFilter::State;
    static const QList<std::pair<S, const char *>> names
        = {{S::Any, "any"}, {S::Pending, "pending"}, {S::Due, "due"}, {S::Scheduled, "scheduled"},
            {S::InFlight, "in-flight"}, {S::LeaseExpired, "lease-expired"},
            {S::Delivered, "delivered"}, {S::Dead, "dead"}};
    return names;
}

QString stateCondition(EventFilter::State state)
{
    using S = EventFilter::State;
    switch (state) {
    case S::Any:
        return {};
    case S::Pending:
        return QStringLiteral("status = 'PENDING'");
    case S::Due:
        return QStringLiteral(
            "status = 'PENDING' AND claim_token IS NULL AND next_attempt_at <= :f_now1");
    case S::Scheduled:
        return QStringLiteral(
            "status = 'PENDING' AND claim_token IS NULL AND next_attempt_at > :f_now1");
    case S::InFlight:
        return QStringLiteral(
            "status = 'PENDING' AND claim_token IS NOT NULL AND lease_until > :f_now1");
    case S::LeaseExpired:
        return QStringLiteral(
            "status = 'PENDING' AND claim_token IS NOT NULL AND lease_until <= :f_now1");
    case S::Delivered:
        return QStringLiteral("status = 'DELIVERED'");
    case S::Dead:
        return QStringLiteral("status = 'DEAD'");
    }
    return {};
}

bool usesNow(EventFilter::State state)
{
    using S = EventFilter::State;
    return state == S::Due || state == S::Scheduled || state == S::InFlight
        || state == S::LeaseExpired;
}

QString likePattern(const QString &text)
{
    QString escaped = text.toLower();
    escaped.replace(QLatin1Char('\\'), QStringLiteral("\\\\"))
        .replace(QLatin1Char('%'), QStringLiteral("\\%"))
        .replace(QLatin1Char('_'), QStringLiteral("\\_"));
    return QLatin1Char('%') + escaped + QLatin1Char('%');
}

} // namespace

QString EventFilter::stateName(State state)
{
    for (const auto &[value, name] : stateNames()) {
        if (value == state)
            return QString::fromLatin1(name);
    }
    return {};
}

std::optional<EventFilter::State> EventFilter::stateFromName(const QString &name)
{
    for (const auto &[value, text] : stateNames()) {
        if (name.compare(QLatin1String(text), Qt::CaseInsensitive) == 0)
            return value;
    }
    return std::nullopt;
}

QString EventFilter::whereClause() const
{
    QStringList conditions;
    if (state != State::Any)
        conditions << stateCondition(state);
    if (!search.isEmpty())
        conditions << QStringLiteral("(LOWER(event_id) LIKE :f_search1 ESCAPE '\\'"
                                     " OR LOWER(event_type) LIKE :f_search2 ESCAPE '\\')");
    if (minFailures > 0)
        conditions << QStringLiteral("failures >= :f_failures");
    // Age = now - created_at, so an age range is a created_at range: the index stays usable.
    if (minAgeMs)
        conditions << QStringLiteral("created_at <= :f_created_max");
    if (maxAgeMs)
        conditions << QStringLiteral("created_at >= :f_created_min");
    if (!errorCategory.isEmpty())
        conditions << QStringLiteral("last_error_category = :f_category");
    return conditions.isEmpty() ? QStringLiteral("1 = 1")
                                : conditions.join(QStringLiteral(" AND "));
}

void EventFilter::bindValues(QSqlQuery &query, qint64 now) const
{
    if (usesNow(state))
        query.bindValue(QStringLiteral(":f_now1"), now);
    if (!search.isEmpty()) {
        query.bindValue(QStringLiteral(":f_search1"), likePattern(search));
        query.bindValue(QStringLiteral(":f_search2"), likePattern(search));
    }
    if (minFailures > 0)
        query.bindValue(QStringLiteral(":f_failures"), minFailures);
    if (minAgeMs)
        query.bindValue(QStringLiteral(":f_created_max"), now - *minAgeMs);
    if (maxAgeMs)
        query.bindValue(QStringLiteral(":f_created_min"), now - *maxAgeMs);
    if (!errorCategory.isEmpty())
        query.bindValue(QStringLiteral(":f_category"), errorCategory);
}
