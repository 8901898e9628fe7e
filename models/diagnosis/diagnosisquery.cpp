#include "diagnosisquery.h"

#include "enginestatements.h"
#include "errorsignature.h"
#include "healthgrade.h"
#include "notesaccess.h"
#include "numbertext.h"
#include "saturating.h"
#include "sourcereader.h"
#include "sqldialect.h"
#include "thresholdwords.h"
#include "timeformat.h"

#include <QElapsedTimer>
#include <QMap>
#include <QRegularExpression>
#include <QSqlQuery>
#include <cmath>

namespace {

using Column = OutboxProfile::Column;
using Engine = OutboxProfile::Engine;
using Severity = Finding::Severity;

struct Context
{
    SourceReader &reader;
    qint64 now;
    const DiagnosisThresholds &limits;
    DiagnosisResult *result;
    DiagnosisQuery::BlockedMemo *memo; // null: read every rule
};

int percent(qint64 part, qint64 whole)
{
    return whole > 0 ? int(std::lround(100.0 * double(part) / double(whole))) : 0;
}

void notChecked(Context &context, const QString &code, const QString &reason)
{
    context.result->notChecked << code;
    context.result->notCheckedReasons.insert(code, reason);
}

void add(Context &context, Finding finding)
{
    context.result->findings.append(std::move(finding));
}

// A finding whose advice each surface words itself (Advice): `action` holds outboxctl's words,
// as the JSON gives them.
void add(Context &context, Finding finding, const Advice &advice)
{
    finding.advice = advice;
    finding.advice.can = OutboxCapabilities::of(context.reader.profile());
    finding.action = finding.advice.phrase(Advice::Surface::Cli);
    add(context, std::move(finding));
}

// The PENDING facts three rules need, from one pass over the PENDING index: the events due
// for long (relay_stalled), the claimed ones whose lease expired long ago
// (lease_expired_unclaimed) and the ones due far ahead (future_schedule).
struct PendingFacts
{
    qint64 stalledDue = 0;
    qint64 oldestDue = 0;
    qint64 expired = 0;
    qint64 oldestExpired = 0;
    qint64 farAhead = 0;
    qint64 farthest = 0;
};

bool readPending(Context &c, PendingFacts *facts)
{
    const qint64 stalled = Saturating::sub(c.now, c.limits.stalledDueMs);
    const qint64 expired = Saturating::sub(c.now, c.limits.leaseExpiredMs);
    const qint64 ahead = Saturating::add(c.now, c.limits.futureScheduleMs);
    // clang-format off
    QSqlQuery *query = c.reader.run(
        u"SELECT COUNT(CASE WHEN claim_token IS NULL AND next_attempt_at < :stalled1 THEN 1 END),"
        "        MIN(CASE WHEN claim_token IS NULL AND next_attempt_at < :stalled2"
        "                 THEN next_attempt_at END),"
        "        COUNT(CASE WHEN claim_token IS NOT NULL AND lease_until < :expired1 THEN 1 END),"
        "        MIN(CASE WHEN claim_token IS NOT NULL AND lease_until < :expired2"
        "                 THEN lease_until END),"
        "        COUNT(CASE WHEN next_attempt_at > :ahead1 THEN 1 END),"
        "        MAX(CASE WHEN next_attempt_at > :ahead2 THEN next_attempt_at END)"
        " FROM "_qs + c.reader.sourceUsing(u"delivery_outbox_pending"_qs)
        + u" WHERE status = 'PENDING'"_qs,
        {{u":stalled1"_qs, stalled}, {u":stalled2"_qs, stalled}, {u":expired1"_qs, expired},
            {u":expired2"_qs, expired}, {u":ahead1"_qs, ahead}, {u":ahead2"_qs, ahead}});
    // clang-format on
    if (!query || !query->next())
        return false;
    *facts = {query->value(0).toLongLong(), query->value(1).toLongLong(),
        query->value(2).toLongLong(), query->value(3).toLongLong(), query->value(4).toLongLong(),
        query->value(5).toLongLong()};
    return true;
}

// relay_stalled: due for long, and nothing finished lately (or, without attempt history, due
// for longer than the whole window).
bool relayStalled(Context &c, const PendingFacts &facts)
{
    c.result->checked << DiagnosisCode::RelayStalled;
    const qint64 count = facts.stalledDue;
    if (count == 0)
        return true;
    const qint64 oldestDue = facts.oldestDue;
    QVariantMap evidence {{u"due_events"_qs, count},
        {u"oldest_due_ms"_qs, Saturating::sub(c.now, oldestDue)},
        {u"window_ms"_qs, c.limits.stalledNoAttemptMs}};
    const qint64 windowStart = Saturating::sub(c.now, c.limits.stalledNoAttemptMs);
    QString why;
    if (c.reader.hasAttemptHistory()) {
        QSqlQuery *last = c.reader.run(
            u"SELECT MAX(finished_at) FROM delivery_attempt WHERE finished_at <= :now"_qs,
            {{u":now"_qs, c.now}});
        if (!last || !last->next())
            return false;
        if (!last->value(0).isNull()) {
            const qint64 finished = last->value(0).toLongLong();
            if (finished >= windowStart)
                return true;
            evidence.insert(u"last_attempt_finished_ms"_qs, Saturating::sub(c.now, finished));
        }
        why = QStringLiteral("no attempt has finished in the last %1")
                  .arg(TimeFormat::span(c.limits.stalledNoAttemptMs, c.now));
    } else {
        if (oldestDue >= windowStart)
            return true;
        why = QStringLiteral("the oldest has waited %1")
                  .arg(TimeFormat::span(c.now - oldestDue, c.now));
    }
    add(c,
        {DiagnosisCode::RelayStalled, Severity::Critical, count,
            QStringLiteral("%1 due for more than %2 and %3: the relay is not delivering.")
                .arg(NumberText::counted(count, u"event has been"_qs, u"events have been"_qs),
                    TimeFormat::span(c.limits.stalledDueMs, c.now), why),
            evidence,
            u"Check that the relay is running and can reach the database and the broker; its "
            "log says why it stopped."_qs,
            {}});
    return true;
}

void leaseExpiredUnclaimed(Context &c, const PendingFacts &facts)
{
    if (!c.reader.hasLeases()) {
        notChecked(c, DiagnosisCode::LeaseExpiredUnclaimed, u"the schema has no leases"_qs);
        return;
    }
    c.result->checked << DiagnosisCode::LeaseExpiredUnclaimed;
    const qint64 count = facts.expired;
    if (count == 0)
        return;
    const qint64 oldest = Saturating::sub(c.now, facts.oldestExpired);
    add(c,
        {DiagnosisCode::LeaseExpiredUnclaimed, Severity::Warning, count,
            QStringLiteral("%1 whose lease expired more than %2 ago (the oldest %3 ago) and no "
                           "worker has reclaimed them.")
                .arg(NumberText::counted(count, u"claimed event"_qs, u"claimed events"_qs),
                    TimeFormat::span(c.limits.leaseExpiredMs, c.now),
                    TimeFormat::span(oldest, c.now)),
            {{u"events"_qs, count}, {u"oldest_expired_ms"_qs, oldest},
                {u"grace_ms"_qs, c.limits.leaseExpiredMs}},
            u"The workers that claimed them died or hung; make sure a relay is running, since "
            "any worker reclaims an expired lease on its next poll."_qs,
            {}});
}

// The DEAD rows by event type and error signature: all of them up to deadSampleRows, else
// the newest deadSampleRows (a bounded read of the DEAD index and as many table rows). MySQL:
// named, or InnoDB walks delivery_outbox_created backwards past every newer row (0.5-0.9 s at
// 10M events, against 6 ms).
struct DeadBreakdown
{
    qint64 total = 0;
    qint64 sampled = 0;
    QMap<QString, qint64> byType;
    QMap<QString, qint64> bySignature;

