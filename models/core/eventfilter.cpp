#include "eventfilter.h"

#include "durationtext.h"
#include "payloadsearch.h"
#include "sqldialect.h"
#include <QStringList>

#include <algorithm>
#include <utility>

namespace {

const QList<std::pair<EventFilter::State, const char *>> &stateNameList()
{
    using S = EventFilter::State;
    static const QList<std::pair<S, const char *>> names
        = {{S::Any, "any"}, {S::Pending, "pending"}, {S::Due, "due"}, {S::Scheduled, "scheduled"},
            {S::InFlight, "in-flight"}, {S::LeaseExpired, "lease-expired"},
            {S::Delivered, "delivered"}, {S::Dead, "dead"}, {S::Resolved, "resolved"}};
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
    case S::Resolved:
        return QStringLiteral("status = 'RESOLVED'");
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

// A range of the primary key, so that its index answers it. A prefix of nothing but U+10FFFF
// has no upper bound.
QString idRange(const SqlDialect &dialect, bool inCCollation, bool bounded)
{
    const QString id = inCCollation ? dialect.codePointOrder(QStringLiteral("event_id"))
                                    : QStringLiteral("event_id");
    return bounded ? QStringLiteral("%1 >= :f_id_from AND %1 < :f_id_to").arg(id)
                   : QStringLiteral("%1 >= :f_id_from").arg(id);
}

QString containsCondition(const SqlDialect &dialect)
{
    const QString escape = dialect.likeEscapeClause();
    // clang-format off
    return u"(LOWER(event_id) LIKE :f_search1"_qs + escape
        + u" OR LOWER(event_type) LIKE :f_search2"_qs + escape
        + u" OR LOWER(aggregate_type) LIKE :f_search3"_qs + escape
        + u" OR LOWER(aggregate_id) LIKE :f_search4"_qs + escape
        + u" OR LOWER(last_error) LIKE :f_search5"_qs + escape + u")"_qs;
    // clang-format on
}

const QString PayloadPrefix = QStringLiteral(":f_pl");

// The payload search's condition; its values into *values. A search that no longer reads
// (checked before, so only a caller's mistake) matches nothing rather than everything.
QString payloadCondition(
    const QString &input, const SqlDialect &dialect, SqlDialect::BoundValues *values)
{
    const PayloadSearch search = PayloadSearch::read(input);
    switch (search.kind) {
    case PayloadSearch::Kind::Fragment:
        return dialect.jsonContainsCondition(
            QStringLiteral("payload"), search.fragment, PayloadPrefix, values);
    case PayloadSearch::Kind::Text:
        values->append({PayloadPrefix + u"_text"_qs, likePattern(search.text)});
        return u"LOWER(payload) LIKE "_qs + PayloadPrefix + u"_text"_qs
            + dialect.likeEscapeClause();
    case PayloadSearch::Kind::None:
        break;
    }
    return QStringLiteral("1 = 0");
}

// The placeholders ErrorSignature writes (models/diagnosis/errorsignature.cpp).
const QStringList &signaturePlaceholders()
{
    static const QStringList placeholders = {QStringLiteral("<time>"), QStringLiteral("<uuid>"),
        QStringLiteral("<str>"), QStringLiteral("<hex>"), QStringLiteral("<n>")};
    return placeholders;
}

} // namespace

QString EventFilter::signaturePattern(const QString &signature)
{
    QString pattern;
    bool wild = false; // the pattern ends with a wildcard: one is enough
    const auto wildcard = [&pattern, &wild] {
        if (!std::exchange(wild, true))
            pattern += QLatin1Char('%');
    };
    const QString text = signature.toLower();
    for (qsizetype i = 0; i < text.size();) {
        const QStringView rest = QStringView(text).mid(i);
        const auto placeholder
            = std::find_if(signaturePlaceholders().cbegin(), signaturePlaceholders().cend(),
                [rest](const QString &p) { return rest.startsWith(p); });
        if (placeholder != signaturePlaceholders().cend()) {
            wildcard();
            i += placeholder->size();
            continue;
        }
        const QChar c = text.at(i++);
        // White space was collapsed by the signature; a signature cut short ends with "…".
        if (c.isSpace() || (c == QChar(0x2026) && i == text.size())) {
            wildcard();
            continue;
        }
        if (c == QLatin1Char('%') || c == QLatin1Char('_') || c == QLatin1Char('\\'))
            pattern += QLatin1Char('\\');
        pattern += c;
        wild = false;
    }
    return pattern;
}

QList<EventFilter::Criterion> EventFilter::criteria() const
{
    QList<Criterion> list;
    if (state != State::Any)
        list.append({Field::State, u"State"_qs, stateName(state).toUpper()});
    if (!search.isEmpty())
        list.append({Field::Search,
            searchMode == SearchMode::IdPrefix ? u"ID starts with"_qs : u"Text contains"_qs,
            search});
    if (minFailures > 0)
        list.append({Field::MinFailures, u"Failures"_qs, u"≥ "_qs + QString::number(minFailures)});
    if (minAgeMs)
        list.append({Field::MinAge, u"Older than"_qs, DurationText::format(*minAgeMs)});
    if (maxAgeMs)
        list.append({Field::MaxAge, u"At most"_qs, DurationText::format(*maxAgeMs) + u" old"_qs});
    if (!errorCategory.isEmpty())
        list.append({Field::ErrorCategory, u"Error category"_qs, errorCategory.toUpper()});
    if (!eventType.isEmpty())
        list.append({Field::EventType, u"Type"_qs, eventType});
    if (!errorSignature.isEmpty())
        list.append({Field::ErrorSignature, u"Error"_qs, errorSignature});
    if (!payloadContains.isEmpty())
        list.append({Field::Payload, u"Payload contains"_qs, payloadContains});
    return list;
}

EventFilter EventFilter::without(Field field) const
{
    EventFilter filter = *this;
    switch (field) {
    case Field::State:
        filter.state = State::Any;
        break;
    case Field::Search:
        filter.search.clear();
        break;
    case Field::MinFailures:
        filter.minFailures = 0;
        break;
    case Field::MinAge:
        filter.minAgeMs.reset();
        break;
    case Field::MaxAge:
        filter.maxAgeMs.reset();
        break;
    case Field::ErrorCategory:
        filter.errorCategory.clear();
        break;
    case Field::EventType:
        filter.eventType.clear();
        break;
    case Field::ErrorSignature:
        filter.errorSignature.clear();
        break;
    case Field::Payload:
        filter.payloadContains.clear();
        break;
    }
    return filter;
}

EventFilter EventFilter::only(Field field) const
{
    EventFilter filter = *this;
    for (const Criterion &criterion : criteria()) {
        if (criterion.field != field)
            filter = filter.without(criterion.field);
    }
    return filter;
}

QStringList EventFilter::stateNames()
{
    QStringList names;
    for (const auto &[value, name] : stateNameList())
        names << QString::fromLatin1(name);
    return names;
}

QString EventFilter::prefixUpperBound(const QString &prefix)
{
    QList<uint> codePoints = prefix.toUcs4();
    while (!codePoints.isEmpty() && codePoints.constLast() >= 0x10FFFF)
        codePoints.removeLast();
    if (codePoints.isEmpty())
        return {};
    uint &last = codePoints.last();
    last = last + 1 == 0xD800 ? 0xE000 : last + 1; // surrogates are no characters
    return QString::fromUcs4(
        reinterpret_cast<const char32_t *>(codePoints.constData()), codePoints.size());
}

QString EventFilter::summary() const
{
    QStringList parts;
    if (state != State::Any)
        parts << QStringLiteral("state %1").arg(stateName(state));
    if (!search.isEmpty()) {
        parts << (searchMode == SearchMode::IdPrefix
                ? QStringLiteral("ID starting with \"%1\"").arg(search)
                : QStringLiteral("text containing \"%1\"").arg(search));
    }
    if (minFailures > 0)
        parts << QStringLiteral("at least %1 failures").arg(minFailures);
    if (minAgeMs)
        parts << QStringLiteral("older than %1 ms").arg(*minAgeMs);
    if (maxAgeMs)
        parts << QStringLiteral("at most %1 ms old").arg(*maxAgeMs);
    if (!errorCategory.isEmpty())
        parts << QStringLiteral("error %1").arg(errorCategory.toLower());
    if (!eventType.isEmpty())
        parts << QStringLiteral("type %1").arg(eventType);
    if (!errorSignature.isEmpty())
        parts << QStringLiteral("error like \"%1\"").arg(errorSignature);
    if (!payloadContains.isEmpty())
        parts << QStringLiteral("payload containing %1").arg(payloadContains);
    return parts.join(QStringLiteral(", "));
}

QString EventFilter::stateName(State state)
{
    for (const auto &[value, name] : stateNameList()) {
        if (value == state)
            return QString::fromLatin1(name);
    }
    return {};
}

std::optional<EventFilter::State> EventFilter::stateFromName(const QString &name)
{
    for (const auto &[value, text] : stateNameList()) {
        if (name.compare(QLatin1String(text), Qt::CaseInsensitive) == 0)
            return value;
    }
    return std::nullopt;
}

QString EventFilter::whereClause(const SqlDialect &dialect) const
{
    QStringList conditions;
    if (state != State::Any)
        conditions << stateCondition(state);
    if (!search.isEmpty())
        conditions << (searchMode == SearchMode::IdPrefix
                ? idRange(dialect, idsInCCollation, !prefixUpperBound(search).isEmpty())
                : containsCondition(dialect));
    if (minFailures > 0)
        conditions << QStringLiteral("failures >= :f_failures");
    // Age = now - created_at, so an age range is a created_at range: the index stays usable.
    if (minAgeMs)
        conditions << QStringLiteral("created_at <= :f_created_max");
    if (maxAgeMs)
        conditions << QStringLiteral("created_at >= :f_created_min");
    if (!errorCategory.isEmpty())
        conditions << QStringLiteral("last_error_category = :f_category");
    if (!eventType.isEmpty())
        conditions << QStringLiteral("event_type = :f_type");
    if (!errorSignature.isEmpty())
        conditions << u"status IN ('PENDING', 'DEAD') AND LOWER(last_error) LIKE :f_signature"_qs
                + dialect.likeEscapeClause();
    if (!payloadContains.isEmpty()) {
        SqlDialect::BoundValues values;
        conditions << payloadCondition(payloadContains, dialect, &values);
    }
    return conditions.isEmpty() ? QStringLiteral("1 = 1")
                                : conditions.join(QStringLiteral(" AND "));
}

void EventFilter::bindValues(QSqlQuery &query, qint64 now, const SqlDialect &dialect) const
{
    if (usesNow(state))
        query.bindValue(QStringLiteral(":f_now1"), now);
    if (!search.isEmpty() && searchMode == SearchMode::IdPrefix) {
        const QString upper = prefixUpperBound(search);
        query.bindValue(QStringLiteral(":f_id_from"), search);
        if (!upper.isEmpty())
            query.bindValue(QStringLiteral(":f_id_to"), upper);
    } else if (!search.isEmpty()) {
        for (int i = 1; i <= 5; ++i)
            query.bindValue(QStringLiteral(":f_search%1").arg(i), likePattern(search));
    }
    if (minFailures > 0)
        query.bindValue(QStringLiteral(":f_failures"), minFailures);
    if (minAgeMs)
        query.bindValue(QStringLiteral(":f_created_max"), now - *minAgeMs);
    if (maxAgeMs)
        query.bindValue(QStringLiteral(":f_created_min"), now - *maxAgeMs);
    if (!errorCategory.isEmpty())
        query.bindValue(QStringLiteral(":f_category"), errorCategory);
    if (!eventType.isEmpty())
        query.bindValue(QStringLiteral(":f_type"), eventType);
    if (!errorSignature.isEmpty())
        query.bindValue(QStringLiteral(":f_signature"), signaturePattern(errorSignature));
    if (!payloadContains.isEmpty()) {
        SqlDialect::BoundValues values;
        payloadCondition(payloadContains, dialect, &values);
        for (const auto &[name, value] : values)
            query.bindValue(name, value);
    }
}
