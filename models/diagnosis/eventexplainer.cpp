#include "eventexplainer.h"

#include "attemptlimit.h"
#include "errorgroups.h"
#include "errorsignature.h"
#include "numbertext.h"
#include "saturating.h"
#include "sourcereader.h"
#include "timeformat.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSqlQuery>
#include <QTimeZone>

#include <limits>

namespace {

// What the explanation is built from: the row, and its newest attempt when there is history.
struct Facts
{
    QString status;
    qint64 failures = 0;
    qint64 nextAttemptAt = 0;
    bool claimed = false;
    std::optional<qint64> leaseUntil, createdAt, deliveredAt;
    QString category, lastError, eventType;
    // attempt history
    std::optional<qint64> attempts, lastFailureAt, claimedAt;
    QString worker;
    QList<ExplainedAttempt> attemptList; // oldest first, at most AttemptMapping::ReadLimit
    bool attemptsCut = false;
    std::optional<qint64> attemptLimit; // the event's own, read through a profile
    qint64 otherDeadSameError = -1; // -1: not counted
};

std::optional<qint64> optionalNumber(const QVariant &value)
{
    return value.isNull() ? std::nullopt : std::optional<qint64>(value.toLongLong());
}

bool readRow(SourceReader &reader, const QString &eventId, Facts *facts, QString *error)
{
    // clang-format off
    QSqlQuery *row = reader.run(
        u"SELECT status, failures, next_attempt_at, claim_token, lease_until, created_at,"
        "        delivered_at, last_error_category, last_error, event_type"_qs
        + (reader.hasAttemptLimit() ? u", attempt_limit"_qs : QString())
        + u" FROM "_qs + reader.source() + u" WHERE event_id = :id"_qs,
        {{u":id"_qs, eventId}});
    // clang-format on
    if (!row) {
        *error = reader.errorText();
        return false;
    }
    if (!row->next()) {
        *error = QStringLiteral("no event with ID '%1'").arg(eventId);
        return false;
    }
    facts->status = row->value(0).toString();
    facts->failures = row->value(1).toLongLong();
    facts->nextAttemptAt = row->value(2).toLongLong();
    facts->claimed = !row->value(3).isNull();
    facts->leaseUntil = optionalNumber(row->value(4));
    facts->createdAt = optionalNumber(row->value(5));
    facts->deliveredAt = optionalNumber(row->value(6));
    facts->category = row->value(7).toString();
    facts->lastError = row->value(8).toString();
    facts->eventType = row->value(9).toString();
    if (reader.hasAttemptLimit())
        facts->attemptLimit = optionalNumber(row->value(10));
    return true;
}

// The newest attempts (at most AttemptMapping::ReadLimit), newest first from the database.
bool readHistory(SourceReader &reader, const QString &eventId, Facts *facts, QString *error)
{
    // clang-format off
    QSqlQuery *rows = reader.run(reader.limited(
        u"SELECT attempt_no, worker, claimed_at, finished_at, outcome, error_message"
        " FROM "_qs + reader.attemptSource(u":id"_qs) + u" WHERE event_id = :id"
        " ORDER BY attempt_no DESC"_qs, u":limit"_qs),
        {{u":id"_qs, eventId}, {u":limit"_qs, AttemptMapping::ReadLimit + 1}});
    // clang-format on
    if (!rows) {
        *error = reader.errorText();
        return false;
    }
    while (rows->next()) {
        if (facts->attemptList.size() == AttemptMapping::ReadLimit) {
            facts->attemptsCut = true;
            break;
        }
        const bool newest = facts->attemptList.isEmpty();
        const QString read = rows->value(4).toString();
        const QString outcome = newest ? reader.newestOutcome(read, facts->status) : read;
        const std::optional<qint64> finished = optionalNumber(rows->value(3));
        if (newest) {
            facts->worker = rows->value(1).toString();
            facts->claimedAt = optionalNumber(rows->value(2));
        }
        if (finished && (outcome == u"RETRY"_qs || outcome == u"DEAD"_qs))
            facts->lastFailureAt = std::max(facts->lastFailureAt.value_or(*finished), *finished);
        facts->attemptList.prepend({rows->value(0).toLongLong(), finished, outcome,
            rows->value(5).toString(), rows->value(1).toString()});
    }
    if (!facts->attemptsCut)
        facts->attempts = facts->attemptList.size();
    return true;
}

QString derivedState(const Facts &facts, qint64 now)
{
    if (facts.status != QLatin1String("PENDING"))
        return facts.status;
    if (facts.claimed)
        return facts.leaseUntil && *facts.leaseUntil <= now ? u"LEASE_EXPIRED"_qs : u"IN_FLIGHT"_qs;
    return facts.nextAttemptAt <= now ? u"DUE"_qs : u"SCHEDULED"_qs;
}

QString shortError(const QString &message)
{
    const QString text = message.simplified();
    return text.size() <= 60 ? text : text.left(59) + QChar(0x2026);
}

// "transient failure 2 of budget 4 at 09:02:55 (broker unavailable)"
QString failureClause(const Facts &facts, qint64 now, const ExplainOptions &options)
{
    QString clause
        = facts.category.isEmpty() ? u"failure"_qs : facts.category.toLower() + u" failure"_qs;
    clause += u" "_qs + QString::number(facts.failures);
    if (const auto limit = AttemptLimit::of(options.budget, facts.attemptLimit).value())
        clause += QStringLiteral(" of budget %1").arg(*limit);
    if (facts.lastFailureAt)
        clause += u" at "_qs + EventExplainer::clockTime(*facts.lastFailureAt, now);
    if (!facts.lastError.isEmpty())
        clause += u" ("_qs + shortError(facts.lastError) + u")"_qs;
    return clause;
}

QString claimer(const Facts &facts, qint64 now)
{
    const QString who = facts.worker.isEmpty() ? u"a worker"_qs : facts.worker;
    if (!facts.claimedAt)
        return who + u" claimed it"_qs;
    return who + u" claimed it at "_qs + EventExplainer::clockTime(*facts.claimedAt, now);
}

QString scheduled(const Facts &facts, qint64 now, const ExplainOptions &options)
{
    QString text = u"Scheduled: "_qs;
    if (facts.failures > 0)
        text += failureClause(facts, now, options) + u"; due again at "_qs;
    else
        text += u"not attempted yet; due at "_qs;
    text += EventExplainer::clockTime(facts.nextAttemptAt, now) + u", "_qs
        + TimeFormat::relative(facts.nextAttemptAt, now);
    if (options.policy && facts.failures > 0)
        text += u", under "_qs + options.policy->spec();
    return text;
}

QString due(const Facts &facts, qint64 now, const ExplainOptions &options)
{
    QString text = u"Due: "_qs;
    if (facts.failures > 0)
        text += failureClause(facts, now, options) + u"; "_qs;
    // A profile whose schema keeps no due time for a row it does not hold back maps it to 0.
    if (facts.nextAttemptAt <= 0)
        return text + u"due (the schema keeps no due time for it); waiting for a worker"_qs;
    text += u"due since "_qs + EventExplainer::clockTime(facts.nextAttemptAt, now) + u", "_qs
        + TimeFormat::relative(facts.nextAttemptAt, now) + u"; waiting for a worker"_qs;
    if (Saturating::sub(now, facts.nextAttemptAt) > options.stalledMs)
        text += u" (see: relay stalled)"_qs;
    return text;
}

QString inFlight(const Facts &facts, qint64 now)
{
    QString text = u"In flight: "_qs + claimer(facts, now);
    // A profile's claim without a lease reads the largest BIGINT as its lease: none to tell.
    if (facts.leaseUntil && *facts.leaseUntil != std::numeric_limits<qint64>::max())
        text += u"; the lease ends at "_qs + EventExplainer::clockTime(*facts.leaseUntil, now)
            + u", "_qs + TimeFormat::relative(*facts.leaseUntil, now);
    return text;
}

QString leaseExpired(const Facts &facts, qint64 now, const ExplainOptions &options)
{
    const qint64 ended = facts.leaseUntil.value_or(now);
    QString text = u"In flight past its lease: "_qs + claimer(facts, now)
        + u", the lease ended at "_qs + EventExplainer::clockTime(ended, now)
        + u"; any worker may reclaim it \u2014 none has for "_qs
        + TimeFormat::span(Saturating::sub(now, ended), now);
    if (Saturating::sub(now, ended) > options.stalledMs)
        text += u" (see: relay stalled)"_qs;
    return text;
}

// "attempts 3 / 3 spent", "attempts 3 / limit unknown": the limit is the operator's --budget,
// else the event's own (a profile's attempt_limit), never the failure count.
QString spent(const Facts &facts, const ExplainOptions &options)
{
    const AttemptLimit limit = AttemptLimit::of(options.budget, facts.attemptLimit);
    return limit.usage(facts.failures) + (limit.isKnown() ? u" spent"_qs : QString());
}

QString dead(const Facts &facts, const ExplainOptions &options)
{
    QString text = u"DEAD: "_qs;
    text += facts.category == QLatin1String("PERMANENT")
        ? QStringLiteral("parked after failure %1").arg(facts.failures)
        : spent(facts, options);
    if (facts.lastError.isEmpty())
        text += u"; no error was recorded"_qs;
    else
        text += u"; the last error was "_qs
            + (facts.category.isEmpty() ? QString() : facts.category + u" "_qs) + u"("_qs
            + shortError(facts.lastError) + u")"_qs;
    if (facts.otherDeadSameError > 0)
        text += QStringLiteral("; %1 other DEAD %2 this error")
                    .arg(NumberText::count(facts.otherDeadSameError))
                    .arg(facts.otherDeadSameError == 1 ? u"event shares"_qs : u"events share"_qs);
    return text; // the advice (Advice: replay it) each surface words itself
}

QString delivered(const Facts &facts, qint64 now)
{
    QString text = u"Delivered"_qs;
    if (facts.deliveredAt)
        text += u" at "_qs + EventExplainer::clockTime(*facts.deliveredAt, now);
    if (facts.failures > 0)
        text += QStringLiteral(" after %1 %2")
                    .arg(facts.failures)
                    .arg(facts.failures == 1 ? u"failure"_qs : u"failures"_qs);
    if (facts.deliveredAt && facts.createdAt)
        text += u", "_qs
            + TimeFormat::span(Saturating::sub(*facts.deliveredAt, *facts.createdAt), now)
            + u" after it was created"_qs;
    return text + u"; nothing more will happen to it"_qs;
}

QString sentence(
    const QString &state, const Facts &facts, qint64 now, const ExplainOptions &options)
{
    if (state == QLatin1String("SCHEDULED"))
        return scheduled(facts, now, options);
    if (state == QLatin1String("DUE"))
        return due(facts, now, options);
    if (state == QLatin1String("IN_FLIGHT"))
        return inFlight(facts, now);
    if (state == QLatin1String("LEASE_EXPIRED"))
        return leaseExpired(facts, now, options);
    if (state == QLatin1String("DEAD"))
        return dead(facts, options);
    if (state == QLatin1String("RESOLVED"))
        return u"Resolved: an operator closed it without delivery; nothing more will happen to it"_qs;
    return delivered(facts, now);
}

QVariantMap factsMap(const Facts &facts, const ExplainOptions &options)
{
    QVariantMap map {{u"status"_qs, facts.status}, {u"failures"_qs, facts.failures},
        {u"next_attempt_at"_qs, facts.nextAttemptAt}, {u"claimed"_qs, facts.claimed},
        {u"event_type"_qs, facts.eventType}};
    const auto put = [&map](const QString &key, const std::optional<qint64> &value) {
        if (value)
            map.insert(key, *value);
    };
    put(u"lease_until"_qs, facts.leaseUntil);
    put(u"created_at"_qs, facts.createdAt);
    put(u"delivered_at"_qs, facts.deliveredAt);
    put(u"attempts"_qs, facts.attempts);
    put(u"last_failure_at"_qs, facts.lastFailureAt);
    put(u"claimed_at"_qs, facts.claimedAt);
    if (!facts.category.isEmpty())
        map.insert(u"last_error_category"_qs, facts.category);
    if (!facts.lastError.isEmpty()) {
        map.insert(u"last_error"_qs, facts.lastError);
        map.insert(u"error_signature"_qs, ErrorSignature::of(facts.lastError));
    }
    if (!facts.worker.isEmpty())
        map.insert(u"worker"_qs, facts.worker);
    if (facts.otherDeadSameError >= 0)
        map.insert(u"other_dead_same_error"_qs, facts.otherDeadSameError);
    if (options.budget)
        map.insert(u"budget"_qs, *options.budget);
    put(u"attempt_limit"_qs, facts.attemptLimit);
    if (facts.attemptsCut)
        map.insert(u"attempts_cut"_qs, true);
    if (options.policy)
        map.insert(u"policy"_qs, options.policy->spec());
    return map;
}

bool readFacts(const QSqlDatabase &db, const OutboxProfile *profile, const QString &eventId,
    Facts *facts, QString *error)
{
    SourceReader reader(db, profile);
    if (!reader.isActive()) {
        *error = reader.errorText();
        return false;
    }
    return readRow(reader, eventId, facts, error)
        && (!reader.hasAttemptList() || readHistory(reader, eventId, facts, error));
}

} // namespace