    // A count among the sampled rows, scaled to every DEAD row.
    qint64 scaled(qint64 inSample) const
    {
        if (sampled >= total || sampled == 0)
            return inSample;
        return std::llround(double(inSample) * double(total) / double(sampled));
    }
};

// The DEAD total always; the breakdown by type and signature only when a rule needs it.
bool readDead(Context &c, DeadBreakdown *dead, bool breakdown)
{
    QSqlQuery *total = c.reader.run(
        u"SELECT COUNT(*) FROM "_qs + c.reader.source() + u" WHERE status = 'DEAD'"_qs);
    if (!total || !total->next())
        return false;
    dead->total = total->value(0).toLongLong();
    if (dead->total == 0 || !breakdown)
        return true;
    // clang-format off
    QSqlQuery *groups = c.reader.run(
        u"SELECT event_type, SUBSTR(last_error, 1, :length), COUNT(*)"
        " FROM ("_qs + c.reader.limited(u"SELECT event_type, last_error FROM "_qs
        + c.reader.sourceUsing(u"delivery_outbox_state_created"_qs)
        + u"       WHERE status = 'DEAD' ORDER BY created_at DESC"_qs, u":sample"_qs)
        + u") AS newest GROUP BY 1, 2"_qs,
        {{u":length"_qs, ErrorSignature::ReadLength}, {u":sample"_qs, c.limits.deadSampleRows}});
    // clang-format on
    if (!groups)
        return false;
    while (groups->next()) {
        const qint64 count = groups->value(2).toLongLong();
        dead->sampled += count;
        dead->byType[groups->value(0).toString()] += count;
        if (!groups->value(1).isNull())
            dead->bySignature[ErrorSignature::of(groups->value(1).toString())] += count;
    }
    return true;
}

// PostgreSQL: no parallel workers and no JIT for this transaction, as the health snapshot
// (HealthQuery): for these small aggregates and the window over the unfinished rows their
// start-up costs more than the scan, and workers would take the relay's cores.
bool limitPlanner(SourceReader &reader)
{
    const QString limits = reader.dialect().plannerLimitsSql(SqlDialect::Scope::Transaction);
    return limits.isEmpty() || reader.run(limits) != nullptr;
}

std::pair<QString, qint64> largest(const QMap<QString, qint64> &counts)
{
    std::pair<QString, qint64> best;
    for (auto it = counts.cbegin(); it != counts.cend(); ++it) {
        if (it.value() > best.second)
            best = {it.key(), it.value()};
    }
    return best;
}

bool dominates(qint64 part, qint64 whole, double share, qint64 minimum)
{
    return part >= minimum && double(part) >= share * double(whole);
}

QVariantMap deadEvidence(const DeadBreakdown &dead, qint64 inSample)
{
    QVariantMap evidence {{u"dead"_qs, dead.total}, {u"matching"_qs, dead.scaled(inSample)},
        {u"share_percent"_qs, percent(inSample, dead.sampled)}};
    if (dead.sampled < dead.total) {
        evidence.insert(u"sampled"_qs, dead.sampled);
        evidence.insert(u"matching_in_sample"_qs, inSample);
    }
    return evidence;
}

// "12 of 20 DEAD events (60%)", or "about 5400 of 9802 DEAD events (55% of the newest 2000)"
QString deadShare(const DeadBreakdown &dead, qint64 inSample)
{
    if (dead.sampled >= dead.total)
        return QStringLiteral("%1 of %2 DEAD events (%3%)")
            .arg(NumberText::count(inSample), NumberText::count(dead.total))
            .arg(percent(inSample, dead.total));
    return QStringLiteral("about %1 of %2 DEAD events (%3% of the newest %4)")
        .arg(NumberText::count(dead.scaled(inSample)), NumberText::count(dead.total))
        .arg(percent(inSample, dead.sampled))
        .arg(NumberText::count(dead.sampled));
}

void dominantError(Context &c, const DeadBreakdown &dead)
{
    const auto [signature, count] = largest(dead.bySignature);
    if (!dominates(count, dead.sampled, c.limits.dominantErrorShare, c.limits.dominantErrorMin))
        return;
    add(c,
        {DiagnosisCode::DominantError, Severity::Warning, dead.scaled(count),
            QStringLiteral("%1 share one error: %2").arg(deadShare(dead, count), signature),
            deadEvidence(dead, count), {}, signature},
        {AdviceAction::ReplayErrorGroup, signature});
}

void poisonType(Context &c, const DeadBreakdown &dead)
{
    const auto [type, count] = largest(dead.byType);
    if (!dominates(count, dead.sampled, c.limits.poisonTypeShare, c.limits.poisonTypeMin))
        return;
    add(c,
        {DiagnosisCode::PoisonType, Severity::Warning, dead.scaled(count),
            QStringLiteral("%1 are of one type, %2: its consumer rejects them.")
                .arg(deadShare(dead, count), type),
            deadEvidence(dead, count),
            u"Look at how the consumer handles this event type (a schema or version mismatch "
            "is common) and fix it before replaying these events."_qs,
            type});
}

// " to replay or resolve it": what an operator can do with a DEAD event here.
QString operatorActions(const OutboxCapabilities &can)
{
    if (can.replay && can.resolve)
        return QStringLiteral(" to replay or resolve it");
    if (can.replay || can.resolve)
        return can.replay ? QStringLiteral(" to replay it") : QStringLiteral(" to resolve it");
    return QStringLiteral(" (its library's own tools release it)");
}

// dead_events: the DEAD events judged by the DEAD tile's own limits, so that an amber or red
// DEAD tile is never shown beside "No findings".
void deadEvents(Context &c, qint64 dead)
{
    const TileLimits &tile = c.limits.deadTile;
    const HealthGrade::Level level = HealthGrade::levelOf(dead, tile);
    if (dead == 0 || level == HealthGrade::Level::Normal)
        return;
    const bool red = level == HealthGrade::Level::Red;
    add(c,
        {DiagnosisCode::DeadEvents, red ? Severity::Critical : Severity::Warning, dead,
            QStringLiteral("%1 DEAD (the DEAD tile is %2): each waits for an operator%3.")
                .arg(NumberText::counted(dead, u"event is"_qs, u"events are"_qs),
                    red ? ThresholdWords::redFrom(tile, ThresholdWords::Unit::Count)
                        : u"amber from "_qs + NumberText::count(tile.amber),
                    operatorActions(OutboxCapabilities::of(c.reader.profile()))),
            {{u"dead"_qs, dead}, {u"amber_from"_qs, tile.amber}, {u"red_from"_qs, tile.red}}, {},
            {}},
        {AdviceAction::ReadErrors, {}});
}

bool deadShares(Context &c)
{
    const bool hasDead = c.reader.hasStatus(u"DEAD"_qs);
    const bool hasErrors = hasDead && c.reader.has(Column::LastError);
    const bool hasTypes = hasDead && c.reader.has(Column::EventType);
    if (!hasErrors)
        notChecked(c, DiagnosisCode::DominantError,
            hasDead ? u"the schema has no last_error"_qs : u"the schema has no DEAD state"_qs);
    if (!hasTypes)
        notChecked(c, DiagnosisCode::PoisonType,
            hasDead ? u"the schema has no event_type"_qs : u"the schema has no DEAD state"_qs);
    if (!hasDead) {
        notChecked(c, DiagnosisCode::DeadEvents, u"the schema has no DEAD state"_qs);
        return true;
    }
    DeadBreakdown dead;
    if (!readDead(c, &dead, hasErrors || hasTypes))
        return false;
    c.result->checked << DiagnosisCode::DeadEvents;
    deadEvents(c, dead.total);
    if (hasErrors) {
        c.result->checked << DiagnosisCode::DominantError;
        dominantError(c, dead);
    }
    if (hasTypes) {
        c.result->checked << DiagnosisCode::PoisonType;
        poisonType(c, dead);
    }
    return true;
}

// The bucket is read as its start in ms, without a division: MySQL's `/` gives a decimal.
bool retryHerd(Context &c)
{
    // clang-format off
    QSqlQuery *query = c.reader.run(c.reader.limited(
        u"SELECT next_attempt_at - next_attempt_at % :bucket, COUNT(*), SUM(COUNT(*)) OVER ()"
        " FROM "_qs
        + c.reader.source()
        + u" WHERE status = 'PENDING' AND claim_token IS NULL AND next_attempt_at > :now"
          " GROUP BY 1 ORDER BY 2 DESC, 1"_qs, u"1"_qs),
        {{u":bucket"_qs, c.limits.retryHerdBucketMs}, {u":now"_qs, c.now}});
    // clang-format on
    if (!query)
        return false;
    c.result->checked << DiagnosisCode::RetryHerd;
    if (!query->next())
        return true;
    const qint64 second = query->value(0).toLongLong();
    const qint64 together = query->value(1).toLongLong();
    const qint64 scheduled = query->value(2).toLongLong();
    if (scheduled < c.limits.retryHerdMinScheduled
        || double(together) < c.limits.retryHerdShare * double(scheduled))
        return true;
    add(c,
        {DiagnosisCode::RetryHerd, Severity::Warning, together,
            QStringLiteral("%1 of %2 scheduled events are due within the same second, %3: "
                           "retries synchronised after an outage will hit the consumer at once.")
                .arg(together)
                .arg(scheduled)
                .arg(TimeFormat::relative(second, c.now)),
            {{u"scheduled"_qs, scheduled}, {u"same_second"_qs, together},
                {u"due_in_ms"_qs, Saturating::sub(second, c.now)},
                {u"share_percent"_qs, percent(together, scheduled)}},
            u"Use a jittered retry policy (full-jitter:base=1000,max=60000, or "
            "exponential-random) and replay with --spread 1m, so that retries spread out."_qs,
            {}});
    return true;
}

// The attempts that parked an event DEAD, with their finished_at: the attempt history's DEAD
// attempts (the native schema, or a profile's mapping with an `attempt_outcome`), or, where
// the mapping has none, each DEAD event's newest attempt (SourceReader::infersParkingAttempt).
QString parkingAttempts(const SourceReader &reader)
{
    const QString window = u" WHERE finished_at > :start AND finished_at <= :now"_qs;
    if (reader.hasAttemptHistory())
        return u"delivery_attempt"_qs + window + u" AND outcome = 'DEAD'"_qs;
    if (!reader.infersParkingAttempt())
        return reader.attemptSource() + window + u" AND outcome = 'DEAD'"_qs;
    return u"(SELECT MAX(delivery_attempt.finished_at) AS finished_at FROM "_qs
        + reader.attemptSource() + u" JOIN "_qs + reader.source()
        + u" ON delivery_outbox.event_id = delivery_attempt.event_id"
          u" WHERE delivery_outbox.status = 'DEAD' GROUP BY delivery_attempt.event_id)"
          u" AS parked"_qs
        + window;
}

// Why the DEAD-rising check cannot run here, or empty.
QString deadRisingGap(const SourceReader &reader)
{
    if (reader.hasAttemptHistory())
        return {};
    if (!reader.hasAttemptList())
        return u"needs the attempt history"_qs;
    const int engine = int(reader.dialect().engine());
    if (reader.profile()->attempts().finishedAt.at(engine).isEmpty())
        return u"needs the attempts' times (the profile maps no attempt_finished_at)"_qs;
    return {};
}

bool deadRising(Context &c)
{
    if (const QString gap = deadRisingGap(c.reader); !gap.isEmpty()) {
        notChecked(c, DiagnosisCode::DeadRising, gap);
        return true;
    }
    const qint64 recentStart = Saturating::sub(c.now, c.limits.deadRisingWindowMs);
    const qint64 start = Saturating::sub(recentStart, c.limits.deadRisingBaselineMs);
    // clang-format off
    QSqlQuery *query = c.reader.run(
        u"SELECT COUNT(CASE WHEN finished_at > :recent1 THEN 1 END),"
        "        COUNT(CASE WHEN finished_at <= :recent2 THEN 1 END)"
        " FROM "_qs + parkingAttempts(c.reader),
        {{u":recent1"_qs, recentStart}, {u":recent2"_qs, recentStart}, {u":start"_qs, start},
            {u":now"_qs, c.now}});
    // clang-format on
    if (!query || !query->next())
        return false;
    c.result->checked << DiagnosisCode::DeadRising;
    const qint64 recent = query->value(0).toLongLong();
    const qint64 before = query->value(1).toLongLong();
    const double recentRate = double(recent) / double(c.limits.deadRisingWindowMs);
    const double beforeRate = double(before) / double(c.limits.deadRisingBaselineMs);
    if (recent < c.limits.deadRisingMin || recentRate < c.limits.deadRisingFactor * beforeRate)
        return true;
    add(c,
        {DiagnosisCode::DeadRising, Severity::Warning, recent,
            QStringLiteral("%1 parked DEAD in the last %2, against %3 in the %4 before: the "
                           "failure rate is rising.")
                .arg(NumberText::counted(recent, u"event was"_qs, u"events were"_qs),
                    TimeFormat::span(c.limits.deadRisingWindowMs, c.now), QString::number(before),
                    TimeFormat::span(c.limits.deadRisingBaselineMs, c.now)),
            {{u"recent"_qs, recent}, {u"before"_qs, before},
                {u"window_ms"_qs, c.limits.deadRisingWindowMs},
                {u"baseline_ms"_qs, c.limits.deadRisingBaselineMs}},
            u"Look at the newest DEAD events and their errors: a deployment or a downstream "
            "outage is the usual cause."_qs,
            {}});
    return true;
}

void futureSchedule(Context &c, const PendingFacts &facts)
{
    c.result->checked << DiagnosisCode::FutureSchedule;
    const qint64 count = facts.farAhead;
    if (count == 0)
        return;
    const qint64 farthest = Saturating::sub(facts.farthest, c.now);
    add(c,
        {DiagnosisCode::FutureSchedule, Severity::Warning, count,
            QStringLiteral("%1 due more than %2 ahead (the farthest in %3): a unit mistake "
                           "(seconds for milliseconds) or a skewed clock.")
                .arg(NumberText::counted(count, u"PENDING event is"_qs, u"PENDING events are"_qs),
                    TimeFormat::span(c.limits.futureScheduleMs, c.now),
                    TimeFormat::span(farthest, c.now)),
            {{u"events"_qs, count}, {u"farthest_ms"_qs, farthest},
                {u"limit_ms"_qs, c.limits.futureScheduleMs}},
            u"Find the writer of next_attempt_at (milliseconds since the epoch are expected) "
            "and correct these events' due times."_qs,
            {}});
}

bool createdInFuture(Context &c)
{
    if (!c.reader.has(Column::CreatedAt)) {
        notChecked(c, DiagnosisCode::CreatedInFuture, u"the schema has no created_at"_qs);
        return true;
    }
    // clang-format off
    QSqlQuery *query = c.reader.run(
        u"SELECT COUNT(*), MAX(created_at) FROM "_qs + c.reader.source()
        + u" WHERE created_at > :limit"_qs,
        {{u":limit"_qs, Saturating::add(c.now, c.limits.createdInFutureMs)}});
    // clang-format on
    if (!query || !query->next())
        return false;
    c.result->checked << DiagnosisCode::CreatedInFuture;
    const qint64 count = query->value(0).toLongLong();
    if (count == 0)
        return true;
    const qint64 farthest = Saturating::sub(query->value(1).toLongLong(), c.now);
    add(c,
        {DiagnosisCode::CreatedInFuture, Severity::Warning, count,
            QStringLiteral("%1 more than %2 after now (the farthest by %3): a producer's clock "
                           "is ahead.")
                .arg(NumberText::counted(count, u"event was created"_qs, u"events were created"_qs),
                    TimeFormat::span(c.limits.createdInFutureMs, c.now),
                    TimeFormat::span(farthest, c.now)),
            {{u"events"_qs, count}, {u"farthest_ms"_qs, farthest},
                {u"limit_ms"_qs, c.limits.createdInFutureMs}},
            u"Synchronise the producers' clocks (NTP): ages and age limits are wrong for these "
            "events until then."_qs,
            {}});
    return true;
}

// Whether `word` occurs in `text` as a whole name (case-insensitive): a table of `from`, a
// column of the created_at expression.
bool mentions(const QString &text, const QString &word)
{
    const QRegularExpression name(QStringLiteral("(^|[^A-Za-z0-9_$])%1($|[^A-Za-z0-9_$])")
                                      .arg(QRegularExpression::escape(word)),
        QRegularExpression::CaseInsensitiveOption);
    return name.match(text).hasMatch();
}

// A profile's created_at read from a column the server rewrites on every UPDATE (MySQL's ON
// UPDATE CURRENT_TIMESTAMP, which explicit_defaults_for_timestamp=OFF adds to a table's first
// TIMESTAMP column): each retry or status change makes the event young again. The native
// created_at is a BIGINT, and other engines have no such clause.
bool createdAtOnUpdate(Context &c)
{
    const OutboxProfile *profile = c.reader.profile();
    if (!c.reader.has(Column::CreatedAt)) {
        notChecked(c, DiagnosisCode::CreatedAtOnUpdate, u"the schema has no created_at"_qs);
        return true;
    }
    const QString sql = c.reader.dialect().onUpdateTimestampColumnsSql();
    if (c.reader.isNative() || sql.isEmpty()) {
        c.result->checked << DiagnosisCode::CreatedAtOnUpdate;
        return true;
    }
    QSqlQuery *query = c.reader.run(sql);
    if (!query)
        return false;
    const Engine engine = c.reader.dialect().engine();
    const QString from = profile->from(engine);
    const QString createdAt = profile->expression(Column::CreatedAt, engine);
    QStringList columns;
    QString alter;
    while (query->next()) {
        const QString table = query->value(0).toString();
        const QString column = query->value(1).toString();
        if (!mentions(from, table) || !mentions(createdAt, column))
            continue;
        columns << table + u'.' + column;
        if (alter.isEmpty())
            alter = c.reader.dialect().statements().keepOnUpdateSql(
                table, column, query->value(2).toString());
    }
    c.result->checked << DiagnosisCode::CreatedAtOnUpdate;
    if (columns.isEmpty())
        return true;
    QSqlQuery *unfinished = c.reader.run(u"SELECT COUNT(*) FROM "_qs + c.reader.source()
        + u" WHERE status IN ('PENDING', 'DEAD')"_qs);
    if (!unfinished || !unfinished->next())
        return false;
    const qint64 count = unfinished->value(0).toLongLong();
    add(c,
        {DiagnosisCode::CreatedAtOnUpdate, Severity::Warning, count,
            QStringLiteral("The creation time (created_at) is read from %1, which the server sets "
                           "to the current time on every UPDATE (ON UPDATE CURRENT_TIMESTAMP): "
                           "each retry or status change makes an event young again, so ages and "
                           "age limits are too low (%2).")
                .arg(columns.join(u", "_qs),
                    NumberText::counted(count, u"unfinished event"_qs, u"unfinished events"_qs)),
            {{u"columns"_qs, columns}, {u"events"_qs, count}},
            QStringLiteral("Drop the clause (%1; a server with explicit_defaults_for_timestamp=OFF "
                           "adds it to a table's first TIMESTAMP column), and create the table "
                           "with that setting ON.")
                .arg(alter),
            {}});
    return true;
}

// The unfinished (PENDING, DEAD) rows of each aggregate in creation order: the first one
// blocks the aggregate when it is DEAD or its lease expired while a later one waits. Only
// aggregates with two unfinished rows or more can be blocked, and they are few: `multi` finds
// them in one grouped pass over the keys, and only their rows are numbered. On the native
// schema the partial index delivery_outbox_unfinished_aggregate holds the rows in that order
// with every column read, so both passes read that index alone and nothing is sorted.
bool readBlocked(Context &c, DiagnosisQuery::BlockedMemo *reading)
{
    QElapsedTimer timer;
    timer.start();
    // MySQL: named, or InnoDB reads the rows through delivery_outbox_state_created and fetches
    // each from the table (54 s at 10M events). A semi-join (IN), not a JOIN with `multi`:
    // MariaDB joined the 300,000 unfinished rows with it by a block nested loop without an
    // index (57 s at 10M); the IN subquery is materialized with a unique key (2.8 s).
    // The aggregates are grouped by the dialect's grouping key (MySQL: a hash, 6x faster than
    // grouping the two VARCHAR columns); a hash collision only lets one more aggregate's rows
    // into the numbering, which partitions by the columns themselves.
    const QString unfinished = c.reader.sourceUsing(u"delivery_outbox_unfinished_aggregate"_qs);
    const QString key = c.reader.dialect().groupingKey({u"aggregate_type"_qs, u"aggregate_id"_qs});
    // clang-format off
    QSqlQuery *query = c.reader.run(
        u"WITH multi AS ("
        "    SELECT "_qs + key + u" FROM "_qs + unfinished
        + u"    WHERE status IN ('PENDING', 'DEAD')"
          "    GROUP BY "_qs + key + u" HAVING COUNT(*) > 1)"
          " SELECT COUNT(*), COALESCE(SUM(pending - CASE WHEN status = 'PENDING' THEN 1 ELSE 0 END), 0),"
          "        COUNT(CASE WHEN status = 'DEAD' THEN 1 END)"
          " FROM (SELECT status, claim_token, lease_until,"
          "              ROW_NUMBER() OVER (PARTITION BY aggregate_type, aggregate_id"
          "                                 ORDER BY created_at, event_id) AS position,"
          "              COUNT(CASE WHEN status = 'PENDING' THEN 1 END)"
          "                  OVER (PARTITION BY aggregate_type, aggregate_id) AS pending"
          "       FROM "_qs + unfinished
        + u"       WHERE status IN ('PENDING', 'DEAD')"
          "         AND ("_qs + key + u") IN (SELECT * FROM multi)"
          "      ) AS ordered"
          " WHERE position = 1"
          "   AND (status = 'DEAD' OR (claim_token IS NOT NULL AND lease_until <= :now))"
          "   AND pending - CASE WHEN status = 'PENDING' THEN 1 ELSE 0 END > 0"_qs,
        {{u":now"_qs, c.now}});
    // clang-format on
    if (!query || !query->next())
        return false;
    reading->readAt = c.now;
    reading->costMs = timer.elapsed();
    reading->aggregates = query->value(0).toLongLong();
    reading->waiting = query->value(1).toLongLong();
    reading->byDead = query->value(2).toLongLong();
    return true;
}

bool blockedAggregate(Context &c)
{
    if (!c.reader.has(Column::AggregateId) || !c.reader.has(Column::CreatedAt)) {
        notChecked(
            c, DiagnosisCode::BlockedAggregate, u"the schema has no aggregate_id or created_at"_qs);
        return true;
    }
    DiagnosisQuery::BlockedMemo scratch;
    DiagnosisQuery::BlockedMemo *reading = c.memo ? c.memo : &scratch;
    const bool reused = reading->reusableAt(c.now);
    if (!reused && !readBlocked(c, reading)) {
        *reading = {};
        return false;
    }
    c.result->checked << DiagnosisCode::BlockedAggregate;
    const qint64 aggregates = reading->aggregates;
    if (aggregates == 0)
        return true;
    const qint64 waiting = reading->waiting;
    const qint64 byDead = reading->byDead;
    QVariantMap evidence {{u"aggregates"_qs, aggregates}, {u"waiting_events"_qs, waiting},
        {u"blocked_by_dead"_qs, byDead}, {u"blocked_by_expired_lease"_qs, aggregates - byDead}};
    QString summary
        = QStringLiteral("%1 blocked: the oldest unfinished event is DEAD or past its lease "
                         "while %2 of the same aggregate wait behind it.")
              .arg(NumberText::counted(aggregates, u"aggregate is"_qs, u"aggregates are"_qs),
                  NumberText::counted(waiting, u"later event"_qs, u"later events"_qs));
    if (reused && c.now > reading->readAt) {
        evidence.insert(u"read_ms_ago"_qs, c.now - reading->readAt);
        summary.chop(1);
        summary += QStringLiteral(" (read %1 ago).")
                       .arg(TimeFormat::span(c.now - reading->readAt, c.now));
    }
    add(c,
        {DiagnosisCode::BlockedAggregate, Severity::Warning, aggregates, summary, evidence,
            u"Consumers that need order are stuck: replay or resolve the blocking event of each "
            "aggregate first."_qs,
            {}});
    return true;
}

// The DEAD events an operator's marker covers, counted as acknowledged (where notes are
// available: the native schema at version 3). The dead_events finding says how many; its
// existing words and evidence stay, the count is added. A failed read leaves them unknown.
void acknowledge(const QSqlDatabase &db, const OutboxProfile *profile, DiagnosisResult *result)
{
    OperatorNotes notes = NotesAccess::open(db, profile);
    if (!notes.unavailable().isEmpty())
        return;
    QString error;
    const std::optional<NoteCoverage> coverage = notes.coverage(&error);
    if (!coverage)
        return;
    result->onHold = coverage->onHold.size();
    result->investigating = coverage->investigating.size();
    for (Finding &finding : result->findings) {
        if (finding.code != DiagnosisCode::DeadEvents || result->acknowledged() == 0)
            continue;
        finding.evidence.insert(u"acknowledged"_qs, result->acknowledged());
        finding.evidence.insert(u"on_hold"_qs, result->onHold);
        finding.summary
            += QStringLiteral(" %1 an operator's marker (%2 on hold, "
                              "%3 investigating).")
                   .arg(NumberText::counted(
                            result->acknowledged(), u"of them carries"_qs, u"of them carry"_qs),
                       NumberText::count(result->onHold), NumberText::count(result->investigating));
    }
}

} // namespace

