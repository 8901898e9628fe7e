#include "policylabworker.h"

#include "enginestatements.h"
#include "schema.h"
#include "sqldialect.h"

#include <QElapsedTimer>
#include <QSqlQuery>
#include <QThread>

StormSetup PolicyLabInput::stormSetup() const
{
    StormSetup setup;
    setup.events = events;
    setup.outageUntil = qint64(outageSeconds) * 1000;
    setup.budget = budget;
    setup.seed = seed;
    setup.bucketWidth = 1000;
    return setup;
}

PolicyLabWorker::PolicyLabWorker(
    std::shared_ptr<const std::atomic<quint64>> newestStorm, QObject *parent)
    : QObject(parent)
    , m_newestStorm(std::move(newestStorm))
{ }

PolicyLabWorker::~PolicyLabWorker() = default;

void PolicyLabWorker::computeSchedules(quint64 requestId, const PolicyLabInput &input)
{
    Q_ASSERT(QThread::currentThread() == thread());
    QList<PolicySchedule> schedules;
    for (const RetryPolicy &policy : input.policies)
        schedules << PolicySchedule::compute(policy, input.budget, input.seed);
    emit schedulesReady(requestId, schedules);
}

void PolicyLabWorker::runStorms(quint64 requestId, const PolicyLabInput &input)
{
    Q_ASSERT(QThread::currentThread() == thread());
    QElapsedTimer timer;
    timer.start();
    QString error;
    QList<StormRun> runs;
    StormSetup setup = input.stormSetup();
    const auto newest = m_newestStorm;
    setup.stopRequested = [newest, requestId] { return newest->load() != requestId; };
    bool ok = ensureScratch(&error);
    for (const RetryPolicy &policy : input.policies) {
        StormRun run;
        if (!ok || !(ok = OutageStorm::run(m_scratch->database(), policy, setup, &run, &error)))
            break;
        runs << run;
    }
    if (!ok && !setup.stopRequested())
        m_scratch.reset(); // a database error: a fresh scratch database next time
    emit stormsReady(requestId, ok ? runs : QList<StormRun>(), timer.elapsed(), error);
}

bool PolicyLabWorker::ensureScratch(QString *error)
{
    if (m_scratch)
        return true;
    QString why;
    const DatabaseUrl url = DatabaseUrl::parse(QStringLiteral("sqlite::memory:"), &why);
    OpenOptions options;
    options.allowCreate = true;
    options.validateSchema = false;
    auto scratch = DbConnection::open(url, options, &why);
    if (!scratch || !Schema::create(scratch->database(), &why)) {
        *error = QStringLiteral("the scratch database could not be made: ") + why;
        return false;
    }
    // Less time per attempt without a rollback journal (EngineStatements::scratchSessionSql).
    // The storm's transactions roll back only before they write (a refused claim or failure);
    // after a database error the scratch database is thrown away (runStorms), so nothing
    // half-written is ever read.
    for (const QString &statement : scratch->dialect().statements().scratchSessionSql())
        QSqlQuery(scratch->database()).exec(statement);
    m_scratch = std::move(scratch);
    return true;
}
