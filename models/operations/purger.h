// Retention for a live outbox: deletes settled events (DELIVERED, and RESOLVED where the schema
// has it) older than a cutoff, with their delivery_attempt, replay_log and resolve_log rows, in
// short transactions of at most `batch` events each. A batch is found through the index on
// (created_at, event_id) by keyset, locked with FOR UPDATE SKIP LOCKED on PostgreSQL (a row
// some other transaction holds is left for the next run, never waited for), and deleted children
// first; so a purge never blocks the relay for longer than one batch, and killing it loses at
// most the batch in flight, which rolls back. Rerunning finds only what is left. PENDING and
// DEAD rows are never selected: only the settled states below are accepted.
#pragma once

#include <QList>
#include <QMap>
#include <QSqlDatabase>
#include <QString>
#include <QStringList>
#include <functional>

class QJsonObject;
class SqlDialect;

struct PurgeRule
{
    QString status; // DELIVERED or RESOLVED
    // Rows whose delivered_at (created_at when it is NULL) is more than this before `now`.
    qint64 olderThanMs = 0;
};

struct PurgeRequest
{
    QList<PurgeRule> rules;
    qint64 now = 0;
    int batch = 1000; // events per transaction
    bool dryRun = false; // count what would go, change nothing
};

struct PurgeResult
{
    QMap<QString, qint64> eventsByStatus; // "DELIVERED" -> events deleted (or that would be)
    QMap<QString, qint64> rowsByTable; // "delivery_attempt" -> rows deleted (or that would be)
    qint64 batches = 0; // transactions committed
    QString error; // set when refused or when the database failed (earlier batches stay done)
};

// A purge planned once: its rules and the `now` their cutoffs count from (the real run executes
// the plan's request, never a later now) and, when counted, what would go by state and table. A
// count by state and cutoff, never a list of IDs: a retention run may cover millions of events.
// `outboxctl purge --dry-run` prints a counted plan; the real run executes an uncounted one.
struct PurgePlan
{
    PurgeRequest request; // rules, now, batch: what Purger::execute runs
    bool counted = false;
    PurgeResult counts; // at request.now when counted; its error a refusal or a failed count
    QString refusal; // Purger::refusal(request): nothing runs then

    qint64 count() const; // the events that would go (0 when not counted)
    qint64 cutoff(const QString &status) const; // now minus that state's age
    // {"action":"purge","count":N,"now":MS,"states":{"DELIVERED":{"cutoff":MS,"count":N}},
    // "tables":{"delivery_attempt":N,...},"refusal":null}
    QJsonObject toJson() const;
};

class Purger
{
public:
    explicit Purger(const QSqlDatabase &db);

    static QStringList purgeableStates(); // DELIVERED, RESOLVED
    static constexpr int MaxBatch = 100000;

    // Called after each committed batch with the totals so far (not in a dry run).
    void setProgress(std::function<void(const PurgeResult &)> progress)
    {
        m_progress = std::move(progress);
    }

    // Why the request cannot run (empty when it can): an unknown or unsettled state, a
    // negative age, a batch out of range.
    QString refusal(const PurgeRequest &request) const;
    PurgeResult purge(const PurgeRequest &request);
    // The plan of `request` at its now, counted (a dry run of it) when `count` is set.
    PurgePlan plan(const PurgeRequest &request, bool count);
    // Runs the plan's request for real; refused (the result's error) when the plan is.
    PurgeResult execute(const PurgePlan &plan);

private:
    bool tableExists(const QString &table) const;
    QStringList childTables() const;
    bool countRule(const PurgeRule &rule, qint64 now, PurgeResult *result);
    bool purgeRule(const PurgeRule &rule, qint64 now, int batch, PurgeResult *result);
    // One transaction: up to `batch` events after the keyset position, deleted with their
    // children. Returns the number of events deleted, -1 on error; moves the position on.
    qint64 purgeBatch(const PurgeRule &rule, qint64 cutoff, int batch, qint64 *afterCreated,
        QString *afterId, PurgeResult *result);

    QSqlDatabase m_db;
    const SqlDialect *m_dialect = nullptr;
    std::function<void(const PurgeResult &)> m_progress;
};