namespace DiagnosisQuery {

std::optional<DiagnosisResult> run(const QSqlDatabase &db, qint64 now, QString *error,
    const OutboxProfile *profile, const DiagnosisThresholds &thresholds, QStringList *trace,
    BlockedMemo *memo)
{
    QString scratch;
    if (!error)
        error = &scratch;
    QElapsedTimer timer;
    timer.start();
    DiagnosisResult result;
    result.now = now;
    {
        SourceReader reader(db, profile);
        if (!reader.isActive()) {
            *error = reader.errorText();
            return std::nullopt;
        }
        reader.setTrace(trace);
        Context context {reader, now, thresholds, &result, memo};
        PendingFacts pending;
        const bool ok = limitPlanner(reader) && readPending(context, &pending)
            && relayStalled(context, pending);
        if (ok) {
            leaseExpiredUnclaimed(context, pending);
            futureSchedule(context, pending);
        }
        if (!ok || !deadShares(context) || !retryHerd(context) || !deadRising(context)
            || !createdInFuture(context) || !createdAtOnUpdate(context)
            || !blockedAggregate(context)) {
            *error = reader.errorText();
            return std::nullopt;
        }
    }
    acknowledge(db, profile, &result);
    // checked and not_checked in the contract's order, whatever order the rules ran in.
    const QStringList order = DiagnosisCode::ordered();
    const auto byContract = [&order](const QString &a, const QString &b) {
        return order.indexOf(a) < order.indexOf(b);
    };
    std::sort(result.checked.begin(), result.checked.end(), byContract);
    std::sort(result.notChecked.begin(), result.notChecked.end(), byContract);
    result.sortFindings();
    result.queryMs = timer.elapsed();
    return result;
}

} // namespace DiagnosisQuery