QString EventExplanation::text(Advice::Surface surface) const
{
    return advice.isEmpty() ? explanation : explanation + u" \u2014 "_qs + advice.phrase(surface);
}

QStringList EventExplanation::attemptLines(qint64 now) const
{
    QStringList lines;
    if (attemptsCut)
        lines << QStringLiteral("(only the newest %1 attempts are read)")
                     .arg(AttemptMapping::ReadLimit);
    for (const ExplainedAttempt &attempt : attempts) {
        QString line = QStringLiteral("attempt %1").arg(attempt.number);
        if (attempt.finishedAt)
            line += u" at "_qs + EventExplainer::clockTime(*attempt.finishedAt, now);
        if (!attempt.worker.isEmpty())
            line += u" by "_qs + attempt.worker;
        if (!attempt.outcome.isEmpty())
            line += u": "_qs + attempt.outcome;
        const QString firstLine = attempt.error.section(u'\n', 0, 0).trimmed();
        if (!firstLine.isEmpty())
            line += u" ("_qs + firstLine.left(200) + u")"_qs;
        lines << line;
    }
    return lines;
}

QJsonObject EventExplanation::toJson() const
{
    QJsonObject json {{u"event_id"_qs, eventId}, {u"state"_qs, state},
        {u"explanation"_qs, text(Advice::Surface::Cli)},
        {u"facts"_qs, QJsonObject::fromVariantMap(facts)}};
    QJsonArray list;
    for (const ExplainedAttempt &attempt : attempts) {
        list.append(QJsonObject {{u"attempt"_qs, attempt.number},
            {u"finished_at"_qs,
                attempt.finishedAt ? QJsonValue(*attempt.finishedAt) : QJsonValue()},
            {u"outcome"_qs, attempt.outcome}, {u"error"_qs, attempt.error},
            {u"worker"_qs, attempt.worker}});
    }
    if (!list.isEmpty())
        json.insert(u"attempts"_qs, list);
    if (!advice.isEmpty())
        json.insert(u"advice"_qs, advice.toJson());
    return json;
}

