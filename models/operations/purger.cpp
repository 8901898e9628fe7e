#include "purger.h"

#include "enginestatements.h"
#include "queryerror.h"
#include "saturating.h"
#include "sqldialect.h"
#include "sqltransaction.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlQuery>
#include <QVariant>
#include <limits>

namespace {

// The rows a rule removes: settled in `status`, and older than the cutoff by delivered_at
// (created_at when there is none). created_at < cutoff adds nothing for a row delivered after
// it was created, and lets the (created_at, event_id) index bound the walk.
// clang-format off
const char matchingRows[] =
    " status = :status AND created_at < :cutoff1"
    " AND COALESCE(delivered_at, created_at) < :cutoff2";
// clang-format on

void bindRule(QSqlQuery &query, const PurgeRule &rule, qint64 cutoff)
{
    query.bindValue(QStringLiteral(":status"), rule.status);
    query.bindValue(QStringLiteral(":cutoff1"), cutoff);
    query.bindValue(QStringLiteral(":cutoff2"), cutoff);
}

} // namespace

qint64 PurgePlan::count() const
{
    qint64 events = 0;
    for (const qint64 n : counts.eventsByStatus)
        events += n;
    return events;
}

qint64 PurgePlan::cutoff(const QString &status) const
{
    for (const PurgeRule &rule : request.rules) {
        if (rule.status == status)
            return Saturating::sub(request.now, rule.olderThanMs);
    }
    return std::numeric_limits<qint64>::min();
}

QJsonObject PurgePlan::toJson() const
{
    QJsonObject states, tables;
    for (const PurgeRule &rule : request.rules)
        states.insert(rule.status,
            QJsonObject {{u"cutoff"_qs, cutoff(rule.status)},
                {u"count"_qs,
                    counted ? QJsonValue(counts.eventsByStatus.value(rule.status))
                            : QJsonValue()}});
    for (auto it = counts.rowsByTable.cbegin(); it != counts.rowsByTable.cend(); ++it)
        tables.insert(it.key(), it.value());
    return {{u"action"_qs, u"purge"_qs},
        {u"count"_qs, counted ? QJsonValue(count()) : QJsonValue()}, {u"now"_qs, request.now},
        {u"states"_qs, states}, {u"tables"_qs, tables},
        {u"refusal"_qs, refusal.isEmpty() ? QJsonValue() : QJsonValue(refusal)}};
}

Purger::Purger(const QSqlDatabase &db)
    : m_db(db)
    , m_dialect(&SqlDialect::of(db))
{ }

QStringList Purger::purgeableStates()
{
    return {QStringLiteral("DELIVERED"), QStringLiteral("RESOLVED")};
}

QString Purger::refusal(const PurgeRequest &request) const
{
    if (request.rules.isEmpty())
        return QStringLiteral("nothing to purge: name a state and an age");
    for (const PurgeRule &rule : request.rules) {
        if (!purgeableStates().contains(rule.status))
            return QStringLiteral("only settled events can be purged (%1), never %2")
                .arg(purgeableStates().join(QStringLiteral(", ")), rule.status);
        if (rule.olderThanMs < 0)
            return QStringLiteral("the age of %1 events cannot be negative").arg(rule.status);
    }
    if (request.batch < 1 || request.batch > MaxBatch)
        return QStringLiteral("the batch must hold from 1 to %1 events").arg(MaxBatch);
    return {};
}

bool Purger::tableExists(const QString &table) const
{
    QSqlQuery query(m_db);
    return query.exec(m_dialect->tableExistsSql(table)) && query.next() && query.value(0).toBool();
}

// The tables whose rows reference delivery_outbox: deleted first. resolve_log comes with the
// RESOLVED state (schema version 2), reopen_log with reopen (`outboxctl init` adds it),
// payload_revision with edit and replay (version 3); each is left out where it does not exist yet.
QStringList Purger::childTables() const
{
    QStringList tables = {QStringLiteral("delivery_attempt"), QStringLiteral("replay_log")};
    for (const QString &table : {QStringLiteral("resolve_log"), QStringLiteral("reopen_log"),
             QStringLiteral("payload_revision")}) {
        if (tableExists(table))
            tables << table;
    }
    return tables;
}

PurgeResult Purger::purge(const PurgeRequest &request)
{
    PurgeResult result;
    result.error = refusal(request);
    if (!result.error.isEmpty())
        return result;
    result.rowsByTable.insert(QStringLiteral("delivery_outbox"), 0);
    for (const QString &table : childTables())
        result.rowsByTable.insert(table, 0);
    for (const PurgeRule &rule : request.rules) {
        result.eventsByStatus.insert(rule.status, 0);
        const qint64 cutoff = Saturating::sub(request.now, rule.olderThanMs);
        const bool ok = request.dryRun ? countRule(rule, cutoff, &result)
                                       : purgeRule(rule, cutoff, request.batch, &result);
        if (!ok)
            return result;
    }
    return result;
}

PurgePlan Purger::plan(const PurgeRequest &request, bool count)
{
    PurgePlan plan;
    plan.request = request;
    plan.request.dryRun = false;
    plan.refusal = refusal(request);
    plan.counts.error = plan.refusal;
    if (plan.refusal.isEmpty() && count) {
        PurgeRequest dry = plan.request;
        dry.dryRun = true;
        plan.counts = purge(dry);
        plan.counted = plan.counts.error.isEmpty();
    }
    return plan;
}

PurgeResult Purger::execute(const PurgePlan &plan)
{
    if (!plan.refusal.isEmpty()) {
        PurgeResult refused;
        refused.error = plan.refusal;
        return refused;
    }
    return purge(plan.request);
}

bool Purger::countRule(const PurgeRule &rule, qint64 cutoff, PurgeResult *result)
{
    const QString events
        = u"SELECT event_id FROM delivery_outbox WHERE"_qs + QLatin1String(matchingRows);
    const QStringList tables = result->rowsByTable.keys();
    for (const QString &table : tables) {
        // Table names are this schema's own, never user text.
        const QString sql = table == QLatin1String("delivery_outbox")
            ? QString(
                u"SELECT COUNT(*) FROM delivery_outbox WHERE"_qs + QLatin1String(matchingRows))
            : QString(u"SELECT COUNT(*) FROM "_qs + table + u" WHERE event_id IN ("_qs + events
                + u")"_qs);
        QSqlQuery query(m_db);
        query.prepare(sql);
        bindRule(query, rule, cutoff);
        if (!query.exec() || !query.next()) {
            result->error = QStringLiteral("counting %1: %2").arg(table, QueryError::text(query));
            return false;
        }
        const qint64 rows = query.value(0).toLongLong();
        result->rowsByTable[table] += rows;
        if (table == QLatin1String("delivery_outbox"))
            result->eventsByStatus[rule.status] += rows;
    }
    return true;
}

bool Purger::purgeRule(const PurgeRule &rule, qint64 cutoff, int batch, PurgeResult *result)
{
    qint64 afterCreated = std::numeric_limits<qint64>::min();
    QString afterId;
    for (;;) {
        const qint64 deleted = purgeBatch(rule, cutoff, batch, &afterCreated, &afterId, result);
        if (deleted < 0)
            return false;
        if (deleted == 0)
            return true;
        if (m_progress)
            m_progress(*result);
    }
}

qint64 Purger::purgeBatch(const PurgeRule &rule, qint64 cutoff, int batch, qint64 *afterCreated,
    QString *afterId, PurgeResult *result)
{
    SqlTransaction transaction(m_db);
    if (!transaction.isActive()) {
        result->error = transaction.errorText();
        return -1;
    }
    QSqlQuery select(m_db);
    select.prepare(m_dialect->statements().selectSql({.columns = u"event_id, created_at"_qs,
        .table = u"delivery_outbox"_qs,
        .where = m_dialect->rowComparison(
                     u"created_at"_qs, u"event_id"_qs, u">"_qs, u":afterCreated"_qs, u":afterId"_qs)
            + u" AND"_qs + QLatin1String(matchingRows),
        .orderBy = u"created_at, event_id"_qs,
        .limit = u":batch"_qs,
        .lock = EngineStatements::RowLock::UpdateSkipLocked}));
    select.bindValue(QStringLiteral(":afterCreated"), *afterCreated);
    select.bindValue(QStringLiteral(":afterId"), *afterId);
    bindRule(select, rule, cutoff);
    select.bindValue(QStringLiteral(":batch"), batch);
    if (!select.exec()) {
        result->error
            = QStringLiteral("finding %1 events: %2").arg(rule.status, QueryError::text(select));
        return -1;
    }
    QJsonArray ids;
    while (select.next()) {
        *afterId = select.value(0).toString();
        *afterCreated = select.value(1).toLongLong();
        ids.append(*afterId);
    }
    select.finish();
    if (ids.isEmpty())
        return 0;
    const QString idJson = QString::fromUtf8(QJsonDocument(ids).toJson(QJsonDocument::Compact));

    QMap<QString, qint64> deleted;
    const QStringList tables = result->rowsByTable.keys();
    for (const QString &table : tables) {
        if (table != QLatin1String("delivery_outbox"))
            deleted.insert(table, 0);
    }
    QStringList order = deleted.keys();
    order << QStringLiteral("delivery_outbox"); // children first, then the events
    for (const QString &table : order) {
        QSqlQuery remove(m_db);
        const bool events = table == QLatin1String("delivery_outbox");
        // The batch's event IDs as one bound JSON array, expanded by the database: one
        // statement text whatever the batch holds, and no ID ever part of the SQL.
        remove.prepare(u"DELETE FROM "_qs + table + u" WHERE event_id IN ("_qs
            + m_dialect->idSetSelect(u":ids"_qs) + u")"_qs
            + (events ? u" AND status = :status"_qs : QString()));
        remove.bindValue(QStringLiteral(":ids"), idJson);
        if (events)
            remove.bindValue(QStringLiteral(":status"), rule.status);
        if (!remove.exec()) {
            result->error
                = QStringLiteral("deleting from %1: %2").arg(table, QueryError::text(remove));
            return -1;
        }
        deleted.insert(table, remove.numRowsAffected());
    }
    if (!transaction.commit()) {
        result->error = transaction.errorText();
        return -1;
    }
    for (auto it = deleted.cbegin(); it != deleted.cend(); ++it)
        result->rowsByTable[it.key()] += it.value();
    result->eventsByStatus[rule.status] += deleted.value(QStringLiteral("delivery_outbox"));
    ++result->batches;
    return ids.size();
}