namespace EventExplainer {

QString clockTime(qint64 time, qint64 now)
{
    if (TimeFormat::isLogical(time))
        return QStringLiteral("t=%1").arg(time);
    const QDateTime at = QDateTime::fromMSecsSinceEpoch(time, QTimeZone::utc());
    const QDateTime today = QDateTime::fromMSecsSinceEpoch(now, QTimeZone::utc());
    return at.toString(at.date() == today.date() ? u"HH:mm:ss"_qs : u"yyyy-MM-dd HH:mm:ss"_qs);
}

std::optional<EventExplanation> explain(const QSqlDatabase &db, const QString &eventId, qint64 now,
    QString *error, const OutboxProfile *profile, const ExplainOptions &options)
{
    QString scratch;
    if (!error)
        error = &scratch;
    Facts facts;
    if (!readFacts(db, profile, eventId, &facts, error))
        return std::nullopt;
    const QString state = derivedState(facts, now);
    if (state == QLatin1String("DEAD") && !facts.lastError.isEmpty()) {
        // Another read-only transaction: the one above has ended.
        const std::optional<QStringList> same
            = ErrorGroups::deadEventIds(db, profile, facts.lastError, error);
        if (!same)
            return std::nullopt;
        facts.otherDeadSameError = same->size() - (same->contains(eventId) ? 1 : 0);
    }
    EventExplanation explanation {eventId, state, sentence(state, facts, now, options),
        factsMap(facts, options), {}, facts.attemptList, facts.attemptsCut};
    if (state == QLatin1String("DEAD"))
        explanation.advice = {AdviceAction::ReplayEvent, eventId, OutboxCapabilities::of(profile)};
    return explanation;
}

} // namespace EventExplainer
